import type { ReactNode } from 'react';
import { Money } from '../../components/money/Money.tsx';
import { Card } from '../../components/ui/Card.tsx';

// The head of a document list (invoices, bills): the summary figures over it and the status
// chips that filter it.

/** One summary figure: its label and amount (a loading bar until the amount is known). */
export const FigureCard = ({
  label,
  amount,
  currency,
  tone,
  testId,
}: {
  label: string;
  amount: number | null;
  currency: string;
  /** The amount's text colour classes. */
  tone: string;
  testId?: string;
}) => (
  <Card className="px-5 py-4">
    <p className="text-sm text-slate-500 dark:text-slate-400">{label}</p>
    <p className={`mt-1 text-xl font-semibold ${tone}`} data-testid={testId}>
      {amount === null ? (
        // A line box of the amount's own height (text-xl: 28 px), so nothing moves when it comes.
        <span className="flex h-7 items-center">
          <span
            className="h-6 w-28 animate-pulse rounded bg-slate-200 dark:bg-slate-800"
            role="status"
            aria-label="Loading"
          />
        </span>
      ) : (
        <Money minor={amount} currency={currency} />
      )}
    </p>
  </Card>
);

/** The status chips' group. */
export const StatusChipGroup = ({ children }: { children: ReactNode }) => (
  <fieldset className="flex flex-wrap gap-2">
    <legend className="sr-only">Filter by status</legend>
    {children}
  </fieldset>
);

/** One status chip: pressed when its filter is on; `alert` tints an unpressed chip red; the badge (a count) beside the label. */
export const StatusChip = ({
  label,
  active,
  alert = false,
  onClick,
  badge,
}: {
  label: string;
  active: boolean;
  alert?: boolean;
  onClick: () => void;
  badge?: ReactNode;
}) => (
  <button
    type="button"
    aria-pressed={active}
    onClick={onClick}
    className={`inline-flex min-h-11 items-center gap-2 rounded-full border px-4 text-sm font-medium transition-colors ${
      active
        ? 'border-brand-600 bg-brand-600 text-white dark:border-brand-400 dark:bg-brand-500 dark:text-slate-950'
        : alert
          ? 'border-red-300 bg-white text-red-700 hover:bg-red-50 dark:border-red-800 dark:bg-slate-900 dark:text-red-300 dark:hover:bg-red-950/40'
          : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800'
    }`}
  >
    {label}
    {badge !== undefined ? (
      <span
        className={`rounded-full px-1.5 text-xs ${active ? 'bg-white/20' : 'bg-slate-100 dark:bg-slate-800'}`}
      >
        {badge}
      </span>
    ) : null}
  </button>
);
