import {
  ArrowLeftRight,
  BookOpen,
  CreditCard,
  FileText,
  LayoutDashboard,
  Menu,
  Moon,
  Receipt,
  Settings,
  Shield,
  type LucideIcon,
  Sun,
  Wallet,
  X,
} from 'lucide-react';
import { type ComponentType, Suspense, lazy, useMemo, useState } from 'react';
import { NavLink } from 'react-router';
import { VerifyEmailBanner } from '../../auth/EmailVerification.tsx';
import { Logo } from '../../components/Logo.tsx';
import { NotificationBell } from '../../components/NotificationBell.tsx';
import { PageSpinner } from '../../components/Spinner.tsx';
import { Alert } from '../../components/ui/Card.tsx';
import { CompaniesProvider, useCompanies } from '../../lib/company.tsx';
import { useTheme } from '../../lib/theme.tsx';
import { useIsAdmin } from '../admin/useIsAdmin.ts';
import { CreateCompanyOnboarding } from '../onboarding/CreateCompany.tsx';
import { CompanySwitcher } from './CompanySwitcher.tsx';
import { ConnectionStatus } from './ConnectionStatus.tsx';
import { PendingInvitations } from './PendingInvitations.tsx';
import { TrialBanner } from './TrialBanner.tsx';
import type { AppPage } from './pages.ts';
import { UserMenuSlot } from './UserMenuSlot.tsx';

// The shared shell of every private page (SPEC section 2): it receives the page identifier
// equal to the route name and shows that page for the company the user is working in. A
// user without a company is asked to create one first.

const NAV: { page: AppPage; label: string; icon: ComponentType<{ className?: string }> }[] = [
  { page: 'dashboard', label: 'Dashboard', icon: LayoutDashboard },
  { page: 'transactions', label: 'Transactions', icon: ArrowLeftRight },
  { page: 'invoices', label: 'Invoices', icon: FileText },
  { page: 'bills', label: 'Bills', icon: Receipt },
  { page: 'wallet', label: 'Wallet', icon: Wallet },
  { page: 'accounting', label: 'Accounting', icon: BookOpen },
  { page: 'billing', label: 'Billing', icon: CreditCard },
  { page: 'settings', label: 'Settings', icon: Settings },
  { page: 'admin', label: 'Admin', icon: Shield },
];

/** Pages about the platform, not a company: shown to a user who has none yet (a new admin). */
const NO_COMPANY_PAGES: readonly AppPage[] = ['admin'];

// Each page lives at pages/<page>/<Page>Page.tsx and is split into its own chunk.
const PAGE_MODULES = import.meta.glob<{ default: ComponentType }>('../*/*Page.tsx');

const pageLoader = (page: AppPage) => {
  const file = `../${page}/${page.charAt(0).toUpperCase()}${page.slice(1)}Page.tsx`;
  return PAGE_MODULES[file] ?? null;
};

const lazyPages = new Map<AppPage, ComponentType>();
// Pages whose module was loaded before the shell first drew them (`preparePage`): drawn at
// once, with no Suspense fallback in between.
const loadedPages = new Map<AppPage, ComponentType>();

/**
 * Loads the page's module (main.tsx, as a signed-in page starts; the HTML preloads its chunk) so
 * that the shell draws it at once if it is in by then. A mounted page never switches from lazy
 * to loaded: the shell reads pageComponent once per page (useMemo).
 */
export const preparePage = async (page: AppPage) => {
  const loader = pageLoader(page);
  if (loader && !loadedPages.has(page)) loadedPages.set(page, (await loader()).default);
};

const pageComponent = (page: AppPage): ComponentType | null => {
  const loader = pageLoader(page);
  if (!loader) return null;
  const loaded = loadedPages.get(page);
  if (loaded) return loaded;
  let component = lazyPages.get(page);
  if (!component) {
    component = lazy(loader);
    lazyPages.set(page, component);
  }
  return component;
};

export const preloadAppPages = () => {
  for (const item of NAV) void pageLoader(item.page)?.().catch(() => undefined);
};

/** The small screen's menu buttons (open in the header, close in the drawer): 44 px, icon only. */
const MenuButton = ({
  label,
  icon: Icon,
  onClick,
  className = '',
}: {
  label: string;
  icon: LucideIcon;
  onClick: () => void;
  className?: string;
}) => (
  <button
    type="button"
    aria-label={label}
    onClick={onClick}
    className={`inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-lg text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800 ${className}`}
  >
    <Icon className="h-5 w-5" aria-hidden="true" />
  </button>
);

const NotBuiltYet = ({ label }: { label: string }) => (
  <div className="mx-auto max-w-xl py-16 text-center">
    <h1 className="text-2xl font-bold text-slate-900 dark:text-white">{label}</h1>
    <p className="mt-3 text-slate-600 dark:text-slate-300">
      This part of Kontor is not available in this version yet. Everything else in the menu works with your
      real data.
    </p>
  </div>
);

const ThemeToggle = () => {
  const { resolved, toggle } = useTheme();
  return (
    <button
      type="button"
      onClick={toggle}
      aria-label={resolved === 'dark' ? 'Switch to light mode' : 'Switch to dark mode'}
      className="inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-lg text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
    >
      {resolved === 'dark' ? (
        <Sun className="h-5 w-5" aria-hidden="true" />
      ) : (
        <Moon className="h-5 w-5" aria-hidden="true" />
      )}
    </button>
  );
};

