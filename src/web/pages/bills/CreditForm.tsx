import { ArrowLeft } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import type { BillLineInput, SupplierCredit } from '../../../shared/payables.ts';
import { Button } from '../../components/ui/Button.tsx';
import { Alert, Card } from '../../components/ui/Card.tsx';
import { SelectField, TextAreaField, TextField } from '../../components/ui/Field.tsx';
import { api, errorText } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { currencyOptions } from '../../lib/format.ts';
import { RateInput, todayIso } from '../invoices/parts.tsx';
import { BillLinesCard } from './BillLinesCard.tsx';
import { useSupplierChoices } from './billsApi.ts';
import { usePayablesMutation } from './SupplierApi.ts';
import { useSupplierLines } from './SupplierLines.ts';

// A new supplier credit (a credit note the supplier sent): who, when, their reference, why, and
// the lines it takes back — as a bill's lines, booked to the accounts the costs went to. Saving
// posts it: Dr Accounts payable, Cr those accounts and the tax.

const RATE = /^\d{1,12}(\.\d{1,10})?$/;

export const CreditForm = ({
  initialSupplierId,
  onCancel,
  onSaved,
}: {
  initialSupplierId?: string;
  onCancel: () => void;
  onSaved: (credit: SupplierCredit) => void;
}) => {
  const { company } = useCompany();
  const suppliers = useSupplierChoices();
  const [supplierId, setSupplierId] = useState(initialSupplierId ?? '');
  const [date, setDate] = useState(todayIso());
  const [reference, setReference] = useState('');
  const [reason, setReason] = useState('');
  const [currencyChoice, setCurrency] = useState('');
  const [exchangeRate, setExchangeRate] = useState('');
  const supplierList = suppliers.data ?? [];
  const supplier = supplierList.find((s) => s.id === supplierId);
  const currency = currencyChoice || supplier?.currency || company.baseCurrency;
  const foreign = currency !== company.baseCurrency;
  const save = usePayablesMutation((base, body: Record<string, unknown> & { lines: BillLineInput[] }) =>
    api.post<SupplierCredit>(`${base}/supplier-credits`, body),
  );
  const ed = useSupplierLines(supplier, currency, save.error);
  const rateProblem =
    foreign && exchangeRate.trim() !== '' && !RATE.test(exchangeRate.trim())
      ? `Enter the rate as a number (${company.baseCurrency} per ${currency}), or leave it empty for the day's rate.`
      : null;
  const fieldError = (key: string, local: string | null = null) =>
    ed.serverProblems.fields[key] ?? (ed.showErrors ? local : null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    ed.setShowErrors(true);
    if (!supplierId || !date || rateProblem || ed.hasProblems) return;
    const saved = await save
      .mutateAsync({
        supplierId,
        date,
        reference: reference.trim(),
        reason: reason.trim(),
        currency,
        ...(foreign && exchangeRate.trim() ? { exchangeRate: exchangeRate.trim() } : {}),
        lines: ed.toApi(),
      })
      .catch(() => null);
    if (saved) onSaved(saved);
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-2">
          <Button variant="ghost" onClick={onCancel} aria-label="Back to supplier credits">
            <ArrowLeft className="h-4 w-4" aria-hidden="true" />
          </Button>
          <h2 className="text-xl font-semibold text-slate-900 dark:text-white">New supplier credit</h2>
        </div>
        <div className="flex gap-2">
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" busy={save.isPending}>
            Save credit
          </Button>
        </div>
      </div>
      {save.error ? <Alert>{errorText(save.error)}</Alert> : null}
      <Card className="p-5">
        <div className="grid gap-4 md:grid-cols-3">
          <SelectField
            label="Supplier"
            value={supplierId}
            onChange={(e) => {
              setSupplierId(e.target.value);
              setCurrency('');
            }}
            error={fieldError('supplierId', supplierId ? null : 'Choose the supplier who gave the credit.')}
            emptyOption={suppliers.isLoading ? 'Loading suppliers...' : 'Choose a supplier'}
            options={supplierList.map((s) => ({
              value: s.id,
              label: s.company ? `${s.name} (${s.company})` : s.name,
            }))}
          />
          <TextField
            label="Date"
            type="date"
            value={date}
            onChange={(e) => setDate(e.target.value)}
            error={fieldError('date', date ? null : 'Enter the date on the credit note.')}
            required
          />
          <TextField
            label="Supplier's reference"
            value={reference}
            maxLength={100}
            onChange={(e) => setReference(e.target.value)}
            hint="Their credit note number"
            error={fieldError('reference')}
          />
          <SelectField
            label="Currency"
            value={currency}
            onChange={(e) => setCurrency(e.target.value)}
            options={currencyOptions()}
            error={fieldError('currency')}
          />
          <RateInput
            base={company.baseCurrency}
            currency={currency}
            value={exchangeRate}
            onChange={setExchangeRate}
            hint="Leave empty for the day's rate."
            error={fieldError('exchangeRate', rateProblem)}
          />
        </div>
        <div className="mt-4">
          <TextAreaField
            id="credit-reason"
            label="Reason"
            value={reason}
            maxLength={1000}
            onChange={(e) => setReason(e.target.value)}
            hint="Returned goods, a price corrected, a discount given afterwards …"
            error={fieldError('reason')}
          />
        </div>
      </Card>
      <BillLinesCard ed={ed} />
    </form>
  );
};
