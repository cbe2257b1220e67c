import { Link } from 'react-router';
import { Logo } from '../../components/Logo.tsx';

// Placeholder until the public-website issue builds the landing page.
const LandingPage = () => (
  <main className="mx-auto flex min-h-screen max-w-3xl flex-col items-center justify-center gap-6 p-8 text-center">
    <Logo size="xl" />
    <h1 className="text-4xl font-bold">Business finance, done right</h1>
    <p className="text-lg text-slate-600 dark:text-slate-300">
      Invoices, transactions, bank accounts and double-entry accounting.
    </p>
    <Link
      to="/dashboard"
      className="inline-flex min-h-11 items-center rounded-lg bg-brand-600 px-5 font-semibold text-white"
    >
      Open the app
    </Link>
  </main>
);

export default LandingPage;
