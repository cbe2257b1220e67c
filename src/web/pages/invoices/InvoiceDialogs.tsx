import { useState } from 'react';
import type { Invoice } from '../../../shared/invoices.ts';
import { Money } from '../../components/money/Money.tsx';
import { MoneyAccountSelect } from '../../components/money/MoneyAccountSelect.tsx';
import { SelectField, TextField, TextAreaField } from '../../components/ui/Field.tsx';
import { CheckboxField } from '../../components/ui/Form.tsx';
import { FormDialog } from '../../components/ui/FormDialog.tsx';
import { api } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { useInvoicingMutation } from './invoicesApi.ts';
import {
  METHOD_LABELS,
  todayIso,
  tryParseMoney,
  AmountInput,
  ReferenceInput,
  RateInput,
  DateInput,
} from './parts.tsx';
import { priceText } from './editorState.ts';

// Dialogs on an invoice: record a payment, issue a credit note, void, email (send and delete a
// draft: DraftDialogs.tsx).

export type DialogProps = { invoice: Invoice; open: boolean; onOpenChange: (open: boolean) => void };

export const PaymentDialog = ({ invoice, open, onOpenChange }: DialogProps) => {
  const { company } = useCompany();
  const [amount, setAmount] = useState(priceText(invoice.amountDue, invoice.currency));
  const [date, setDate] = useState(todayIso());
  // The money account the payment went into; MoneyAccountSelect starts on the deposit account.
  const [moneyAccount, setMoneyAccount] = useState<{ id: string; ledgerAccountId: string } | null>(null);
  const [method, setMethod] = useState('bank_transfer');
  const [reference, setReference] = useState('');
  const [rate, setRate] = useState(invoice.exchangeRate);
  const [key] = useState(() => crypto.randomUUID());
  const [touched, setTouched] = useState(false);
  // More than is due: the excess becomes the customer's credit only when asked (decision 0028).
  const [keepExcess, setKeepExcess] = useState(false);
  const foreign = invoice.currency !== company.baseCurrency;
  const parsed = tryParseMoney(amount, invoice.currency);
  const excess = parsed !== null && parsed > invoice.amountDue ? parsed - invoice.amountDue : 0;
  const amountError =
    parsed === null || parsed <= 0
      ? `Enter an amount in ${invoice.currency}.`
      : excess > 0 && !keepExcess
        ? "That is more than is due. Enter at most the amount due, or keep the extra as the customer's credit."
        : null;
  const chosenAccount = moneyAccount?.ledgerAccountId ?? '';
  const pay = useInvoicingMutation((base, body: Record<string, unknown>) =>
    // The key makes a double click or a retry after a dropped connection record one payment.
    api.post(`${base}/invoices/${invoice.id}/payments`, body, { 'Idempotency-Key': key }),
  );
  const submit = async () => {
    setTouched(true);
    if (amountError || !chosenAccount) return;
    const body = {
      date,
      amount: parsed,
      depositAccountId: chosenAccount,
      method,
      reference,
      ...(foreign ? { exchangeRate: rate } : {}),
      ...(excess > 0 && keepExcess ? { keepExcessAsCredit: true } : {}),
    };
    await pay.mutateAsync(body);
    onOpenChange(false);
  };
  return (
    <FormDialog
      open={open}
      onClose={() => onOpenChange(false)}
      title={`Record a payment for ${invoice.number}`}
      onSubmit={submit}
      submitLabel="Record payment"
    >
      <p className="text-sm text-slate-600 dark:text-slate-300">
        Amount due: <Money minor={invoice.amountDue} currency={invoice.currency} className="font-semibold" />
      </p>
      <div className="grid gap-4 sm:grid-cols-2">
        <AmountInput
          currency={invoice.currency}
          value={amount}
          onChange={setAmount}
          error={touched ? amountError : null}
        />
        <DateInput label="Payment date" value={date} min={invoice.issueDate} onChange={setDate} />
        <MoneyAccountSelect
          label="Deposited to"
          value={moneyAccount?.id ?? ''}
          onChange={(_id, account) => setMoneyAccount(account)}
          currencies={[company.baseCurrency, invoice.currency]}
          excludeCards
          hint="A money account of your Wallet; it starts on the deposit account."
          error={touched && !chosenAccount ? 'Choose the account the money went into.' : null}
        />
        <SelectField
          label="Method"
          value={method}
          onChange={(e) => setMethod(e.target.value)}
          options={Object.entries(METHOD_LABELS).map(([value, label]) => ({ value, label }))}
        />
        <ReferenceInput value={reference} onChange={setReference} />
        <RateInput
          label="Rate on payment date"
          base={company.baseCurrency}
          currency={invoice.currency}
          value={rate}
          onChange={setRate}
        />
      </div>
      {excess > 0 ? (
        <CheckboxField
          checked={keepExcess}
          onChange={setKeepExcess}
          label={
            <span>
              Keep the extra <Money minor={excess} currency={invoice.currency} /> as {invoice.customerName}'s
              credit (apply it to another invoice or refund it later)
            </span>
          }
        />
      ) : null}
    </FormDialog>
  );
};

