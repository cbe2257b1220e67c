import { Download, Undo2, WalletCards } from 'lucide-react';
import { useState } from 'react';
import { CREDIT_ENTRY_LABELS, STATEMENT_LINE_LABELS } from '../../../shared/invoice-credit.ts';
import type { InvoiceSummary } from '../../../shared/invoices.ts';
import { Money } from '../../components/money/Money.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { Alert, Card, CardHeader, EmptyState } from '../../components/ui/Card.tsx';
import { SelectField, TextField } from '../../components/ui/Field.tsx';
import { Table, Td, Th } from '../../components/ui/Table.tsx';
import { useCompany } from '../../lib/company.tsx';
import { ApplyCreditDialog, RefundDialog } from './CreditDialogs.tsx';
import { statementQuery, useCustomerCredit, useCustomerStatement, useOrgPath } from './invoicesApi.ts';
import { formatDate } from './parts.tsx';

// A customer's credit (what they have paid or been credited beyond their invoices) with its
// Refund and Apply credit actions, and their statement: every invoice, payment, credit note,
// credit applied and refund over a date range with the running balance, as CSV too.

/** A balance as people read it on a statement: owed by the customer, or held as their credit. */
const BalanceText = ({ minor, currency }: { minor: number; currency: string }) =>
  minor < 0 ? (
    <span>
      <Money minor={-minor} currency={currency} tintNegative={false} /> credit
    </span>
  ) : (
    <Money minor={minor} currency={currency} />
  );

