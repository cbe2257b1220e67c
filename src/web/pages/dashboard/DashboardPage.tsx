import { useQueries } from '@tanstack/react-query';
import { lazy, Suspense, useMemo } from 'react';
import { Link } from 'react-router';
import type { IncomeStatement } from '../../../shared/ledger.ts';
import { Money } from '../../components/money/Money.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { buttonClasses } from '../../components/ui/Button.tsx';
import { Card, CardHeader, EmptyState } from '../../components/ui/Card.tsx';
import { PageHeader } from '../../components/ui/PageHeader.tsx';
import { RowTh, Table, TableHead, Td } from '../../components/ui/Table.tsx';
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
import { LoadError } from '../accounting/parts.tsx';
import { useBillTotals } from '../bills/billsApi.ts';
import { incomeAndExpenses, positionFrom } from './figures.ts';
import { GetStarted, Kpi } from './parts.tsx';
import { RecentEntries } from './RecentEntries.tsx';

// /dashboard: where the current company stands, from its ledger only — cash, what customers
// owe and what it owes, income and expenses this month and this fiscal year, twelve months
// of income against expenses, and the latest entries. A new company gets a guide instead
// of empty numbers.

/** Under the Payables figure: what is overdue (to the payment run) and the bills (to the list). */
const PayablesDue = ({ currency }: { currency: string }) => {
  const totals = useBillTotals();
  const overdue = totals.data?.totals.overdue;
  return (
    <ul className="mt-3 space-y-1 border-t border-slate-100 pt-3 text-sm dark:border-slate-800">
      {overdue && overdue.count > 0 ? (
        <li className="flex justify-between gap-2">
          <Link to="/bills?tab=payment-run" className="text-red-700 hover:underline dark:text-red-400">
            {overdue.count === 1 ? '1 bill overdue' : `${overdue.count} bills overdue`}
          </Link>
          <Money minor={overdue.amountDue} currency={currency} />
        </li>
      ) : null}
      <li>
        <Link to="/bills" className="text-brand-700 hover:underline dark:text-brand-300">
          Bills
        </Link>
        {' · '}
        <Link to="/bills?tab=payment-run" className="text-brand-700 hover:underline dark:text-brand-300">
          Payment run
        </Link>
      </li>
    </ul>
  );
};

const IncomeExpenseChart = lazy(() => import('./IncomeExpenseChart.tsx'));

const MONTHS = 12;

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
        <Kpi
          label="Payables"
          hint="You owe to suppliers"
          loading={balance.isLoading}
          footer={<PayablesDue currency={currency} />}
        >
          {position ? (
            <>
              <Link to="/bills?tab=reports" className="hover:underline" aria-describedby="payables-kpi-link">
                <Money minor={position.payables} currency={currency} />
              </Link>
              <span id="payables-kpi-link" className="sr-only">
                Opens the payables aging by supplier
              </span>
            </>
          ) : null}
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
                  <TableHead
                    columns={[
                      'Month',
                      { label: 'Income', numeric: true },
                      { label: 'Expenses', numeric: true },
                    ]}
                  />
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
              <TableHead
                columns={[
                  { label: <span className="sr-only">Figure</span> },
                  { label: 'This month', numeric: true, className: 'whitespace-nowrap' },
                  { label: 'Year to date', numeric: true, className: 'whitespace-nowrap' },
                ]}
              />
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

      <RecentEntries recent={recent} currency={currency} />
    </div>
  );
};

export default DashboardPage;
