import { useMemo, useState } from 'react';
import { addDays } from '../../../shared/dates.ts';
import type { BillSummary } from '../../../shared/payables.ts';
import { Money } from '../../components/money/Money.tsx';
import { Alert, Card, CardError, CardHeader, EmptyState } from '../../components/ui/Card.tsx';
import { LoadingState } from '../../components/ui/ListCard.tsx';
import { useCompany } from '../../lib/company.tsx';
import { formatAmount, formatDate, plural } from '../../lib/format.ts';
import { todayIso } from '../accounting/dates.ts';
import { DateInput, Toolbar } from '../accounting/parts.tsx';
import { priceText } from '../invoices/editorState.ts';
import { usePaymentRun } from './SupplierApi.ts';
import { PaymentRunPayCard } from './PaymentRunPay.tsx';
import type { PaymentRunPaid, Selection } from './PaymentRunState.ts';
import { PaymentRunSupplier } from './PaymentRunSupplier.tsx';

// The payment run: open bills due by a date (a week ahead unless changed), by supplier with
// where to pay them. Tick the bills to pay (each amount editable, the amount due to start
// with), choose the money account, the date and a reference, and "Pay N bills" makes one batch
// payment: one journal entry and one bank line.

export type PayablesTabProps = { onOpenBill: (billId: string) => void };

export const PaymentRunTab = ({ onOpenBill }: PayablesTabProps) => {
  const { can } = useCompany();
  const today = useMemo(() => todayIso(), []);
  const [dueBy, setDueBy] = useState(() => addDays(today, 7));
  const run = usePaymentRun(dueBy);
  const [selection, setSelection] = useState<Selection>({});
  const [paid, setPaid] = useState<PaymentRunPaid | null>(null);
  const data = run.data;
  const bills = useMemo(() => (data?.suppliers ?? []).flatMap((s) => s.bills), [data]);
  // Only bills still on the run count (a bill paid elsewhere drops out on the next refresh).
  const chosen = bills.filter((b) => selection[b.id] !== undefined);
  const canPay = can('approve');

  const toggle = (bill: BillSummary, on: boolean) =>
    setSelection((current) => {
      const next = { ...current };
      if (on) next[bill.id] = priceText(bill.amountDue, bill.currency);
      else delete next[bill.id];
      return next;
    });

  const onPaid = (done: PaymentRunPaid) => {
    setPaid(done);
    setSelection({});
  };

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader
          title="Payment run"
          description="Open bills due by a date, by supplier. Tick what to pay and pay them in one batch."
        />
        <Toolbar>
          <DateInput
            label="Due by"
            value={dueBy}
            onChange={(v) => setDueBy(v || addDays(today, 7))}
            required
          />
          {data ? (
            <p className="pb-3 text-sm text-slate-600 dark:text-slate-300" role="status">
              {plural(data.billCount, 'bill')} due by {formatDate(data.dueBy)}
              {data.totals.length > 0 ? ': ' : ''}
              {data.totals.map((t, i) => (
                <span key={t.currency}>
                  {i > 0 ? ' + ' : ''}
                  <Money minor={t.amount} currency={t.currency} className="font-semibold" />
                </span>
              ))}
            </p>
          ) : null}
        </Toolbar>
        {paid ? (
          <div className="px-5 pt-4">
            <PaidNotice paid={paid} onOpenBill={onOpenBill} onDismiss={() => setPaid(null)} />
          </div>
        ) : null}
        {!canPay && data && data.billCount > 0 ? (
          <div className="px-5 pt-4">
            <Alert tone="info">
              Paying bills needs an accountant, admin or owner. You can see what is due.
            </Alert>
          </div>
        ) : null}
        {run.isLoading ? (
          <LoadingState label="Loading the payment run..." />
        ) : run.isError ? (
          <CardError
            message={`Could not load the payment run. ${run.error.message}`}
            onRetry={() => void run.refetch()}
          />
        ) : !data || data.suppliers.length === 0 ? (
          <EmptyState
            title={`Nothing due by ${formatDate(dueBy)}`}
            description="Open bills appear here as their due date comes near. Choose a later date to look further ahead."
          />
        ) : (
          <div className="space-y-6 px-5 py-4">
            {data.suppliers.map((s) => (
              <PaymentRunSupplier
                key={s.supplierId}
                group={s}
                today={data.today}
                selection={selection}
                canPay={canPay}
                onToggle={toggle}
                onAmount={(bill, text) => setSelection((current) => ({ ...current, [bill.id]: text }))}
                onOpenBill={onOpenBill}
              />
            ))}
          </div>
        )}
      </Card>
      {canPay && data && data.suppliers.length > 0 ? (
        <PaymentRunPayCard chosen={chosen} selection={selection} today={today} onPaid={onPaid} />
      ) : null}
    </div>
  );
};

const PaidNotice = ({
  paid,
  onOpenBill,
  onDismiss,
}: {
  paid: PaymentRunPaid;
  onOpenBill: (billId: string) => void;
  onDismiss: () => void;
}) => {
  const { result, bills, accountName } = paid;
  return (
    <Alert tone="success">
      <div className="flex flex-wrap items-start justify-between gap-3" data-testid="payment-run-result">
        <div>
          <p className="font-semibold">
            Paid {plural(result.billCount, 'bill')}: {formatAmount(result.amount, result.currency)} from{' '}
            {accountName} on {formatDate(result.date)}
            {result.reference ? ` (${result.reference})` : ''}.
          </p>
          <ul className="mt-1 space-y-0.5">
            {result.payments.map((p) => {
              const bill = bills.find((b) => b.id === p.billId);
              return (
                <li key={p.id}>
                  <button
                    type="button"
                    className="font-medium underline underline-offset-2"
                    onClick={() => onOpenBill(p.billId)}
                  >
                    {bill?.number ?? 'Bill'}
                  </button>{' '}
                  {bill ? `· ${bill.supplierName} ` : ''}· {formatAmount(p.amount, p.currency)}
                </li>
              );
            })}
          </ul>
        </div>
        <button
          type="button"
          onClick={onDismiss}
          className="min-h-11 rounded-lg px-3 text-sm font-medium underline-offset-2 hover:underline"
        >
          Dismiss
        </button>
      </div>
    </Alert>
  );
};
