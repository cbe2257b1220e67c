import { useQuery } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import { useState } from 'react';
import type { TransactionPage } from '../../../shared/transactions.ts';
import { Money } from '../../components/money/Money.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { Alert, Card, EmptyState } from '../../components/ui/Card.tsx';
import { Dialog } from '../../components/ui/Dialog.tsx';
import { api } from '../../lib/api.ts';
import { keys } from '../../lib/queryKeys.ts';
import {
  apiCalls,
  errorMessage,
  formatDay,
  readAmount,
  todayIso,
  useMoneyMutation,
  useOrgId,
  useReconciliation,
  useWallet,
} from './api.ts';
import { Label, Skeleton, inputClass } from './Controls.tsx';
import { formMoneyAccountId } from './defaultAccount.ts';

// Reconciliation: start with an account, the statement's end date and balance; tick off the
// transactions on the statement and watch the difference; finish at zero. Undo the last one.

export const ReconcileStart = ({
  open,
  onClose,
  onStarted,
  onNotice,
}: {
  open: boolean;
  onClose: () => void;
  onStarted: (id: string) => void;
  onNotice: (text: string) => void;
}) => {
  const wallet = useWallet();
  const live = (wallet.data?.accounts ?? []).filter((a) => !a.archived);
  const [picked, setAccountId] = useState('');
  // The company's deposit account unless another is picked (formMoneyAccountId).
  const accountId = formMoneyAccountId(wallet.data, picked);
  const [date, setDate] = useState(todayIso());
  const [balanceText, setBalanceText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const start = useMoneyMutation(apiCalls.startReconciliation);
  const undo = useMoneyMutation(apiCalls.undoLast);
  const account = live.find((a) => a.id === accountId);
  const balance = readAmount(balanceText, account?.currency ?? 'USD', true);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(null);
    if (balance.value === null) return setError(balance.error ?? 'Enter the balance the statement shows.');
    try {
      const rec = await start.mutateAsync({
        moneyAccountId: accountId,
        statementDate: date,
        statementBalance: balance.value,
      });
      onStarted(rec.id);
    } catch (err) {
      const details = (err as { details?: { reconciliationId?: string } }).details;
      if (details?.reconciliationId) return onStarted(details.reconciliationId);
      setError(errorMessage(err));
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => !o && onClose()}
      title="Reconcile an account"
      description="Match the account against a bank statement: enter the statement's end date and closing balance."
    >
      <form onSubmit={submit} className="space-y-3" noValidate>
        {error ? <Alert>{error}</Alert> : null}
        <div>
          <Label htmlFor="rec-account">Account</Label>
          <select
            id="rec-account"
            value={accountId}
            onChange={(e) => setAccountId(e.target.value)}
            className={inputClass}
          >
            {live.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name} ({a.currency})
              </option>
            ))}
          </select>
          {account?.lastReconciledDate ? (
            <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
              Last reconciled through {formatDay(account.lastReconciledDate)}.
            </p>
          ) : null}
        </div>
        <div className="grid gap-3 sm:grid-cols-2">
          <div>
            <Label htmlFor="rec-date">Statement end date</Label>
            <input
              id="rec-date"
              type="date"
              value={date}
              onChange={(e) => setDate(e.target.value)}
              className={inputClass}
            />
          </div>
          <div>
            <Label htmlFor="rec-balance">Statement closing balance ({account?.currency})</Label>
            <input
              id="rec-balance"
              inputMode="decimal"
              value={balanceText}
              onChange={(e) => setBalanceText(e.target.value)}
              className={inputClass}
              placeholder="0.00"
            />
            {balance.error ? (
              <p className="mt-1 text-xs text-red-600 dark:text-red-400">{balance.error}</p>
            ) : null}
          </div>
        </div>
        <div className="flex flex-wrap justify-between gap-2 pt-2">
          <Button
            variant="ghost"
            disabled={!account?.lastReconciledDate}
            busy={undo.isPending}
            onClick={async () => {
              if (
                !account ||
                !window.confirm(`Undo the last reconciliation of ${account.name}? Its transactions unlock.`)
              )
                return;
              try {
                const r = await undo.mutateAsync(account.id);
                onNotice(
                  `The reconciliation through ${formatDay(r.statementDate)} was undone; its transactions are unlocked.`,
                );
                onClose();
              } catch (err) {
                setError(errorMessage(err));
              }
            }}
          >
            Undo last reconciliation
          </Button>
          <div className="flex gap-2">
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" busy={start.isPending}>
              Start reconciling
            </Button>
          </div>
        </div>
      </form>
    </Dialog>
  );
};

