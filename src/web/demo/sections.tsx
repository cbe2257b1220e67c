import { Plus } from 'lucide-react';
import { useState } from 'react';
import {
  TRANSACTION_FILTERS,
  type TransactionFilter,
  filterTransactions,
  formatDemoDate,
  formatMoney,
  formatMoneyCompact,
  formatSignedMoney,
} from './logic.ts';
import {
  BALANCE_SHEET,
  BENEFITS,
  CASH_FLOW_SUMMARY,
  COMPLIANCE,
  EMPLOYEES,
  GENERAL_LEDGER,
  INCOME_STATEMENT,
  INVENTORY,
  INVENTORY_ALERTS,
  INVOICES,
  JOURNAL_ENTRIES,
  MILESTONES,
  PAYROLL_SUMMARY,
  PIPELINE,
  PROJECTS,
  TEAM_WORKLOAD,
  TRANSACTIONS,
  TRIAL_BALANCE,
  type AlertUrgency,
  type DemoEmployee,
  type DemoInventoryItem,
  type DemoInvoice,
  type DemoTransaction,
  type InvoiceStatus,
  type JournalEntry,
  type LedgerLine,
  type MilestoneStatus,
  type StockStatus,
  type TrialBalanceRow,
} from './sampleData.ts';
import { Button } from '../components/ui/Button.tsx';
import { Alert } from '../components/ui/Card.tsx';
import { Tabs } from './Tabs.tsx';
import {
  AmountStatus,
  Badge,
  Card,
  type DemoColumn,
  DemoTable,
  ListCard,
  ProgressBar,
  Screen,
  StatGrid,
  type Tone,
  TwoLine,
} from './ui.tsx';

// The interactive demo's finance and operations screens, all over the sample data.

/** Debit and credit, blank where zero (ledger lines, trial balance rows). */
const debitCredit = <T extends { debit: number; credit: number }>(): DemoColumn<T>[] => [
  { head: 'Debit', cell: (r) => (r.debit ? formatMoney(r.debit) : ''), className: 'tabular-nums' },
  { head: 'Credit', cell: (r) => (r.credit ? formatMoney(r.credit) : '') },
];

const LEDGER_COLUMNS: DemoColumn<LedgerLine>[] = [
  { head: 'Date', cell: (l) => formatDemoDate(l.date) },
  { head: 'Account', cell: (l) => l.account },
  { head: 'Ref', cell: (l) => l.reference },
  ...debitCredit<LedgerLine>(),
];

const TRIAL_COLUMNS: DemoColumn<TrialBalanceRow>[] = [
  { head: 'Account', cell: (r) => r.account },
  ...debitCredit<TrialBalanceRow>(),
];

const JOURNAL_COLUMNS: DemoColumn<JournalEntry>[] = [
  { head: 'Entry', cell: (j) => j.number },
  { head: 'Date', cell: (j) => formatDemoDate(j.date) },
  { head: 'Memo', cell: (j) => j.memo },
  { head: 'Status', cell: (j) => <Badge tone={j.status === 'posted' ? 'green' : 'slate'}>{j.status}</Badge> },
  { head: 'Amount', cell: (j) => formatMoney(j.amount) },
];

const ACCOUNTING_TABS = [
  { id: 'ledger', label: 'General Ledger' },
  { id: 'trial', label: 'Trial Balance' },
  { id: 'journal', label: 'Journal Entries' },
] as const;

