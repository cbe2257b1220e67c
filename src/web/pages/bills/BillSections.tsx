import { Link } from 'react-router';
import type { Bill } from '../../../shared/payables.ts';
import { Money } from '../../components/money/Money.tsx';
import { Card, CardHeader } from '../../components/ui/Card.tsx';
import { DataTable } from '../../components/ui/DataTable.tsx';
import { useCompany } from '../../lib/company.tsx';
import { formatDate } from '../../lib/format.ts';
import { PaymentsCard, struck } from '../shared-documents/DocumentCards.tsx';
import { useBillAccounts } from './billsApi.ts';
import { BILL_METHOD_LABELS } from './parts.tsx';

// The cards of one bill's page: its figures, the supplier (with where to pay them), the lines
// and taxes, payments, credits applied and history.

const Row = ({ label, children, strong }: { label: string; children: React.ReactNode; strong?: boolean }) => (
  <div className={`flex justify-between gap-4 ${strong ? 'font-medium' : ''}`}>
    <dt className="text-slate-600 dark:text-slate-300">{label}</dt>
    <dd>{children}</dd>
  </div>
);

export const BillSummaryCard = ({ bill }: { bill: Bill }) => {
  const { company } = useCompany();
  const c = bill.currency;
  const liveEntry = bill.journalEntryId && !bill.voidEntryId;
  return (
    <Card>
      <CardHeader title="Summary" />
      <dl className="space-y-2 px-5 py-4 text-sm">
        <Row label="Subtotal">
          <Money minor={bill.subtotal} currency={c} />
        </Row>
        {bill.taxes.map((t) => (
          <Row key={t.taxRateId} label={`${t.name} (${t.percent}%)`}>
            <Money minor={t.amount} currency={c} />
          </Row>
        ))}
        <Row label="Total" strong>
          <span data-testid="bill-total">
            <Money minor={bill.total} currency={c} />
          </span>
        </Row>
        {bill.amountPaid > 0 ? (
          <Row label="Paid">
            <Money minor={-bill.amountPaid} currency={c} tintNegative={false} />
          </Row>
        ) : null}
        {bill.amountCredited > 0 ? (
          <Row label="Credits applied">
            <Money minor={-bill.amountCredited} currency={c} tintNegative={false} />
          </Row>
        ) : null}
        <div className="flex justify-between border-t border-slate-200 pt-2 text-base font-semibold dark:border-slate-700">
          <dt>Amount due</dt>
          <dd data-testid="bill-amount-due">
            <Money minor={bill.amountDue} currency={c} />
          </dd>
        </div>
        {c !== company.baseCurrency ? (
          <p className="pt-1 text-xs text-slate-500 dark:text-slate-400">
            At {bill.exchangeRate} {company.baseCurrency} per {c}: total{' '}
            <Money minor={bill.totalBase} currency={company.baseCurrency} />, still payable{' '}
            <Money minor={bill.balanceBase} currency={company.baseCurrency} />
          </p>
        ) : null}
        {bill.journalEntryId ? (
          <p className="pt-1 text-xs">
            <Link
              to={`/accounting?tab=journal&entry=${encodeURIComponent(bill.journalEntryId)}`}
              className="inline-flex min-h-11 items-center font-medium text-brand-700 hover:underline dark:text-brand-300"
            >
              {liveEntry ? 'Journal entry' : 'Journal entry (reversed)'}
            </Link>
          </p>
        ) : null}
      </dl>
    </Card>
  );
};

