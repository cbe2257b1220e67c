import { Link } from 'react-router';
import { Logo } from '../Logo.tsx';
import { useHydrated } from '../../lib/useHydrated.ts';

// The year the web app was built (vite.config.ts): what prerendered HTML shows, so that
// hydration draws the same text; the browser's own year follows right after.
const BUILD_YEAR = Number(import.meta.env.VITE_BUILD_YEAR) || new Date().getFullYear();

const Copyright = () => {
  const year = useHydrated() ? new Date().getFullYear() : BUILD_YEAR;
  return <>© {year} Kontor. All rights reserved.</>;
};

const columns: { title: string; links: { to: string; label: string }[] }[] = [
  {
    title: 'Product',
    links: [
      { to: '/#features', label: 'Features' },
      { to: '/pricing', label: 'Pricing' },
      { to: '/signup', label: 'Start free trial' },
    ],
  },
  {
    title: 'Company',
    links: [
      { to: '/about', label: 'About' },
      { to: '/contact', label: 'Contact' },
    ],
  },
  {
    title: 'Account',
    links: [
      { to: '/login', label: 'Login' },
      { to: '/signup', label: 'Create account' },
    ],
  },
];

export const SiteFooter = () => (
  <footer className="border-t border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-900/40">
    <div className="mx-auto grid max-w-7xl gap-10 px-4 py-14 sm:px-6 md:grid-cols-[1.5fr_repeat(3,1fr)] lg:px-8">
      <div className="max-w-xs">
        <Logo size="md" />
        <p className="mt-3 text-sm leading-6 text-slate-600 dark:text-slate-400">
          Invoices, bills, bank accounts and double-entry books for growing businesses — in one place.
        </p>
      </div>
      {columns.map((col) => (
        <nav key={col.title} aria-label={col.title}>
          <h2 className="text-sm font-semibold text-slate-900 dark:text-white">{col.title}</h2>
          <ul className="mt-3 space-y-1">
            {col.links.map((l) => (
              <li key={l.label}>
                <Link
                  to={l.to}
                  className="inline-flex min-h-11 min-w-11 items-center text-sm text-slate-600 hover:text-slate-950 dark:text-slate-400 dark:hover:text-white"
                >
                  {l.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ))}
    </div>
    <div className="border-t border-slate-200 dark:border-slate-800">
      <p className="mx-auto max-w-7xl px-4 py-6 text-sm text-slate-600 sm:px-6 lg:px-8 dark:text-slate-400">
        <Copyright />
      </p>
    </div>
  </footer>
);
