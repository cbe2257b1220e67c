import { useState } from 'react';
import { Money } from '../../components/money/Money.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { Alert, Badge, CardError } from '../../components/ui/Card.tsx';
import { DataTable } from '../../components/ui/DataTable.tsx';
import { ListCard, LoadingState } from '../../components/ui/ListCard.tsx';
import { api } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { formatDate } from '../../lib/format.ts';
import { useAction } from '../../lib/useAction.ts';
import { LinkButton, RecordHeader, StatCard } from '../invoices/parts.tsx';
import { useBillAccounts } from './billsApi.ts';
import { CreditActionButtons, CreditActionDialog, type CreditDialogKind } from './CreditActions.tsx';
import { usePayablesMutation, useSupplierCredit } from './SupplierApi.ts';

// One supplier credit: its figures (total, applied, refunded, left), its lines, the bills it
// was applied to and the refunds received, with Apply, Refund and Void, and Undo on an
// application or a refund (reversed, never deleted: the row stays, struck through).

export const CreditDetail = ({
  id,
  notice,
  onBack,
  onOpenBill,
}: {
  id: string;
  notice: string | null;
  onBack: () => void;
  onOpenBill: (billId: string) => void;
}) => {
  const { can } = useCompany();
  const credit = useSupplierCredit(id);
  const accounts = useBillAccounts();
  const [dialog, setDialog] = useState<CreditDialogKind | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const undo = useAction();
  const remove = usePayablesMutation((base, path: string) =>
    api.delete(`${base}/supplier-credits/${id}/${path}`),
  );
  const undoRow = (path: string, message: string) =>
    undo.run(
      async () => {
        await remove.mutateAsync(path);
        setDone(message);
      },
      { key: path },
    );
  if (credit.isLoading) return <LoadingState label="Loading the credit..." />;
  if (!credit.data)
    return (
      <div className="space-y-4">
        <Button variant="secondary" onClick={onBack}>
          Back to supplier credits
        </Button>
        <CardError
          message={`Could not load the credit. ${credit.error?.message ?? ''}`}
          onRetry={() => void credit.refetch()}
        />
      </div>
    );
  const c = credit.data;
  const accountName = (accountId: string) => {
    const a = accounts.all.find((x) => x.id === accountId);
    return a ? `${a.code} ${a.name}` : '—';
  };
  const message = done ?? notice;
  return (
    <div className="space-y-6">
      <RecordHeader
        backLabel="Back to supplier credits"
        onBack={onBack}
        heading={
          <h2 className="flex flex-wrap items-center gap-2 text-xl font-semibold text-slate-900 dark:text-white">
            {c.number}
            {c.status === 'void' ? <Badge tone="slate">Void</Badge> : null}
          </h2>
        }
        subtitle={[c.supplierName, formatDate(c.date), c.reference && `Their reference ${c.reference}`]
          .filter(Boolean)
          .join(' · ')}
        actions={can('approve') ? <CreditActionButtons credit={c} onAction={setDialog} /> : null}
      />
      {message ? <Alert tone="success">{message}</Alert> : null}
      {undo.error ? <Alert>{undo.error}</Alert> : null}
      {c.reason ? <p className="text-sm text-slate-600 dark:text-slate-300">Reason: {c.reason}</p> : null}
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard label="Total">
          <Money minor={c.total} currency={c.currency} />
        </StatCard>
        <StatCard label="Applied to bills">
          <Money minor={c.amountApplied} currency={c.currency} />
        </StatCard>
        <StatCard label="Refunded">
          <Money minor={c.amountRefunded} currency={c.currency} />
        </StatCard>
        <StatCard label="Left">
          <span data-testid="credit-left">
            <Money minor={c.amountLeft} currency={c.currency} />
          </span>
        </StatCard>
      </div>
      <ListCard title="Lines" state={{ empty: c.lines.length === 0, emptyTitle: 'No lines' }}>
        <DataTable
          caption={`Lines of ${c.number}`}
          rows={c.lines}
          rowKey={(l) => String(l.lineNo)}
          columns={[
            { header: 'Description', cell: (l) => l.description || '—' },
            { header: 'Account', cell: (l) => accountName(l.accountId) },
            { header: 'Qty', numeric: true, cell: (l) => l.quantity },
            {
              header: 'Unit price',
              numeric: true,
              cell: (l) => <Money minor={l.unitPrice} currency={c.currency} />,
            },
            {
              header: 'Tax',
              numeric: true,
              cell: (l) => <Money minor={l.tax} currency={c.currency} blankZero />,
            },
            { header: 'Amount', numeric: true, cell: (l) => <Money minor={l.total} currency={c.currency} /> },
          ]}
        />
      </ListCard>
      <ListCard
        title="Applied to bills"
        state={{ empty: c.allocations.length === 0, emptyTitle: 'Not applied to any bill yet' }}
      >
        <DataTable
          caption={`Bills ${c.number} was applied to`}
          rows={c.allocations}
          rowKey={(a) => a.id}
          rowClassName={(a) => (a.reversed ? 'text-slate-400 line-through' : undefined)}
          columns={[
            { header: 'Date', cell: (a) => formatDate(a.date) },
            {
              header: 'Bill',
              cell: (a) => <LinkButton onClick={() => onOpenBill(a.billId)}>{a.billNumber}</LinkButton>,
            },
            {
              header: 'Amount',
              numeric: true,
              cell: (a) => <Money minor={a.amount} currency={c.currency} />,
            },
            can('approve') && {
              header: 'Actions',
              actions: true,
              cell: (a) =>
                a.reversed ? null : (
                  <Button
                    size="sm"
                    variant="ghost"
                    busy={undo.busyKey === `allocations/${a.id}`}
                    aria-label={`Undo applying ${c.number} to ${a.billNumber}`}
                    onClick={() =>
                      void undoRow(
                        `allocations/${a.id}`,
                        `Undid the credit applied to ${a.billNumber}: the bill is owed again and the credit is back.`,
                      )
                    }
                  >
                    Undo
                  </Button>
                ),
            },
          ]}
        />
      </ListCard>
      <ListCard
        title="Refunds received"
        state={{ empty: c.refunds.length === 0, emptyTitle: 'No refunds yet' }}
      >
        <DataTable
          caption={`Refunds of ${c.number}`}
          rows={c.refunds}
          rowKey={(r) => r.id}
          rowClassName={(r) => (r.reversed ? 'text-slate-400 line-through' : undefined)}
          columns={[
            { header: 'Date', cell: (r) => formatDate(r.date) },
            { header: 'Into', cell: (r) => accountName(r.paymentAccountId) },
            { header: 'Reference', cell: (r) => r.reference || '—' },
            {
              header: 'Amount',
              numeric: true,
              cell: (r) => <Money minor={r.amount} currency={c.currency} />,
            },
            can('approve') && {
              header: 'Actions',
              actions: true,
              cell: (r) =>
                r.reversed ? null : (
                  <Button
                    size="sm"
                    variant="ghost"
                    busy={undo.busyKey === `refunds/${r.id}`}
                    aria-label={`Remove the refund of ${formatDate(r.date)}`}
                    onClick={() =>
                      void undoRow(
                        `refunds/${r.id}`,
                        'Removed the refund: its entry and bank line are reversed and the credit is back.',
                      )
                    }
                  >
                    Remove
                  </Button>
                ),
            },
          ]}
        />
      </ListCard>
      {dialog ? (
        <CreditActionDialog
          kind={dialog}
          credit={c}
          onClose={() => setDialog(null)}
          onDone={(m) => {
            setDialog(null);
            setDone(m);
          }}
        />
      ) : null}
    </div>
  );
};
