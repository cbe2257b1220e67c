import { Download, FileText } from 'lucide-react';
import type { ReactNode } from 'react';
import type { JournalEntry } from '../../../shared/ledger.ts';
import { Spinner } from '../../components/Spinner.tsx';
import { Badge, ErrorState } from '../../components/ui/Card.tsx';
import { ApiError } from '../../lib/api.ts';

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

/** CSV and PDF download links for a report's export route. */
export const ExportLinks = ({ csv, pdf, label }: { csv: string; pdf: string; label: string }) => (
  <div className="flex items-center gap-2">
    <a
      href={csv}
      download
      className="inline-flex min-h-11 items-center gap-2 rounded-lg border border-slate-300 bg-white px-3 text-sm font-semibold text-slate-800 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800"
    >
      <Download className="h-4 w-4" aria-hidden="true" />
      CSV
      <span className="sr-only">export of the {label}</span>
    </a>
    <a
      href={pdf}
      download
      className="inline-flex min-h-11 items-center gap-2 rounded-lg border border-slate-300 bg-white px-3 text-sm font-semibold text-slate-800 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800"
    >
      <FileText className="h-4 w-4" aria-hidden="true" />
      PDF
      <span className="sr-only">export of the {label}</span>
    </a>
  </div>
);

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
