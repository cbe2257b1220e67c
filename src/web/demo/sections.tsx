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
  type InvoiceStatus,
  type MilestoneStatus,
  type StockStatus,
} from './sampleData.ts';
import { Button } from '../components/ui/Button.tsx';
import { Alert } from '../components/ui/Card.tsx';
import { Tabs } from './Tabs.tsx';
import { Badge, Card, DemoTable, ListCard, ProgressBar, Stat, type Tone } from './ui.tsx';

// The interactive demo's finance and operations screens, all over the sample data.

const cell = 'py-2 pr-3';
const num = 'py-2 text-right tabular-nums';

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
  return (
    <div className="space-y-4">
      <div className="grid gap-3 md:grid-cols-3">
        <Card title="Income statement">
          <dl className="space-y-1 text-sm">
            <Row label="Revenue" value={formatMoney(INCOME_STATEMENT.revenue)} />
            <Row label="Gross profit" value={formatMoney(grossProfit)} />
            <Row label="Net income" value={formatMoney(netIncome)} strong />
          </dl>
        </Card>
        <Card title="Balance sheet">
          <dl className="space-y-1 text-sm">
            <Row label="Assets" value={formatMoney(BALANCE_SHEET.assets)} />
            <Row label="Liabilities" value={formatMoney(BALANCE_SHEET.liabilities)} />
            <Row label="Equity" value={formatMoney(BALANCE_SHEET.equity)} strong />
          </dl>
        </Card>
        <Card title="Cash flow summary">
          <dl className="space-y-1 text-sm">
            <Row label="Operating" value={formatSignedMoney(CASH_FLOW_SUMMARY.operating)} />
            <Row label="Investing" value={formatSignedMoney(CASH_FLOW_SUMMARY.investing)} />
            <Row label="Net change" value={formatSignedMoney(netCash)} strong />
          </dl>
        </Card>
      </div>
      <Tabs label="Accounting views" tabs={ACCOUNTING_TABS} active={tab} onSelect={setTab} />
      <Card>
        <div role="tabpanel" aria-label={ACCOUNTING_TABS.find((t) => t.id === tab)?.label}>
          {tab === 'ledger' ? (
            <DemoTable caption="General ledger" head={['Date', 'Account', 'Ref', 'Debit', 'Credit']}>
              {GENERAL_LEDGER.map((l) => (
                <tr key={`${l.reference}-${l.account}`}>
                  <td className={cell}>{formatDemoDate(l.date)}</td>
                  <td className={cell}>{l.account}</td>
                  <td className={cell}>{l.reference}</td>
                  <td className={`${cell} tabular-nums`}>{l.debit ? formatMoney(l.debit) : ''}</td>
                  <td className={num}>{l.credit ? formatMoney(l.credit) : ''}</td>
                </tr>
              ))}
            </DemoTable>
          ) : tab === 'trial' ? (
            <DemoTable caption="Trial balance" head={['Account', 'Debit', 'Credit']}>
              {TRIAL_BALANCE.map((r) => (
                <tr key={r.account}>
                  <td className={cell}>{r.account}</td>
                  <td className={`${cell} tabular-nums`}>{r.debit ? formatMoney(r.debit) : ''}</td>
                  <td className={num}>{r.credit ? formatMoney(r.credit) : ''}</td>
                </tr>
              ))}
              <tr className="font-semibold">
                <td className={cell}>Total</td>
                <td className={`${cell} tabular-nums`}>{formatMoney(tbDebit)}</td>
                <td className={num}>{formatMoney(tbCredit)}</td>
              </tr>
            </DemoTable>
          ) : (
            <DemoTable caption="Journal entries" head={['Entry', 'Date', 'Memo', 'Status', 'Amount']}>
              {JOURNAL_ENTRIES.map((j) => (
                <tr key={j.number}>
                  <td className={cell}>{j.number}</td>
                  <td className={cell}>{formatDemoDate(j.date)}</td>
                  <td className={cell}>{j.memo}</td>
                  <td className={cell}>
                    <Badge tone={j.status === 'posted' ? 'green' : 'slate'}>{j.status}</Badge>
                  </td>
                  <td className={num}>{formatMoney(j.amount)}</td>
                </tr>
              ))}
            </DemoTable>
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
      <DemoTable caption="Transactions" head={['Date', 'Description', 'Category', 'Amount']}>
        {rows.map((t) => (
          <tr key={t.id} data-testid="demo-transaction">
            <td className={`${cell} whitespace-nowrap`}>{formatDemoDate(t.date)}</td>
            <td className={cell}>{t.description}</td>
            <td className={cell}>{t.category}</td>
            <td
              className={`${num} font-medium ${t.amount > 0 ? 'text-emerald-700 dark:text-emerald-400' : 'text-slate-900 dark:text-slate-100'}`}
            >
              {formatSignedMoney(t.amount)}
            </td>
          </tr>
        ))}
      </DemoTable>
    </Card>
  );
};

const INVOICE_TONE: Record<InvoiceStatus, Tone> = {
  draft: 'slate',
  sent: 'blue',
  overdue: 'red',
  paid: 'green',
};

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
      <DemoTable caption="Invoices" head={['Number', 'Client', 'Due', 'Status', 'Amount']}>
        {INVOICES.map((i) => (
          <tr key={i.number}>
            <td className={cell}>{i.number}</td>
            <td className={cell}>{i.client}</td>
            <td className={`${cell} whitespace-nowrap`}>{formatDemoDate(i.due)}</td>
            <td className={cell}>
              <Badge tone={INVOICE_TONE[i.status]}>{i.status}</Badge>
            </td>
            <td className={num}>{formatMoney(i.amount)}</td>
          </tr>
        ))}
      </DemoTable>
    </Card>
  );
};

