import { useState } from 'react';
import type { InvoiceSummary } from '../../../shared/invoices.ts';
import { Money } from '../../components/money/Money.tsx';
import { MoneyAccountSelect } from '../../components/money/MoneyAccountSelect.tsx';
import { Alert } from '../../components/ui/Card.tsx';
import { SelectField } from '../../components/ui/Field.tsx';
import { FormDialog } from '../../components/ui/FormDialog.tsx';
import { api } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { priceText } from './editorState.ts';
import { useInvoicingMutation } from './invoicesApi.ts';
import { todayIso, tryParseMoney, AmountInput, ReferenceInput, RateInput, DateInput } from './parts.tsx';

// Dialogs that move a customer's credit (decision 0028): refund it from a money account, or
// apply it to one of their open invoices. The server checks every limit again; these only
// keep a person from typing what would be refused.

type Base = { open: boolean; onOpenChange: (open: boolean) => void; onDone?: (message: string) => void };

/**
 * The amount and date of a refund or an application of credit: the amount as typed, parsed,
 * and what is wrong with it (none, or more than `tooMuch` allows), shown once submitted.
 */
const useCreditAmount = (initial: string, currency: string, tooMuch: (minor: number) => string | null) => {
  const [amount, setAmount] = useState(initial);
  const [date, setDate] = useState(todayIso());
  const [touched, setTouched] = useState(false);
  const parsed = tryParseMoney(amount, currency);
  const amountError = parsed === null || parsed <= 0 ? `Enter an amount in ${currency}.` : tooMuch(parsed);
  return { amount, setAmount, date, setDate, touched, setTouched, parsed, amountError };
};

const CreditAmountFields = ({
  c,
  currency,
  dateLabel,
}: {
  c: ReturnType<typeof useCreditAmount>;
  currency: string;
  dateLabel: string;
}) => (
  <>
    <AmountInput
      currency={currency}
      value={c.amount}
      onChange={c.setAmount}
      error={c.touched ? c.amountError : null}
    />
    <DateInput label={dateLabel} value={c.date} onChange={c.setDate} />
  </>
);

export const RefundDialog = ({
  open,
  onOpenChange,
  onDone,
  title,
  description,
  path,
  currency,
  available,
  extraBody,
}: Base & {
  title: string;
  description?: string;
  /** Under the company's base path: '/invoices/:id/refunds', '/customers/:id/credit/refunds', … */
  path: string;
  currency: string;
  /** At most this much can be refunded. */
  available: number;
  extraBody?: Record<string, unknown>;
}) => {
  const { company } = useCompany();
  const c = useCreditAmount(priceText(available, currency), currency, (minor) =>
    minor > available ? 'That is more than the credit there is to refund.' : null,
  );
  const { amount, date, touched, setTouched, parsed, amountError } = c;
  const [moneyAccountId, setMoneyAccountId] = useState('');
  const [reference, setReference] = useState('');
  const [rate, setRate] = useState('');
  const foreign = currency !== company.baseCurrency;
  const refund = useInvoicingMutation((base, body: Record<string, unknown>) =>
    api.post(`${base}${path}`, body),
  );
  const submit = async () => {
    setTouched(true);
    if (amountError || !moneyAccountId) return;
    const body = {
      ...extraBody,
      amount: parsed,
      date,
      moneyAccountId,
      reference,
      ...(foreign && rate.trim() ? { exchangeRate: rate.trim() } : {}),
    };
    await refund.mutateAsync(body);
    onOpenChange(false);
    onDone?.(`Refund of ${amount} ${currency} recorded.`);
  };
  return (
    <FormDialog
      open={open}
      onClose={() => onOpenChange(false)}
      title={title}
      description={description}
      onSubmit={submit}
      submitLabel="Record refund"
    >
      <p className="text-sm text-slate-600 dark:text-slate-300">
        Credit available to refund: <Money minor={available} currency={currency} className="font-semibold" />
      </p>
      <div className="grid gap-4 sm:grid-cols-2">
        <CreditAmountFields c={c} currency={currency} dateLabel="Refund date" />
        <MoneyAccountSelect
          label="Paid from"
          value={moneyAccountId}
          onChange={(id) => setMoneyAccountId(id)}
          currencies={[company.baseCurrency, currency]}
          hint="The money account the refund leaves from."
          error={touched && !moneyAccountId ? 'Choose the account the refund is paid from.' : null}
        />
        <ReferenceInput value={reference} onChange={setReference} />
        <RateInput
          label="Rate on refund date"
          base={company.baseCurrency}
          currency={currency}
          value={rate}
          onChange={setRate}
          hint="Leave empty to use the rate the credit came in at."
        />
      </div>
    </FormDialog>
  );
};

export const ApplyCreditDialog = ({
  open,
  onOpenChange,
  onDone,
  customerId,
  customerName,
  currency,
  available,
  invoices,
}: Base & {
  customerId: string;
  customerName: string;
  currency: string;
  available: number;
  /** Open invoices of this customer in `currency` (one when opened from an invoice). */
  invoices: Pick<InvoiceSummary, 'id' | 'number' | 'amountDue'>[];
}) => {
  const [invoiceId, setInvoiceId] = useState(invoices[0]?.id ?? '');
  const target = invoices.find((i) => i.id === invoiceId);
  const suggested = Math.min(available, target?.amountDue ?? 0);
  const c = useCreditAmount(priceText(suggested, currency), currency, (minor) =>
    minor > available
      ? `${customerName} has less credit than that.`
      : target && minor > target.amountDue
        ? 'That is more than is due on the invoice.'
        : null,
  );
  const { amount, setAmount, date, setTouched, parsed, amountError } = c;
  const apply = useInvoicingMutation((base, body: Record<string, unknown>) =>
    api.post(`${base}/customers/${customerId}/credit/applications`, body),
  );
  const submit = async () => {
    setTouched(true);
    if (amountError || !invoiceId) return;
    await apply.mutateAsync({ invoiceId, amount: parsed, date });
    onOpenChange(false);
    onDone?.(`Credit of ${amount} ${currency} applied to ${target?.number ?? 'the invoice'}.`);
  };
  return (
    <FormDialog
      open={open}
      onClose={() => onOpenChange(false)}
      title={`Apply ${customerName}'s credit`}
      onSubmit={submit}
      submitLabel="Apply credit"
      submitDisabled={invoices.length === 0}
    >
      <p className="text-sm text-slate-600 dark:text-slate-300">
        Credit available: <Money minor={available} currency={currency} className="font-semibold" />
      </p>
      {invoices.length === 0 ? (
        <Alert tone="warning">
          {customerName} has no open invoice in {currency} to apply the credit to.
        </Alert>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        {invoices.length > 1 ? (
          <SelectField
            label="Invoice"
            value={invoiceId}
            onChange={(e) => {
              setInvoiceId(e.target.value);
              const next = invoices.find((i) => i.id === e.target.value);
              setAmount(priceText(Math.min(available, next?.amountDue ?? 0), currency));
            }}
            options={invoices.map((i) => ({
              value: i.id,
              label: `${i.number ?? 'Draft'} · ${priceText(i.amountDue, currency)} ${currency} due`,
            }))}
          />
        ) : null}
        <CreditAmountFields c={c} currency={currency} dateLabel="Date" />
      </div>
    </FormDialog>
  );
};
