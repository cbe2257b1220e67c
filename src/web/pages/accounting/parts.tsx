import { Download, FileText } from 'lucide-react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { JournalEntry } from '../../../shared/ledger.ts';
import { Spinner } from '../../components/Spinner.tsx';
import { Money } from '../../components/money/Money.tsx';
import { buttonClasses } from '../../components/ui/Button.tsx';
import { Badge, ErrorState } from '../../components/ui/Card.tsx';
import { Td } from '../../components/ui/Table.tsx';
import { ApiError } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { type ReportName, type ReportQuery, exportHref } from './ledgerApi.ts';

// Small pieces the accounting tabs share: status and source labels, export links, loading
// and error notices that say what to do next.

export const SOURCE_LABELS: Record<string, string> = {
  manual: 'Manual',
  invoice: 'Invoice',
  payment: 'Payment',
  bank: 'Bank',
  transfer: 'Transfer',
  opening_balance: 'Opening balance',
  year_end_close: 'Year-end close',
  reversal: 'Reversal',
};

export const StatusBadge = ({ entry }: { entry: Pick<JournalEntry, 'status' | 'reversedByEntryId'> }) => {
  if (entry.status === 'draft') return <Badge tone="slate">Draft</Badge>;
  if (entry.status === 'pending_approval') return <Badge tone="amber">Awaiting approval</Badge>;
  if (entry.reversedByEntryId) return <Badge tone="violet">Reversed</Badge>;
  return <Badge tone="green">Posted</Badge>;
};

/** What went wrong and what to do about it, from an API error. */
export const errorText = (error: unknown, action = 'try again') => {
  if (error instanceof ApiError) {
    if (error.status === 403) return `${error.message} Ask an owner or admin for access if you need it.`;
    if (error.status === 0 || error.status >= 500) return `${error.message} Then ${action}.`;
    return error.message;
  }
  return `Something went wrong. Please ${action}.`;
};

export const LoadError = ({
  error,
  what,
  onRetry,
}: {
  error: unknown;
  what: string;
  onRetry?: () => void;
}) => (
  <div className="p-4">
    <ErrorState message={`Could not load ${what}. ${errorText(error, 'reload')}`} onRetry={onRetry} />
  </div>
);

export const Loading = ({ label }: { label: string }) => (
  <div className="flex min-h-40 items-center justify-center p-6">
    <Spinner label={label} />
  </div>
);

const EXPORTS = [
  { format: 'csv', text: 'CSV', Icon: Download },
  { format: 'pdf', text: 'PDF', Icon: FileText },
] as const;

/** CSV and PDF download links for a report's export route, with the query on screen. */
export const ExportLinks = ({
  report,
  query,
  label,
}: {
  report: ReportName;
  query: ReportQuery;
  label: string;
}) => {
  const { company } = useCompany();
  return (
    <div className="flex items-center gap-2">
      {EXPORTS.map(({ format, text, Icon }) => (
        <a
          key={format}
          href={exportHref(company.id, report, query, format)}
          download
          className={buttonClasses('secondary', 'sm')}
        >
          <Icon className="h-4 w-4" aria-hidden="true" />
          {text}
          <span className="sr-only">export of the {label}</span>
        </a>
      ))}
    </div>
  );
};

/**
 * A query's three states: a spinner while it loads ("Loading the journal..."), the error with
 * Try again, then `children` with the data.
 */
export const QueryView = <T,>({
  query,
  what,
  children,
}: {
  query: UseQueryResult<T>;
  what: string;
  children: (data: T) => ReactNode;
}) =>
  query.isLoading ? (
    <Loading label={`Loading ${what}...`} />
  ) : query.isError ? (
    <LoadError error={query.error} what={what} onRetry={() => void query.refetch()} />
  ) : query.data !== undefined ? (
    children(query.data)
  ) : null;

/** A labelled date input, compact for report toolbars. */
export const DateInput = ({
  label,
  value,
  onChange,
  required = false,
  max,
  min,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  required?: boolean;
  max?: string;
  min?: string;
}) => (
  <label className="flex flex-col gap-1 text-xs font-medium text-slate-600 dark:text-slate-300">
    {label}
    <input
      type="date"
      value={value}
      required={required}
      max={max}
      min={min}
      onChange={(e) => onChange(e.target.value)}
      className="min-h-11 rounded-lg border border-slate-300 bg-white px-3 text-sm text-slate-900 shadow-sm focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
    />
  </label>
);

export const Toolbar = ({ children }: { children: ReactNode }) => (
  <div className="flex flex-wrap items-end gap-3 border-b border-slate-200 px-5 py-4 dark:border-slate-800">
    {children}
  </div>
);

/** The entry number as a button that opens the entry ("Open entry 42" to screen readers). */
export const EntryLink = ({ number, onOpen }: { number: number | null; onOpen: () => void }) => (
  <button
    type="button"
    onClick={onOpen}
    className="font-medium text-brand-700 tabular-nums underline-offset-2 hover:underline dark:text-brand-300"
    aria-label={`Open entry ${number}`}
  >
    {number}
  </button>
);

/** A line's debit and credit cells, an en dash for the empty side. */
export const DebitCreditCells = ({
  debit,
  credit,
  currency,
}: {
  debit: number;
  credit: number;
  currency: string;
}) => (
  <>
    <Td numeric>
      <Money minor={debit} currency={currency} blankZero />
    </Td>
    <Td numeric>
      <Money minor={credit} currency={currency} blankZero />
    </Td>
  </>
);
