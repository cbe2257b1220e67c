import { ArrowLeftRight, Plus, RefreshCw } from 'lucide-react';
import { lazy, Suspense, useDeferredValue, useState } from 'react';
import { isLiabilityMoneyAccountKind } from '../../../shared/wallet.ts';
import { Money } from '../../components/money/Money.tsx';
import { MoneyAccountSelect } from '../../components/money/MoneyAccountSelect.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { Alert, Card, CardHeader, EmptyState } from '../../components/ui/Card.tsx';
import { PageHeader } from '../../components/ui/PageHeader.tsx';
import { formatDate } from '../../lib/format.ts';
import { api } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import {
  errorMessage,
  useBalanceHistory,
  useMoneyMutation,
  useRates,
  useWallet,
} from '../transactions/api.ts';
import { Skeleton } from '../transactions/Controls.tsx';
import { AccountCard } from './AccountCard.tsx';
import { AddAccountDialog, RateDialog, TransferDialog } from './WalletDialogs.tsx';

// /wallet: the company's money accounts with their ledger balances (the same query as the
// balance sheet's cash lines and the dashboard's cash), the cash total, the deposit account,
// the balance over time, the latest transactions per account, and dialogs to add an account,
// change its settings, move money and enter a rate.

const BalanceChart = lazy(() => import('./BalanceChart.tsx').then((m) => ({ default: m.BalanceChart })));
// Bank connections (issue 18): its own chunk, with Plaid Link.
const BankFeedsCard = lazy(() => import('./BankFeedsCard.tsx').then((m) => ({ default: m.BankFeedsCard })));

