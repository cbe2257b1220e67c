import {
  type CSSProperties,
  type KeyboardEvent,
  type Ref,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import type { Account } from '../../../shared/ledger.ts';
import { searchAccounts } from './entryDraft.ts';
import { ACCOUNT_TYPE_LABELS } from '../../../shared/ledger.ts';

// A searchable account field (ARIA 1.2 combobox with a listbox popup): type a code or part of
// a name, move with the arrow keys, Enter or Tab picks the highlighted account. With the list
// closed, Enter is handed to the caller (the entry editor adds a line with it). The list is
// positioned against the viewport so a scrolling table or panel never clips it.

export const accountLabel = (a: Pick<Account, 'code' | 'name'>) => `${a.code} · ${a.name}`;

export const AccountPicker = ({
  accounts,
  value,
  onChange,
  label,
  inputRef,
  invalid = false,
  describedBy,
  onEnter,
  placeholder = 'Code or name',
  className = '',
}: {
  accounts: Account[];
  value: string;
  onChange: (accountId: string) => void;
  /** Accessible name, e.g. "Account, line 2". */
  label: string;
  inputRef?: Ref<HTMLInputElement>;
  invalid?: boolean;
  describedBy?: string;
  onEnter?: () => void;
  placeholder?: string;
  className?: string;
}) => {
  const listId = useId();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const selected = accounts.find((a) => a.id === value) ?? null;
  const wrapper = useRef<HTMLDivElement>(null);
  const [place, setPlace] = useState<CSSProperties>({});

  useLayoutEffect(() => {
    if (!open) return;
    const update = () => {
      const r = wrapper.current?.getBoundingClientRect();
      if (!r) return;
      const below = window.innerHeight - r.bottom;
      const width = Math.max(r.width, 288);
      const left = Math.max(8, Math.min(r.left, window.innerWidth - width - 8));
      setPlace(
        below < 300 && r.top > below
          ? { position: 'fixed', left, width, bottom: window.innerHeight - r.top + 4 }
          : { position: 'fixed', left, width, top: r.bottom + 4 },
      );
    };
    update();
    window.addEventListener('scroll', update, true);
    window.addEventListener('resize', update);
    return () => {
      window.removeEventListener('scroll', update, true);
      window.removeEventListener('resize', update);
    };
  }, [open]);
  const results = useMemo(() => searchAccounts(accounts, query, 50), [accounts, query]);

  const pick = (account: Account | undefined) => {
    if (account) onChange(account.id);
    setOpen(false);
    setQuery('');
  };

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      if (!open) {
        setOpen(true);
        setActive(0);
      } else setActive((i) => Math.min(i + 1, results.length - 1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((i) => Math.max(i - 1, 0));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      if (open && results.length > 0) pick(results[active]);
      else onEnter?.();
    } else if (e.key === 'Escape') {
      if (open) {
        e.preventDefault();
        e.stopPropagation();
        setOpen(false);
        setQuery('');
      }
    } else if (e.key === 'Tab') {
      // Typing "40" then Tab takes the first match, as in spreadsheet-style entry.
      if (open && query.trim() && results.length > 0) pick(results[active]);
      else setOpen(false);
    }
  };

  const activeId = open && results[active] ? `${listId}-${results[active].id}` : undefined;

  return (
    <div ref={wrapper} className={`relative ${className}`}>
      <input
        ref={inputRef}
        type="text"
        role="combobox"
        aria-label={label}
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={activeId}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        autoComplete="off"
        spellCheck={false}
        placeholder={placeholder}
        value={open ? query : selected ? accountLabel(selected) : query}
        onChange={(e) => {
          setQuery(e.target.value);
          setOpen(true);
          setActive(0);
        }}
        onFocus={(e) => e.currentTarget.select()}
        onClick={() => {
          if (!open) {
            setOpen(true);
            setActive(0);
          }
        }}
        onBlur={() => {
          setOpen(false);
          setQuery('');
        }}
        onKeyDown={onKeyDown}
        className={`block min-h-11 w-full rounded-lg border bg-white px-3 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none dark:bg-slate-900 dark:text-slate-100 dark:placeholder:text-slate-500 ${invalid ? 'border-red-500 dark:border-red-400' : 'border-slate-300 dark:border-slate-700'}`}
      />
      {open ? (
        <div
          id={listId}
          role="listbox"
          aria-label={`${label} choices`}
          style={place}
          className="z-[60] max-h-72 overflow-y-auto rounded-lg border border-slate-200 bg-white py-1 shadow-xl dark:border-slate-700 dark:bg-slate-900"
        >
          {results.length === 0 ? (
            <p className="px-3 py-2 text-sm text-slate-500 dark:text-slate-400">
              No account matches “{query}”. Add it under Chart of Accounts.
            </p>
          ) : (
            results.map((a, i) => (
              <div
                key={a.id}
                id={`${listId}-${a.id}`}
                role="option"
                tabIndex={-1}
                aria-selected={i === active}
                onMouseDown={(e) => {
                  e.preventDefault();
                  pick(a);
                }}
                onMouseEnter={() => setActive(i)}
                className={`flex min-h-10 cursor-pointer items-center justify-between gap-3 px-3 text-sm ${i === active ? 'bg-brand-50 text-brand-900 dark:bg-brand-900/50 dark:text-brand-100' : 'text-slate-800 dark:text-slate-100'}`}
              >
                <span className="truncate">
                  <span className="tabular-nums text-slate-500 dark:text-slate-400">{a.code}</span> {a.name}
                </span>
                <span className="shrink-0 text-xs text-slate-400">{ACCOUNT_TYPE_LABELS[a.type]}</span>
              </div>
            ))
          )}
        </div>
      ) : null}
    </div>
  );
};
