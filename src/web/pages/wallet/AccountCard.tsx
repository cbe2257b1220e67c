import { useQuery } from '@tanstack/react-query';
import {
  ArrowLeftRight,
  Banknote,
  CreditCard,
  HandCoins,
  Landmark,
  Settings,
  Wallet as WalletIcon,
} from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import type { TransactionPage } from '../../../shared/transactions.ts';
import { MONEY_ACCOUNT_KIND_LABELS, type MoneyAccount } from '../../../shared/wallet.ts';
import { Money } from '../../components/money/Money.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { Alert, Badge, Card } from '../../components/ui/Card.tsx';
import { formatDate } from '../../lib/format.ts';
import { api } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { keys } from '../../lib/queryKeys.ts';
import { apiCalls, errorMessage, useMoneyMutation } from '../transactions/api.ts';
import { Skeleton } from '../transactions/Controls.tsx';
import { AccountSettingsDialog } from './AccountSettingsDialog.tsx';

// One money account on the Wallet page: its kind, balance and reconciliation, its latest
// transactions, and its actions (transfer, statement import, settings, archive).

const KIND_ICON = {
  bank: Landmark,
  cash: Banknote,
  credit_card: CreditCard,
  loan: HandCoins,
  payment_processor: WalletIcon,
} as const;

const LatestTransactions = ({ account }: { account: MoneyAccount }) => {
  const { company } = useCompany();
  const latest = useQuery({
    queryKey: keys.transactions(company.id, 'latest', account.id),
    queryFn: () =>
      api.get<TransactionPage>(`/orgs/${company.id}/transactions`, { moneyAccountId: account.id, limit: 5 }),
  });
  if (latest.isLoading) return <Skeleton rows={2} />;
  const rows = latest.data?.transactions ?? [];
  if (rows.length === 0)
    return <p className="px-5 py-3 text-sm text-slate-500 dark:text-slate-400">No transactions yet.</p>;
  return (
    <ul
      className="divide-y divide-slate-100 dark:divide-slate-800"
      aria-label={`Latest transactions of ${account.name}`}
    >
      {rows.map((t) => (
        <li key={t.id} className="flex items-center justify-between gap-3 px-5 py-2 text-sm">
          <span className="min-w-0">
            <span className="block truncate text-slate-900 dark:text-white">{t.description}</span>
            <span className="text-xs text-slate-500 dark:text-slate-400">
              {formatDate(t.date)} · {t.categoryName ?? 'Uncategorised'}
            </span>
          </span>
          <Money minor={t.amount} currency={t.currency} className="font-medium" />
        </li>
      ))}
    </ul>
  );
};

export const AccountCard = ({
  account,
  baseCurrency,
  onTransfer,
}: {
  account: MoneyAccount;
  baseCurrency: string;
  onTransfer: () => void;
}) => {
  const { can } = useCompany();
  const Icon = KIND_ICON[account.kind];
  const archive = useMoneyMutation(apiCalls.updateAccount);
  const [error, setError] = useState<string | null>(null);
  const [settings, setSettings] = useState(false);
  return (
    <Card className={account.archived ? 'opacity-70' : ''}>
      <div className="flex items-start justify-between gap-3 p-5" data-testid="account-card">
        <div className="flex min-w-0 items-start gap-3">
          <span className="flex h-11 w-11 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-700 dark:bg-brand-900/40 dark:text-brand-300">
            <Icon className="h-5 w-5" aria-hidden="true" />
          </span>
          <div className="min-w-0">
            <h2 className="truncate font-semibold text-slate-900 dark:text-white">{account.name}</h2>
            <p className="text-xs text-slate-500 dark:text-slate-400">
              {MONEY_ACCOUNT_KIND_LABELS[account.kind]}
              {account.institution ? ` · ${account.institution}` : ''}
              {account.maskedNumber ? ` · ${account.maskedNumber}` : ''} · ledger {account.ledgerAccountCode}
            </p>
            <div className="mt-1 flex flex-wrap gap-1">
              {account.archived ? <Badge>Archived</Badge> : null}
              {account.isDefaultDeposit ? <Badge tone="green">Deposit account</Badge> : null}
              {account.uncategorizedCount > 0 ? (
                <Badge tone="amber">{account.uncategorizedCount} to categorise</Badge>
              ) : null}
              {account.lastReconciledDate ? (
                <Badge tone="green">Reconciled to {formatDate(account.lastReconciledDate)}</Badge>
              ) : null}
            </div>
          </div>
        </div>
        <div className="text-right">
          <p className="text-xl font-bold text-slate-900 dark:text-white" data-testid="account-balance">
            <Money minor={account.balance} currency={account.currency} />
          </p>
          {account.currency !== baseCurrency ? (
            <p className="text-xs text-slate-500 dark:text-slate-400">
              Book value <Money minor={account.baseBalance} currency={baseCurrency} />
              {account.rate ? ` · latest rate ${account.rate}` : ''}
              {account.rateDate ? ` (${formatDate(account.rateDate)})` : ''}
            </p>
          ) : null}
          <p className="text-xs text-slate-500 dark:text-slate-400">Ledger balance</p>
        </div>
      </div>
      {error ? (
        <div className="px-5 pb-3">
          <Alert>{error}</Alert>
        </div>
      ) : null}
      <div className="border-t border-slate-100 dark:border-slate-800">
        <LatestTransactions account={account} />
      </div>
      <div className="flex flex-wrap gap-2 border-t border-slate-100 px-5 py-3 dark:border-slate-800">
        <Link
          to={`/transactions?account=${account.id}`}
          className="inline-flex min-h-11 items-center rounded-lg px-3 text-sm font-semibold text-brand-700 hover:bg-brand-50 dark:text-brand-300 dark:hover:bg-brand-900/40"
        >
          All transactions
        </Link>
        {can('post') && !account.archived ? (
          <Button variant="ghost" size="sm" onClick={onTransfer}>
            <ArrowLeftRight className="h-4 w-4" aria-hidden="true" /> Transfer
          </Button>
        ) : null}
        {can('manage_settings') ? (
          <Button variant="ghost" size="sm" className="ml-auto" onClick={() => setSettings(true)}>
            <Settings className="h-4 w-4" aria-hidden="true" /> Settings
          </Button>
        ) : null}
        {can('manage_settings') ? (
          <Button
            variant="ghost"
            size="sm"
            busy={archive.isPending}
            onClick={async () => {
              setError(null);
              try {
                await archive.mutateAsync({ id: account.id, body: { archived: !account.archived } });
              } catch (err) {
                setError(errorMessage(err));
              }
            }}
          >
            {account.archived ? 'Unarchive' : 'Archive'}
          </Button>
        ) : null}
      </div>
      {settings ? <AccountSettingsDialog account={account} onClose={() => setSettings(false)} /> : null}
    </Card>
  );
};
