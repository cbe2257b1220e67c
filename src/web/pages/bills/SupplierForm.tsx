import { useMemo, useState } from 'react';
import type { Supplier } from '../../../shared/payables.ts';
import { SelectField, TextAreaField, TextField } from '../../components/ui/Field.tsx';
import { FormDialog } from '../../components/ui/FormDialog.tsx';
import { api } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { currencyOptions } from '../../lib/format.ts';
import { useFormFields } from '../../lib/useFormFields.ts';
import { useTaxRates } from '../invoices/invoicesApi.ts';
import { taxRateOptions } from '../invoices/parts.tsx';
import { useBillAccounts } from './billsApi.ts';
import { usePayablesMutation } from './SupplierApi.ts';

// Create or edit a supplier, in a dialog: contact details, the currency they bill in and
// their payment terms (each bill's due date), the account and tax a new bill line from them
// starts with, the bank details a payment run pays to, and notes.

export const SupplierFormDialog = ({
  supplier,
  onClose,
  onSaved,
}: {
  supplier?: Supplier;
  onClose: () => void;
  onSaved?: (s: Supplier) => void;
}) => {
  const { company } = useCompany();
  const taxes = useTaxRates();
  const accounts = useBillAccounts();
  const currencies = useMemo(() => currencyOptions(), []);
  const { values: form, bind } = useFormFields({
    name: supplier?.name ?? '',
    company: supplier?.company ?? '',
    email: supplier?.email ?? '',
    phone: supplier?.phone ?? '',
    address: supplier?.address ?? '',
    taxNumber: supplier?.taxNumber ?? '',
    currency: supplier?.currency ?? company.baseCurrency,
    paymentTermsDays: String(supplier?.paymentTermsDays ?? 30),
    defaultAccountId: supplier?.defaultAccountId ?? '',
    defaultTaxRateId: supplier?.defaultTaxRateId ?? '',
    bankAccountName: supplier?.bankAccountName ?? '',
    bankAccountNumber: supplier?.bankAccountNumber ?? '',
    bankCode: supplier?.bankCode ?? '',
    notes: supplier?.notes ?? '',
  });
  const [tried, setTried] = useState(false);
  const terms = Number(form.paymentTermsDays);
  const termsOk =
    form.paymentTermsDays.trim() !== '' && Number.isInteger(terms) && terms >= 0 && terms <= 365;
  // Checked as the person types once they tried to save, so a corrected field clears at once.
  const errors = {
    name: tried && !form.name.trim() ? 'Enter the supplier name.' : null,
    terms: tried && !termsOk ? 'Payment terms are 0 to 365 days.' : null,
  };
  const save = usePayablesMutation(
    (base, body: Record<string, unknown>) =>
      supplier
        ? api.patch<Supplier>(`${base}/suppliers/${supplier.id}`, body)
        : api.post<Supplier>(`${base}/suppliers`, body),
    'payables',
  );

  const submit = async () => {
    setTried(true);
    if (!form.name.trim() || !termsOk) return;
    const saved = await save.mutateAsync({
      ...form,
      paymentTermsDays: terms,
      defaultAccountId: form.defaultAccountId || null,
      defaultTaxRateId: form.defaultTaxRateId || null,
    });
    onSaved?.(saved);
    onClose();
  };

  return (
    <FormDialog
      onClose={onClose}
      title={supplier ? `Edit ${supplier.name}` : 'New supplier'}
      wide
      onSubmit={submit}
      submitLabel={supplier ? 'Save supplier' : 'Create supplier'}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Name" {...bind('name')} error={errors.name} required autoFocus />
        <TextField label="Company" {...bind('company')} />
        <TextField label="Email" type="email" {...bind('email')} />
        <TextField label="Phone" {...bind('phone')} />
        <TextField label="Tax number" {...bind('taxNumber')} hint="VAT, GST or EIN, as on their invoices" />
        <SelectField
          label="Currency"
          {...bind('currency')}
          options={currencies}
          hint={`The currency they bill in (company: ${company.baseCurrency}).`}
        />
        <TextField
          label="Payment terms (days)"
          type="number"
          min={0}
          max={365}
          {...bind('paymentTermsDays')}
          error={errors.terms}
          hint="A bill is due this many days after its date."
        />
        <SelectField
          label="Default expense account"
          {...bind('defaultAccountId')}
          emptyOption={accounts.isLoading ? 'Loading accounts…' : 'None (choose on each bill)'}
          options={accounts.accounts.map((a) => ({ value: a.id, label: `${a.code} ${a.name}` }))}
          hint="New bill lines from this supplier start with it."
        />
        <SelectField label="Default tax" {...bind('defaultTaxRateId')} options={taxRateOptions(taxes.data)} />
      </div>
      <fieldset className="space-y-3 rounded-lg border border-slate-200 p-4 dark:border-slate-700">
        <legend className="px-1 text-sm font-semibold text-slate-700 dark:text-slate-200">
          Bank details for payments
        </legend>
        <div className="grid gap-4 sm:grid-cols-3">
          <TextField label="Account name" {...bind('bankAccountName')} />
          <TextField label="Account number or IBAN" {...bind('bankAccountNumber')} />
          <TextField label="Sort code, routing or BIC" {...bind('bankCode')} />
        </div>
      </fieldset>
      <TextAreaField id="supplier-address" label="Address" rows={3} {...bind('address')} />
      <TextAreaField id="supplier-notes" label="Notes" {...bind('notes')} />
    </FormDialog>
  );
};
