import type { ReactNode } from 'react';
import { Button } from '../../components/ui/Button.tsx';

// Small controls shared by the transactions and wallet pages.

export const Chip = ({
  pressed,
  onClick,
  children,
}: {
  pressed: boolean;
  onClick: () => void;
  children: ReactNode;
}) => (
  <button
    type="button"
    aria-pressed={pressed}
    onClick={onClick}
    className={`min-h-11 rounded-full border px-4 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500 ${
      pressed
        ? 'border-brand-600 bg-brand-600 text-white dark:border-brand-400 dark:bg-brand-500 dark:text-slate-950'
        : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800'
    }`}
  >
    {children}
  </button>
);

export const Skeleton = ({ rows = 6 }: { rows?: number }) => (
  <div role="status" aria-busy="true" aria-label="Loading" className="space-y-2 p-4">
    {Array.from({ length: rows }, (_, i) => (
      // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
      <div key={i} className="h-10 animate-pulse rounded-md bg-slate-100 dark:bg-slate-800" />
    ))}
  </div>
);

/** `detail` (e.g. "12,000 of 100,000") replaces the percentage shown and read out. */
export const ProgressBar = ({
  value,
  label,
  detail,
}: {
  value: number | null;
  label: string;
  detail?: string;
}) => (
  <div>
    <div className="mb-1 flex justify-between gap-2 text-sm text-slate-600 dark:text-slate-300">
      <span>{label}</span>
      {detail ? (
        <span className="tabular-nums">{detail}</span>
      ) : value !== null ? (
        <span className="tabular-nums">{Math.round(value * 100)}%</span>
      ) : null}
    </div>
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value !== null ? Math.round(value * 100) : undefined}
      aria-valuetext={detail}
      className="h-2.5 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-800"
    >
      <div
        className={`h-full rounded-full bg-brand-600 transition-all dark:bg-brand-400 ${value === null ? 'w-1/3 animate-pulse' : ''}`}
        style={value !== null ? { width: `${Math.max(2, value * 100)}%` } : undefined}
      />
    </div>
  </div>
);

/** A wizard step's buttons: going back (or Cancel) on the left, the step's next action on the right. */
export const StepButtons = ({
  onBack,
  backLabel = 'Back',
  children,
}: {
  onBack: () => void;
  backLabel?: string;
  children: ReactNode;
}) => (
  <div className="flex justify-between gap-2">
    <Button variant="secondary" onClick={onBack}>
      {backLabel}
    </Button>
    {children}
  </div>
);
