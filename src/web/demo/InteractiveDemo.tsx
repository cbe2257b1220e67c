import {
  ArrowLeftRight,
  Boxes,
  Calculator,
  ChartLine,
  FileText,
  FolderKanban,
  Handshake,
  LayoutDashboard,
  type LucideIcon,
  Truck,
  Users,
  Wallet,
} from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { AnalyticsPanel, HrPanel, OverviewPanel, SupplyPanel } from './panels.tsx';
import { DEMO_COMPANY, DEMO_FISCAL_YEAR } from './sampleData.ts';
import {
  AccountingSection,
  CrmSection,
  DashboardSection,
  InventorySection,
  InvoicesSection,
  PayrollSection,
  ProjectsSection,
  TransactionsSection,
} from './sections.tsx';

// The landing page's interactive demo (SPEC section 1 and 2, Demo): a sidebar of sections
// grouped by category over fixed sample figures. Loaded lazily, never part of the real app.

type DemoSection = { id: string; label: string; category: string; icon: LucideIcon; Screen: () => ReactNode };

const demoSection = (
  id: string,
  label: string,
  category: string,
  icon: LucideIcon,
  Screen: () => ReactNode,
): DemoSection => ({ id, label, category, icon, Screen });

const DashboardScreen = () => <DashboardSection overview={<OverviewPanel />} />;

/** The sidebar, one section a line: id, label, category, icon and screen. */
const SECTIONS: readonly DemoSection[] = [
  demoSection('dashboard', 'Dashboard', 'Core', LayoutDashboard, DashboardScreen),
  demoSection('accounting', 'Accounting', 'Finance', Calculator, AccountingSection),
  demoSection('transactions', 'Transactions', 'Finance', ArrowLeftRight, TransactionsSection),
  demoSection('invoices', 'Invoices', 'Finance', FileText, InvoicesSection),
  demoSection('payroll', 'Payroll', 'HR', Wallet, PayrollSection),
  demoSection('hr', 'HR Portal', 'HR', Users, HrPanel),
  demoSection('crm', 'CRM', 'Sales', Handshake, CrmSection),
  demoSection('inventory', 'Inventory', 'Operations', Boxes, InventorySection),
  demoSection('projects', 'Projects', 'Operations', FolderKanban, ProjectsSection),
  demoSection('supply', 'Supply Chain', 'Operations', Truck, SupplyPanel),
  demoSection('analytics', 'BI and Analytics', 'Intelligence', ChartLine, AnalyticsPanel),
];

/** The sidebar's groups, in the order their first section comes. */
const CATEGORIES = [...new Set(SECTIONS.map((s) => s.category))];

const InteractiveDemo = () => {
  const [active, setActive] = useState('dashboard');
  const section = SECTIONS.find((s) => s.id === active) ?? SECTIONS[0]!;
  const { Screen } = section;
  return (
    <div
      data-testid="interactive-demo"
      className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-xl shadow-slate-900/5 md:grid md:grid-cols-[15rem_1fr] dark:border-slate-800 dark:bg-slate-950 dark:shadow-black/30"
    >
      <nav
        aria-label="Demo sections"
        className="border-b border-slate-200 bg-slate-50 p-3 md:border-r md:border-b-0 dark:border-slate-800 dark:bg-slate-900/60"
      >
        <p className="hidden px-2 pt-1 pb-3 text-xs font-semibold text-slate-600 md:block dark:text-slate-400">
          {DEMO_COMPANY}
        </p>
        <div className="flex gap-1 overflow-x-auto md:flex-col md:gap-3 md:overflow-visible">
          {CATEGORIES.map((category) => (
            <div key={category} className="flex shrink-0 gap-1 md:flex-col">
              <h3 className="hidden px-2 text-[11px] font-semibold tracking-wider text-slate-600 uppercase md:block dark:text-slate-400">
                {category}
              </h3>
              <ul className="flex gap-1 md:flex-col">
                {SECTIONS.filter((s) => s.category === category).map((s) => {
                  const Icon = s.icon;
                  const current = s.id === active;
                  return (
                    <li key={s.id}>
                      <button
                        type="button"
                        aria-current={current ? 'page' : undefined}
                        onClick={() => setActive(s.id)}
                        className={`flex min-h-11 w-full items-center gap-2.5 rounded-lg px-3 text-sm font-medium whitespace-nowrap transition ${
                          current
                            ? 'bg-white text-brand-700 shadow-sm ring-1 ring-slate-200 dark:bg-slate-800 dark:text-white dark:ring-slate-700'
                            : 'text-slate-700 hover:bg-white hover:text-slate-950 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white'
                        }`}
                      >
                        <Icon aria-hidden="true" className="size-4 shrink-0" />
                        {s.label}
                      </button>
                    </li>
                  );
                })}
              </ul>
            </div>
          ))}
        </div>
      </nav>
      <div className="min-w-0 bg-slate-50/50 p-4 sm:p-6 dark:bg-slate-950">
        <div className="mb-4 flex flex-wrap items-center gap-3">
          <h3 className="text-lg font-semibold text-slate-900 dark:text-white">{section.label}</h3>
          <span className="rounded-full bg-brand-50 px-2.5 py-0.5 text-xs font-semibold text-brand-800 dark:bg-brand-500/15 dark:text-brand-200">
            {DEMO_FISCAL_YEAR}
          </span>
          <span className="text-xs text-slate-600 dark:text-slate-400">{section.category}</span>
          <span className="ml-auto shrink-0 rounded-full bg-amber-100 px-2 py-0.5 text-[11px] font-semibold whitespace-nowrap text-amber-900 dark:bg-amber-500/15 dark:text-amber-200">
            Sample data
          </span>
        </div>
        <div data-section={section.id}>
          <Screen />
        </div>
      </div>
    </div>
  );
};

export default InteractiveDemo;
