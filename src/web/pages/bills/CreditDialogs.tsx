import { useState } from 'react';
import type { MoneyAccount } from '../../../shared/wallet.ts';
import type { SupplierCredit } from '../../../shared/payables.ts';
import { Money } from '../../components/money/Money.tsx';
import { MoneyAccountSelect } from '../../components/money/MoneyAccountSelect.tsx';
import { Alert } from '../../components/ui/Card.tsx';
import { SelectField, TextAreaField } from '../../components/ui/Field.tsx';
import { FormDialog } from '../../components/ui/FormDialog.tsx';
import { api } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { formatAmount, formatDate } from '../../lib/format.ts';
import { priceText } from '../invoices/editorState.ts';
import { AmountInput, DateInput, ReferenceInput, todayIso, tryParseMoney } from '../invoices/parts.tsx';
import { usePayablesMutation, useSupplierBills } from './SupplierApi.ts';

// What can be done with a supplier credit: apply it to an open bill of the same supplier and
// currency (no ledger entry: both sides are that supplier's payable), record the refund the
// supplier paid back into a money account (Dr money, Cr payable), or void it (its posting
// reversed; refused once any of it is applied or refunded). The server checks every limit
// again; these keep a person from typing what would be refused.

type CreditDialogProps = {
  credit: Pick<SupplierCredit, 'id' | 'number' | 'supplierId' | 'supplierName' | 'currency' | 'amountLeft'>;
  onClose: () => void;
  onDone: (message: string) => void;
};

/** An amount typed in `currency`, with what is wrong with it (shown once submitted). */
const useAmount = (initial: number, currency: string, tooMuch: (minor: number) => string | null) => {
  const [text, setText] = useState(priceText(initial, currency));
  const [touched, setTouched] = useState(false);
  const minor = tryParseMoney(text, currency);
  const problem = minor === null || minor <= 0 ? `Enter an amount in ${currency}.` : tooMuch(minor);
  return { text, setText, touched, setTouched, minor, problem };
};

