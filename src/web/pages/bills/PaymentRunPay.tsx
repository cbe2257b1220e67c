import { Send } from 'lucide-react';
import { useState } from 'react';
import {
  type BillBatchPayment,
  type BillBatchPaymentInput,
  type BillSummary,
  PAYMENT_METHODS,
} from '../../../shared/payables.ts';
import type { MoneyAccount } from '../../../shared/wallet.ts';
import { Money } from '../../components/money/Money.tsx';
import { MoneyAccountSelect } from '../../components/money/MoneyAccountSelect.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { Alert, Card, CardHeader } from '../../components/ui/Card.tsx';
import { SelectField, TextField } from '../../components/ui/Field.tsx';
import { api } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { plural } from '../../lib/format.ts';
import { useAction } from '../../lib/useAction.ts';
import { newIdempotencyKey } from '../accounting/ledgerApi.ts';
import { tryParseMoney } from '../invoices/parts.tsx';
import { BILL_METHOD_LABELS } from './parts.tsx';
import { type PaymentRunPaid, type Selection, amountProblem } from './PaymentRunState.ts';
import { usePayablesMutation } from './SupplierApi.ts';

// The payment run's "pay" panel: the money account the money leaves, the date, how and with
// what reference; the total of the ticked bills; "Pay N bills" sends one batch payment.

export const PaymentRunPayCard = ({
  chosen,
  selection,
  today,
  onPaid,
}: {
  chosen: BillSummary[];
  selection: Selection;
  today: string;
  onPaid: (paid: PaymentRunPaid) => void;
}) => {
  const { company } = useCompany();
  const [account, setAccount] = useState<{ id: string; account: MoneyAccount | null }>({
    id: '',
    account: null,
  });
  const [date, setDate] = useState(today);
  const [method, setMethod] = useState<(typeof PAYMENT_METHODS)[number]>('bank_transfer');
  const [reference, setReference] = useState('');
  const [attemptKey, setAttemptKey] = useState(newIdempotencyKey);
  const [tried, setTried] = useState(false);
  const action = useAction();
  const pay = usePayablesMutation((base, body: BillBatchPaymentInput) =>
    // The key makes a double click or a retry after a dropped connection one batch.
    api.post<BillBatchPayment>(`${base}/bill-payments`, body, { 'Idempotency-Key': attemptKey }),
  );

  const currencies = [...new Set(chosen.map((b) => b.currency))];
  const currency = currencies.length === 1 ? currencies[0]! : null;
  const total = currency
    ? chosen.reduce((sum, b) => sum + (tryParseMoney(selection[b.id] ?? '', b.currency) ?? 0), 0)
    : 0;
  const accountCurrencies = currency ? [...new Set([company.baseCurrency, currency])] : undefined;
  // An account in another currency than the ticked bills' is dropped (the picker then offers the default).
  const paidFrom =
    account.account && (!accountCurrencies || accountCurrencies.includes(account.account.currency))
      ? account.account
      : null;
  const badAmounts = chosen.filter((b) => amountProblem(selection[b.id] ?? '', b) !== null);
  const problem =
    chosen.length === 0
      ? 'Tick the bills to pay.'
      : currencies.length > 1
        ? `A batch pays bills in one currency; you ticked bills in ${currencies.join(' and ')}. Pay each currency in its own batch.`
        : badAmounts.length > 0
          ? `Check the amount on ${badAmounts.map((b) => b.number).join(', ')}.`
          : !paidFrom
            ? 'Choose the account the money leaves from.'
            : !date
              ? 'Choose the payment date.'
              : null;

  const submit = async () => {
    setTried(true);
    if (problem || !paidFrom) return;
    const bills = chosen.map((b) => ({ billId: b.id, amount: tryParseMoney(selection[b.id]!, b.currency)! }));
    const snapshot = [...chosen];
    const ok = await action.run(async () => {
      const result = await pay.mutateAsync({
        date,
        paymentAccountId: paidFrom.ledgerAccountId,
        method,
        reference: reference.trim(),
        bills,
      });
      onPaid({ result, bills: snapshot, accountName: paidFrom.name });
    });
    if (ok) {
      setTried(false);
      setReference('');
      setAttemptKey(newIdempotencyKey());
    }
  };

  return (
    <Card>
      <CardHeader
        title="Pay the ticked bills"
        description="One payment from one account: one journal entry and one line on the bank statement."
      />
      <form
        className="space-y-4 px-5 py-4"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        {action.error ? <Alert>{action.error}</Alert> : null}
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          <MoneyAccountSelect
            label="Paid from"
            value={paidFrom ? account.id : ''}
            onChange={(id, picked) => setAccount({ id, account: picked })}
            currencies={accountCurrencies}
            hint="The money account the payment leaves."
            error={tried && !paidFrom ? 'Choose the account the money leaves from.' : null}
          />
          <TextField
            label="Payment date"
            type="date"
            value={date}
            onChange={(e) => setDate(e.target.value)}
            error={tried && !date ? 'Choose the payment date.' : null}
          />
          <SelectField
            label="Method"
            value={method}
            onChange={(e) => setMethod(e.target.value as (typeof PAYMENT_METHODS)[number])}
            options={PAYMENT_METHODS.map((m) => ({ value: m, label: BILL_METHOD_LABELS[m] }))}
          />
          <TextField
            label="Reference"
            value={reference}
            maxLength={100}
            onChange={(e) => setReference(e.target.value)}
            hint="As it will show on the bank statement"
          />
        </div>
        <div className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 pt-4 dark:border-slate-800">
          <p className="text-sm text-slate-600 dark:text-slate-300" aria-live="polite">
            {chosen.length === 0 ? (
              'No bills ticked.'
            ) : (
              <>
                {plural(chosen.length, 'bill')} ticked
                {currency ? (
                  <>
                    {' '}
                    · total <Money minor={total} currency={currency} className="font-semibold" />
                  </>
                ) : null}
              </>
            )}
          </p>
          <Button type="submit" busy={action.busy} disabled={chosen.length === 0}>
            <Send className="h-4 w-4" aria-hidden="true" />
            {chosen.length === 1 ? 'Pay 1 bill' : `Pay ${chosen.length} bills`}
          </Button>
        </div>
        {tried && problem ? <Alert tone="warning">{problem}</Alert> : null}
      </form>
    </Card>
  );
};