export const PayrollSection = () => (
  <div className="space-y-4">
    <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
      <Stat
        label={`Next run · ${formatDemoDate(PAYROLL_SUMMARY.nextRun)}`}
        value={formatMoneyCompact(PAYROLL_SUMMARY.gross)}
      />
      <Stat label="Taxes withheld" value={formatMoneyCompact(PAYROLL_SUMMARY.taxes)} />
      <Stat label="Net pay" value={formatMoneyCompact(PAYROLL_SUMMARY.net)} />
      <Stat label="Employees paid" value={PAYROLL_SUMMARY.employees} />
    </div>
    <Card title="Employees">
      <DemoTable caption="Employees" head={['Name', 'Role', 'Department', 'Status', 'Salary']}>
        {EMPLOYEES.map((e) => (
          <tr key={e.name}>
            <td className={`${cell} font-medium`}>{e.name}</td>
            <td className={cell}>{e.role}</td>
            <td className={cell}>{e.department}</td>
            <td className={cell}>
              <Badge tone={e.status === 'Active' ? 'green' : 'amber'}>{e.status}</Badge>
            </td>
            <td className={num}>{formatMoney(e.salary)}</td>
          </tr>
        ))}
      </DemoTable>
    </Card>
    <div className="grid gap-4 md:grid-cols-2">
      <ListCard
        title="Benefits"
        items={BENEFITS}
        itemKey={(b) => b.name}
        listClassName="space-y-1.5 text-sm"
        itemClassName="flex justify-between gap-2"
      >
        {(b) => (
          <>
            <span>
              {b.name} <span className="text-slate-600 dark:text-slate-400">· {b.enrolled} enrolled</span>
            </span>
            <span className="tabular-nums">{formatMoney(b.monthlyCost)}/mo</span>
          </>
        )}
      </ListCard>
      <ListCard
        title="Compliance"
        items={COMPLIANCE}
        itemKey={(c) => c.item}
        listClassName="space-y-1.5 text-sm"
        itemClassName="flex justify-between gap-2"
      >
        {(c) => (
          <>
            <span>{c.item}</span>
            <Badge tone={c.status === 'Filed' ? 'green' : 'amber'}>{c.status}</Badge>
          </>
        )}
      </ListCard>
    </div>
  </div>
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

export const InventorySection = () => (
  <div className="space-y-4">
    <Card title="Stock">
      <DemoTable caption="Inventory" head={['Item', 'SKU', 'Stock', 'Reorder at', 'Status', 'Value']}>
        {INVENTORY.map((i) => (
          <tr key={i.sku}>
            <td className={`${cell} font-medium`}>{i.item}</td>
            <td className={cell}>{i.sku}</td>
            <td className={`${cell} tabular-nums`}>{i.stock}</td>
            <td className={`${cell} tabular-nums`}>{i.reorder}</td>
            <td className={cell}>
              <Badge tone={STOCK_TONE[i.status]}>{i.status}</Badge>
            </td>
            <td className={num}>{formatMoney(i.value)}</td>
          </tr>
        ))}
      </DemoTable>
    </Card>
    <ListCard
      title="Alerts"
      items={INVENTORY_ALERTS}
      itemKey={(a) => a.message}
      listClassName="space-y-2 text-sm"
      itemClassName="flex items-start justify-between gap-3"
    >
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

export const ProjectsSection = () => (
  <div className="space-y-4">
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
    <div className="grid gap-4 md:grid-cols-2">
      <ListCard
        title="Team workload"
        items={TEAM_WORKLOAD}
        itemKey={(w) => w.name}
        listClassName="space-y-3 text-sm"
      >
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
      <ListCard
        title="Milestones"
        items={MILESTONES}
        itemKey={(m) => m.name}
        listClassName="space-y-2 text-sm"
        itemClassName="flex items-center justify-between gap-2"
      >
        {(m) => (
          <>
            <span>
              {m.name} <span className="text-slate-600 dark:text-slate-400">· {formatDemoDate(m.due)}</span>
            </span>
            <Badge tone={MILESTONE_TONE[m.status]}>{m.status}</Badge>
          </>
        )}
      </ListCard>
    </div>
  </div>
);

/** The demo's Dashboard: the overview plus what needs attention today. */
export const DashboardSection = ({ overview }: { overview: React.ReactNode }) => (
  <div className="space-y-4">
    {overview}
    <div className="grid gap-4 lg:grid-cols-2">
      <ListCard
        title="Recent transactions"
        items={TRANSACTIONS.slice(0, 4)}
        itemKey={(t) => t.id}
        listClassName="divide-y divide-slate-100 dark:divide-slate-800"
        itemClassName="flex items-center justify-between gap-3 py-2 text-sm"
      >
        {(t) => (
          <>
            <div className="min-w-0">
              <p className="truncate font-medium">{t.description}</p>
              <p className="text-xs text-slate-600 dark:text-slate-400">
                {formatDemoDate(t.date)} · {t.category}
              </p>
            </div>
            <span
              className={`shrink-0 font-medium tabular-nums ${t.amount > 0 ? 'text-emerald-700 dark:text-emerald-400' : ''}`}
            >
              {formatSignedMoney(t.amount)}
            </span>
          </>
        )}
      </ListCard>
      <ListCard
        title="Invoices needing attention"
        items={INVOICES.filter((i) => i.status !== 'paid')}
        itemKey={(i) => i.number}
        listClassName="divide-y divide-slate-100 dark:divide-slate-800"
        itemClassName="flex items-center justify-between gap-3 py-2 text-sm"
      >
        {(i) => (
          <>
            <div className="min-w-0">
              <p className="truncate font-medium">{i.client}</p>
              <p className="text-xs text-slate-600 dark:text-slate-400">
                {i.number} · due {formatDemoDate(i.due)}
              </p>
            </div>
            <div className="flex shrink-0 items-center gap-2">
              <span className="tabular-nums">{formatMoney(i.amount)}</span>
              <Badge tone={INVOICE_TONE[i.status]}>{i.status}</Badge>
            </div>
          </>
        )}
      </ListCard>
    </div>
  </div>
);