export const AccountingSection = () => {
  const [tab, setTab] = useState<(typeof ACCOUNTING_TABS)[number]['id']>('ledger');
  const grossProfit = INCOME_STATEMENT.revenue - INCOME_STATEMENT.costOfSales;
  const netIncome = grossProfit - INCOME_STATEMENT.operatingExpenses;
  const netCash = CASH_FLOW_SUMMARY.operating + CASH_FLOW_SUMMARY.investing + CASH_FLOW_SUMMARY.financing;
  const tbDebit = TRIAL_BALANCE.reduce((s, r) => s + r.debit, 0);
  const tbCredit = TRIAL_BALANCE.reduce((s, r) => s + r.credit, 0);
  // Each summary card: its title and its lines, the last one (the result) in bold.
  const summaries: [string, [string, string][]][] = [
    [
      'Income statement',
      [
        ['Revenue', formatMoney(INCOME_STATEMENT.revenue)],
        ['Gross profit', formatMoney(grossProfit)],
        ['Net income', formatMoney(netIncome)],
      ],
    ],
    [
      'Balance sheet',
      [
        ['Assets', formatMoney(BALANCE_SHEET.assets)],
        ['Liabilities', formatMoney(BALANCE_SHEET.liabilities)],
        ['Equity', formatMoney(BALANCE_SHEET.equity)],
      ],
    ],
    [
      'Cash flow summary',
      [
        ['Operating', formatSignedMoney(CASH_FLOW_SUMMARY.operating)],
        ['Investing', formatSignedMoney(CASH_FLOW_SUMMARY.investing)],
        ['Net change', formatSignedMoney(netCash)],
      ],
    ],
  ];
  return (
    <div className="space-y-4">
      <div className="grid gap-3 md:grid-cols-3">
        {summaries.map(([title, rows]) => (
          <Card key={title} title={title}>
            <dl className="space-y-1 text-sm">
              {rows.map(([label, value], i) => (
                <Row key={label} label={label} value={value} strong={i === rows.length - 1} />
              ))}
            </dl>
          </Card>
        ))}
      </div>
      <Tabs label="Accounting views" tabs={ACCOUNTING_TABS} active={tab} onSelect={setTab} />
      <Card>
        <div role="tabpanel" aria-label={ACCOUNTING_TABS.find((t) => t.id === tab)?.label}>
          {tab === 'ledger' ? (
            <DemoTable
              caption="General ledger"
              columns={LEDGER_COLUMNS}
              rows={GENERAL_LEDGER}
              rowKey={(l) => `${l.reference}-${l.account}`}
            />
          ) : tab === 'trial' ? (
            <DemoTable
              caption="Trial balance"
              columns={TRIAL_COLUMNS}
              rows={TRIAL_BALANCE}
              rowKey={(r) => r.account}
              total={{ account: 'Total', debit: tbDebit, credit: tbCredit }}
            />
          ) : (
            <DemoTable
              caption="Journal entries"
              columns={JOURNAL_COLUMNS}
              rows={JOURNAL_ENTRIES}
              rowKey={(j) => j.number}
            />
          )}
        </div>
      </Card>
    </div>
  );
};

const Row = ({ label, value, strong = false }: { label: string; value: string; strong?: boolean }) => (
  <div
    className={`flex justify-between gap-2 ${strong ? 'border-t border-slate-200 pt-1 font-semibold dark:border-slate-700' : ''}`}
  >
    <dt className="text-slate-600 dark:text-slate-400">{label}</dt>
    <dd className="tabular-nums">{value}</dd>
  </div>
);

const TRANSACTION_COLUMNS: DemoColumn<DemoTransaction>[] = [
  { head: 'Date', cell: (t) => formatDemoDate(t.date), className: 'whitespace-nowrap' },
  { head: 'Description', cell: (t) => t.description },
  { head: 'Category', cell: (t) => t.category },
  {
    head: 'Amount',
    cell: (t) => formatSignedMoney(t.amount),
    className: (t) =>
      `font-medium ${t.amount > 0 ? 'text-emerald-700 dark:text-emerald-400' : 'text-slate-900 dark:text-slate-100'}`,
  },
];

export const TransactionsSection = () => {
  const [filter, setFilter] = useState<TransactionFilter>('All');
  const rows = filterTransactions(TRANSACTIONS, filter);
  return (
    <Card>
      <fieldset className="mb-3 flex flex-wrap gap-2">
        <legend className="sr-only">Filter transactions</legend>
        {TRANSACTION_FILTERS.map((f) => (
          <button
            key={f}
            type="button"
            aria-pressed={f === filter}
            onClick={() => setFilter(f)}
            className={`min-h-11 rounded-full px-4 text-sm font-medium transition ${
              f === filter
                ? 'bg-slate-900 text-white dark:bg-white dark:text-slate-900'
                : 'bg-slate-100 text-slate-700 hover:bg-slate-200 dark:bg-slate-800 dark:text-slate-200 dark:hover:bg-slate-700'
            }`}
          >
            {f}
          </button>
        ))}
      </fieldset>
      <p className="sr-only" aria-live="polite">
        {rows.length} transactions shown
      </p>
      <DemoTable
        caption="Transactions"
        columns={TRANSACTION_COLUMNS}
        rows={rows}
        rowKey={(t) => t.id}
        rowTestId="demo-transaction"
      />
    </Card>
  );
};

const INVOICE_TONE: Record<InvoiceStatus, Tone> = {
  draft: 'slate',
  sent: 'blue',
  overdue: 'red',
  paid: 'green',
};

const INVOICE_COLUMNS: DemoColumn<DemoInvoice>[] = [
  { head: 'Number', cell: (i) => i.number },
  { head: 'Client', cell: (i) => i.client },
  { head: 'Due', cell: (i) => formatDemoDate(i.due), className: 'whitespace-nowrap' },
  { head: 'Status', cell: (i) => <Badge tone={INVOICE_TONE[i.status]}>{i.status}</Badge> },
  { head: 'Amount', cell: (i) => formatMoney(i.amount) },
];