export const CreditNoteDialog = ({ invoice, open, onOpenChange }: DialogProps) => {
  const [amount, setAmount] = useState('');
  const [description, setDescription] = useState('Credit');
  const [reason, setReason] = useState('');
  const [date, setDate] = useState(todayIso());
  const [taxRateId, setTaxRateId] = useState('');
  const [touched, setTouched] = useState(false);
  const parsed = tryParseMoney(amount, invoice.currency);
  const error =
    parsed === null || parsed <= 0 ? `Enter the amount to credit in ${invoice.currency}, before tax.` : null;
  const credit = useInvoicingMutation((base, body: Record<string, unknown>) =>
    api.post(`${base}/invoices/${invoice.id}/credit-notes`, body),
  );
  const submit = async () => {
    setTouched(true);
    if (error) return;
    const line = { description, quantity: '1', unitPrice: parsed, taxRateIds: taxRateId ? [taxRateId] : [] };
    await credit.mutateAsync({ date, reason, lines: [line] });
    onOpenChange(false);
  };
  return (
    <FormDialog
      open={open}
      onClose={() => onOpenChange(false)}
      title={`Credit note against ${invoice.number}`}
      description="Reduces what the customer owes; posts its own entry reversing income and tax."
      onSubmit={submit}
      submitLabel="Issue credit note"
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Description" value={description} onChange={(e) => setDescription(e.target.value)} />
        <TextField
          label={`Amount before tax (${invoice.currency})`}
          inputMode="decimal"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          error={touched ? error : null}
          autoFocus
        />
        <SelectField
          label="Tax"
          value={taxRateId}
          onChange={(e) => setTaxRateId(e.target.value)}
          emptyOption="No tax"
          options={invoice.taxes.map((t) => ({ value: t.taxRateId, label: `${t.name} (${t.percent}%)` }))}
        />
        <DateInput label="Date" value={date} min={invoice.issueDate} onChange={setDate} />
      </div>
      <TextField label="Reason" value={reason} onChange={(e) => setReason(e.target.value)} />
    </FormDialog>
  );
};

export const VoidDialog = ({ invoice, open, onOpenChange }: DialogProps) => {
  const [reason, setReason] = useState('');
  const voidIt = useInvoicingMutation((base, body: { reason: string }) =>
    api.post(`${base}/invoices/${invoice.id}/void`, body),
  );
  return (
    <FormDialog
      open={open}
      onClose={() => onOpenChange(false)}
      title={`Void ${invoice.number}?`}
      description="The invoice stays on record as void and its posting is reversed in the ledger. This cannot be undone."
      browserValidation
      onSubmit={async () => {
        await voidIt.mutateAsync({ reason });
        onOpenChange(false);
      }}
      cancelLabel="Keep invoice"
      submitLabel="Void invoice"
      submitVariant="danger"
    >
      <TextField label="Reason (optional)" value={reason} onChange={(e) => setReason(e.target.value)} />
    </FormDialog>
  );
};

export const EmailDialog = ({ invoice, open, onOpenChange }: DialogProps) => {
  const [to, setTo] = useState(invoice.customer.email);
  const [message, setMessage] = useState('');
  const send = useInvoicingMutation((base, body: Record<string, unknown>) =>
    api.post(`${base}/invoices/${invoice.id}/email`, body),
  );
  const body = { to: to.trim() || undefined, message: message || undefined };
  return (
    <FormDialog
      open={open}
      onClose={() => onOpenChange(false)}
      title={`Email ${invoice.number}`}
      description="The PDF is attached."
      browserValidation
      onSubmit={async () => {
        await send.mutateAsync(body);
        onOpenChange(false);
      }}
      submitLabel="Send email"
    >
      <TextField label="To" type="email" value={to} onChange={(e) => setTo(e.target.value)} required />
      <TextAreaField
        id="email-message"
        label="Message"
        rows={4}
        value={message}
        placeholder={`Please find attached invoice ${invoice.number}.`}
        onChange={(e) => setMessage(e.target.value)}
      />
    </FormDialog>
  );
};
