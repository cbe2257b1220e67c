import { type FormEvent, useState } from 'react';
import type { Invoice } from '../../../shared/invoices.ts';
import { Money } from '../../components/money/Money.tsx';
import { MoneyAccountSelect } from '../../components/money/MoneyAccountSelect.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { Alert } from '../../components/ui/Card.tsx';
import { Dialog } from '../../components/ui/Dialog.tsx';
import { SelectField, TextField } from '../../components/ui/Field.tsx';
import { api } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { useInvoicingMutation } from './invoicesApi.ts';
import { METHOD_LABELS, errorMessage, todayIso, tryParseMoney } from './parts.tsx';
import { priceText } from './editorState.ts';

// Dialogs on an invoice: record a payment, issue a credit note, void, email.

type DialogProps = { invoice: Invoice; open: boolean; onOpenChange: (open: boolean) => void };

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
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (amountError || !chosenAccount) return;
    const ok = await pay
      .mutateAsync({
        date,
        amount: parsed,
        depositAccountId: chosenAccount,
        method,
        reference,
        ...(foreign ? { exchangeRate: rate } : {}),
        ...(excess > 0 && keepExcess ? { keepExcessAsCredit: true } : {}),
      })
      .then(() => true)
      .catch(() => false);
    if (ok) onOpenChange(false);
  };
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={`Record a payment for ${invoice.number}`}>
      <form onSubmit={submit} className="space-y-4" noValidate>
        {pay.error ? <Alert>{errorMessage(pay.error)}</Alert> : null}
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Amount due:{' '}
          <Money minor={invoice.amountDue} currency={invoice.currency} className="font-semibold" />
        </p>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={`Amount (${invoice.currency})`}
            inputMode="decimal"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            error={touched ? amountError : null}
            autoFocus
          />
          <TextField
            label="Payment date"
            type="date"
            value={date}
            min={invoice.issueDate}
            onChange={(e) => setDate(e.target.value)}
          />
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
          <TextField
            label="Reference"
            value={reference}
            onChange={(e) => setReference(e.target.value)}
            hint="Bank reference or check number"
          />
          {foreign ? (
            <TextField
              label={`Rate on payment date (${company.baseCurrency} per ${invoice.currency})`}
              value={rate}
              inputMode="decimal"
              onChange={(e) => setRate(e.target.value)}
            />
          ) : null}
        </div>
        {excess > 0 ? (
          <label className="flex min-h-11 items-center gap-3 text-sm text-slate-700 dark:text-slate-200">
            <input
              type="checkbox"
              checked={keepExcess}
              onChange={(e) => setKeepExcess(e.target.checked)}
              className="h-5 w-5"
            />
            <span>
              Keep the extra <Money minor={excess} currency={invoice.currency} /> as {invoice.customerName}'s
              credit (apply it to another invoice or refund it later)
            </span>
          </label>
        ) : null}
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" busy={pay.isPending}>
            Record payment
          </Button>
        </div>
      </form>
    </Dialog>
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
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (error) return;
    const ok = await credit
      .mutateAsync({
        date,
        reason,
        lines: [{ description, quantity: '1', unitPrice: parsed, taxRateIds: taxRateId ? [taxRateId] : [] }],
      })
      .then(() => true)
      .catch(() => false);
    if (ok) onOpenChange(false);
  };
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Credit note against ${invoice.number}`}
      description="Reduces what the customer owes; posts its own entry reversing income and tax."
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        {credit.error ? <Alert>{errorMessage(credit.error)}</Alert> : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Description"
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
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
            options={[
              { value: '', label: 'No tax' },
              ...invoice.taxes.map((t) => ({ value: t.taxRateId, label: `${t.name} (${t.percent}%)` })),
            ]}
          />
          <TextField
            label="Date"
            type="date"
            value={date}
            min={invoice.issueDate}
            onChange={(e) => setDate(e.target.value)}
          />
        </div>
        <TextField label="Reason" value={reason} onChange={(e) => setReason(e.target.value)} />
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" busy={credit.isPending}>
            Issue credit note
          </Button>
        </div>
      </form>
    </Dialog>
  );
};

export const VoidDialog = ({ invoice, open, onOpenChange }: DialogProps) => {
  const [reason, setReason] = useState('');
  const voidIt = useInvoicingMutation((base, body: { reason: string }) =>
    api.post(`${base}/invoices/${invoice.id}/void`, body),
  );
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Void ${invoice.number}?`}
      description="The invoice stays on record as void and its posting is reversed in the ledger. This cannot be undone."
    >
      <form
        className="space-y-4"
        onSubmit={async (e) => {
          e.preventDefault();
          const ok = await voidIt
            .mutateAsync({ reason })
            .then(() => true)
            .catch(() => false);
          if (ok) onOpenChange(false);
        }}
      >
        {voidIt.error ? <Alert>{errorMessage(voidIt.error)}</Alert> : null}
        <TextField label="Reason (optional)" value={reason} onChange={(e) => setReason(e.target.value)} />
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={() => onOpenChange(false)}>
            Keep invoice
          </Button>
          <Button type="submit" variant="danger" busy={voidIt.isPending}>
            Void invoice
          </Button>
        </div>
      </form>
    </Dialog>
  );
};

export const EmailDialog = ({ invoice, open, onOpenChange }: DialogProps) => {
  const [to, setTo] = useState(invoice.customer.email);
  const [message, setMessage] = useState('');
  const send = useInvoicingMutation((base, body: Record<string, unknown>) =>
    api.post(`${base}/invoices/${invoice.id}/email`, body),
  );
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Email ${invoice.number}`}
      description="The PDF is attached."
    >
      <form
        className="space-y-4"
        onSubmit={async (e) => {
          e.preventDefault();
          const ok = await send
            .mutateAsync({ to: to.trim() || undefined, message: message || undefined })
            .then(() => true)
            .catch(() => false);
          if (ok) onOpenChange(false);
        }}
      >
        {send.error ? <Alert>{errorMessage(send.error)}</Alert> : null}
        <TextField label="To" type="email" value={to} onChange={(e) => setTo(e.target.value)} required />
        <div className="space-y-1.5">
          <label
            htmlFor="email-message"
            className="block text-sm font-medium text-slate-700 dark:text-slate-200"
          >
            Message
          </label>
          <textarea
            id="email-message"
            rows={4}
            value={message}
            placeholder={`Please find attached invoice ${invoice.number}.`}
            onChange={(e) => setMessage(e.target.value)}
            className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
          />
        </div>
        <div className="flex justify-end gap-2">
          <Button variant="ghost" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" busy={send.isPending}>
            Send email
          </Button>
        </div>
      </form>
    </Dialog>
  );
};
