import { invoiceTotalsRows } from '../../../shared/invoice-totals.ts';
import type { Invoice } from '../../../shared/invoices.ts';
import { Money, formatAmount } from '../../components/money/Money.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { Card, CardHeader } from '../../components/ui/Card.tsx';
import { DataTable } from '../../components/ui/DataTable.tsx';
import { useCompany } from '../../lib/company.tsx';
import { PaymentsCard, struck } from '../shared-documents/DocumentCards.tsx';
import { formatDate, paymentMethodText } from './parts.tsx';

// The cards of one invoice's page: its figures, payments, credit notes and history.

export const InvoiceSummaryCard = ({ invoice, creditHere }: { invoice: Invoice; creditHere: number }) => {
  const { company } = useCompany();
  const c = invoice.currency;
  return (
    <Card>
      <CardHeader title="Summary" />
      <dl className="space-y-2 px-5 py-4 text-sm">
        {/* The same rows, labels and signs as the PDF and the email (shared/invoice-totals.ts). */}
        {invoiceTotalsRows(invoice).map((row) =>
          row.key === 'due' ? (
            <div
              key={row.id}
              className="flex justify-between border-t border-slate-200 pt-2 text-base font-semibold dark:border-slate-700"
            >
              <dt>{row.label}</dt>
              <dd data-testid="amount-due">
                <Money minor={row.amount} currency={c} />
              </dd>
            </div>
          ) : (
            <div
              key={row.id}
              className={`flex justify-between ${row.strong ? 'font-medium' : ''}`}
              data-testid={`invoice-total-${row.key}`}
            >
              <dt className="text-slate-600 dark:text-slate-300">{row.label}</dt>
              <dd>
                <Money minor={row.amount} currency={c} />
              </dd>
            </div>
          ),
        )}
        {creditHere > 0 ? (
          <p
            className="pt-1 text-xs text-slate-500 dark:text-slate-400"
            data-testid="invoice-customer-credit"
          >
            {invoice.customerName} holds <Money minor={creditHere} currency={c} /> of credit (overpayments and
            credit notes not yet used).
          </p>
        ) : null}
        {c !== company.baseCurrency ? (
          <p className="pt-1 text-xs text-slate-500 dark:text-slate-400">
            At {invoice.exchangeRate} {company.baseCurrency} per {c}; still receivable:{' '}
            <Money minor={invoice.balanceBase} currency={company.baseCurrency} />
          </p>
        ) : null}
      </dl>
    </Card>
  );
};

export const InvoicePaymentsCard = ({
  invoice,
  isOpen,
  removing,
  onRemove,
}: {
  invoice: Invoice;
  isOpen: boolean;
  /** The payment being removed, if any. */
  removing: string | undefined;
  onRemove: (paymentId: string) => void;
}) => {
  const { can } = useCompany();
  return (
    <PaymentsCard
      payments={invoice.payments}
      emptyDescription={isOpen ? 'Record a payment when the money arrives.' : undefined}
      account={{
        header: 'Account',
        cell: (p) => (
          <>
            {p.depositAccountName}
            <span className="block text-xs text-slate-500">
              {paymentMethodText(p)}
              {p.creditAmount > 0 ? ` · ${formatAmount(p.creditAmount, p.currency)} kept as credit` : ''}
              {p.reversed ? ' · removed' : ''}
            </span>
          </>
        ),
      }}
      removable={(p) => !p.reversed && can('post')}
      removing={removing}
      onRemove={onRemove}
    />
  );
};

export const CreditNotesCard = ({
  invoice,
  creditHere,
  onRefund,
  onVoid,
}: {
  invoice: Invoice;
  creditHere: number;
  onRefund: (noteId: string) => void;
  onVoid: (noteId: string) => void;
}) => {
  const { can } = useCompany();
  if (invoice.creditNotes.length === 0) return null;
  return (
    <Card>
      <CardHeader title="Credit notes" />
      <DataTable
        caption="Credit notes"
        dense
        rows={invoice.creditNotes}
        rowKey={(n) => n.id}
        rowClassName={(n) => struck(n.status === 'void')}
        columns={[
          {
            header: 'Number',
            cell: (n) => (
              <>
                {n.number}
                {n.reason ? <span className="block text-xs text-slate-500">{n.reason}</span> : null}
              </>
            ),
          },
          { header: 'Date', className: 'whitespace-nowrap', cell: (n) => formatDate(n.date) },
          {
            header: 'Total',
            numeric: true,
            cell: (n) => (
              <>
                <Money minor={n.total} currency={n.currency} />
                {n.toCredit > 0 ? (
                  <span className="block text-xs text-slate-500">
                    {formatAmount(n.toCredit, n.currency)} to credit
                  </span>
                ) : null}
              </>
            ),
          },
          {
            header: 'Actions',
            actions: true,
            cell: (n) => (
              <>
                {n.status === 'issued' && n.toCredit > 0 && creditHere > 0 && can('post') ? (
                  <Button size="sm" variant="ghost" onClick={() => onRefund(n.id)}>
                    Refund
                    <span className="sr-only"> credit note {n.number}</span>
                  </Button>
                ) : null}
                {n.status === 'issued' && can('post') ? (
                  <Button size="sm" variant="ghost" onClick={() => onVoid(n.id)}>
                    Void
                  </Button>
                ) : null}
              </>
            ),
          },
        ]}
      />
    </Card>
  );
};
