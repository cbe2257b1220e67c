import { Plus, Search } from 'lucide-react';
import type { ReactNode } from 'react';
import { Spinner } from '../Spinner.tsx';
import { Button, type ButtonProps } from './Button.tsx';
import { Alert, Card, CardError, CardHeader, EmptyState } from './Card.tsx';
import { Th } from './Table.tsx';

// A list in a card, the way the list tabs show one (customers, items, tax rates, recurring
// schedules, the chart of accounts, journal entries): the header with its "New …" button,
// a toolbar (search, show archived), the notices of the last action, then one of loading
// (a spinner, announced), could not load (with Try again), empty, or the table; dialogs last.

export type ListState = {
  /** Left out for a list that comes with its page (a customer's invoices). */
  loading?: boolean;
  /** "Loading customers..." */
  loadingLabel?: string;
  /** The reason the list could not load, shown with Try again when `onRetry` is given. */
  error?: ReactNode;
  onRetry?: () => void;
  empty: boolean;
  emptyTitle: string;
  emptyDescription?: ReactNode;
  emptyAction?: ReactNode;
};

export const ListCard = ({
  title,
  description,
  actions,
  toolbar,
  notices,
  state,
  children,
  footer,
}: {
  /** The card's heading; a list that is the whole tab may go without one. */
  title?: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
  /** Search and filters, above the list. */
  toolbar?: ReactNode;
  /** Alerts about the last action (an error, "Saved …"); empty ones are skipped. */
  notices?: { tone?: 'error' | 'success'; message: ReactNode | null | undefined }[];
  state: ListState;
  /** The table, shown when the list loaded and is not empty. */
  children: ReactNode;
  /** Below the list: pager, dialogs. */
  footer?: ReactNode;
}) => (
  <Card>
    {title ? <CardHeader title={title} description={description} actions={actions || undefined} /> : null}
    {toolbar ? (
      <div className="flex flex-wrap items-center gap-3 border-b border-slate-200 px-5 py-3 dark:border-slate-800">
        {toolbar}
      </div>
    ) : null}
    {notices?.map((n, i) =>
      n.message ? (
        // biome-ignore lint/suspicious/noArrayIndexKey: the notices are a fixed list per card
        <div key={i} className="px-5 pt-4">
          <Alert tone={n.tone ?? 'error'}>{n.message}</Alert>
        </div>
      ) : null,
    )}
    {state.loading ? (
      <LoadingState label={state.loadingLabel ?? 'Loading...'} />
    ) : state.error ? (
      <CardError message={state.error} onRetry={state.onRetry} />
    ) : state.empty ? (
      <EmptyState title={state.emptyTitle} description={state.emptyDescription} action={state.emptyAction} />
    ) : (
      children
    )}
    {footer}
  </Card>
);

/** A view's spinner while its data loads, announced to screen readers. */
export const LoadingState = ({ label }: { label: string }) => (
  <div className="flex min-h-40 items-center justify-center p-6">
    <Spinner label={label} />
  </div>
);

/** The "New customer" button of a list: a plus and the words. */
export const NewButton = ({ children, ...rest }: ButtonProps) => (
  <Button {...rest}>
    <Plus className="h-4 w-4" aria-hidden="true" /> {children}
  </Button>
);

/** A search box with a magnifier; its label is for screen readers (the placeholder shows). */
export const SearchField = ({
  label,
  value,
  onChange,
  placeholder,
  className = 'w-72',
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  className?: string;
}) => (
  <label className="relative block">
    <span className="sr-only">{label}</span>
    <Search
      className="pointer-events-none absolute top-3.5 left-3 h-4 w-4 text-slate-400"
      aria-hidden="true"
    />
    <input
      type="search"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      placeholder={placeholder}
      className={`min-h-11 max-w-full rounded-lg border border-slate-300 bg-white pr-3 pl-9 text-sm text-slate-900 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 ${className}`}
    />
  </label>
);

/** The header of a table's last column of row buttons, named for screen readers only. */
export const ActionsTh = ({ className }: { className?: string }) => (
  <Th className={className}>
    <span className="sr-only">Actions</span>
  </Th>
);