export const SupplierCard = ({ bill }: { bill: Bill }) => {
  const s = bill.supplier;
  const bank = [s.bankAccountName, s.bankAccountNumber, s.bankCode].some(Boolean);
  return (
    <Card>
      <CardHeader title="Supplier" />
      <div className="grid gap-4 px-5 py-4 text-sm sm:grid-cols-2">
        <div>
          <p className="font-medium text-slate-900 dark:text-white">{s.name}</p>
          {s.company ? <p className="text-slate-600 dark:text-slate-300">{s.company}</p> : null}
          {s.address ? (
            <p className="whitespace-pre-line text-slate-600 dark:text-slate-300">{s.address}</p>
          ) : null}
          {s.email ? <p className="text-slate-600 dark:text-slate-300">{s.email}</p> : null}
          {s.taxNumber ? (
            <p className="text-slate-500 dark:text-slate-400">Tax number {s.taxNumber}</p>
          ) : null}
        </div>
        <div>
          <p className="font-medium text-slate-900 dark:text-white">Pay to</p>
          {bank ? (
            <dl className="space-y-0.5 text-slate-600 dark:text-slate-300">
              {s.bankAccountName ? (
                <div>
                  <dt className="sr-only">Account name</dt>
                  <dd>{s.bankAccountName}</dd>
                </div>
              ) : null}
              {s.bankAccountNumber ? (
                <div className="flex gap-1">
                  <dt>Account:</dt>
                  <dd className="font-mono">{s.bankAccountNumber}</dd>
                </div>
              ) : null}
              {s.bankCode ? (
                <div className="flex gap-1">
                  <dt>Bank code:</dt>
                  <dd className="font-mono">{s.bankCode}</dd>
                </div>
              ) : null}
            </dl>
          ) : (
            <p className="text-slate-500 dark:text-slate-400">No bank details on file.</p>
          )}
        </div>
      </div>
    </Card>
  );
};

export const BillLinesTable = ({ bill }: { bill: Bill }) => {
  const { all } = useBillAccounts();
  const accountName = (id: string) => {
    const a = all.find((x) => x.id === id);
    return a ? `${a.code} ${a.name}` : '—';
  };
  return (
    <Card>
      <CardHeader title="Lines" />
      <div>
        <DataTable
          caption="Bill lines"
          dense
          rows={bill.lines}
          rowKey={(l) => String(l.lineNo)}
          columns={[
            { header: 'Description', cell: (l) => l.description || '—' },
            { header: 'Account', cell: (l) => accountName(l.accountId) },
            { header: 'Qty', numeric: true, cell: (l) => l.quantity },
            {
              header: 'Unit price',
              numeric: true,
              cell: (l) => <Money minor={l.unitPrice} currency={bill.currency} />,
            },
            {
              header: 'Tax',
              numeric: true,
              cell: (l) => <Money minor={l.tax} currency={bill.currency} blankZero />,
            },
            {
              header: 'Amount',
              numeric: true,
              cell: (l) => <Money minor={l.net} currency={bill.currency} />,
            },
          ]}
        />
      </div>
    </Card>
  );
};

export const BillPaymentsCard = ({
  bill,
  removing,
  onRemove,
}: {
  bill: Bill;
  removing: string | undefined;
  onRemove: (paymentId: string) => void;
}) => {
  const { can } = useCompany();
  const payable = bill.storedStatus === 'open' || bill.storedStatus === 'partially_paid';
  return (
    <PaymentsCard
      payments={bill.payments}
      emptyDescription={payable ? 'Record a payment when the money leaves your account.' : undefined}
      account={{
        header: 'From',
        cell: (p) => (
          <>
            {p.paymentAccountName}
            <span className="block text-xs text-slate-500 dark:text-slate-400">
              {BILL_METHOD_LABELS[p.method as keyof typeof BILL_METHOD_LABELS] ?? p.method}
              {p.reference ? ` · ${p.reference}` : ''}
              {p.batchId ? ' · batch payment' : ''}
              {p.reversed ? ' · removed' : ''}
            </span>
          </>
        ),
      }}
      removable={(p) => !p.reversed && can('approve') && !p.batchId}
      removing={removing}
      onRemove={onRemove}
    />
  );
};

export const CreditsAppliedCard = ({ bill }: { bill: Bill }) =>
  bill.creditsApplied.length === 0 ? null : (
    <Card>
      <CardHeader title="Credits applied" />
      <DataTable
        caption="Supplier credits applied"
        dense
        rows={bill.creditsApplied}
        rowKey={(c) => c.id}
        rowClassName={(c) => struck(c.reversed)}
        columns={[
          { header: 'Credit', cell: (c) => c.creditNumber },
          { header: 'Date', className: 'whitespace-nowrap', cell: (c) => formatDate(c.date) },
          {
            header: 'Amount',
            numeric: true,
            cell: (c) => <Money minor={c.amount} currency={bill.currency} />,
          },
        ]}
      />
    </Card>
  );
