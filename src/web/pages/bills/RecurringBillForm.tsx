import { ArrowLeft } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import type { RecurringFrequency } from '../../../shared/invoice-calc.ts';
import { type BillLineInput, type BillSchedule, billScheduleInputSchema } from '../../../shared/payables.ts';
import { RECURRING_FREQUENCIES } from '../../../shared/invoice-calc.ts';
import { Button } from '../../components/ui/Button.tsx';
import { Alert, Card } from '../../components/ui/Card.tsx';
import { SelectField, TextAreaField, TextField } from '../../components/ui/Field.tsx';
import { CheckboxField } from '../../components/ui/Form.tsx';
import { api, errorText } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { currencyOptions } from '../../lib/format.ts';
import { RateInput, todayIso } from '../invoices/parts.tsx';
import { BillLinesCard } from './BillLinesCard.tsx';
import { useSupplierChoices } from './billsApi.ts';
import { usePayablesMutation } from './SupplierApi.ts';
import { useSupplierLines } from './SupplierLines.ts';

// A new recurring bill (rent, a subscription): the supplier, how often and from when (until a
// date or a number of bills, or open-ended), whether each bill is submitted as it is created,
// and its lines as a bill's. The server's runner creates each period's bill once, catching up
// after downtime.

export const FREQUENCY_LABELS: Record<RecurringFrequency, string> = {
  weekly: 'Weekly',
  monthly: 'Monthly',
  quarterly: 'Quarterly',
  yearly: 'Yearly',
};

const RATE = /^\d{1,12}(\.\d{1,10})?$/;

