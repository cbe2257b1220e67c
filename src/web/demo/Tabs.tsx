import { type KeyboardEvent, useId, useRef } from 'react';

// Accessible tabs (WAI-ARIA tabs pattern): arrow keys, Home and End move between tabs.

export const Tabs = <T extends string>({
  label,
  tabs,
  active,
  onSelect,
  size = 'md',
}: {
  label: string;
  tabs: readonly { id: T; label: string }[];
  active: T;
  onSelect: (id: T) => void;
  size?: 'sm' | 'md';
}) => {
  const base = useId();
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const onKeyDown = (e: KeyboardEvent, index: number) => {
    const last = tabs.length - 1;
    const next =
      e.key === 'ArrowRight'
        ? index === last
          ? 0
          : index + 1
        : e.key === 'ArrowLeft'
          ? index === 0
            ? last
            : index - 1
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? last
              : null;
    if (next === null) return;
    e.preventDefault();
    const tab = tabs[next];
    if (!tab) return;
    onSelect(tab.id);
    refs.current[next]?.focus();
  };
  return (
    <div
      role="tablist"
      aria-label={label}
      className="inline-flex max-w-full gap-1 overflow-x-auto rounded-xl bg-slate-100 p-1 dark:bg-slate-800/70"
    >
      {tabs.map((t, i) => {
        const selected = t.id === active;
        return (
          <button
            key={t.id}
            ref={(el) => {
              refs.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`${base}-${t.id}`}
            aria-selected={selected}
            tabIndex={selected ? 0 : -1}
            onClick={() => onSelect(t.id)}
            onKeyDown={(e) => onKeyDown(e, i)}
            className={`min-h-11 min-w-11 shrink-0 rounded-lg px-3 font-medium whitespace-nowrap transition ${size === 'sm' ? 'text-xs sm:text-sm' : 'text-sm'} ${
              selected
                ? 'bg-white text-slate-950 shadow-sm dark:bg-slate-950 dark:text-white'
                : 'text-slate-600 hover:text-slate-950 dark:text-slate-300 dark:hover:text-white'
            }`}
          >
            {t.label}
          </button>
        );
      })}
    </div>
  );
};
