import { BILLING_INTERVALS, BILLING_INTERVAL_LABELS, type BillingInterval } from '../../../shared/plans.ts';

// Monthly or yearly, as radio buttons drawn as a segmented switch: the pricing page and the
// billing page's plan picker.

export const IntervalToggle = ({
  value,
  onChange,
  name,
}: {
  value: BillingInterval;
  onChange: (value: BillingInterval) => void;
  /** The radio group's name (unique on the page). */
  name: string;
}) => (
  <fieldset className="inline-flex rounded-xl bg-slate-100 p-1 dark:bg-slate-800">
    <legend className="sr-only">Billing interval</legend>
    {BILLING_INTERVALS.map((v) => (
      <label
        key={v}
        className={`inline-flex min-h-11 cursor-pointer items-center gap-2 rounded-lg px-4 text-sm font-semibold transition has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-500 sm:px-5 ${
          value === v
            ? 'bg-white text-slate-950 shadow-sm dark:bg-slate-950 dark:text-white'
            : 'text-slate-600 dark:text-slate-300'
        }`}
      >
        <input
          type="radio"
          name={name}
          value={v}
          checked={value === v}
          onChange={() => onChange(v)}
          className="sr-only"
        />
        {BILLING_INTERVAL_LABELS[v]}
        {v === 'yearly' ? (
          <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs text-emerald-800 dark:bg-emerald-500/15 dark:text-emerald-300">
            2 months free
          </span>
        ) : null}
      </label>
    ))}
  </fieldset>
);
