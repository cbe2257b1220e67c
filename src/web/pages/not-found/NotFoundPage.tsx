import { Link } from 'react-router';
import { Logo } from '../../components/Logo.tsx';

const NotFoundPage = () => (
  <main className="mx-auto flex min-h-screen max-w-lg flex-col items-center justify-center gap-6 p-8 text-center">
    <Logo size="lg" />
    <h1 className="text-3xl font-bold">Page not found</h1>
    <p className="text-slate-600 dark:text-slate-300">The page you asked for does not exist or has moved.</p>
    <Link
      to="/"
      className="inline-flex min-h-11 items-center rounded-lg bg-brand-600 px-5 font-semibold text-white hover:bg-brand-700"
    >
      Back to the home page
    </Link>
  </main>
);

export default NotFoundPage;
