import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import {
  type MoneyAccount,
  type WalletSummary,
  isLiabilityMoneyAccountKind,
} from '../../../shared/wallet.ts';
import { api } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { keys } from '../../lib/queryKeys.ts';
import { SelectField } from '../ui/Field.tsx';
import { formatAmount } from './Money.tsx';

// The one picker of a money account for every form that moves money (invoice payments,
// transfers, refunds): the company's open money accounts from the wallet, with their ledger
// balances, defaulting to the company's deposit account (chosen in the Wallet). A money
// account is one ledger account (decision 0022): forms that post to the ledger send its
// `ledgerAccountId`, forms of the wallet its `id`; `onChange` hands over the whole account.

/** The wallet summary (accounts with ledger balances and the deposit account), shared by every picker. */
export const useWalletAccounts = () => {
  const { company } = useCompany();
  return useQuery({
    queryKey: keys.wallet(company.id, 'summary'),
    queryFn: () => api.get<WalletSummary>(`/orgs/${company.id}/wallet`),
  });
};

export type MoneyAccountSelectProps = {
  /** The chosen money account's id ('' until one is chosen: the deposit account is then picked). */
  value: string;
  onChange: (id: string, account: MoneyAccount | null) => void;
  label?: string;
  hint?: string;
  error?: string | null;
  /** Only accounts in one of these currencies (e.g. the base currency and an invoice's). */
  currencies?: string[];
  /** Leave credit cards and loans out (money coming in goes to a bank, cash or processor account). */
  excludeCards?: boolean;
  /** Ids not to offer (e.g. the other side of a transfer). */
  exclude?: string[];
  /** Do not pick the deposit account when `value` is empty. */
  noDefault?: boolean;
  id?: string;
  disabled?: boolean;
};

export const MoneyAccountSelect = ({
  value,
  onChange,
  label = 'Money account',
  hint,
  error,
  currencies,
  excludeCards,
  exclude,
  noDefault,
  id,
  disabled,
}: MoneyAccountSelectProps) => {
  const wallet = useWalletAccounts();
  const offered = (wallet.data?.accounts ?? []).filter(
    (a) =>
      !a.archived &&
      (!currencies || currencies.includes(a.currency)) &&
      (!excludeCards || !isLiabilityMoneyAccountKind(a.kind)) &&
      !(exclude ?? []).includes(a.id),
  );
  const fallback =
    offered.find((a) => a.id === wallet.data?.defaultDepositAccountId) ??
    offered.find((a) => a.kind === 'bank') ??
    offered[0];
  useEffect(() => {
    if (noDefault || value || !fallback) return;
    onChange(fallback.id, fallback);
  }, [noDefault, value, fallback, onChange]);
  const options = offered.map((a) => ({
    value: a.id,
    label: `${a.name} · ${formatAmount(a.balance, a.currency)}${
      a.id === wallet.data?.defaultDepositAccountId ? ' · deposit account' : ''
    }`,
  }));
  return (
    <SelectField
      id={id}
      label={label}
      value={value}
      disabled={disabled || wallet.isLoading}
      onChange={(e) => {
        const picked = offered.find((a) => a.id === e.target.value) ?? null;
        onChange(e.target.value, picked);
      }}
      emptyOption={value ? undefined : wallet.isLoading ? 'Loading accounts…' : 'Choose an account'}
      options={options}
      hint={
        wallet.isError
          ? 'The accounts could not be loaded; try again.'
          : offered.length === 0 && !wallet.isLoading
            ? 'No open money account fits; add one in the Wallet.'
            : hint
      }
      error={error}
    />
  );
};
