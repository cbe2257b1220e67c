import { Trash2 } from 'lucide-react';
import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes } from 'react';

// The pieces of an editable lines table (invoice lines, journal entry lines): a header row
// of column headings, a cell's input or select named for its line ("Debit, line 2") and
// marked invalid with the line's error, and the remove-line button. Each editor keeps its
// own rules and columns; the controls look and behave the same in both.

const CELL =
  'block min-h-11 w-full rounded-lg border bg-white px-3 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none dark:bg-slate-900 dark:text-slate-100 dark:placeholder:text-slate-500';

const cellClasses = (invalid: boolean, numeric: boolean, className = '') =>
  `${CELL} ${invalid ? 'border-red-500 dark:border-red-400' : 'border-slate-300 dark:border-slate-700'} ${numeric ? 'text-right tabular-nums' : ''} ${className}`;

export type LineHeading = {
  label: string;
  /** What shows instead of the label (the label is then for screen readers only). */
  shown?: ReactNode;
  className?: string;
  numeric?: boolean;
};

/** The lines table's header row. */
export const LinesHead = ({
  columns,
  className,
}: {
  columns: readonly LineHeading[];
  className?: string;
}) => (
  <thead className={className}>
    <tr className="text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">
      {columns.map((c) => (
        <th
          key={c.label}
          scope="col"
          className={`px-3 py-2 ${c.numeric ? 'text-right' : 'text-left'} ${c.className ?? ''}`}
        >
          {c.shown === undefined ? (
            c.label
          ) : (
            <>
              <span className="sr-only">{c.label}</span>
              {c.shown}
            </>
          )}
        </th>
      ))}
    </tr>
  </thead>
);

type CellProps = {
  /** What a screen reader calls the control: "Debit, line 2". */
  label: string;
  /** The line's problem with this cell, if any (marks it invalid). */
  invalid?: boolean;
  numeric?: boolean;
};

/** What every line cell's control carries: its name for screen readers, invalid, the cell's look. */
const cellControl = ({
  label,
  invalid = false,
  numeric = false,
  className,
}: CellProps & { className?: string }) => ({
  'aria-label': label,
  'aria-invalid': invalid || undefined,
  className: cellClasses(invalid, numeric, className),
});

export const LineInput = ({
  label,
  invalid,
  numeric,
  className,
  ...rest
}: CellProps & InputHTMLAttributes<HTMLInputElement>) => (
  <input
    {...cellControl({ label, invalid, numeric, className })}
    autoComplete="off"
    inputMode={numeric ? 'decimal' : undefined}
    {...rest}
  />
);

export const LineSelect = ({
  label,
  invalid,
  className,
  ...rest
}: CellProps & SelectHTMLAttributes<HTMLSelectElement>) => (
  <select {...cellControl({ label, invalid, className })} {...rest} />
);

/** Removes its line; disabled when the line is the only one. */
export const RemoveLineButton = ({
  line,
  onRemove,
  disabled,
}: {
  line: number;
  onRemove: () => void;
  disabled?: boolean;
}) => (
  <button
    type="button"
    aria-label={`Remove line ${line}`}
    onClick={onRemove}
    disabled={disabled}
    className="inline-flex h-11 w-11 items-center justify-center rounded-lg text-slate-400 hover:bg-slate-100 hover:text-red-600 disabled:opacity-30 dark:hover:bg-slate-800"
  >
    <Trash2 className="h-4 w-4" aria-hidden="true" />
  </button>
);
