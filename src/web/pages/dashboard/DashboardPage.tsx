import { useQueries } from '@tanstack/react-query';
import { ArrowLeftRight, ArrowRight, BookOpen, FileText } from 'lucide-react';
import { lazy, type ReactNode, Suspense, useMemo } from 'react';
import { Link } from 'react-router';
import type { IncomeStatement } from '../../../shared/ledger.ts';
import { Money } from '../../components/money/Money.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { buttonClasses } from '../../components/ui/Button.tsx';
import { Card, CardHeader, EmptyState } from '../../components/ui/Card.tsx';
import { PageHeader } from '../../components/ui/PageHeader.tsx';
import { RowTh, Table, Td, Th } from '../../components/ui/Table.tsx';
import { api } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { formatDate, formatMonth, formatMonthYear } from '../../lib/format.ts';
import { keys } from '../../lib/queryKeys.ts';
import { fiscalYearLabel, fiscalYearOf, lastMonths, monthStart, todayIso } from '../accounting/dates.ts';
import {
  FRESH,
  ledgerPaths,
  useBalanceSheet,
  useIncomeStatement,
  useJournalEntries,
} from '../accounting/ledgerApi.ts';
import { LoadError, SOURCE_LABELS, StatusBadge } from '../accounting/parts.tsx';
import { incomeAndExpenses, positionFrom } from './figures.ts';

// /dashboard: where the current company stands, from its ledger only — cash, what customers
// owe and what it owes, income and expenses this month and this fiscal year, twelve months
// of income against expenses, and the latest entries. A new company gets a guide instead
// of empty numbers.

const IncomeExpenseChart = lazy(() => import('./IncomeExpenseChart.tsx'));

const MONTHS = 12;

const Kpi = ({
  label,
  hint,
  loading,
  children,
  footer,
}: {
  label: string;
  hint: string;
  loading: boolean;
  children: ReactNode;
  footer?: ReactNode;
}) => (
  <section
    aria-label={label}
    aria-busy={loading || undefined}
    className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900"
  >
    <h2 className="text-sm font-medium text-slate-500 dark:text-slate-400">{label}</h2>
    <div className="mt-2 text-2xl font-semibold tracking-tight text-slate-900 dark:text-white">
      {loading ? <div className="h-8 w-32 animate-pulse rounded bg-slate-100 dark:bg-slate-800" /> : children}
    </div>
    <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">{hint}</p>
    {footer}
  </section>
);