const WalletPage = () => {
  const { company, can } = useCompany();
  // The answers are drawn in deferred renders (slices of a few milliseconds) rather than one
  // long task each as they arrive; each result is deferred whole (loading state with data).
  const wallet = useDeferredValue(useWallet());
  const history = useDeferredValue(useBalanceHistory(12));
  const rates = useDeferredValue(useRates());
  const [dialog, setDialog] = useState<
    { kind: 'add' } | { kind: 'transfer'; fromId?: string } | { kind: 'rate'; currency?: string } | null
  >(null);
  const accounts = wallet.data?.accounts ?? [];
  const live = accounts.filter((a) => !a.archived);
  const [depositError, setDepositError] = useState<string | null>(null);
  const deposit = useMoneyMutation((orgId: string, moneyAccountId: string) =>
    api.put<unknown>(`/orgs/${orgId}/wallet/deposit-account`, { moneyAccountId }),
  );
  const foreign = [
    ...new Set(live.filter((a) => a.currency !== company.baseCurrency).map((a) => a.currency)),
  ];

  return (
    <div className="mx-auto max-w-7xl space-y-6">
      <PageHeader
        title="Wallet"
        description={`Bank accounts, cash, cards and payment balances of ${company.name}.`}
        actions={
          <>
            {can('post') ? (
              <>
                <Button variant="secondary" onClick={() => setDialog({ kind: 'rate' })}>
                  <RefreshCw className="h-4 w-4" aria-hidden="true" /> Exchange rate
                </Button>
                <Button
                  variant="secondary"
                  onClick={() => setDialog({ kind: 'transfer' })}
                  disabled={live.length < 2}
                >
                  <ArrowLeftRight className="h-4 w-4" aria-hidden="true" /> Transfer
                </Button>
              </>
            ) : null}
            {can('manage_settings') ? (
              <Button onClick={() => setDialog({ kind: 'add' })}>
                <Plus className="h-4 w-4" aria-hidden="true" /> Add account
              </Button>
            ) : null}
          </>
        }
      />

      {wallet.isLoading ? (
        <Skeleton rows={4} />
      ) : wallet.isError ? (
        <Alert>{errorMessage(wallet.error)}</Alert>
      ) : accounts.length === 0 ? (
        <Card>
          <EmptyState
            title="No accounts yet"
            description="Add your bank account with its opening balance, then import a statement on the Transactions page."
            action={
              can('manage_settings') ? (
                <Button onClick={() => setDialog({ kind: 'add' })}>Add account</Button>
              ) : null
            }
          />
        </Card>
      ) : (
        <>
          <div className="grid gap-4 lg:grid-cols-3">
            <Card className="lg:col-span-1">
              <div className="p-5">
                <p className="text-sm text-slate-500 dark:text-slate-400">Cash in {company.baseCurrency}</p>
                <p
                  className="mt-1 text-3xl font-bold text-slate-900 dark:text-white"
                  data-testid="wallet-total"
                >
                  <Money minor={wallet.data!.cashBase} currency={company.baseCurrency} />
                </p>
                <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
                  Bank, cash and payment accounts from the ledger, as on the balance sheet and the dashboard;{' '}
                  {live.length} active account{live.length === 1 ? '' : 's'}
                  {foreign.length > 0 ? '; foreign balances at their book value' : ''}
                </p>
                {live.some((a) => a.kind === 'credit_card') ? (
                  <p className="mt-2 flex justify-between gap-3 text-sm" data-testid="wallet-cards">
                    <span className="text-slate-600 dark:text-slate-300">Credit cards</span>
                    <Money minor={wallet.data!.cardsBase} currency={company.baseCurrency} />
                  </p>
                ) : null}
                {live.some((a) => a.kind === 'loan') ? (
                  <p className="mt-2 flex justify-between gap-3 text-sm" data-testid="wallet-loans">
                    <span className="text-slate-600 dark:text-slate-300">Loans</span>
                    <Money minor={wallet.data!.loansBase} currency={company.baseCurrency} />
                  </p>
                ) : null}
                <ul
                  className="mt-4 space-y-1.5 border-t border-slate-100 pt-3 text-sm dark:border-slate-800"
                  aria-label="Balances by account"
                >
                  {live
                    .filter((a) => !isLiabilityMoneyAccountKind(a.kind))
                    .map((a) => (
                      <li key={a.id} className="flex justify-between gap-3">
                        <span className="truncate text-slate-600 dark:text-slate-300">{a.name}</span>
                        <Money
                          minor={a.baseBalance}
                          currency={company.baseCurrency}
                          className="font-medium"
                        />
                      </li>
                    ))}
                </ul>
                {can('manage_settings') ? (
                  <div className="mt-4 border-t border-slate-100 pt-3 dark:border-slate-800">
                    <MoneyAccountSelect
                      id="deposit-account"
                      label="Deposit account"
                      value={wallet.data!.defaultDepositAccountId ?? ''}
                      noDefault
                      excludeCards
                      onChange={(id) => {
                        setDepositError(null);
                        if (id)
                          deposit.mutateAsync(id).catch((err: unknown) => setDepositError(errorMessage(err)));
                      }}
                      error={depositError}
                      hint="Invoice payments and other money in go here unless another account is picked."
                    />
                  </div>
                ) : null}
                {foreign.length > 0 ? (
                  <ul className="mt-3 space-y-1 text-sm" aria-label="Rates used">
                    {foreign.map((c) => {
                      const a = live.find((x) => x.currency === c);
                      return (
                        <li key={c} className="flex justify-between gap-2">
                          <span>1 {c}</span>
                          <span className="tabular-nums">
                            {a?.rate ? `${a.rate} ${company.baseCurrency}` : '—'}
                            {a?.rateDate ? (
                              <span className="text-slate-500"> · {formatDate(a.rateDate)}</span>
                            ) : null}
                          </span>
                        </li>
                      );
                    })}
                  </ul>
                ) : null}
              </div>
            </Card>
            <Card className="lg:col-span-2">
              <CardHeader
                title="Balance over time"
                description={`Month-end ledger balance of active accounts in ${company.baseCurrency}`}
              />
              <div className="p-4">
                {history.data ? (
                  <Suspense fallback={<Skeleton rows={3} />}>
                    <BalanceChart history={history.data} />
                  </Suspense>
                ) : (
                  <Skeleton rows={3} />
                )}
              </div>
            </Card>
          </div>
          <div className="grid gap-4 md:grid-cols-2">
            {accounts.map((a) => (
              <AccountCard
                key={a.id}
                account={a}
                baseCurrency={company.baseCurrency}
                onTransfer={() => setDialog({ kind: 'transfer', fromId: a.id })}
              />
            ))}
          </div>
          {(rates.data ?? []).length > 0 ? (
            <Card>
              <CardHeader
                title="Exchange rates"
                description={`${company.baseCurrency} per one unit, newest first`}
              />
              <ul className="divide-y divide-slate-100 text-sm dark:divide-slate-800">
                {rates.data!.slice(0, 10).map((r) => (
                  <li key={`${r.currency}-${r.date}`} className="flex justify-between px-5 py-2">
                    <span>
                      {r.currency} · {formatDate(r.date)}
                    </span>
                    <span className="tabular-nums">{r.rate}</span>
                  </li>
                ))}
              </ul>
            </Card>
          ) : null}
        </>
      )}

      {/* Below the accounts, and only once they are in: drawn earlier, it sat where they arrive
          and was pushed down by them (layout shift at phone width). */}
      {wallet.isLoading ? null : (
        <Suspense fallback={<Skeleton rows={2} />}>
          <BankFeedsCard />
        </Suspense>
      )}

      {dialog?.kind === 'add' ? <AddAccountDialog onClose={() => setDialog(null)} /> : null}
      {dialog?.kind === 'transfer' ? (
        <TransferDialog onClose={() => setDialog(null)} fromId={dialog.fromId} />
      ) : null}
      {dialog?.kind === 'rate' ? (
        <RateDialog onClose={() => setDialog(null)} currency={dialog.currency} />
      ) : null}
    </div>
  );
};

export default WalletPage;
