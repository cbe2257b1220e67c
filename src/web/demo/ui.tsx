import type { ReactNode } from 'react';
import { PROGRESS_BAR_CLASS, progressTone } from './logic.ts';
import { Table, Th } from '../components/ui/Table.tsx';
import { formatPercent } from '../lib/format.ts';

// Small building blocks of the demo screens.

export const Card = ({
  title,
  action,
  children,
  className = '',
}: {
  title?: string;
  action?: ReactNode;
  children: ReactNode;
  className?: string;
}) => (
  <section
    className={`rounded-xl border border-slate-200 bg-white p-4 shadow-sm dark:border-slate-800 dark:bg-slate-900 ${className}`}
  >
    {title ? (
      <div className="mb-3 flex items-center justify-between gap-2">
        <h4 className="text-sm font-semibold text-slate-900 dark:text-white">{title}</h4>
        {action}
      </div>
    ) : null}
    {children}
  </section>
);

export type Tone = 'green' | 'blue' | 'amber' | 'red' | 'slate' | 'violet';

const BADGE: Record<Tone, string> = {
  green: 'bg-emerald-50 text-emerald-800 ring-emerald-600/20 dark:bg-emerald-500/10 dark:text-emerald-300',
  blue: 'bg-brand-50 text-brand-800 ring-brand-600/20 dark:bg-brand-500/10 dark:text-brand-300',
  amber: 'bg-amber-50 text-amber-800 ring-amber-600/20 dark:bg-amber-500/10 dark:text-amber-300',
  red: 'bg-red-50 text-red-800 ring-red-600/20 dark:bg-red-500/10 dark:text-red-300',
  slate: 'bg-slate-100 text-slate-700 ring-slate-500/20 dark:bg-slate-700/40 dark:text-slate-200',
  violet: 'bg-violet-50 text-violet-800 ring-violet-600/20 dark:bg-violet-500/10 dark:text-violet-300',
};

