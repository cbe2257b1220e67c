import { Download, FileText } from 'lucide-react';
import type { UseQueryResult } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import {
  ACCOUNT_TYPES,
  type AccountTypeName,
  type JournalEntry,
  type JournalSourceName,
} from '../../../shared/ledger.ts';
import { Spinner } from '../../components/Spinner.tsx';
import { Money } from '../../components/money/Money.tsx';
import { buttonClasses } from '../../components/ui/Button.tsx';
import { Badge, CardError } from '../../components/ui/Card.tsx';
import { RowTh, Td } from '../../components/ui/Table.tsx';
import { ApiError } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { type ReportName, type ReportQuery, exportHref } from './ledgerApi.ts';

// Small pieces the accounting tabs share: status and source labels, export links, loading
// and error notices that say what to do next.

/** Every journal source's label: a source added to JOURNAL_SOURCES fails tsc until it is named here. */
export const SOURCE_LABELS: Record<JournalSourceName, string> & Record<string, string | undefined> = {
  manual: 'Manual',
  invoice: 'Invoice',
  payment: 'Payment',
  bank: 'Bank',
  transfer: 'Transfer',
  opening_balance: 'Opening balance',
  year_end_close: 'Year-end close',
  reversal: 'Reversal',
  bill: 'Bill',
  bill_payment: 'Bill payment',
  supplier_credit: 'Supplier credit',
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
}) => <CardError message={`Could not load ${what}. ${errorText(error, 'reload')}`} onRetry={onRetry} />;

export const Loading = ({ label }: { label: string }) => (
  <div className="flex min-h-40 items-center justify-center p-6">
    <Spinner label={label} />
  </div>
);

const EXPORTS = [
  { format: 'csv', text: 'Download CSV', Icon: Download },
  { format: 'pdf', text: 'Download PDF', Icon: FileText },
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
    <div className="flex flex-wrap items-center gap-2">
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
 * A query's states: a spinner while it loads ("Loading the journal...", or `loadingLabel`),
 * the error with Try again, `empty` when there is no data or `isEmpty` says so, then
 * `children` with the data.
 */
export const QueryView = <T,>({
  query,
  what,
  loadingLabel,
  isEmpty,
  empty = null,
  children,
}: {
  query: UseQueryResult<T>;
  what: string;
  loadingLabel?: string;
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  children: (data: T) => ReactNode;
}) =>
  query.isLoading ? (
    <Loading label={loadingLabel ?? `Loading ${what}...`} />
  ) : query.isError ? (
    <LoadError error={query.error} what={what} onRetry={() => void query.refetch()} />
  ) : query.data !== undefined && !isEmpty?.(query.data) ? (
    children(query.data)
  ) : (
    empty
  );

/** A report's period: From (empty for "from the first entry") and To, and the query they make. */
export const useReportPeriod = (defaultFrom: string, today: string) => {
  const [from, setFrom] = useState(defaultFrom);
  const [to, setTo] = useState(today);
  return { from, setFrom, to, setTo, query: { from: from || undefined, to } };
};

export type ReportPeriod = ReturnType<typeof useReportPeriod>;

/** The From and To inputs of a report's toolbar (To is required); `onChange` runs after either. */
export const PeriodInputs = ({ period, onChange }: { period: ReportPeriod; onChange?: () => void }) => (
  <>
    <DateInput
      label="From"
      value={period.from}
      onChange={(v) => {
        period.setFrom(v);
        onChange?.();
      }}
      max={period.to}
    />
    <DateInput
      label="To"
      value={period.to}
      onChange={(v) => {
        if (v) period.setTo(v);
        onChange?.();
      }}
      required
    />
  </>
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

/** The entry number as a button that opens the entry ("Open entry 42" to screen readers). */
export const EntryLink = ({ number, onOpen }: { number: number | null; onOpen: () => void }) => (
  <button
    type="button"
    onClick={onOpen}
    className="inline-flex min-h-11 min-w-11 items-center font-medium text-brand-700 tabular-nums underline-offset-2 hover:underline dark:text-brand-300"
    aria-label={`Open entry ${number}`}
  >
    {number}
  </button>
);

/** The Debit and Credit headings over `DebitCreditCells` in a `TableHead`. */
export const DEBIT_CREDIT_COLUMNS = [
  { label: 'Debit', numeric: true, className: 'w-36' },
  { label: 'Credit', numeric: true, className: 'w-36' },
];

/** A cell's second line in small grey type (a line's description), when there is one. */
export const SubLine = ({ text }: { text: ReactNode }) =>
  text ? <span className="block text-xs text-slate-500 dark:text-slate-400">{text}</span> : null;

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

const TYPE_HEADING: Record<AccountTypeName, string> = {
  asset: 'Assets',
  liability: 'Liabilities',
  equity: 'Equity',
  income: 'Income',
  expense: 'Expenses',
};

/**
 * Accounts grouped as a bookkeeper scans them: a tbody a type (Assets … Expenses) under its
 * heading across `columns` columns, types without rows left out; `row` draws each row.
 */
export const AccountTypeGroups = <R extends { type: AccountTypeName }>({
  rows,
  columns,
  row,
}: {
  rows: readonly R[];
  columns: number;
  row: (r: R) => ReactNode;
}) =>
  ACCOUNT_TYPES.map((type) => {
    const group = rows.filter((r) => r.type === type);
    if (group.length === 0) return null;
    return (
      <tbody key={type}>
        <tr>
          <th
            scope="colgroup"
            colSpan={columns}
            className="bg-slate-50/70 px-4 pt-4 pb-1.5 text-left text-xs font-semibold tracking-wide text-slate-500 uppercase dark:bg-slate-900/40 dark:text-slate-400"
          >
            {TYPE_HEADING[type]}
          </th>
        </tr>
        {group.map(row)}
      </tbody>
    );
  });

/**
 * An account's code cell, then its name as the row's header: a button that opens the account
 * (`strong` for a list of accounts, plain in a report); `children` follow the name.
 */
export const AccountCells = ({
  code,
  name,
  onOpen,
  title,
  strong = false,
  children,
}: {
  code: string;
  name: string;
  onOpen: () => void;
  title?: string;
  strong?: boolean;
  children?: ReactNode;
}) => (
  <>
    <Td className="tabular-nums text-slate-500 dark:text-slate-400">{code}</Td>
    <RowTh>
      <button
        type="button"
        onClick={onOpen}
        className={`inline-flex min-h-11 min-w-11 items-center text-left ${strong ? 'font-medium ' : ''}text-slate-900 underline-offset-2 hover:underline dark:text-white`}
        title={title}
      >
        {name}
      </button>
      {children}
    </RowTh>
  </>
);
