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

/** A figure of a summary: its label, amount, and whether it is the card's total (last, strong). */
type Figure = [label: string, amount: number, strong?: boolean];

const SummaryCard = ({
  title,
  period,
  query,
  currency,
  figures,
}: {
  title: string;
  period: string;
  query: { isLoading: boolean; isError: boolean };
  currency: string;
  /** Null until the statement has loaded. */
  figures: Figure[] | null | undefined;
}) => {
  const loading = query.isLoading;
  return (
    <section
      aria-label={title}
      aria-busy={loading || undefined}
      className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <h2 className="text-sm font-semibold text-slate-900 dark:text-white">{title}</h2>
      <p className="mt-0.5 text-xs text-slate-500 dark:text-slate-400">{period}</p>
      {query.isError ? (
        <p className="mt-4 text-sm text-red-700 dark:text-red-400">
          Could not load; reload the page to try again.
        </p>
      ) : loading ? (
        // Three rows of the figures' own heights (the last one a total's, with its rule's
        // room), so the tabs below do not move when the figures come.
        <div className="mt-3" aria-hidden="true">
          {[0, 1, 2].map((i) => (
            <div
              key={i}
              className={`flex h-5 items-center box-content py-1 ${i === 2 ? 'mt-1 border-t border-transparent pt-2' : ''}`}
            >
              <div className="h-4 w-full animate-pulse rounded bg-slate-100 dark:bg-slate-800" />
            </div>
          ))}
        </div>
      ) : (
        <dl className="mt-3">
          {figures?.map(([label, amount, strong]) => (
            <Row key={label} label={label} strong={strong}>
              <Money minor={amount} currency={currency} />
            </Row>
          ))}
        </dl>
      )}
    </section>
  );
};

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
      <SummaryCard
        title="Income statement"
        period={ytd}
        query={income}
        currency={currency}
        figures={
          is && [
            ['Income', is.income],
            ['Expenses', is.costOfSales + is.expenses],
            [is.netIncome < 0 ? 'Net loss' : 'Net income', is.netIncome, true],
          ]
        }
      />
      <SummaryCard
        title="Balance sheet"
        period={`As of ${formatDate(today)}`}
        query={balance}
        currency={currency}
        figures={
          bs && [
            ['Assets', bs.assets],
            ['Liabilities', bs.liabilities],
            ['Equity', bs.equity, true],
          ]
        }
      />
      <SummaryCard
        title="Cash flow summary"
        period={ytd}
        query={cash}
        currency={currency}
        figures={
          cf && [
            ['Operating', cf.operating],
            ['Investing and financing', cf.investing + cf.financing],
            ['Net change in cash', cf.netChange, true],
          ]
        }
      />
    </div>
  );
};
