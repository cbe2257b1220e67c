import { useState } from 'react';
import { type Bill, PAYMENT_METHODS } from '../../../shared/payables.ts';
import { Money } from '../../components/money/Money.tsx';
import { MoneyAccountSelect } from '../../components/money/MoneyAccountSelect.tsx';
import { SelectField, TextField } from '../../components/ui/Field.tsx';
import { FormDialog } from '../../components/ui/FormDialog.tsx';
import { api } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { priceText } from '../invoices/editorState.ts';
import {
  AmountInput,
  DateInput,
  RateInput,
  ReferenceInput,
  todayIso,
  tryParseMoney,
} from '../invoices/parts.tsx';
import { useBillMutation } from './billsApi.ts';
import { BILL_METHOD_LABELS } from './parts.tsx';
import { DeleteDraftConfirm } from '../shared-documents/DocumentDialogs.tsx';

// Dialogs on a bill: record a payment, approve, reject with a reason, void, delete a draft.

export type BillDialogProps = { bill: Bill; open: boolean; onOpenChange: (open: boolean) => void };

const billName = (bill: Bill) => (bill.number ? `bill ${bill.number}` : 'this draft bill');

export const PaymentDialog = ({ bill, open, onOpenChange }: BillDialogProps) => {
  const { company } = useCompany();
  const [amount, setAmount] = useState(priceText(bill.amountDue, bill.currency));
  const [date, setDate] = useState(todayIso());
  const [moneyAccount, setMoneyAccount] = useState<{ id: string; ledgerAccountId: string } | null>(null);
  const [method, setMethod] = useState<string>('bank_transfer');
  const [reference, setReference] = useState(bill.reference);
  const [rate, setRate] = useState('');
  const [key] = useState(() => crypto.randomUUID());
  const [touched, setTouched] = useState(false);
  const foreign = bill.currency !== company.baseCurrency;
  const parsed = tryParseMoney(amount, bill.currency);
  const amountError =
    parsed === null || parsed <= 0
      ? `Enter an amount in ${bill.currency}.`
      : parsed > bill.amountDue
        ? 'That is more than is due on this bill. Enter at most the amount due.'
        : null;
  const chosen = moneyAccount?.ledgerAccountId ?? '';
  const pay = useBillMutation((base, body: Record<string, unknown>) =>
    // The key makes a double click or a retry after a dropped connection record one payment.
    api.post(`${base}/bills/${bill.id}/payments`, body, { 'Idempotency-Key': key }),
  );
  return (
    <FormDialog
      open={open}
      onClose={() => onOpenChange(false)}
      title={`Record a payment of ${billName(bill)}`}
      description={`To ${bill.supplierName}.`}
      onSubmit={async () => {
        setTouched(true);
        if (amountError || !chosen) return;
        await pay.mutateAsync({
          date,
          amount: parsed,
          paymentAccountId: chosen,
          method,
          reference,
          ...(foreign && rate.trim() ? { exchangeRate: rate.trim() } : {}),
        });
        onOpenChange(false);
      }}
      submitLabel="Record payment"
    >
      <p className="text-sm text-slate-600 dark:text-slate-300">
        Amount due: <Money minor={bill.amountDue} currency={bill.currency} className="font-semibold" />
      </p>
      <div className="grid gap-4 sm:grid-cols-2">
        <AmountInput
          currency={bill.currency}
          value={amount}
          onChange={setAmount}
          error={touched ? amountError : null}
        />
        <DateInput label="Payment date" value={date} min={bill.issueDate} onChange={setDate} />
        <MoneyAccountSelect
          label="Paid from"
          value={moneyAccount?.id ?? ''}
          onChange={(_id, account) => setMoneyAccount(account)}
          currencies={[...new Set([company.baseCurrency, bill.currency])]}
          hint="A money account of your Wallet."
          error={touched && !chosen ? 'Choose the account the money left.' : null}
        />
        <SelectField
          label="Method"
          value={method}
          onChange={(e) => setMethod(e.target.value)}
          options={PAYMENT_METHODS.map((m) => ({ value: m, label: BILL_METHOD_LABELS[m] }))}
        />
        <ReferenceInput value={reference} onChange={setReference} />
        <RateInput
          label="Rate on payment date"
          base={company.baseCurrency}
          currency={bill.currency}
          value={rate}
          onChange={setRate}
          hint={`Leave empty for the day's rate. The bill was booked at ${bill.exchangeRate}.`}
        />
      </div>
    </FormDialog>
  );
};

export const ApproveDialog = ({ bill, open, onOpenChange }: BillDialogProps) => {
  const approve = useBillMutation((base) => api.post(`${base}/bills/${bill.id}/approve`));
  return (
    <FormDialog
      open={open}
      onClose={() => onOpenChange(false)}
      title={`Approve ${billName(bill)}?`}
      description="Approving books the bill: it posts to accounts payable and becomes due for payment."
      onSubmit={async () => {
        await approve.mutateAsync(undefined);
        onOpenChange(false);
      }}
      submitLabel="Approve bill"
    >
      <p className="text-sm text-slate-700 dark:text-slate-200">
        {bill.supplierName}
        {bill.reference ? ` · their reference ${bill.reference}` : ''} · {bill.lines.length} line
        {bill.lines.length === 1 ? '' : 's'} · total{' '}
        <Money minor={bill.total} currency={bill.currency} className="font-semibold" />
      </p>
    </FormDialog>
  );
};

export const RejectDialog = ({ bill, open, onOpenChange }: BillDialogProps) => {
  const [reason, setReason] = useState('');
  const reject = useBillMutation(
    (base, body: { reason: string }) => api.post(`${base}/bills/${bill.id}/reject`, body),
    'payables',
  );
  return (
    <FormDialog
      open={open}
      onClose={() => onOpenChange(false)}
      title={`Reject ${billName(bill)}?`}
      description="The bill goes back to draft with your reason in its history, for whoever entered it to fix."
      onSubmit={async () => {
        if (!reason.trim()) return 'Say why, so it can be fixed.';
        await reject.mutateAsync({ reason: reason.trim() });
        onOpenChange(false);
      }}
      submitLabel="Reject bill"
      submitVariant="danger"
    >
      <TextField label="Reason" value={reason} onChange={(e) => setReason(e.target.value)} autoFocus />
    </FormDialog>
  );
};

export const VoidBillDialog = ({ bill, open, onOpenChange }: BillDialogProps) => {
  const [reason, setReason] = useState('');
  const voidIt = useBillMutation((base, body: { reason: string }) =>
    api.post(`${base}/bills/${bill.id}/void`, body),
  );
  return (
    <FormDialog
      open={open}
      onClose={() => onOpenChange(false)}
      title={`Void ${billName(bill)}?`}
      description="The bill stays on record as void and its posting is reversed in the ledger. This cannot be undone."
      onSubmit={async () => {
        await voidIt.mutateAsync({ reason });
        onOpenChange(false);
      }}
      cancelLabel="Keep bill"
      submitLabel="Void bill"
      submitVariant="danger"
    >
      <TextField label="Reason (optional)" value={reason} onChange={(e) => setReason(e.target.value)} />
    </FormDialog>
  );
};

export const DeleteBillDialog = ({
  bill,
  open,
  onOpenChange,
  onDeleted,
}: BillDialogProps & { onDeleted: () => void }) => {
  const remove = useBillMutation((base) => api.delete(`${base}/bills/${bill.id}`), 'payables');
  return (
    <DeleteDraftConfirm
      open={open}
      onOpenChange={onOpenChange}
      remove={() => remove.mutateAsync(undefined)}
      onDeleted={onDeleted}
    />
  );
};
