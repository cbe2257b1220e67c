import type { ReactNode } from 'react';
import { Money } from '../../components/money/Money.tsx';
import { useCompany } from '../../lib/company.tsx';
import { formatDate } from '../../lib/format.ts';
import { useBalanceSheet, useCashFlow, useIncomeStatement } from './ledgerApi.ts';

// The three statement summaries at the top of /accounting (as the demo shows them): income
// statement and cash flow for the fiscal year to date, balance sheet as of today.

const Row = ({
  label,
  children,
  strong = false,
}: {
  label: string;
  children: ReactNode;
  strong?: boolean;
}) => (
  <div
    className={`flex items-baseline justify-between gap-3 py-1 ${strong ? 'mt-1 border-t border-slate-200 pt-2 font-semibold text-slate-900 dark:border-slate-700 dark:text-white' : 'text-slate-600 dark:text-slate-300'}`}
  >
    <dt className="text-sm">{label}</dt>
    <dd className="text-sm">{children}</dd>
  </div>
);

const SummaryCard = ({
  title,
  period,
  loading,
  failed,
  children,
}: {
  title: string;
  period: string;
  loading: boolean;
  failed: boolean;
  children: ReactNode;
}) => (
  <section
    aria-label={title}
    aria-busy={loading || undefined}
    className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900"
  >
    <h2 className="text-sm font-semibold text-slate-900 dark:text-white">{title}</h2>
    <p className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">{period}</p>
    {failed ? (
      <p className="mt-4 text-sm text-red-700 dark:text-red-400">
        Could not load; reload the page to try again.
      </p>
    ) : loading ? (
      <div className="mt-4 space-y-3" aria-hidden="true">
        {[0, 1, 2].map((i) => (
          <div key={i} className="h-4 animate-pulse rounded bg-slate-100 dark:bg-slate-800" />
        ))}
      </div>
    ) : (
      <dl className="mt-3">{children}</dl>
    )}
  </section>
);

export const SummaryCards = ({ fy, today }: { fy: { start: string; end: string }; today: string }) => {
  const { company } = useCompany();
  const to = today < fy.end ? today : fy.end;
  const income = useIncomeStatement({ from: fy.start, to });
  const balance = useBalanceSheet({ asOf: today });
  const cash = useCashFlow({ from: fy.start, to });
  const currency = company.baseCurrency;
  const ytd = `${formatDate(fy.start)} – ${formatDate(to)}`;
  const is = income.data?.totals;
  const bs = balance.data?.totals;
  const cf = cash.data?.totals;
  return (
    <div className="grid gap-4 md:grid-cols-3">
      <SummaryCard title="Income statement" period={ytd} loading={income.isLoading} failed={income.isError}>
        {is ? (
          <>
            <Row label="Income">
              <Money minor={is.income} currency={currency} />
            </Row>
            <Row label="Expenses">
              <Money minor={is.costOfSales + is.expenses} currency={currency} />
            </Row>
            <Row label={is.netIncome < 0 ? 'Net loss' : 'Net income'} strong>
              <Money minor={is.netIncome} currency={currency} />
            </Row>
          </>
        ) : null}
      </SummaryCard>
      <SummaryCard
        title="Balance sheet"
        period={`As of ${formatDate(today)}`}
        loading={balance.isLoading}
        failed={balance.isError}
      >
        {bs ? (
          <>
            <Row label="Assets">
              <Money minor={bs.assets} currency={currency} />
            </Row>
            <Row label="Liabilities">
              <Money minor={bs.liabilities} currency={currency} />
            </Row>
            <Row label="Equity" strong>
              <Money minor={bs.equity} currency={currency} />
            </Row>
          </>
        ) : null}
      </SummaryCard>
      <SummaryCard title="Cash flow summary" period={ytd} loading={cash.isLoading} failed={cash.isError}>
        {cf ? (
          <>
            <Row label="Operating">
              <Money minor={cf.operating} currency={currency} />
            </Row>
            <Row label="Investing and financing">
              <Money minor={cf.investing + cf.financing} currency={currency} />
            </Row>
            <Row label="Net change in cash" strong>
              <Money minor={cf.netChange} currency={currency} />
            </Row>
          </>
        ) : null}
      </SummaryCard>
    </div>
  );
};