export const Badge = ({ tone, children }: { tone: Tone; children: ReactNode }) => (
  <span
    className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset ${BADGE[tone]}`}
  >
    {children}
  </span>
);

/** A progress bar coloured by the SPEC's thresholds. */
export const ProgressBar = ({ value, label }: { value: number; label: string }) => {
  const tone = progressTone(value);
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuenow={value}
      aria-valuemin={0}
      aria-valuemax={100}
      data-tone={tone}
      className="h-2 w-full overflow-hidden rounded-full bg-slate-100 dark:bg-slate-800"
    >
      <div className={`h-full rounded-full ${PROGRESS_BAR_CLASS[tone]}`} style={{ width: `${value}%` }} />
    </div>
  );
};

export const Stat = ({ label, value, hint }: { label: string; value: ReactNode; hint?: ReactNode }) => (
  <div className="rounded-xl border border-slate-200 bg-white p-3 dark:border-slate-800 dark:bg-slate-900">
    <p className="text-xs font-medium text-slate-600 dark:text-slate-400">{label}</p>
    <p className="mt-1 text-lg font-semibold tracking-tight text-slate-900 tabular-nums dark:text-white">
      {value}
    </p>
    {hint ? <div className="mt-0.5 text-xs">{hint}</div> : null}
  </div>
);

/** A row of figures: two across, four from large screens up. */
export const StatGrid = ({
  stats,
}: {
  stats: readonly { label: string; value: ReactNode; hint?: ReactNode }[];
}) => (
  <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
    {stats.map((stat) => (
      <Stat key={stat.label} {...stat} />
    ))}
  </div>
);

/** Figures with their change as the hint; `invert` where a rise is bad news (expenses). */
export const changeStats = <T extends { label: string; change: number }>(
  items: readonly T[],
  value: (item: T) => ReactNode,
  invert: (item: T) => boolean,
) =>
  items.map((item) => ({
    label: item.label,
    value: value(item),
    hint: <Change value={item.change} invert={invert(item)} />,
  }));

/** A demo screen: what leads it (a row of figures, a table), then its cards side by side. */
export const Screen = ({
  lead,
  columns,
  children,
}: {
  lead: ReactNode;
  columns: string;
  children: ReactNode;
}) => (
  <div className="space-y-4">
    {lead}
    <div className={`grid gap-4 ${columns}`}>{children}</div>
  </div>
);

export const Change = ({ value, invert = false }: { value: number; invert?: boolean }) => {
  const good = invert ? value < 0 : value >= 0;
  return (
    <span
      className={`font-medium tabular-nums ${good ? 'text-emerald-700 dark:text-emerald-400' : 'text-red-700 dark:text-red-400'}`}
    >
      {value >= 0 ? '▲' : '▼'} {formatPercent(Math.abs(value))}
    </span>
  );
};

/** One column of a DemoTable: its heading, what a row shows in it, classes added to its cells. */
export type DemoColumn<T> = {
  head: string;
  cell: (row: T) => ReactNode;
  className?: string | ((row: T) => string);
};

const CELL = 'py-2 pr-3';
/** The last column holds the row's amount: right-aligned, tabular figures. */
const AMOUNT_CELL = 'py-2 text-right tabular-nums';

const DemoRow = <T,>({
  row,
  columns,
  className,
  testId,
}: {
  row: T;
  columns: readonly DemoColumn<T>[];
  className?: string;
  testId?: string;
}) => (
  <tr className={className} data-testid={testId}>
    {columns.map((column, i) => {
      const base = i === columns.length - 1 ? AMOUNT_CELL : CELL;
      const extra = typeof column.className === 'function' ? column.className(row) : column.className;
      return (
        <td key={column.head} className={extra ? `${base} ${extra}` : base}>
          {column.cell(row)}
        </td>
      );
    })}
  </tr>
);

/**
 * A compact table (the kit's Table, caption for screen readers) that scrolls sideways on narrow
 * screens, described by its columns: one row per item, then the bold `total` row if given.
 */
export const DemoTable = <T,>({
  caption,
  columns,
  rows,
  rowKey,
  rowTestId,
  total,
}: {
  caption: string;
  columns: readonly DemoColumn<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  rowTestId?: string;
  total?: T;
}) => (
  <Table caption={caption} captionHidden dense className="-mx-4 px-4 [&_table]:min-w-[28rem]">
    <thead>
      <tr>
        {columns.map(({ head }, i) => (
          <Th key={head} numeric={i === columns.length - 1} className="px-0 pr-3 normal-case tracking-normal">
            {head}
          </Th>
        ))}
      </tr>
    </thead>
    <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
      {rows.map((row) => (
        <DemoRow key={rowKey(row)} row={row} columns={columns} testId={rowTestId} />
      ))}
      {total ? <DemoRow row={total} columns={columns} className="font-semibold" /> : null}
    </tbody>
  </Table>
);

/** How the demo's cards lay out their lists: classes of the list and of each item. */
const LIST_LAYOUTS = {
  /** Rows split by lines: a name and its details, figures on the right. */
  rows: {
    list: 'divide-y divide-slate-100 dark:divide-slate-800',
    item: 'flex items-center justify-between gap-3 py-2 text-sm',
  },
  /** A label and its figure on one line. */
  pairs: { list: 'space-y-1.5 text-sm', item: 'flex justify-between gap-2' },
  /** A name over its details, a figure or badge on the right. */
  spread: { list: 'space-y-2.5 text-sm', item: 'flex items-center justify-between gap-2' },
  /** Tighter: a name and a badge. */
  compact: { list: 'space-y-2 text-sm', item: 'flex items-center justify-between gap-2' },
  /** Text that may wrap, its badge or time at the top right. */
  feed: { list: 'space-y-2.5', item: 'flex items-start justify-between gap-3 text-sm' },
  alerts: { list: 'space-y-2 text-sm', item: 'flex items-start justify-between gap-3' },
  /** Blocks one under the other (a line over a bar). */
  stack: { list: 'space-y-3 text-sm', item: undefined },
  /** An icon before each note. */
  notes: { list: 'space-y-3', item: 'flex gap-2 text-sm' },
  /** Two tiles across. */
  tiles: { list: 'grid grid-cols-2 gap-2', item: 'rounded-lg bg-slate-50 p-3 dark:bg-slate-800/60' },
} as const;

/** A card holding one list: each item rendered in its own <li>, laid out by `layout`. */
export const ListCard = <T,>({
  title,
  items,
  itemKey,
  layout,
  children,
}: {
  title: string;
  items: readonly T[];
  itemKey: (item: T) => string;
  layout: keyof typeof LIST_LAYOUTS;
  children: (item: T) => ReactNode;
}) => (
  <Card title={title}>
    <ul className={LIST_LAYOUTS[layout].list}>
      {items.map((item) => (
        <li key={itemKey(item)} className={LIST_LAYOUTS[layout].item}>
          {children(item)}
        </li>
      ))}
    </ul>
  </Card>
);

/** An amount and its status badge, side by side or (`stacked`) the badge under the amount. */
export const AmountStatus = ({
  amount,
  tone,
  status,
  stacked = false,
}: {
  amount: string;
  tone: Tone;
  status: string;
  stacked?: boolean;
}) => (
  <div className={stacked ? 'flex shrink-0 flex-col items-end gap-1' : 'flex shrink-0 items-center gap-2'}>
    <span className={stacked ? 'font-medium tabular-nums' : 'tabular-nums'}>{amount}</span>
    <Badge tone={tone}>{status}</Badge>
  </div>
);

/** A list item's name over its details, and what stands on its right. */
export const TwoLine = ({
  title,
  detail,
  aside,
  titleClassName = 'font-medium text-slate-900 dark:text-white',
}: {
  title: ReactNode;
  detail: ReactNode;
  aside: ReactNode;
  titleClassName?: string;
}) => (
  <>
    <div className="min-w-0">
      <p className={titleClassName}>{title}</p>
      <p className="text-xs text-slate-600 dark:text-slate-400">{detail}</p>
    </div>
    {aside}
  </>
);
