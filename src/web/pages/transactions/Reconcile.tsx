import { useQuery } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import type { TransactionPage } from '../../../shared/transactions.ts';
import { Money } from '../../components/money/Money.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { Alert, Card, EmptyState } from '../../components/ui/Card.tsx';
import { Table, TableHead, Td } from '../../components/ui/Table.tsx';
import { formatDate } from '../../lib/format.ts';
import { api } from '../../lib/api.ts';
import { keys } from '../../lib/queryKeys.ts';
import { apiCalls, errorMessage, useMoneyMutation, useOrgId, useReconciliation, useWallet } from './api.ts';
import { Skeleton } from './Controls.tsx';

// Reconciliation: start with an account, the statement's end date and balance; tick off the
// transactions on the statement and watch the difference; finish at zero. Undo the last one.

const Figure = ({
  label,
  testId,
  className = 'font-semibold',
  children,
}: {
  label: string;
  testId?: string;
  className?: string;
  children: ReactNode;
}) => (
  <div>
    <dt className="text-xs text-slate-500 dark:text-slate-400">{label}</dt>
    <dd className={`text-lg ${className}`} data-testid={testId}>
      {children}
    </dd>
  </div>
);

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
            Statement ending {formatDate(r.statementDate)}
          </p>
        </div>
      </div>
      {error ? <Alert>{error}</Alert> : null}
      {done || r.status === 'completed' ? (
        <Alert tone="success">Reconciled. The ticked transactions are now locked.</Alert>
      ) : null}
      <Card>
        <dl className="grid grid-cols-2 gap-4 p-5 sm:grid-cols-4" aria-live="polite">
          <Figure label="Statement balance">
            <Money minor={r.statementBalance} currency={r.currency} />
          </Figure>
          <Figure label="Previously reconciled">
            <Money minor={r.openingBalance} currency={r.currency} />
          </Figure>
          <Figure label="Cleared balance" testId="cleared-balance">
            <Money minor={r.clearedBalance} currency={r.currency} />
          </Figure>
          <Figure
            label="Difference"
            testId="reconcile-difference"
            className={`font-bold ${r.difference === 0 ? 'text-emerald-700 dark:text-emerald-400' : 'text-amber-700 dark:text-amber-300'}`}
          >
            <Money minor={r.difference} currency={r.currency} tintNegative={false} />
          </Figure>
        </dl>
        {rows.length === 0 ? (
          <EmptyState
            title="Nothing to tick"
            description="There are no unreconciled transactions in this account up to the statement date."
          />
        ) : (
          <Table
            caption="Transactions to tick off against the statement"
            captionHidden
            className="border-t border-slate-200 dark:border-slate-800"
          >
            <TableHead
              columns={[
                {
                  className: 'w-14',
                  label: (
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
                  ),
                },
                'Date',
                'Description',
                { label: 'Amount', numeric: true },
              ]}
            />
            <tbody>
              {rows.map((t) => (
                <tr key={t.id} className={ticked.has(t.id) ? 'bg-emerald-50/60 dark:bg-emerald-950/30' : ''}>
                  <Td className="py-1">
                    <input
                      type="checkbox"
                      className="h-5 w-5"
                      aria-label={`Tick ${t.description}`}
                      disabled={closed}
                      checked={ticked.has(t.id)}
                      onChange={(e) => setTicked([t.id], e.target.checked)}
                    />
                  </Td>
                  <Td className="whitespace-nowrap">{formatDate(t.date)}</Td>
                  <Td>{t.description}</Td>
                  <Td numeric>
                    <Money minor={t.amount} currency={t.currency} />
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
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