const GetStarted = () => {
  const steps = [
    {
      to: '/transactions',
      icon: ArrowLeftRight,
      title: 'Record your first transaction',
      text: 'Add money in or out, or import a bank statement.',
    },
    {
      to: '/invoices',
      icon: FileText,
      title: 'Send an invoice',
      text: 'Bill a customer; it shows here as receivable until paid.',
    },
    {
      to: '/accounting?tab=journal&new=entry',
      icon: BookOpen,
      title: 'Record a journal entry',
      text: 'Bring over opening balances from your previous books.',
    },
  ];
  return (
    <Card className="overflow-hidden">
      <div className="border-b border-slate-200 bg-gradient-to-r from-brand-50 to-white px-6 py-5 dark:border-slate-800 dark:from-brand-950/60 dark:to-slate-900">
        <h2 className="text-lg font-semibold text-slate-900 dark:text-white">
          Record your first transaction
        </h2>
        <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
          Your books are set up with a standard chart of accounts. Once something is recorded, your cash,
          income and expenses appear here.
        </p>
      </div>
      <ul className="grid gap-px bg-slate-200 sm:grid-cols-3 dark:bg-slate-800">
        {steps.map((s) => (
          <li key={s.to} className="bg-white dark:bg-slate-900">
            <Link
              to={s.to}
              className="group flex h-full min-h-11 gap-3 p-5 hover:bg-slate-50 dark:hover:bg-slate-800/60"
            >
              <s.icon
                className="mt-0.5 h-5 w-5 shrink-0 text-brand-600 dark:text-brand-400"
                aria-hidden="true"
              />
              <span>
                <span className="flex items-center gap-1 font-medium text-slate-900 dark:text-white">
                  {s.title}
                  <ArrowRight
                    className="h-4 w-4 transition-transform group-hover:translate-x-0.5"
                    aria-hidden="true"
                  />
                </span>
                <span className="mt-1 block text-sm text-slate-500 dark:text-slate-400">{s.text}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </Card>
  );
};

const DashboardPage = () => {
  const { company } = useCompany();
  const currency = company.baseCurrency;
  const today = useMemo(() => todayIso(), []);
  const fy = fiscalYearOf(today, company.fiscalYearStartMonth);
  const months = useMemo(() => lastMonths(today, MONTHS), [today]);

  const balance = useBalanceSheet({ asOf: today });
  const month = useIncomeStatement({ from: monthStart(today), to: today });
  const year = useIncomeStatement({ from: fy.start, to: today });
  const recent = useJournalEntries({ status: 'posted', limit: 6 });
  const monthly = useQueries({
    queries: months.map((m) => {
      const query = { from: m.start, to: m.end };
      return {
        queryKey: keys.ledger(company.id, 'report', 'income-statement', query),
        queryFn: () => api.get<IncomeStatement>(ledgerPaths(company.id).report('income-statement'), query),
        ...FRESH,
      };
    }),
  });

  const position = balance.data ? positionFrom(balance.data) : null;
  const thisMonth = month.data ? incomeAndExpenses(month.data) : null;
  const ytd = year.data ? incomeAndExpenses(year.data) : null;
  const entries = recent.data?.entries ?? [];
  const isNew = recent.isSuccess && entries.length === 0;
  const chartLoading = monthly.some((q) => q.isLoading);
  const chartError = monthly.find((q) => q.isError)?.error;
  const chartData = months.map((m, i) => {
    const figures = monthly[i]?.data ? incomeAndExpenses(monthly[i].data) : { income: 0, expenses: 0 };
    return {
      label: m.start.slice(5, 7) === '01' ? formatMonthYear(m.start) : formatMonth(m.start),
      period: `${formatDate(m.start)} – ${formatDate(m.end)}`,
      income: figures.income,
      expenses: figures.expenses,
    };
  });
  const chartEmpty = !chartLoading && chartData.every((d) => d.income === 0 && d.expenses === 0);

  return (
    <div className="mx-auto max-w-7xl space-y-6">
      <PageHeader
        title="Dashboard"
        description={`${company.name} · ${formatDate(today)} · ${fiscalYearLabel(fy)} · ${currency}`}
        actions={
          <Link to="/accounting?tab=reports" className={buttonClasses('secondary')}>
            View reports
          </Link>
        }
      />

      {isNew ? <GetStarted /> : null}

      {balance.isError ? (
        <LoadError error={balance.error} what="balances" onRetry={() => void balance.refetch()} />
      ) : null}

      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <Kpi
          label="Cash position"
          hint={`Bank and cash accounts, ${formatDate(today)}`}
          loading={balance.isLoading}
          footer={
            position && position.cashAccounts.length > 0 ? (
              <ul className="mt-3 space-y-1 border-t border-slate-100 pt-3 text-sm dark:border-slate-800">
                {position.cashAccounts.map((a) => (
                  <li
                    key={a.accountId}
                    className="flex justify-between gap-2 text-slate-600 dark:text-slate-300"
                  >
                    <span className="min-w-0">{a.name}</span>
                    <Money minor={a.amount} currency={currency} />
                  </li>
                ))}
              </ul>
            ) : null
          }
        >
          {position ? <Money minor={position.cash} currency={currency} /> : null}
        </Kpi>
        <Kpi label="Receivables" hint="Owed to you by customers" loading={balance.isLoading}>
          {position ? <Money minor={position.receivables} currency={currency} /> : null}
        </Kpi>
        <Kpi label="Payables" hint="You owe to suppliers" loading={balance.isLoading}>
          {position ? <Money minor={position.payables} currency={currency} /> : null}
        </Kpi>
        <Kpi
          label={`Net income, ${fiscalYearLabel(fy)} to date`}
          hint={`Since ${formatDate(fy.start)}`}
          loading={year.isLoading}
        >
          {ytd ? <Money minor={ytd.net} currency={currency} /> : null}
        </Kpi>
      </div>

      <div className="grid gap-6 lg:grid-cols-5">
        <Card className="lg:col-span-3">
          <CardHeader
            title="Income and expenses"
            description={`Last ${MONTHS} months, from posted entries`}
          />
          <div className="px-3 py-4">
            {chartError ? (
              <LoadError error={chartError} what="monthly figures" />
            ) : chartLoading ? (
              <div className="flex h-[280px] items-center justify-center">
                <Spinner label="Loading monthly figures..." />
              </div>
            ) : chartEmpty ? (
              <EmptyState
                title="No income or expenses yet"
                description="Record a sale, an invoice payment or an expense and the month fills in here."
              />
            ) : (
              <Suspense
                fallback={
                  <div className="flex h-[280px] items-center justify-center">
                    <Spinner label="Loading chart..." />
                  </div>
                }
              >
                <div aria-hidden="true">
                  <IncomeExpenseChart data={chartData} currency={currency} />
                </div>
                <table className="sr-only">
                  <caption>Income and expenses by month, in {currency}</caption>
                  <thead>
                    <tr>
                      <Th>Month</Th>
                      <Th numeric>Income</Th>
                      <Th numeric>Expenses</Th>
                    </tr>
                  </thead>
                  <tbody>
                    {chartData.map((d) => (
                      <tr key={d.period}>
                        <RowTh>{d.period}</RowTh>
                        <Td numeric>
                          <Money minor={d.income} currency={currency} />
                        </Td>
                        <Td numeric>
                          <Money minor={d.expenses} currency={currency} />
                        </Td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </Suspense>
            )}
          </div>
        </Card>

        <Card className="lg:col-span-2">
          <CardHeader title="Profit and loss" description={`This month and ${fiscalYearLabel(fy)} to date`} />
          {month.isError || year.isError ? (
            <LoadError error={month.error ?? year.error} what="the income statement" />
          ) : (
            <Table
              caption="Income, expenses and net income this month and this fiscal year to date"
              captionHidden
            >
              <thead>
                <tr>
                  <Th>
                    <span className="sr-only">Figure</span>
                  </Th>
                  <Th numeric className="whitespace-nowrap">
                    This month
                  </Th>
                  <Th numeric className="whitespace-nowrap">
                    Year to date
                  </Th>
                </tr>
              </thead>
              <tbody>
                {(
                  [
                    ['Income', 'income'],
                    ['Expenses', 'expenses'],
                    ['Net income', 'net'],
                  ] as const
                ).map(([label, key]) => (
                  <tr
                    key={key}
                    className={key === 'net' ? 'font-semibold text-slate-900 dark:text-white' : ''}
                  >
                    <RowTh className={`whitespace-nowrap ${key === 'net' ? 'font-semibold' : ''}`}>
                      {label}
                    </RowTh>
                    <Td numeric>
                      {thisMonth ? (
                        <Money minor={thisMonth[key]} currency={currency} />
                      ) : (
                        <span className="text-slate-400">…</span>
                      )}
                    </Td>
                    <Td numeric>
                      {ytd ? (
                        <Money minor={ytd[key]} currency={currency} />
                      ) : (
                        <span className="text-slate-400">…</span>
                      )}
                    </Td>
                  </tr>
                ))}
              </tbody>
            </Table>
          )}
        </Card>
      </div>

      <Card>
        <CardHeader
          title="Recent journal entries"
          description="The latest posted entries"
          actions={
            <Link
              to="/accounting?tab=journal"
              className="inline-flex min-h-11 items-center gap-1 text-sm font-semibold text-brand-700 hover:underline dark:text-brand-300"
            >
              All entries <ArrowRight className="h-4 w-4" aria-hidden="true" />
            </Link>
          }
        />
        {recent.isLoading ? (
          <div className="flex min-h-32 items-center justify-center">
            <Spinner label="Loading recent entries..." />
          </div>
        ) : recent.isError ? (
          <LoadError error={recent.error} what="recent entries" onRetry={() => void recent.refetch()} />
        ) : entries.length === 0 ? (
          <EmptyState
            title="Nothing posted yet"
            description={
              <>
                Entries from{' '}
                <Link className="font-medium text-brand-700 underline dark:text-brand-300" to="/transactions">
                  transactions
                </Link>
                ,{' '}
                <Link className="font-medium text-brand-700 underline dark:text-brand-300" to="/invoices">
                  invoices
                </Link>{' '}
                and{' '}
                <Link
                  className="font-medium text-brand-700 underline dark:text-brand-300"
                  to="/accounting?tab=journal"
                >
                  accounting
                </Link>{' '}
                show up here.
              </>
            }
          />
        ) : (
          <Table caption="Recent posted journal entries" captionHidden>
            <thead>
              <tr>
                <Th className="w-20">No.</Th>
                <Th className="w-32">Date</Th>
                <Th>Memo</Th>
                <Th className="w-32">Source</Th>
                <Th className="w-32">Status</Th>
                <Th numeric className="w-40">
                  Amount
                </Th>
              </tr>
            </thead>
            <tbody>
              {entries.map((e) => (
                <tr key={e.id}>
                  <Td className="tabular-nums text-slate-500 dark:text-slate-400">{e.number}</Td>
                  <Td className="whitespace-nowrap">{formatDate(e.date)}</Td>
                  <RowTh className="text-slate-900 dark:text-white">{e.memo || 'No memo'}</RowTh>
                  <Td className="text-slate-600 dark:text-slate-300">
                    {SOURCE_LABELS[e.source] ?? e.source}
                  </Td>
                  <Td>
                    <StatusBadge entry={e} />
                  </Td>
                  <Td numeric>
                    <Money minor={e.totalDebit} currency={currency} />
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Card>
    </div>
  );
};

export default DashboardPage;
