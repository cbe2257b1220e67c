import { NavLink } from 'react-router';
import { Logo } from '../../components/Logo.tsx';
import type { AppPage } from '../../router.tsx';

// The shared shell of every private page (SPEC section 2): it receives the page identifier
// equal to the route name. Issues fill in the pages.

const NAV: { page: AppPage; label: string }[] = [
  { page: 'dashboard', label: 'Dashboard' },
  { page: 'transactions', label: 'Transactions' },
  { page: 'invoices', label: 'Invoices' },
  { page: 'wallet', label: 'Wallet' },
  { page: 'accounting', label: 'Accounting' },
  { page: 'billing', label: 'Billing' },
  { page: 'settings', label: 'Settings' },
  { page: 'admin', label: 'Admin' },
];

const AppShell = ({ page }: { page: AppPage }) => (
  <div className="flex min-h-screen">
    <nav aria-label="Main" className="w-56 shrink-0 border-r border-slate-200 p-4 dark:border-slate-800">
      <Logo size="md" />
      <ul className="mt-6 space-y-1">
        {NAV.map((item) => (
          <li key={item.page}>
            <NavLink
              to={`/${item.page}`}
              className={({ isActive }) =>
                `flex min-h-11 items-center rounded-md px-3 text-sm font-medium ${isActive ? 'bg-brand-50 text-brand-700 dark:bg-brand-900/40 dark:text-brand-200' : 'text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800'}`
              }
            >
              {item.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
    <main className="flex-1 p-8" data-page={page}>
      <h1 className="text-2xl font-bold capitalize">{page}</h1>
    </main>
  </div>
);

export default AppShell;