export const ReconcileView = ({ id, onClose }: { id: string; onClose: () => void }) => {
  const orgId = useOrgId();
  const rec = useReconciliation(id);
  const wallet = useWallet();
  const candidates = useQuery({
    queryKey: keys.transactions(orgId, 'reconcile', id),
    queryFn: () =>
      api.get<TransactionPage>(`/orgs/${orgId}/transactions`, {
        reconciliationId: id,
        sort: 'date',
        direction: 'asc',
        limit: 500,
      }),
  });
  const tick = useMoneyMutation(apiCalls.tick);
  const finish = useMoneyMutation(apiCalls.finish);
  const cancel = useMoneyMutation(apiCalls.cancelReconciliation);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  if (rec.isLoading || candidates.isLoading) return <Skeleton rows={8} />;
  if (rec.isError || !rec.data) return <Alert>{errorMessage(rec.error)}</Alert>;
  const r = rec.data;
  const account = wallet.data?.accounts.find((a) => a.id === r.moneyAccountId);
  const ticked = new Set(r.tickedIds);
  const rows = candidates.data?.transactions ?? [];
  const closed = r.status !== 'in_progress';

  const setTicked = async (ids: string[], value: boolean) => {
    setError(null);
    try {
      await tick.mutateAsync({ id, transactionIds: ids, ticked: value });
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  return (
    <div className="mx-auto max-w-5xl space-y-5">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <Button variant="ghost" onClick={onClose}>
            <ArrowLeft className="h-4 w-4" aria-hidden="true" /> Back to transactions
          </Button>
          <h1 className="mt-1 text-2xl font-bold text-slate-900 dark:text-white">
            Reconcile {account?.name ?? ''}
          </h1>
          <p className="text-sm text-slate-500 dark:text-slate-400">
            Statement ending {formatDay(r.statementDate)}
          </p>
        </div>
      </div>
      {error ? <Alert>{error}</Alert> : null}
      {done || r.status === 'completed' ? (
        <Alert tone="success">Reconciled. The ticked transactions are now locked.</Alert>
      ) : null}
      <Card>
        <dl className="grid grid-cols-2 gap-4 p-5 sm:grid-cols-4" aria-live="polite">
          <div>
            <dt className="text-xs text-slate-500 dark:text-slate-400">Statement balance</dt>
            <dd className="text-lg font-semibold">
              <Money minor={r.statementBalance} currency={r.currency} />
            </dd>
          </div>
          <div>
            <dt className="text-xs text-slate-500 dark:text-slate-400">Previously reconciled</dt>
            <dd className="text-lg font-semibold">
              <Money minor={r.openingBalance} currency={r.currency} />
            </dd>
          </div>
          <div>
            <dt className="text-xs text-slate-500 dark:text-slate-400">Cleared balance</dt>
            <dd className="text-lg font-semibold" data-testid="cleared-balance">
              <Money minor={r.clearedBalance} currency={r.currency} />
            </dd>
          </div>
          <div>
            <dt className="text-xs text-slate-500 dark:text-slate-400">Difference</dt>
            <dd
              className={`text-lg font-bold ${r.difference === 0 ? 'text-emerald-700 dark:text-emerald-400' : 'text-amber-700 dark:text-amber-300'}`}
              data-testid="reconcile-difference"
            >
              <Money minor={r.difference} currency={r.currency} tintNegative={false} />
            </dd>
          </div>
        </dl>
        {rows.length === 0 ? (
          <EmptyState
            title="Nothing to tick"
            description="There are no unreconciled transactions in this account up to the statement date."
          />
        ) : (
          <div className="overflow-x-auto border-t border-slate-200 dark:border-slate-800">
            <table className="w-full text-sm">
              <caption className="sr-only">Transactions to tick off against the statement</caption>
              <thead className="bg-slate-50 text-xs text-slate-500 uppercase dark:bg-slate-900/60 dark:text-slate-400">
                <tr>
                  <th scope="col" className="w-14 px-3 py-2">
                    <input
                      type="checkbox"
                      className="h-5 w-5"
                      aria-label="Tick all"
                      disabled={closed}
                      checked={rows.length > 0 && rows.every((t) => ticked.has(t.id))}
                      onChange={(e) =>
                        setTicked(
                          rows.map((t) => t.id),
                          e.target.checked,
                        )
                      }
                    />
                  </th>
                  <th scope="col" className="px-3 py-2 text-left">
                    Date
                  </th>
                  <th scope="col" className="px-3 py-2 text-left">
                    Description
                  </th>
                  <th scope="col" className="px-3 py-2 text-right">
                    Amount
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((t) => (
                  <tr
                    key={t.id}
                    className={ticked.has(t.id) ? 'bg-emerald-50/60 dark:bg-emerald-950/30' : ''}
                  >
                    <td className="border-t border-slate-100 px-3 py-1 dark:border-slate-800">
                      <input
                        type="checkbox"
                        className="h-5 w-5"
                        aria-label={`Tick ${t.description}`}
                        disabled={closed}
                        checked={ticked.has(t.id)}
                        onChange={(e) => setTicked([t.id], e.target.checked)}
                      />
                    </td>
                    <td className="border-t border-slate-100 px-3 py-2 whitespace-nowrap dark:border-slate-800">
                      {formatDay(t.date)}
                    </td>
                    <td className="border-t border-slate-100 px-3 py-2 dark:border-slate-800">
                      {t.description}
                    </td>
                    <td className="border-t border-slate-100 px-3 py-2 text-right dark:border-slate-800">
                      <Money minor={t.amount} currency={t.currency} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        {!closed ? (
          <div className="flex flex-wrap justify-between gap-2 border-t border-slate-200 p-4 dark:border-slate-800">
            <Button
              variant="ghost"
              onClick={async () => {
                await cancel.mutateAsync(id);
                onClose();
              }}
            >
              Cancel reconciliation
            </Button>
            <div className="flex items-center gap-3">
              {r.difference !== 0 ? (
                <span className="text-sm text-slate-500 dark:text-slate-400">
                  Finish is possible when the difference is zero.
                </span>
              ) : null}
              <Button
                disabled={r.difference !== 0}
                busy={finish.isPending}
                onClick={async () => {
                  setError(null);
                  try {
                    await finish.mutateAsync(id);
                    setDone(true);
                  } catch (err) {
                    setError(errorMessage(err));
                  }
                }}
              >
                Finish reconciliation
              </Button>
            </div>
          </div>
        ) : null}
      </Card>
    </div>
  );
};
