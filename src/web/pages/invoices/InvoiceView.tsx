import {
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
import type { Invoice } from '../../../shared/invoices.ts';
import { Money } from '../../components/money/Money.tsx';
import { Button, buttonClasses } from '../../components/ui/Button.tsx';
import { Alert, Card, CardHeader } from '../../components/ui/Card.tsx';
import { api } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { ApplyCreditDialog, RefundDialog } from './CreditDialogs.tsx';
import { DeleteDraftDialog, SendDialog } from './DraftDialogs.tsx';
import { CreditNoteDialog, EmailDialog, PaymentDialog, VoidDialog } from './InvoiceDialogs.tsx';
import { useCustomerCredit, useInvoice, useInvoicingMutation, useOrgPath } from './invoicesApi.ts';
import { formatDateTime } from '../../lib/format.ts';
import { RecordHeader, StatusBadge, errorMessage, formatDate } from './parts.tsx';
import { HistoryCard } from '../shared-documents/DocumentCards.tsx';
import {
  DocumentLoading,
  DocumentMissing,
  DocumentTitle,
  shownActions,
} from '../shared-documents/DocumentView.tsx';
import { CreditNotesCard, InvoicePaymentsCard, InvoiceSummaryCard } from './InvoiceSections.tsx';

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

/** Where the view's Back and Edit go. */
type Navigation = { onBack: () => void; onEdit: () => void };

export const InvoiceView = ({ invoiceId, ...nav }: Navigation & { invoiceId: string }) => {
  const query = useInvoice(invoiceId);
  const invoice = query.data;
  if (query.isLoading) {
    return <DocumentLoading noun="invoice" />;
  }
  if (query.error || !invoice) {
    return <DocumentMissing noun="invoice" error={query.error} onBack={nav.onBack} />;
  }
  return <InvoiceDetail invoice={invoice} {...nav} />;
};

const InvoiceDetail = ({ invoice, onBack, onEdit }: Navigation & { invoice: Invoice }) => {
  const { can } = useCompany();
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

  const unpay = useInvoicingMutation((b, paymentId: string) =>
    api.delete(`${b}/invoices/${invoice.id}/payments/${paymentId}`),
  );
  const uncredit = useInvoicingMutation((b, id: string) =>
    api.post(`${b}/invoices/${invoice.id}/credit-notes/${id}/void`),
  );
  const actionError = unpay.error ?? uncredit.error;
  const post = can('post');
  const live = stored !== 'draft' && stored !== 'void';
  // The actions that fit the invoice's state and the member's role, in this order.
  const actions = shownActions([
    [stored === 'draft' && can('record'), 'Edit', Pencil, 'secondary', onEdit],
    [stored === 'draft' && can('record'), 'Delete', Trash2, 'ghost', () => setOpen('delete')],
    [stored === 'draft' && post, 'Send', Send, 'primary', () => setOpen('send')],
    [isOpen && post, 'Record payment', Wallet, 'primary', () => setOpen('pay')],
    [isOpen && post, 'Credit note', FileMinus, 'secondary', () => setOpen('credit')],
    [isOpen && creditHere > 0 && post, 'Apply credit', WalletCards, 'secondary', () => setOpen('apply')],
    [live && creditHere > 0 && post, 'Refund', Undo2, 'secondary', () => setOpen('refund')],
    [live && post, 'Email', Mail, 'secondary', () => setOpen('email')],
    [true, 'PDF', Download, 'secondary', () => undefined],
    [
      isOpen && invoice.amountPaid === 0 && invoice.amountCredited === 0 && post,
      'Void',
      Ban,
      'ghost',
      () => setOpen('void'),
    ],
  ]);

  return (
    <div className="mx-auto max-w-7xl space-y-6">
      <RecordHeader
        backLabel="Back to invoices"
        onBack={onBack}
        heading={
          <DocumentTitle
            title={invoice.number ? `Invoice ${invoice.number}` : 'Draft invoice'}
            statusTestId="invoice-status"
            badge={<StatusBadge status={invoice.status} />}
          />
        }
        subtitle={
          <>
            {invoice.customerName} · issued {formatDate(invoice.issueDate)} · due{' '}
            {formatDate(invoice.dueDate)}
            {invoice.emailedAt ? ` · emailed ${formatDateTime(invoice.emailedAt)}` : ''}
          </>
        }
        actions={actions.map(({ label, Icon, variant, onClick }) =>
          label === 'PDF' ? (
            <a key={label} href={`${pdfUrl}?download=1`} className={buttonClasses('secondary')}>
              <Icon className="h-4 w-4" aria-hidden="true" /> PDF
            </a>
          ) : (
            <Button key={label} variant={variant} onClick={onClick}>
              <Icon className="h-4 w-4" aria-hidden="true" /> {label}
            </Button>
          ),
        )}
      />

      {actionError ? <Alert>{errorMessage(actionError)}</Alert> : null}
      {notice ? <Alert tone="success">{notice}</Alert> : null}
      {invoice.status === 'overdue' ? (
        <Alert tone="warning">
          This invoice is past its due date with <Money minor={invoice.amountDue} currency={c} /> still owed.
        </Alert>
      ) : null}

      <div className="grid gap-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]">
        <div className="space-y-6">
          <InvoiceSummaryCard invoice={invoice} creditHere={creditHere} />
          <InvoicePaymentsCard
            invoice={invoice}
            isOpen={isOpen}
            removing={unpay.isPending ? unpay.variables : undefined}
            onRemove={(paymentId) => unpay.mutate(paymentId)}
          />
          <CreditNotesCard
            invoice={invoice}
            creditHere={creditHere}
            onRefund={(noteId) => setOpen(`refund-note:${noteId}`)}
            onVoid={(noteId) => uncredit.mutate(noteId)}
          />
          <HistoryCard history={invoice.history} />
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
      <SendDialog invoice={invoice} {...dialog('send')} onSent={setNotice} />
      <DeleteDraftDialog invoice={invoice} {...dialog('delete')} onDeleted={onBack} />
    </div>
  );
};