export const InvoicesSection = () => {
  const [notice, setNotice] = useState(false);
  const outstanding = INVOICES.filter((i) => i.status === 'sent' || i.status === 'overdue').reduce(
    (s, i) => s + i.amount,
    0,
  );
  return (
    <Card
      title={`Outstanding ${formatMoney(outstanding)}`}
      action={
        <Button size="sm" onClick={() => setNotice(true)}>
          <Plus aria-hidden="true" className="size-4" /> New Invoice
        </Button>
      }
    >
      {notice ? (
        <div className="mb-3">
          <Alert tone="info">This is the demo. Start a free trial to create and send real invoices.</Alert>
        </div>
      ) : null}
      <DemoTable caption="Invoices" columns={INVOICE_COLUMNS} rows={INVOICES} rowKey={(i) => i.number} />
    </Card>
  );
};

const EMPLOYEE_COLUMNS: DemoColumn<DemoEmployee>[] = [
  { head: 'Name', cell: (e) => e.name, className: 'font-medium' },
  { head: 'Role', cell: (e) => e.role },
  { head: 'Department', cell: (e) => e.department },
  { head: 'Status', cell: (e) => <Badge tone={e.status === 'Active' ? 'green' : 'amber'}>{e.status}</Badge> },
  { head: 'Salary', cell: (e) => formatMoney(e.salary) },
];

const PAYROLL_STATS = [
  {
    label: `Next run · ${formatDemoDate(PAYROLL_SUMMARY.nextRun)}`,
    value: formatMoneyCompact(PAYROLL_SUMMARY.gross),
  },
  { label: 'Taxes withheld', value: formatMoneyCompact(PAYROLL_SUMMARY.taxes) },
  { label: 'Net pay', value: formatMoneyCompact(PAYROLL_SUMMARY.net) },
  { label: 'Employees paid', value: PAYROLL_SUMMARY.employees },
];

export const PayrollSection = () => (
  <Screen
    lead={
      <>
        <StatGrid stats={PAYROLL_STATS} />
        <Card title="Employees">
          <DemoTable caption="Employees" columns={EMPLOYEE_COLUMNS} rows={EMPLOYEES} rowKey={(e) => e.name} />
        </Card>
      </>
    }
    columns="md:grid-cols-2"
  >
    <ListCard title="Benefits" items={BENEFITS} itemKey={(b) => b.name} layout="pairs">
      {(b) => (
        <>
          <span>
            {b.name} <span className="text-slate-600 dark:text-slate-400">· {b.enrolled} enrolled</span>
          </span>
          <span className="tabular-nums">{formatMoney(b.monthlyCost)}/mo</span>
        </>
      )}
    </ListCard>
    <ListCard title="Compliance" items={COMPLIANCE} itemKey={(c) => c.item} layout="pairs">
      {(c) => (
        <>
          <span>{c.item}</span>
          <Badge tone={c.status === 'Filed' ? 'green' : 'amber'}>{c.status}</Badge>
        </>
      )}
    </ListCard>
  </Screen>
);

export const CrmSection = () => (
  <div className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
    {PIPELINE.map((col) => (
      <section
        key={col.stage}
        aria-label={`${col.stage} stage`}
        className="rounded-xl border border-slate-200 bg-slate-50 p-3 dark:border-slate-800 dark:bg-slate-900/60"
      >
        <h4 className="flex items-center justify-between text-sm font-semibold">
          {col.stage}
          <span className="text-xs font-medium text-slate-600 tabular-nums dark:text-slate-400">
            {formatMoneyCompact(col.deals.reduce((s, d) => s + d.value, 0))}
          </span>
        </h4>
        <ul className="mt-2 space-y-2">
          {col.deals.map((d) => (
            <li key={d.company} className="rounded-lg bg-white p-2.5 text-sm shadow-sm dark:bg-slate-800">
              <p className="font-medium">{d.company}</p>
              <p className="text-xs text-slate-600 tabular-nums dark:text-slate-400">
                {formatMoney(d.value)}
              </p>
            </li>
          ))}
        </ul>
      </section>
    ))}
  </div>
);

const STOCK_TONE: Record<StockStatus, Tone> = {
  'In Stock': 'green',
  'Low Stock': 'amber',
  'Out of Stock': 'red',
};
const URGENCY_TONE: Record<AlertUrgency, Tone> = { high: 'red', medium: 'amber', low: 'blue' };

