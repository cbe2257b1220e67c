import { formatAmount, formatAmountCompact, formatDayMonth, formatSignedAmount } from '../lib/format.ts';
import { DEMO_CURRENCY, DEMO_TODAY, type DemoTransaction } from './sampleData.ts';

// Pure rules of the demo: progress colours, the transaction filter chips, formatting.

export type ProgressTone = 'green' | 'blue' | 'amber' | 'red';

/** SPEC: 80 or more green, 50 or more blue, 25 or more amber, else red. */
export const progressTone = (percent: number): ProgressTone => {
  if (percent >= 80) return 'green';
  if (percent >= 50) return 'blue';
  if (percent >= 25) return 'amber';
  return 'red';
};

export const PROGRESS_BAR_CLASS: Record<ProgressTone, string> = {
  green: 'bg-emerald-500',
  blue: 'bg-brand-500',
  amber: 'bg-amber-500',
  red: 'bg-red-500',
};

export const TRANSACTION_FILTERS = ['All', 'Income', 'Expenses', 'This Month'] as const;
export type TransactionFilter = (typeof TRANSACTION_FILTERS)[number];

/** Filters the sample rows for one chip; "This Month" is the month of `today` (YYYY-MM-DD). */
export const filterTransactions = <T extends Pick<DemoTransaction, 'amount' | 'date'>>(
  rows: readonly T[],
  filter: TransactionFilter,
  today: string = DEMO_TODAY,
): T[] => {
  switch (filter) {
    case 'All':
      return [...rows];
    case 'Income':
      return rows.filter((r) => r.amount > 0);
    case 'Expenses':
      return rows.filter((r) => r.amount < 0);
    case 'This Month':
      return rows.filter((r) => r.date.slice(0, 7) === today.slice(0, 7));
  }
};

/** Cents to "$12,450.00", "$1.2K", "+$214.37" / "−$2,318.45": the app's one formatter in the demo currency. */
export const formatMoney = (cents: number): string => formatAmount(cents, DEMO_CURRENCY);
export const formatMoneyCompact = (cents: number): string => formatAmountCompact(cents, DEMO_CURRENCY);
export const formatSignedMoney = (cents: number): string => formatSignedAmount(cents, DEMO_CURRENCY);
/** "2025-06-16" to "Jun 16" without letting a time zone move the day. */
export const formatDemoDate = formatDayMonth;
