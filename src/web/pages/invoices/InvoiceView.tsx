import {
  ArrowLeft,
  Ban,
  Download,
  FileMinus,
  Mail,
  Pencil,
  Send,
  Trash2,
  Undo2,
  Wallet,
  WalletCards,
} from 'lucide-react';
import { useEffect, useState } from 'react';
import { invoiceTotalsRows } from '../../../shared/invoice-totals.ts';
import type { Invoice } from '../../../shared/invoices.ts';
import { Money, formatAmount } from '../../components/money/Money.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { Alert, Card, CardHeader, EmptyState } from '../../components/ui/Card.tsx';
import { Dialog } from '../../components/ui/Dialog.tsx';
import { Table, Td, Th } from '../../components/ui/Table.tsx';
import { api } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { ApplyCreditDialog, RefundDialog } from './CreditDialogs.tsx';
import { CreditNoteDialog, EmailDialog, PaymentDialog, VoidDialog } from './InvoiceDialogs.tsx';
import { useCustomerCredit, useInvoice, useInvoicingMutation, useOrgPath } from './invoicesApi.ts';
import { formatDateTime } from '../../lib/format.ts';
import { METHOD_LABELS, StatusBadge, errorMessage, formatDate } from './parts.tsx';

// One invoice: status and actions that fit it, the PDF as the customer sees it, what was
// paid and credited, and its history.

type Open =
  | null
  | 'pay'
  | 'credit'
  | 'void'
  | 'email'
  | 'send'
  | 'delete'
  | 'apply'
  | 'refund'
  | `refund-note:${string}`;

export const InvoiceView = ({
  invoiceId,
  onBack,
  onEdit,
}: {
  invoiceId: string;
  onBack: () => void;
  onEdit: () => void;
}) => {
  const query = useInvoice(invoiceId);
  const invoice = query.data;
  if (query.isLoading) {
    return (
      <div className="mx-auto max-w-7xl space-y-4" aria-busy="true">
        <div className="h-8 w-64 animate-pulse rounded bg-slate-200 dark:bg-slate-800" />
        <div className="h-96 animate-pulse rounded-xl bg-slate-100 dark:bg-slate-800/60" />
        <span className="sr-only" role="status">
          Loading invoice...
        </span>
      </div>
    );
  }
  if (query.error || !invoice) {
    return (
      <div className="mx-auto max-w-xl space-y-4 py-10">
        <Alert>{query.error?.message ?? 'Invoice not found.'}</Alert>
        <Button variant="secondary" onClick={onBack}>
          Back to invoices
        </Button>
      </div>
    );
  }
  return <InvoiceDetail invoice={invoice} onBack={onBack} onEdit={onEdit} />;
};

