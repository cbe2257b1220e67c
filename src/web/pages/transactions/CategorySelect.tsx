import type { Account } from '../../../shared/ledger.ts';
import { controlClasses } from '../../components/ui/Field.tsx';

// A category picker grouped by account type, as a native select (keyboard and screen-reader friendly).

const GROUPS: { type: Account['type']; label: string }[] = [
  { type: 'income', label: 'Income' },
  { type: 'expense', label: 'Expenses' },
  { type: 'asset', label: 'Assets' },
  { type: 'liability', label: 'Liabilities' },
  { type: 'equity', label: 'Equity' },
];

export const CategorySelect = ({
  id,
  value,
  onChange,
  categories,
  placeholder = 'Choose a category…',
  label,
  extra,
  className = '',
}: {
  id: string;
  value: string;
  onChange: (value: string) => void;
  categories: Account[];
  placeholder?: string;
  label?: string;
  extra?: { value: string; label: string }[];
  className?: string;
}) => (
  <select
    id={id}
    aria-label={label}
    value={value}
    onChange={(e) => onChange(e.target.value)}
    className={`${controlClasses()} ${className}`}
  >
    <option value="">{placeholder}</option>
    {extra?.map((o) => (
      <option key={o.value} value={o.value}>
        {o.label}
      </option>
    ))}
    {GROUPS.map((g) => {
      const list = categories.filter((c) => c.type === g.type);
      if (list.length === 0) return null;
      return (
        <optgroup key={g.type} label={g.label}>
          {list.map((c) => (
            <option key={c.id} value={c.id}>
              {c.code} · {c.name}
            </option>
          ))}
        </optgroup>
      );
    })}
  </select>
);
