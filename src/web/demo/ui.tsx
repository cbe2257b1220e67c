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

/** A compact table (the kit's Table, caption for screen readers) that scrolls sideways on narrow screens. */
export const DemoTable = ({
  caption,
  head,
  children,
}: {
  caption: string;
  head: string[];
  children: ReactNode;
}) => (
  <Table caption={caption} captionHidden dense className="-mx-4 px-4 [&_table]:min-w-[28rem]">
    <thead>
      <tr>
        {head.map((h, i) => (
          <Th key={h} numeric={i === head.length - 1} className="px-0 pr-3 normal-case tracking-normal">
            {h}
          </Th>
        ))}
      </tr>
    </thead>
    <tbody className="divide-y divide-slate-100 dark:divide-slate-800">{children}</tbody>
  </Table>
);

/** A card holding one list: each item rendered in its own <li>. */
export const ListCard = <T,>({
  title,
  items,
  itemKey,
  listClassName,
  itemClassName,
  className,
  children,
}: {
  title: string;
  items: readonly T[];
  itemKey: (item: T) => string;
  listClassName: string;
  itemClassName?: string;
  className?: string;
  children: (item: T) => ReactNode;
}) => (
  <Card title={title} className={className}>
    <ul className={listClassName}>
      {items.map((item) => (
        <li key={itemKey(item)} className={itemClassName}>
          {children(item)}
        </li>
      ))}
    </ul>
  </Card>
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
