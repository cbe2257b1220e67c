import { ArrowDown, ArrowUp } from 'lucide-react';
import {
  type ReactNode,
  type TdHTMLAttributes,
  type ThHTMLAttributes,
  useEffect,
  useRef,
  useState,
} from 'react';

// Data tables: a frame that scrolls sideways inside itself when the table is wider than the
// screen (never the page; focusable and labelled then), a caption (visible or for screen readers only), header
// cells with a scope, and numeric cells right-aligned in tabular figures.

/**
 * Whether a box is narrower than what it holds (a wide table on a phone): then it scrolls
 * sideways inside itself, and is made a focusable, labelled region so keyboard users can
 * scroll it too. Measured again whenever the box or its content changes size.
 */
const useOverflowing = () => {
  const ref = useRef<HTMLDivElement>(null);
  const [overflowing, setOverflowing] = useState(false);
  useEffect(() => {
    const box = ref.current;
    if (!box || typeof ResizeObserver === 'undefined') return;
    // Only from the observer, which reports every observed box once after the first layout:
    // reading the widths during the commit instead would force a layout of the whole page
    // for every table mounted (the attributes it sets change nothing on the screen).
    const measure = () => setOverflowing(box.scrollWidth > box.clientWidth + 1);
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    if (box.firstElementChild) observer.observe(box.firstElementChild);
    return () => observer.disconnect();
  }, []);
  return { ref, overflowing };
};

/**
 * A box that scrolls sideways inside itself when its content is wider (tables, line editors).
 * It is `relative` so that screen-reader-only text in its cells (absolutely positioned) is
 * clipped by it too, instead of widening the page from where it sits in the table.
 */
export const ScrollFrame = ({
  label,
  className = '',
  children,
}: {
  label: string;
  className?: string;
  children: ReactNode;
}) => {
  const { ref, overflowing } = useOverflowing();
  return (
    <div
      ref={ref}
      className={`relative w-full max-w-full overflow-x-auto overscroll-x-contain [contain:inline-size] focus-visible:outline-2 focus-visible:outline-brand-500 ${className}`}
      {...(overflowing ? { role: 'region', 'aria-label': `${label} (scrolls sideways)`, tabIndex: 0 } : {})}
    >
      {children}
    </div>
  );
};

export const Table = ({
  caption,
  captionHidden = false,
  children,
  className = '',
  dense = false,
}: {
  caption: ReactNode;
  captionHidden?: boolean;
  children: ReactNode;
  className?: string;
  dense?: boolean;
}) => (
  <ScrollFrame label={typeof caption === 'string' ? caption : 'Table'} className={className}>
    <table
      className={`w-full border-collapse text-left text-sm text-slate-700 dark:text-slate-200 ${dense ? '[&_td]:py-1.5 [&_th]:py-1.5' : ''}`}
    >
      <caption
        className={
          captionHidden
            ? 'sr-only'
            : 'px-4 pb-2 text-left text-sm font-medium text-slate-500 caption-top dark:text-slate-400'
        }
      >
        {caption}
      </caption>
      {children}
    </table>
  </ScrollFrame>
);

type ThProps = ThHTMLAttributes<HTMLTableCellElement> & { numeric?: boolean };

export const Th = ({ numeric = false, scope = 'col', className = '', children, ...rest }: ThProps) => (
  <th
    scope={scope}
    className={`border-b border-slate-200 bg-slate-50 px-4 py-2.5 text-xs font-semibold tracking-wide text-slate-500 uppercase dark:border-slate-800 dark:bg-slate-900/60 dark:text-slate-400 ${numeric ? 'text-right' : 'text-left'} ${className}`}
    {...rest}
  >
    {children}
  </th>
);

type TdProps = TdHTMLAttributes<HTMLTableCellElement> & { numeric?: boolean };

export const Td = ({ numeric = false, className = '', children, ...rest }: TdProps) => (
  <td
    className={`border-b border-slate-100 px-4 py-2.5 align-middle dark:border-slate-800/70 ${numeric ? 'text-right tabular-nums whitespace-nowrap' : ''} ${className}`}
    {...rest}
  >
    {children}
  </td>
);

/** A column heading that sorts the table: a button, `aria-sort` and an arrow on the sorted column. */
export const SortTh = ({
  label,
  numeric = false,
  sorted,
  ascending,
  onSort,
}: {
  label: ReactNode;
  numeric?: boolean;
  sorted: boolean;
  ascending: boolean;
  onSort: () => void;
}) => (
  <Th numeric={numeric} aria-sort={sorted ? (ascending ? 'ascending' : 'descending') : 'none'}>
    <button
      type="button"
      onClick={onSort}
      className={`inline-flex min-h-11 min-w-11 items-center gap-1 uppercase hover:text-slate-900 dark:hover:text-white ${numeric ? 'flex-row-reverse' : ''}`}
    >
      {label}
      {sorted ? (
        ascending ? (
          <ArrowUp className="h-3.5 w-3.5" aria-hidden="true" />
        ) : (
          <ArrowDown className="h-3.5 w-3.5" aria-hidden="true" />
        )
      ) : null}
    </button>
  </Th>
);

/** A row header cell (first column naming the row), e.g. an account in a report. */
export const RowTh = ({ className = '', children, ...rest }: ThHTMLAttributes<HTMLTableCellElement>) => (
  <th
    scope="row"
    className={`border-b border-slate-100 px-4 py-2.5 text-left align-middle font-normal dark:border-slate-800/70 ${className}`}
    {...rest}
  >
    {children}
  </th>
);

/** A column of TableHead: its label, or the label with numeric alignment and classes. */
export type TableColumn = string | { label: ReactNode; numeric?: boolean; className?: string };

/** A table's header row from its columns, each a Th. */
export const TableHead = ({ columns, className }: { columns: TableColumn[]; className?: string }) => (
  <thead className={className}>
    <tr>
      {columns.map((column, i) => {
        const { label, numeric, className: cell } = typeof column === 'string' ? { label: column } : column;
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: a table's columns are fixed and in order
          <Th key={i} numeric={numeric} className={cell}>
            {label}
          </Th>
        );
      })}
    </tr>
  </thead>
);

/** A table's closing row (a total, a closing balance): its label heading `span` columns, then its cells. */
export const TotalsFoot = ({
  label,
  span,
  children,
}: {
  label: ReactNode;
  span: number;
  children: ReactNode;
}) => (
  <tfoot>
    <tr className="bg-slate-50 font-semibold text-slate-900 dark:bg-slate-900/60 dark:text-white">
      <RowTh colSpan={span} className="font-semibold">
        {label}
      </RowTh>
      {children}
    </tr>
  </tfoot>
);