/** The menu's items: Admin only for platform admins (GET /api/admin/me). */
const useShownNav = () => {
  const { isAdmin } = useIsAdmin();
  return NAV.filter((item) => item.page !== 'admin' || isAdmin);
};

const NavList = ({ onNavigate }: { onNavigate?: () => void }) => (
  <ul className="space-y-1">
    {useShownNav().map((item) => (
      <li key={item.page}>
        <NavLink
          to={`/${item.page}`}
          onClick={onNavigate}
          className={({ isActive }) =>
            `flex min-h-11 items-center gap-3 rounded-lg px-3 text-sm font-medium transition-colors ${
              isActive
                ? 'bg-brand-50 text-brand-700 dark:bg-brand-900/40 dark:text-brand-200'
                : 'text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800'
            }`
          }
        >
          <item.icon className="h-5 w-5 shrink-0" aria-hidden="true" />
          {item.label}
        </NavLink>
      </li>
    ))}
  </ul>
);

const ShellLayout = ({ page }: { page: AppPage }) => {
  const { current, isLoading, error, refresh, switchTo } = useCompanies();
  const [menuOpen, setMenuOpen] = useState(false);
  const label = NAV.find((n) => n.page === page)?.label ?? page;
  const Page = useMemo(() => pageComponent(page), [page]);

  let content: React.ReactNode;
  if (isLoading) content = <PageSpinner label="Loading your companies..." />;
  else if (error) {
    content = (
      <div className="mx-auto max-w-xl py-10">
        <Alert>Could not load your companies: {error.message} Reload the page to try again.</Alert>
      </div>
    );
  } else if (!current && !NO_COMPANY_PAGES.includes(page)) {
    content = (
      <>
        <PendingInvitations
          onAccepted={async (id) => {
            await refresh();
            switchTo(id);
          }}
        />
        <CreateCompanyOnboarding
          onCreated={async (company) => {
            await refresh();
            switchTo(company.id);
          }}
        />
      </>
    );
  } else {
    content = (
      <>
        <PendingInvitations
          onAccepted={async (id) => {
            await refresh();
            switchTo(id);
          }}
        />
        {Page ? (
          <Suspense fallback={<PageSpinner />}>
            <Page key={current?.id ?? 'no-company'} />
          </Suspense>
        ) : (
          <NotBuiltYet label={label} />
        )}
      </>
    );
  }

  return (
    <div className="flex min-h-screen bg-slate-50 dark:bg-slate-950">
      <a
        href="#main"
        className="sr-only z-50 rounded-lg bg-white px-4 py-2 font-medium focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
      >
        Skip to content
      </a>
      {/* The column carries the background the full page height; the nav inside stays pinned. */}
      <div className="hidden w-60 shrink-0 border-r border-slate-200 bg-white lg:block dark:border-slate-800 dark:bg-slate-900">
        <nav aria-label="Main" className="sticky top-0 flex h-screen flex-col px-3 py-4">
          <div className="px-2">
            <Logo size="md" />
          </div>
          <div className="mt-6 flex-1 overflow-y-auto">
            <NavList />
          </div>
        </nav>
      </div>
      {menuOpen ? (
        <div className="fixed inset-0 z-40 lg:hidden">
          <button
            type="button"
            aria-label="Close menu"
            className="absolute inset-0 bg-slate-950/50"
            onClick={() => setMenuOpen(false)}
          />
          <nav
            aria-label="Main"
            className="absolute inset-y-0 left-0 w-72 overflow-y-auto bg-white p-4 shadow-xl dark:bg-slate-900"
          >
            <div className="mb-6 flex items-center justify-between">
              <Logo size="md" />
              <MenuButton label="Close menu" icon={X} onClick={() => setMenuOpen(false)} />
            </div>
            <NavList onNavigate={() => setMenuOpen(false)} />
          </nav>
        </div>
      ) : null}
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="sticky top-0 z-30 flex h-16 items-center gap-3 border-b border-slate-200 bg-white/90 px-4 backdrop-blur sm:px-6 dark:border-slate-800 dark:bg-slate-900/90">
          <MenuButton label="Open menu" icon={Menu} onClick={() => setMenuOpen(true)} className="lg:hidden" />
          <CompanySwitcher />
          {/* The billing pill arrives with its data: it grows leftwards out of an empty box
              (which no layout shift counts), so the buttons right of it never move. The
              negative margin keeps the pill 4 px from the bell, as in one row. */}
          <div className="-mr-2 ml-auto flex min-w-0 items-center">
            <TrialBanner />
          </div>
          <div className="flex shrink-0 items-center gap-1">
            <NotificationBell />
            <ThemeToggle />
            <UserMenuSlot />
          </div>
        </header>
        <ConnectionStatus />
        <VerifyEmailBanner />
        <main id="main" data-page={page} className="flex-1 px-4 py-6 sm:px-6 lg:px-8">
          {content}
        </main>
      </div>
    </div>
  );
};

const AppShell = ({ page }: { page: AppPage }) => (
  <CompaniesProvider>
    <ShellLayout page={page} />
  </CompaniesProvider>
);

export default AppShell;