const InvoiceDetail = ({
  invoice,
  onBack,
  onEdit,
}: {
  invoice: Invoice;
  onBack: () => void;
  onEdit: () => void;
}) => {
  const { can, company } = useCompany();
  const { base } = useOrgPath();
  const [open, setOpen] = useState<Open>(null);
  const [notice, setNotice] = useState<string | null>(null);
  // A success note is news about the last action only.
  useEffect(() => {
    if (!notice) return;
    const timer = window.setTimeout(() => setNotice(null), 8000);
    return () => window.clearTimeout(timer);
  }, [notice]);
  const c = invoice.currency;
  const stored = invoice.storedStatus;
  const isOpen = stored === 'sent' || stored === 'partially_paid';
  // The customer's credit in this invoice's currency (overpayments, credit notes beyond what was due).
  const customerCredit = useCustomerCredit(stored === 'draft' ? null : invoice.customerId);
  const creditHere = customerCredit.data?.balances.find((b) => b.currency === invoice.currency)?.amount ?? 0;
  const pdfUrl = `/api${base}/invoices/${invoice.id}/pdf`;
  const dialog = (name: Open) => ({
    open: open === name,
    onOpenChange: (o: boolean) => setOpen(o ? name : null),
  });

  const send = useInvoicingMutation((b, email: boolean) =>
    api.post<{ emailedTo: string | null; emailError: string | null }>(`${b}/invoices/${invoice.id}/send`, {
      email,
    }),
  );
  const remove = useInvoicingMutation((b) => api.delete(`${b}/invoices/${invoice.id}`));
  const unpay = useInvoicingMutation((b, paymentId: string) =>
    api.delete(`${b}/invoices/${invoice.id}/payments/${paymentId}`),
  );
  const uncredit = useInvoicingMutation((b, id: string) =>
    api.post(`${b}/invoices/${invoice.id}/credit-notes/${id}/void`),
  );
  const actionError = send.error ?? remove.error ?? unpay.error ?? uncredit.error;

  return (
    <div className="mx-auto max-w-7xl space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="flex items-start gap-2">
          <Button variant="ghost" onClick={onBack} aria-label="Back to invoices">
            <ArrowLeft className="h-4 w-4" aria-hidden="true" />
          </Button>
          <div>
            <div className="flex flex-wrap items-center gap-3">
              <h1 className="text-2xl font-bold text-slate-900 dark:text-white">
                {invoice.number ? `Invoice ${invoice.number}` : 'Draft invoice'}
              </h1>
              <span data-testid="invoice-status">
                <StatusBadge status={invoice.status} />
              </span>
            </div>
            <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">
              {invoice.customerName} · issued {formatDate(invoice.issueDate)} · due{' '}
              {formatDate(invoice.dueDate)}
              {invoice.emailedAt ? ` · emailed ${formatDateTime(invoice.emailedAt)}` : ''}
            </p>
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          {stored === 'draft' && can('record') ? (
            <>
              <Button variant="secondary" onClick={onEdit}>
                <Pencil className="h-4 w-4" aria-hidden="true" /> Edit
              </Button>
              <Button variant="ghost" onClick={() => setOpen('delete')}>
                <Trash2 className="h-4 w-4" aria-hidden="true" /> Delete
              </Button>
            </>
          ) : null}
          {stored === 'draft' && can('post') ? (
            <Button onClick={() => setOpen('send')}>
              <Send className="h-4 w-4" aria-hidden="true" /> Send
            </Button>
          ) : null}
          {isOpen && can('post') ? (
            <>
              <Button onClick={() => setOpen('pay')}>
                <Wallet className="h-4 w-4" aria-hidden="true" /> Record payment
              </Button>
              <Button variant="secondary" onClick={() => setOpen('credit')}>
                <FileMinus className="h-4 w-4" aria-hidden="true" /> Credit note
              </Button>
            </>
          ) : null}
          {isOpen && creditHere > 0 && can('post') ? (
            <Button variant="secondary" onClick={() => setOpen('apply')}>
              <WalletCards className="h-4 w-4" aria-hidden="true" /> Apply credit
            </Button>
          ) : null}
          {stored !== 'draft' && stored !== 'void' && creditHere > 0 && can('post') ? (
            <Button variant="secondary" onClick={() => setOpen('refund')}>
              <Undo2 className="h-4 w-4" aria-hidden="true" /> Refund
            </Button>
          ) : null}
          {stored !== 'draft' && stored !== 'void' && can('post') ? (
            <Button variant="secondary" onClick={() => setOpen('email')}>
              <Mail className="h-4 w-4" aria-hidden="true" /> Email
            </Button>
          ) : null}
          <a
            href={`${pdfUrl}?download=1`}
            className="inline-flex min-h-11 items-center gap-2 rounded-lg border border-slate-300 bg-white px-4 text-sm font-semibold text-slate-800 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800"
          >
            <Download className="h-4 w-4" aria-hidden="true" /> PDF
          </a>
          {isOpen && invoice.amountPaid === 0 && invoice.amountCredited === 0 && can('post') ? (
            <Button variant="ghost" onClick={() => setOpen('void')}>
              <Ban className="h-4 w-4" aria-hidden="true" /> Void
            </Button>
          ) : null}
        </div>
      </div>

      {actionError ? <Alert>{errorMessage(actionError)}</Alert> : null}
      {notice ? <Alert tone="success">{notice}</Alert> : null}
      {invoice.status === 'overdue' ? (
        <Alert tone="warning">
          This invoice is past its due date with <Money minor={invoice.amountDue} currency={c} /> still owed.
        </Alert>
      ) : null}

      <div className="grid gap-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]">
        <div className="space-y-6">
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
                  {invoice.customerName} holds <Money minor={creditHere} currency={c} /> of credit
                  (overpayments and credit notes not yet used).
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

          <Card>
            <CardHeader title="Payments" />
            {invoice.payments.length === 0 ? (
              <EmptyState
                title="No payments yet"
                description={isOpen ? 'Record a payment when the money arrives.' : undefined}
              />
            ) : (
              <Table caption="Payments" captionHidden dense>
                <thead>
                  <tr>
                    <Th>Date</Th>
                    <Th>Account</Th>
                    <Th numeric>Amount</Th>
                    <Th>
                      <span className="sr-only">Actions</span>
                    </Th>
                  </tr>
                </thead>
                <tbody>
                  {invoice.payments.map((p) => (
                    <tr key={p.id} className={p.reversed ? 'text-slate-400 line-through' : ''}>
                      <Td className="whitespace-nowrap">{formatDate(p.date)}</Td>
                      <Td>
                        {p.depositAccountName}
                        <span className="block text-xs text-slate-500">
                          {METHOD_LABELS[p.method] ?? p.method}
                          {p.reference ? ` · ${p.reference}` : ''}
                          {p.creditAmount > 0
                            ? ` · ${formatAmount(p.creditAmount, p.currency)} kept as credit`
                            : ''}
                          {p.reversed ? ' · removed' : ''}
                        </span>
                      </Td>
                      <Td numeric>
                        <Money minor={p.amount} currency={p.currency} />
                      </Td>
                      <Td>
                        {!p.reversed && can('post') ? (
                          <Button
                            size="sm"
                            variant="ghost"
                            busy={unpay.isPending && unpay.variables === p.id}
                            onClick={() => unpay.mutate(p.id)}
                          >
                            Remove
                            <span className="sr-only"> payment of {formatAmount(p.amount, p.currency)}</span>
                          </Button>
                        ) : null}
                      </Td>
                    </tr>
                  ))}
                </tbody>
              </Table>
            )}
          </Card>

          {invoice.creditNotes.length > 0 ? (
            <Card>
              <CardHeader title="Credit notes" />
              <Table caption="Credit notes" captionHidden dense>
                <thead>
                  <tr>
                    <Th>Number</Th>
                    <Th>Date</Th>
                    <Th numeric>Total</Th>
                    <Th>
                      <span className="sr-only">Actions</span>
                    </Th>
                  </tr>
                </thead>
                <tbody>
                  {invoice.creditNotes.map((n) => (
                    <tr key={n.id} className={n.status === 'void' ? 'text-slate-400 line-through' : ''}>
                      <Td>
                        {n.number}
                        {n.reason ? <span className="block text-xs text-slate-500">{n.reason}</span> : null}
                      </Td>
                      <Td className="whitespace-nowrap">{formatDate(n.date)}</Td>
                      <Td numeric>
                        <Money minor={n.total} currency={n.currency} />
                        {n.toCredit > 0 ? (
                          <span className="block text-xs text-slate-500">
                            {formatAmount(n.toCredit, n.currency)} to credit
                          </span>
                        ) : null}
                      </Td>
                      <Td>
                        {n.status === 'issued' && n.toCredit > 0 && creditHere > 0 && can('post') ? (
                          <Button size="sm" variant="ghost" onClick={() => setOpen(`refund-note:${n.id}`)}>
                            Refund
                            <span className="sr-only"> credit note {n.number}</span>
                          </Button>
                        ) : null}
                        {n.status === 'issued' && can('post') ? (
                          <Button size="sm" variant="ghost" onClick={() => uncredit.mutate(n.id)}>
                            Void
                          </Button>
                        ) : null}
                      </Td>
                    </tr>
                  ))}
                </tbody>
              </Table>
            </Card>
          ) : null}

          <Card>
            <CardHeader title="History" />
            <ol className="space-y-3 px-5 py-4 text-sm">
              {invoice.history.map((h) => (
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
          </Card>
        </div>

        <Card className="overflow-hidden">
          <CardHeader title="PDF preview" description="Exactly what the customer receives." />
          <iframe
            key={invoice.updatedAt}
            title={`PDF of ${invoice.number ?? 'draft invoice'}`}
            src={`${pdfUrl}#view=FitH&navpanes=0`}
            className="h-[780px] w-full border-0 bg-slate-100 dark:bg-slate-950"
          />
        </Card>
      </div>

      <PaymentDialog key={`pay-${invoice.amountDue}`} invoice={invoice} {...dialog('pay')} />
      <CreditNoteDialog invoice={invoice} {...dialog('credit')} />
      <VoidDialog invoice={invoice} {...dialog('void')} />
      {open === 'apply' ? (
        <ApplyCreditDialog
          {...dialog('apply')}
          onDone={setNotice}
          customerId={invoice.customerId}
          customerName={invoice.customerName}
          currency={c}
          available={creditHere}
          invoices={[{ id: invoice.id, number: invoice.number, amountDue: invoice.amountDue }]}
        />
      ) : null}
      {open === 'refund' ? (
        <RefundDialog
          {...dialog('refund')}
          onDone={setNotice}
          title={`Refund ${invoice.customerName}`}
          description={`From ${invoice.customerName}'s credit (an overpayment or a credit note beyond what was due).`}
          path={`/invoices/${invoice.id}/refunds`}
          currency={c}
          available={creditHere}
        />
      ) : null}
      {invoice.creditNotes.map((n) =>
        open === `refund-note:${n.id}` ? (
          <RefundDialog
            key={n.id}
            {...dialog(`refund-note:${n.id}`)}
            onDone={setNotice}
            title={`Refund credit note ${n.number}`}
            description="Pays back as cash what the credit note put on the customer's credit."
            path={`/invoices/${invoice.id}/credit-notes/${n.id}/refunds`}
            currency={n.currency}
            available={Math.min(n.toCredit, creditHere)}
          />
        ) : null,
      )}
      <EmailDialog invoice={invoice} {...dialog('email')} />
      <Dialog
        {...dialog('send')}
        title="Send this invoice?"
        description="It gets the next number and is posted to your books. After that, changes go through a credit note or a void."
      >
        <div className="space-y-4">
          {!invoice.customer.email ? (
            <Alert tone="warning">
              {invoice.customerName} has no email address; the invoice will be posted but not emailed.
            </Alert>
          ) : null}
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="ghost" onClick={() => setOpen(null)}>
              Cancel
            </Button>
            <Button
              variant="secondary"
              busy={send.isPending && send.variables === false}
              onClick={async () => {
                const r = await send.mutateAsync(false).catch(() => null);
                if (r) {
                  setOpen(null);
                  setNotice('Invoice sent and posted.');
                }
              }}
            >
              Mark as sent
            </Button>
            {invoice.customer.email ? (
              <Button
                busy={send.isPending && send.variables === true}
                onClick={async () => {
                  const r = await send.mutateAsync(true).catch(() => null);
                  if (r) {
                    setOpen(null);
                    setNotice(
                      r.emailError
                        ? `Invoice sent and posted, but the email failed: ${r.emailError}`
                        : `Invoice sent and emailed to ${r.emailedTo}.`,
                    );
                  }
                }}
              >
                Send and email
              </Button>
            ) : null}
          </div>
        </div>
      </Dialog>
      <Dialog
        {...dialog('delete')}
        title="Delete this draft?"
        description="Drafts have no effect on your books; deleting one cannot be undone."
      >
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={() => setOpen(null)}>
            Keep draft
          </Button>
          <Button
            variant="danger"
            busy={remove.isPending}
            onClick={async () => {
              const ok = await remove
                .mutateAsync(undefined)
                .then(() => true)
                .catch(() => false);
              if (ok) onBack();
            }}
          >
            Delete draft
          </Button>
        </div>
      </Dialog>
    </div>
  );
};
