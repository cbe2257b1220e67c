import { Ban, Check, Pencil, Send, Trash2, Wallet, X } from 'lucide-react';
import { useState } from 'react';
import type { Bill } from '../../../shared/payables.ts';
import { Money } from '../../components/money/Money.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { Alert } from '../../components/ui/Card.tsx';
import { api } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { formatDate } from '../../lib/format.ts';
import { RecordHeader, errorMessage } from '../invoices/parts.tsx';
import { BillAttachmentsCard } from './BillAttachments.tsx';
import {
  ApproveDialog,
  DeleteBillDialog,
  PaymentDialog,
  RejectDialog,
  VoidBillDialog,
} from './BillDialogs.tsx';
import {
  BillLinesTable,
  BillPaymentsCard,
  BillSummaryCard,
  CreditsAppliedCard,
  SupplierCard,
} from './BillSections.tsx';
import { HistoryCard } from '../shared-documents/DocumentCards.tsx';
import {
  DocumentLoading,
  DocumentMissing,
  DocumentTitle,
  shownActions,
} from '../shared-documents/DocumentView.tsx';
import { useBill, useBillMutation } from './billsApi.ts';
import { BillStatusBadge } from './parts.tsx';

// One bill: its status and the actions that fit it and the member's role, the supplier (with
// where to pay them), the figures, lines and taxes, payments, credits applied, attachments and
// history. The approver sees the whole bill they approve.

type Open = null | 'pay' | 'approve' | 'reject' | 'void' | 'delete';
type Navigation = { onBack: () => void; onEdit: () => void };

export const BillView = ({ billId, ...nav }: Navigation & { billId: string }) => {
  const query = useBill(billId);
  if (query.isLoading) {
    return <DocumentLoading noun="bill" />;
  }
  if (query.error || !query.data) {
    return <DocumentMissing noun="bill" error={query.error} onBack={nav.onBack} />;
  }
  return <BillDetail bill={query.data} {...nav} />;
};

const BillDetail = ({ bill, onBack, onEdit }: Navigation & { bill: Bill }) => {
  const { can } = useCompany();
  const [open, setOpen] = useState<Open>(null);
  const dialog = (name: Exclude<Open, null>) => ({
    open: open === name,
    onOpenChange: (o: boolean) => setOpen(o ? name : null),
  });
  const stored = bill.storedStatus;
  const payable = stored === 'open' || stored === 'partially_paid';
  const submit = useBillMutation((base) => api.post(`${base}/bills/${bill.id}/submit`));
  const unpay = useBillMutation((base, paymentId: string) =>
    api.delete(`${base}/bills/${bill.id}/payments/${paymentId}`),
  );
  const actionError = submit.error ?? unpay.error;
  const approver = can('approve');
  const untouched = bill.amountPaid === 0 && bill.amountCredited === 0;

  const actions = shownActions([
    [stored === 'draft' && can('record'), 'Submit', Send, 'primary', () => submit.mutate(undefined)],
    [stored === 'awaiting_approval' && approver, 'Approve', Check, 'primary', () => setOpen('approve')],
    [stored === 'awaiting_approval' && approver, 'Reject', X, 'secondary', () => setOpen('reject')],
    [payable && approver, 'Record payment', Wallet, 'primary', () => setOpen('pay')],
    [
      (stored === 'draft' || stored === 'awaiting_approval') && can('record'),
      'Edit',
      Pencil,
      'secondary',
      onEdit,
    ],
    [
      (stored === 'draft' || stored === 'awaiting_approval') && can('record'),
      'Delete',
      Trash2,
      'ghost',
      () => setOpen('delete'),
    ],
    [payable && untouched && approver, 'Void', Ban, 'ghost', () => setOpen('void')],
  ]);

  return (
    <div className="mx-auto max-w-7xl space-y-6">
      <RecordHeader
        backLabel="Back to bills"
        onBack={onBack}
        heading={
          <DocumentTitle
            title={bill.number ? `Bill ${bill.number}` : 'Draft bill'}
            statusTestId="bill-status"
            badge={<BillStatusBadge status={bill.status} />}
          />
        }
        subtitle={
          <>
            {bill.supplierName}
            {bill.reference ? ` · ref. ${bill.reference}` : ''} · issued {formatDate(bill.issueDate)} · due{' '}
            {formatDate(bill.dueDate)}
          </>
        }
        actions={actions.map(({ label, Icon, variant, onClick }) => (
          <Button
            key={label}
            variant={variant}
            onClick={onClick}
            busy={label === 'Submit' && submit.isPending}
          >
            <Icon className="h-4 w-4" aria-hidden="true" /> {label}
          </Button>
        ))}
      />

      {actionError ? <Alert>{errorMessage(actionError)}</Alert> : null}
      {stored === 'awaiting_approval' ? (
        <Alert tone="warning">
          {approver
            ? 'This bill is above the approval threshold and waits for your approval. Check the lines, the supplier and the attached bill, then approve or reject it.'
            : 'This bill is above the approval threshold and waits for an accountant or admin to approve it.'}
        </Alert>
      ) : null}
      {bill.status === 'overdue' ? (
        <Alert tone="warning">
          This bill is past its due date with <Money minor={bill.amountDue} currency={bill.currency} /> still
          to pay.
        </Alert>
      ) : null}

      <div className="grid gap-6 lg:grid-cols-2">
        <SupplierCard bill={bill} />
        <BillSummaryCard bill={bill} />
      </div>
      <BillLinesTable bill={bill} />
      {bill.notes ? (
        <Alert tone="info">
          <span className="whitespace-pre-line">{bill.notes}</span>
        </Alert>
      ) : null}
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <div className="space-y-6">
          <BillPaymentsCard
            bill={bill}
            removing={unpay.isPending ? unpay.variables : undefined}
            onRemove={(paymentId) => unpay.mutate(paymentId)}
          />
          <CreditsAppliedCard bill={bill} />
          <BillAttachmentsCard bill={bill} />
        </div>
        <HistoryCard history={bill.history} emptyText="Nothing has happened yet." />
      </div>

      {open === 'pay' ? <PaymentDialog bill={bill} {...dialog('pay')} /> : null}
      {open === 'approve' ? <ApproveDialog bill={bill} {...dialog('approve')} /> : null}
      {open === 'reject' ? <RejectDialog bill={bill} {...dialog('reject')} /> : null}
      {open === 'void' ? <VoidBillDialog bill={bill} {...dialog('void')} /> : null}
      {open === 'delete' ? <DeleteBillDialog bill={bill} {...dialog('delete')} onDeleted={onBack} /> : null}
    </div>
  );
};