const INVENTORY_COLUMNS: DemoColumn<DemoInventoryItem>[] = [
  { head: 'Item', cell: (i) => i.item, className: 'font-medium' },
  { head: 'SKU', cell: (i) => i.sku },
  { head: 'Stock', cell: (i) => i.stock, className: 'tabular-nums' },
  { head: 'Reorder at', cell: (i) => i.reorder, className: 'tabular-nums' },
  { head: 'Status', cell: (i) => <Badge tone={STOCK_TONE[i.status]}>{i.status}</Badge> },
  { head: 'Value', cell: (i) => formatMoney(i.value) },
];

export const InventorySection = () => (
  <div className="space-y-4">
    <Card title="Stock">
      <DemoTable caption="Inventory" columns={INVENTORY_COLUMNS} rows={INVENTORY} rowKey={(i) => i.sku} />
    </Card>
    <ListCard title="Alerts" items={INVENTORY_ALERTS} itemKey={(a) => a.message} layout="alerts">
      {(a) => (
        <>
          <span>{a.message}</span>
          <Badge tone={URGENCY_TONE[a.urgency]}>{a.urgency}</Badge>
        </>
      )}
    </ListCard>
  </div>
);

const MILESTONE_TONE: Record<MilestoneStatus, Tone> = {
  'on-track': 'green',
  'at-risk': 'red',
  pending: 'slate',
};

const ProjectsCard = () => (
  <Card title="Projects">
    <ul className="space-y-4">
      {PROJECTS.map((p) => (
        <li key={p.name} data-testid="demo-project">
          <div className="mb-1.5 flex flex-wrap items-baseline justify-between gap-x-3 text-sm">
            <span className="font-medium">
              {p.name} <span className="font-normal text-slate-600 dark:text-slate-400">· {p.client}</span>
            </span>
            <span className="text-xs text-slate-600 tabular-nums dark:text-slate-400">
              {p.progress}% · {formatMoneyCompact(p.budget)} · {p.teamSize} people · due{' '}
              {formatDemoDate(p.deadline)}
            </span>
          </div>
          <ProgressBar value={p.progress} label={`${p.name} progress`} />
        </li>
      ))}
    </ul>
  </Card>
);

export const ProjectsSection = () => (
  <Screen lead={<ProjectsCard />} columns="md:grid-cols-2">
    <ListCard title="Team workload" items={TEAM_WORKLOAD} itemKey={(w) => w.name} layout="stack">
      {(w) => (
        <>
          <div className="mb-1 flex justify-between">
            <span>{w.name}</span>
            <span className="tabular-nums">{w.load}%</span>
          </div>
          <div className="h-2 rounded-full bg-slate-100 dark:bg-slate-800" aria-hidden="true">
            <div className="h-full rounded-full bg-violet-500" style={{ width: `${w.load}%` }} />
          </div>
        </>
      )}
    </ListCard>
    <ListCard title="Milestones" items={MILESTONES} itemKey={(m) => m.name} layout="compact">
      {(m) => (
        <>
          <span>
            {m.name} <span className="text-slate-600 dark:text-slate-400">· {formatDemoDate(m.due)}</span>
          </span>
          <Badge tone={MILESTONE_TONE[m.status]}>{m.status}</Badge>
        </>
      )}
    </ListCard>
  </Screen>
);

/** The demo's Dashboard: the overview plus what needs attention today. */
export const DashboardSection = ({ overview }: { overview: React.ReactNode }) => (
  <Screen lead={overview} columns="lg:grid-cols-2">
    <ListCard
      title="Recent transactions"
      items={TRANSACTIONS.slice(0, 4)}
      itemKey={(t) => t.id}
      layout="rows"
    >
      {(t) => (
        <TwoLine
          title={t.description}
          titleClassName="truncate font-medium"
          detail={`${formatDemoDate(t.date)} · ${t.category}`}
          aside={
            <span
              className={`shrink-0 font-medium tabular-nums ${t.amount > 0 ? 'text-emerald-700 dark:text-emerald-400' : ''}`}
            >
              {formatSignedMoney(t.amount)}
            </span>
          }
        />
      )}
    </ListCard>
    <ListCard
      title="Invoices needing attention"
      items={INVOICES.filter((i) => i.status !== 'paid')}
      itemKey={(i) => i.number}
      layout="rows"
    >
      {(i) => (
        <TwoLine
          title={i.client}
          titleClassName="truncate font-medium"
          detail={`${i.number} · due ${formatDemoDate(i.due)}`}
          aside={
            <AmountStatus amount={formatMoney(i.amount)} tone={INVOICE_TONE[i.status]} status={i.status} />
          }
        />
      )}
    </ListCard>
  </Screen>
);