export const CustomerCreditCard = ({
  customerId,
  customerName,
  invoices,
}: {
  customerId: string;
  customerName: string;
  invoices: InvoiceSummary[];
}) => {
  const { can } = useCompany();
  const credit = useCustomerCredit(customerId);
  const [dialog, setDialog] = useState<null | { kind: 'refund' | 'apply'; currency: string }>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const balances = credit.data?.balances ?? [];
  const entries = credit.data?.entries ?? [];
  const openIn = (currency: string) =>
    invoices.filter(
      (i) => i.currency === currency && (i.storedStatus === 'sent' || i.storedStatus === 'partially_paid'),
    );
  const active = dialog ? balances.find((b) => b.currency === dialog.currency) : undefined;
  // What the refund and the apply dialogs share: shown while open, the notice after, the balance.
  const dialogProps = active && {
    open: true,
    onOpenChange: (o: boolean) => !o && setDialog(null),
    onDone: setNotice,
    currency: active.currency,
    available: active.amount,
  };
  return (
    <Card>
      <CardHeader
        title="Credit"
        description="Overpayments and credit notes not yet used: apply them to an open invoice or refund them."
      />
      {credit.error ? <Alert>{credit.error.message}</Alert> : null}
      {notice ? <Alert tone="success">{notice}</Alert> : null}
      <div className="space-y-3 px-5 py-4">
        {balances.length === 0 ? (
          <p className="text-sm text-slate-500 dark:text-slate-400" data-testid="customer-credit">
            {credit.isLoading ? 'Loading credit…' : `${customerName} has no credit.`}
          </p>
        ) : (
          balances.map((b) => (
            <div key={b.currency} className="flex flex-wrap items-center justify-between gap-3">
              <p className="text-lg font-semibold" data-testid="customer-credit">
                <Money minor={b.amount} currency={b.currency} /> credit
              </p>
              {can('post') ? (
                <div className="flex flex-wrap gap-2">
                  <Button
                    variant="secondary"
                    onClick={() => setDialog({ kind: 'apply', currency: b.currency })}
                    disabled={openIn(b.currency).length === 0}
                  >
                    <WalletCards className="h-4 w-4" aria-hidden="true" /> Apply credit
                  </Button>
                  <Button
                    variant="secondary"
                    onClick={() => setDialog({ kind: 'refund', currency: b.currency })}
                  >
                    <Undo2 className="h-4 w-4" aria-hidden="true" /> Refund
                  </Button>
                </div>
              ) : null}
            </div>
          ))
        )}
      </div>
      {entries.length > 0 ? (
        <Table caption={`Credit history of ${customerName}`} captionHidden dense>
          <thead>
            <tr>
              <Th>Date</Th>
              <Th>What</Th>
              <Th>Document</Th>
              <Th numeric>Credit</Th>
            </tr>
          </thead>
          <tbody>
            {entries.map((e) => (
              <tr key={e.id}>
                <Td className="whitespace-nowrap">{formatDate(e.date)}</Td>
                <Td>{CREDIT_ENTRY_LABELS[e.kind]}</Td>
                <Td>
                  {[...new Set([e.invoiceNumber, e.creditNoteNumber, e.reference].filter(Boolean))].join(
                    ' · ',
                  )}
                </Td>
                <Td numeric>
                  {/* + adds to the customer's credit, − uses it: the sign is what happened to the credit. */}
                  {e.amount > 0 ? '+' : ''}
                  <Money minor={e.amount} currency={e.currency} tintNegative={false} />
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      ) : null}
      {dialog && dialogProps && dialog.kind === 'refund' ? (
        <RefundDialog
          {...dialogProps}
          title={`Refund ${customerName}'s credit`}
          path={`/customers/${customerId}/credit/refunds`}
          extraBody={{ currency: dialogProps.currency }}
        />
      ) : null}
      {dialog && dialogProps && dialog.kind === 'apply' ? (
        <ApplyCreditDialog
          {...dialogProps}
          customerId={customerId}
          customerName={customerName}
          invoices={openIn(dialogProps.currency)}
        />
      ) : null}
    </Card>
  );
};

export const CustomerStatement = ({
  customerId,
  customerName,
}: {
  customerId: string;
  customerName: string;
}) => {
  const { base } = useOrgPath();
  const [params, setParams] = useState({ from: '', to: '', currency: '' });
  const statement = useCustomerStatement(customerId, params);
  const s = statement.data;
  const rangeError =
    params.from && params.to && params.from > params.to ? 'The start is after the end.' : null;
  const csvHref = `/api${base}/customers/${customerId}/statement.csv?${new URLSearchParams(
    statementQuery({ ...params, currency: params.currency || s?.currency || '' }),
  ).toString()}`;
  return (
    <Card>
      <CardHeader
        title="Statement"
        description="Invoices, payments, credit notes, credit applied and refunds, with the running balance."
        actions={
          <a
            href={csvHref}
            className="inline-flex min-h-11 items-center gap-2 rounded-lg border border-slate-300 bg-white px-4 text-sm font-semibold text-slate-800 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800"
          >
            <Download className="h-4 w-4" aria-hidden="true" /> CSV
          </a>
        }
      />
      <div className="flex flex-wrap items-end gap-3 px-5 py-3">
        <TextField
          label="From"
          type="date"
          value={params.from}
          onChange={(e) => setParams({ ...params, from: e.target.value })}
          error={rangeError}
        />
        <TextField
          label="To"
          type="date"
          value={params.to}
          onChange={(e) => setParams({ ...params, to: e.target.value })}
        />
        {s && s.currencies.length > 1 ? (
          <SelectField
            label="Currency"
            value={params.currency || s.currency}
            onChange={(e) => setParams({ ...params, currency: e.target.value })}
            options={s.currencies.map((c) => ({ value: c, label: c }))}
          />
        ) : null}
      </div>
      {statement.error ? <Alert>{statement.error.message}</Alert> : null}
      {s ? (
        s.lines.length === 0 && s.openingBalance === 0 ? (
          <EmptyState title={`Nothing on ${customerName}'s statement for these dates`} />
        ) : (
          <Table caption={`Statement of ${customerName}`} captionHidden dense>
            <thead>
              <tr>
                <Th>Date</Th>
                <Th>Type</Th>
                <Th>Document</Th>
                <Th>Description</Th>
                <Th numeric>Charge</Th>
                <Th numeric>Payment or credit</Th>
                <Th numeric>Balance</Th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <Td colSpan={6} className="font-medium">
                  Opening balance{s.from ? ` on ${formatDate(s.from)}` : ''}
                </Td>
                <Td numeric>
                  <BalanceText minor={s.openingBalance} currency={s.currency} />
                </Td>
              </tr>
              {s.lines.map((l) => (
                <tr key={l.id} data-testid="statement-line">
                  <Td className="whitespace-nowrap">{formatDate(l.date)}</Td>
                  <Td>{STATEMENT_LINE_LABELS[l.kind]}</Td>
                  <Td>{l.document}</Td>
                  <Td>{l.description}</Td>
                  <Td numeric>{l.charge ? <Money minor={l.charge} currency={s.currency} /> : null}</Td>
                  <Td numeric>{l.credit ? <Money minor={l.credit} currency={s.currency} /> : null}</Td>
                  <Td numeric>
                    <BalanceText minor={l.balance} currency={s.currency} />
                  </Td>
                </tr>
              ))}
              <tr>
                <Td colSpan={6} className="font-semibold">
                  Closing balance on {formatDate(s.to)}
                </Td>
                <Td numeric className="font-semibold" data-testid="statement-closing">
                  <BalanceText minor={s.closingBalance} currency={s.currency} />
                </Td>
              </tr>
            </tbody>
          </Table>
        )
      ) : statement.isLoading ? (
        <p className="px-5 py-4 text-sm text-slate-500" role="status">
          Loading statement…
        </p>
      ) : null}
    </Card>
  );
};
