import type { ChangeEvent } from 'react';
import type { Account } from '../../../shared/ledger.ts';
import type { MoneyAccount } from '../../../shared/wallet.ts';
import { AmountField, FieldShell, SelectField } from '../../components/ui/Field.tsx';
import { CategorySelect } from './CategorySelect.tsx';

// Fields the transactions and wallet forms share: a money account picked by name and currency
// ("Business checking (USD)"), a labelled category picker, and an amount range.

export const MoneyAccountField = ({
  id,
  label,
  value,
  onChange,
  accounts,
  empty,
  withCurrency = true,
  hint,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (id: string) => void;
  accounts: MoneyAccount[];
  /** A first option with the value '' ("All accounts", "— leave this statement out —"). */
  empty?: string;
  withCurrency?: boolean;
  hint?: string;
}) => (
  <SelectField
    id={id}
    label={label}
    value={value}
    onChange={(e) => onChange(e.target.value)}
    hint={hint}
    emptyOption={empty}
    options={accounts.map((a) => ({
      value: a.id,
      label: withCurrency ? `${a.name} (${a.currency})` : a.name,
    }))}
  />
);

export const CategoryField = ({
  id,
  label,
  value,
  onChange,
  categories,
  placeholder,
  extra,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  categories: Account[];
  placeholder?: string;
  extra?: { value: string; label: string }[];
}) => (
  <FieldShell id={id} label={label}>
    <CategorySelect
      id={id}
      value={value}
      onChange={onChange}
      categories={categories}
      placeholder={placeholder}
      extra={extra}
    />
  </FieldShell>
);

type Bound = { value: string; onChange: (e: ChangeEvent<HTMLInputElement>) => void; error?: string | null };

/** "Amount from" and "Amount to" (the list's filter, a rule's condition); `idPrefix`-min and -max. */
export const AmountRangeFields = ({ idPrefix, from, to }: { idPrefix: string; from: Bound; to: Bound }) => (
  <>
    <AmountField id={`${idPrefix}-min`} label="Amount from" {...from} />
    <AmountField id={`${idPrefix}-max`} label="Amount to" placeholder="any" {...to} />
  </>
);