export const ApplyCreditDialog = ({ credit, onClose, onDone }: CreditDialogProps) => {
  const bills = useSupplierBills(credit.supplierId);
  const open = (bills.data?.bills ?? []).filter(
    (b) =>
      b.currency === credit.currency && (b.storedStatus === 'open' || b.storedStatus === 'partially_paid'),
  );
  const [billId, setBillId] = useState('');
  const target = open.find((b) => b.id === billId) ?? open[0];
  const amount = useAmount(
    Math.min(credit.amountLeft, target?.amountDue ?? credit.amountLeft),
    credit.currency,
    (m) =>
      m > credit.amountLeft
        ? `Only ${formatAmount(credit.amountLeft, credit.currency)} of the credit is left.`
        : target && m > target.amountDue
          ? `Only ${formatAmount(target.amountDue, credit.currency)} is due on ${target.number}.`
          : null,
  );
  const [date, setDate] = useState(todayIso());
  const apply = usePayablesMutation((base, body: { billId: string; amount: number; date: string }) =>
    api.post(`${base}/supplier-credits/${credit.id}/apply`, body),
  );
  const submit = async () => {
    amount.setTouched(true);
    if (!target)
      return `${credit.supplierName} has no open bill in ${credit.currency} to apply the credit to.`;
    if (amount.problem || amount.minor === null) return;
    await apply.mutateAsync({ billId: target.id, amount: amount.minor, date });
    onDone(`Applied ${formatAmount(amount.minor, credit.currency)} of ${credit.number} to ${target.number}.`);
  };
  return (
    <FormDialog
      onClose={onClose}
      title={`Apply ${credit.number} to a bill`}
      description={`Use the credit from ${credit.supplierName} against one of their open bills.`}
      onSubmit={submit}
      submitLabel="Apply credit"
      submitDisabled={!bills.isLoading && open.length === 0}
    >
      <p className="text-sm text-slate-600 dark:text-slate-300">
        Credit left: <Money minor={credit.amountLeft} currency={credit.currency} className="font-semibold" />
      </p>
      {bills.isError ? <Alert>Could not load the bills. {bills.error.message}</Alert> : null}
      {!bills.isLoading && !bills.isError && open.length === 0 ? (
        <Alert tone="warning">
          {credit.supplierName} has no open bill in {credit.currency} to apply the credit to.
        </Alert>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <div className="sm:col-span-2">
          <SelectField
            label="Bill"
            value={target?.id ?? ''}
            disabled={bills.isLoading || open.length === 0}
            emptyOption={bills.isLoading ? 'Loading bills…' : open.length === 0 ? 'No open bills' : undefined}
            onChange={(e) => {
              setBillId(e.target.value);
              const next = open.find((b) => b.id === e.target.value);
              if (next)
                amount.setText(priceText(Math.min(credit.amountLeft, next.amountDue), credit.currency));
            }}
            options={open.map((b) => ({
              value: b.id,
              label: `${b.number}${b.reference ? ` (${b.reference})` : ''} · due ${formatDate(b.dueDate)} · ${formatAmount(b.amountDue, b.currency)} left`,
            }))}
          />
        </div>
        <AmountInput
          currency={credit.currency}
          value={amount.text}
          onChange={amount.setText}
          error={amount.touched ? amount.problem : null}
        />
        <DateInput label="Date" value={date} onChange={setDate} />
      </div>
    </FormDialog>
  );
};

export const RefundDialog = ({ credit, onClose, onDone }: CreditDialogProps) => {
  const { company } = useCompany();
  const amount = useAmount(credit.amountLeft, credit.currency, (m) =>
    m > credit.amountLeft
      ? `Only ${formatAmount(credit.amountLeft, credit.currency)} of the credit is left to refund.`
      : null,
  );
  const [date, setDate] = useState(todayIso());
  const [account, setAccount] = useState<{ id: string; account: MoneyAccount | null }>({
    id: '',
    account: null,
  });
  const [reference, setReference] = useState('');
  const refund = usePayablesMutation(
    (base, body: { date: string; amount: number; paymentAccountId: string; reference: string }) =>
      api.post(`${base}/supplier-credits/${credit.id}/refunds`, body),
  );
  const submit = async () => {
    amount.setTouched(true);
    if (amount.problem || amount.minor === null || !account.account) return;
    await refund.mutateAsync({
      date,
      amount: amount.minor,
      paymentAccountId: account.account.ledgerAccountId,
      reference: reference.trim(),
    });
    onDone(
      `Recorded the refund of ${formatAmount(amount.minor, credit.currency)} from ${credit.supplierName} into ${account.account.name}.`,
    );
  };
  return (
    <FormDialog
      onClose={onClose}
      title={`Record a refund of ${credit.number}`}
      description={`Money ${credit.supplierName} paid back for this credit.`}
      onSubmit={submit}
      submitLabel="Record refund"
    >
      <p className="text-sm text-slate-600 dark:text-slate-300">
        Credit left: <Money minor={credit.amountLeft} currency={credit.currency} className="font-semibold" />
      </p>
      <div className="grid gap-4 sm:grid-cols-2">
        <AmountInput
          currency={credit.currency}
          value={amount.text}
          onChange={amount.setText}
          error={amount.touched ? amount.problem : null}
        />
        <DateInput label="Refund date" value={date} onChange={setDate} />
        <MoneyAccountSelect
          label="Received into"
          value={account.id}
          onChange={(id, picked) => setAccount({ id, account: picked })}
          currencies={[...new Set([company.baseCurrency, credit.currency])]}
          excludeCards
          hint="The money account the refund came into."
          error={amount.touched && !account.account ? 'Choose the account the refund came into.' : null}
        />
        <ReferenceInput value={reference} onChange={setReference} />
      </div>
    </FormDialog>
  );
};

export const VoidCreditDialog = ({ credit, onClose, onDone }: CreditDialogProps) => {
  const [reason, setReason] = useState('');
  const voidIt = usePayablesMutation((base, body: { reason: string }) =>
    api.post(`${base}/supplier-credits/${credit.id}/void`, body),
  );
  const submit = async () => {
    await voidIt.mutateAsync({ reason: reason.trim() });
    onDone(`Voided ${credit.number}: its posting is reversed.`);
  };
  return (
    <FormDialog
      onClose={onClose}
      title={`Void ${credit.number}?`}
      description="The credit's entry is reversed on today's date. A credit that is applied or refunded cannot be voided: undo those first."
      onSubmit={submit}
      submitLabel="Void credit"
      submitVariant="danger"
    >
      <TextAreaField
        id="void-credit-reason"
        label="Reason (optional)"
        value={reason}
        maxLength={1000}
        onChange={(e) => setReason(e.target.value)}
      />
    </FormDialog>
  );
};