export const RecurringBillForm = ({
  onCancel,
  onSaved,
}: {
  onCancel: () => void;
  onSaved: (schedule: BillSchedule) => void;
}) => {
  const { company } = useCompany();
  const suppliers = useSupplierChoices();
  const [supplierId, setSupplierId] = useState('');
  const [frequency, setFrequency] = useState<RecurringFrequency>('monthly');
  const [startDate, setStartDate] = useState(todayIso());
  const [endDate, setEndDate] = useState('');
  const [count, setCount] = useState('');
  const [autoSubmit, setAutoSubmit] = useState(false);
  const [currencyChoice, setCurrency] = useState('');
  const [exchangeRate, setExchangeRate] = useState('');
  const [terms, setTerms] = useState('');
  const [reference, setReference] = useState('');
  const [notes, setNotes] = useState('');
  const supplierList = suppliers.data ?? [];
  const supplier = supplierList.find((s) => s.id === supplierId);
  const currency = currencyChoice || supplier?.currency || company.baseCurrency;
  const foreign = currency !== company.baseCurrency;
  const save = usePayablesMutation(
    (base, body: Record<string, unknown> & { lines: BillLineInput[] }) =>
      api.post<BillSchedule>(`${base}/bill-schedules`, body),
    'payables',
  );
  const ed = useSupplierLines(supplier, currency, save.error);
  const termsNumber = Number(terms);
  const problems = {
    supplierId: supplierId ? null : 'Choose the supplier who bills you.',
    startDate: startDate ? null : 'Enter the date of the first bill.',
    endDate:
      endDate && startDate && endDate < startDate ? 'The end date must be on or after the start date.' : null,
    count:
      count.trim() === '' || (Number.isInteger(Number(count)) && Number(count) >= 1 && Number(count) <= 1000)
        ? null
        : 'Enter a whole number of bills from 1 to 1000, or leave it empty.',
    paymentTermsDays:
      terms.trim() === '' || (Number.isInteger(termsNumber) && termsNumber >= 0 && termsNumber <= 365)
        ? null
        : 'Payment terms are 0 to 365 days.',
    exchangeRate:
      foreign && exchangeRate.trim() !== '' && !RATE.test(exchangeRate.trim())
        ? `Enter the rate as a number (${company.baseCurrency} per ${currency}), or leave it empty for the day's rate.`
        : null,
  };
  const fieldError = (key: keyof typeof problems | 'reference' | 'notes' | 'currency') =>
    ed.serverProblems.fields[key] ??
    (ed.showErrors && key in problems ? problems[key as keyof typeof problems] : null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    ed.setShowErrors(true);
    if (Object.values(problems).some(Boolean) || ed.hasProblems) return;
    const body = {
      supplierId,
      frequency,
      startDate,
      endDate: endDate || null,
      count: count.trim() ? Number(count) : null,
      autoSubmit,
      currency,
      ...(foreign && exchangeRate.trim() ? { exchangeRate: exchangeRate.trim() } : {}),
      ...(terms.trim() ? { paymentTermsDays: termsNumber } : {}),
      reference: reference.trim(),
      notes: notes.trim(),
      lines: ed.toApi(),
    };
    // The shared schema's own checks (the same the server runs) before sending.
    const checked = billScheduleInputSchema.safeParse(body);
    if (!checked.success) return;
    const saved = await save.mutateAsync(body).catch(() => null);
    if (saved) onSaved(saved);
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-2">
          <Button variant="ghost" onClick={onCancel} aria-label="Back to recurring bills">
            <ArrowLeft className="h-4 w-4" aria-hidden="true" />
          </Button>
          <h2 className="text-xl font-semibold text-slate-900 dark:text-white">New recurring bill</h2>
        </div>
        <div className="flex gap-2">
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" busy={save.isPending}>
            Create schedule
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
            error={fieldError('supplierId')}
            emptyOption={suppliers.isLoading ? 'Loading suppliers...' : 'Choose a supplier'}
            options={supplierList.map((s) => ({
              value: s.id,
              label: s.company ? `${s.name} (${s.company})` : s.name,
            }))}
          />
          <SelectField
            label="Every"
            value={frequency}
            onChange={(e) => setFrequency(e.target.value as RecurringFrequency)}
            options={RECURRING_FREQUENCIES.map((f) => ({ value: f, label: FREQUENCY_LABELS[f] }))}
          />
          <TextField
            label="First bill on"
            type="date"
            value={startDate}
            onChange={(e) => setStartDate(e.target.value)}
            error={fieldError('startDate')}
            required
          />
          <TextField
            label="End date (optional)"
            type="date"
            value={endDate}
            min={startDate}
            onChange={(e) => setEndDate(e.target.value)}
            error={fieldError('endDate')}
          />
          <TextField
            label="Number of bills (optional)"
            type="number"
            min={1}
            max={1000}
            value={count}
            onChange={(e) => setCount(e.target.value)}
            error={fieldError('count')}
            hint="Leave both empty to go on until ended."
          />
          <TextField
            label="Payment terms (days)"
            type="number"
            min={0}
            max={365}
            value={terms}
            placeholder={supplier ? String(supplier.paymentTermsDays) : ''}
            onChange={(e) => setTerms(e.target.value)}
            error={fieldError('paymentTermsDays')}
            hint={
              supplier
                ? `Empty: the supplier's ${supplier.paymentTermsDays} days.`
                : "Empty: the supplier's terms."
            }
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
            hint="Leave empty to use each bill's day's rate."
            error={fieldError('exchangeRate')}
          />
          <TextField
            label="Reference"
            value={reference}
            maxLength={100}
            onChange={(e) => setReference(e.target.value)}
            hint="Each bill gets it with its period added (RENT-2026-03)."
            error={fieldError('reference')}
          />
        </div>
        <div className="mt-4 space-y-3">
          <TextAreaField
            id="recurring-bill-notes"
            label="Notes"
            value={notes}
            maxLength={4000}
            onChange={(e) => setNotes(e.target.value)}
            error={fieldError('notes')}
          />
          <CheckboxField
            label="Submit each bill as it is created"
            description="Otherwise each waits as a draft for someone to check. A bill above the approval threshold still needs approval."
            checked={autoSubmit}
            onChange={setAutoSubmit}
          />
        </div>
      </Card>
      <BillLinesCard ed={ed} />
    </form>
  );
};
