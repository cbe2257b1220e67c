import type { ReactNode } from 'react';
import { Money, formatAmount } from '../../components/money/Money.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { Card, CardHeader } from '../../components/ui/Card.tsx';
import { DataTable } from '../../components/ui/DataTable.tsx';
import { ListCard } from '../../components/ui/ListCard.tsx';
import { formatDate, formatDateTime } from '../../lib/format.ts';

// The cards an invoice's page and a bill's page both show: the payments (date, the account
// the money went through, amount, Remove) and the history. Each page says what its account
// column shows and which payments can be removed.

/** A removed payment's or note's row, struck through. */
export const struck = (gone: boolean) => (gone ? 'text-slate-400 line-through' : '');

type Payment = { id: string; date: string; amount: number; currency: string; reversed: boolean };

export const PaymentsCard = <P extends Payment>({
  payments,
  emptyDescription,
  account,
  removable,
  removing,
  onRemove,
}: {
  payments: readonly P[];
  emptyDescription: string | undefined;
  /** The account column: its heading and cell. */
  account: { header: string; cell: (p: P) => ReactNode };
  /** Whether this user may remove this payment. */
  removable: (p: P) => boolean;
  /** The payment being removed, if any. */
  removing: string | undefined;
  onRemove: (paymentId: string) => void;
}) => (
  <ListCard
    title="Payments"
    state={{ empty: payments.length === 0, emptyTitle: 'No payments yet', emptyDescription }}
  >
    <DataTable
      caption="Payments"
      dense
      rows={payments}
      rowKey={(p) => p.id}
      rowClassName={(p) => struck(p.reversed)}
      columns={[
        { header: 'Date', className: 'whitespace-nowrap', cell: (p) => formatDate(p.date) },
        account,
        { header: 'Amount', numeric: true, cell: (p) => <Money minor={p.amount} currency={p.currency} /> },
        {
          header: 'Actions',
          actions: true,
          cell: (p) =>
            removable(p) ? (
              <Button size="sm" variant="ghost" busy={removing === p.id} onClick={() => onRemove(p.id)}>
                Remove
                <span className="sr-only"> payment of {formatAmount(p.amount, p.currency)}</span>
              </Button>
            ) : null,
        },
      ]}
    />
  </ListCard>
);

type HistoryEvent = { id: string; message: string; at: string; actorName?: string | null };

export const HistoryCard = ({
  history,
  emptyText,
}: {
  history: readonly HistoryEvent[];
  /** What shows when nothing has happened (without it, an empty list). */
  emptyText?: string;
}) => (
  <Card>
    <CardHeader title="History" />
    {history.length === 0 && emptyText ? (
      <p className="px-5 py-4 text-sm text-slate-500 dark:text-slate-400">{emptyText}</p>
    ) : (
      <ol className="space-y-3 px-5 py-4 text-sm">
        {history.map((h) => (
          <li key={h.id} className="flex gap-3">
            <span aria-hidden="true" className="mt-1.5 h-2 w-2 shrink-0 rounded-full bg-brand-500" />
            <div>
              <p className="text-slate-800 dark:text-slate-100">{h.message}</p>
              <p className="text-xs text-slate-500 dark:text-slate-400">
                {formatDateTime(h.at)}
                {h.actorName ? ` · ${h.actorName}` : ''}
              </p>
            </div>
          </li>
        ))}
      </ol>
    )}
  </Card>
);
