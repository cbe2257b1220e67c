// An on/off switch (role="switch"): a 44 px target around a 28 px track, named by `label` or by
// the element `labelledBy` points at; busy and disabled as the kit's buttons are.

export const Switch = ({
  on,
  label,
  labelledBy,
  disabled,
  busy,
  onToggle,
}: {
  on: boolean;
  label?: string;
  labelledBy?: string;
  disabled?: boolean;
  busy?: boolean;
  onToggle: () => void;
}) => (
  <button
    type="button"
    role="switch"
    aria-checked={on}
    aria-label={label}
    aria-labelledby={labelledBy}
    aria-busy={busy || undefined}
    disabled={disabled}
    onClick={onToggle}
    className="inline-flex h-11 w-14 shrink-0 items-center justify-center rounded-full disabled:opacity-50"
  >
    <span
      className={`relative inline-flex h-7 w-12 items-center rounded-full transition-colors ${on ? 'bg-brand-600' : 'bg-slate-300 dark:bg-slate-700'}`}
    >
      <span
        className={`inline-block h-5 w-5 rounded-full bg-white shadow transition-transform ${on ? 'translate-x-6' : 'translate-x-1'}`}
      />
    </span>
  </button>
);
