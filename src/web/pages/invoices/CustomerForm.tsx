import { type FormEvent, useState } from 'react';
import type { Customer } from '../../../shared/invoices.ts';
import { api } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { Alert } from '../../components/ui/Card.tsx';
import { TextField } from '../../components/ui/Field.tsx';
import { useInvoicingMutation } from './invoicesApi.ts';
import { errorMessage } from './parts.tsx';

// Create or edit a customer: the contact details invoices print and the payment terms that
// set each invoice's due date.

export const CustomerForm = ({
  customer,
  onSaved,
}: {
  customer?: Customer;
  onSaved: (c: Customer) => void;
}) => {
  const { company } = useCompany();
  const [form, setForm] = useState({
    name: customer?.name ?? '',
    company: customer?.company ?? '',
    email: customer?.email ?? '',
    phone: customer?.phone ?? '',
    billingAddress: customer?.billingAddress ?? '',
    taxNumber: customer?.taxNumber ?? '',
    currency: customer?.currency ?? company.baseCurrency,
    paymentTermsDays: String(customer?.paymentTermsDays ?? 30),
    notes: customer?.notes ?? '',
  });
  const [nameError, setNameError] = useState<string | null>(null);
  const save = useInvoicingMutation((base, body: Record<string, unknown>) =>
    customer
      ? api.patch<Customer>(`${base}/customers/${customer.id}`, body)
      : api.post<Customer>(`${base}/customers`, body),
  );
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [key]: e.target.value }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    // The form may open in a dialog over the invoice editor's form: keep the submit here.
    e.stopPropagation();
    if (!form.name.trim()) {
      setNameError('Enter the customer name.');
      return;
    }
    setNameError(null);
    const saved = await save
      .mutateAsync({
        ...form,
        currency: form.currency.trim().toUpperCase(),
        paymentTermsDays: Number(form.paymentTermsDays) || 0,
      })
      .catch(() => null);
    if (saved) onSaved(saved);
  };

  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      {save.error ? <Alert>{errorMessage(save.error)}</Alert> : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Name"
          value={form.name}
          onChange={set('name')}
          error={nameError}
          required
          autoFocus
        />
        <TextField label="Company" value={form.company} onChange={set('company')} />
        <TextField
          label="Email"
          type="email"
          value={form.email}
          onChange={set('email')}
          hint="Invoices are emailed here."
        />
        <TextField label="Phone" value={form.phone} onChange={set('phone')} />
        <TextField label="Tax number" value={form.taxNumber} onChange={set('taxNumber')} />
        <TextField
          label="Currency"
          value={form.currency}
          onChange={set('currency')}
          maxLength={3}
          hint={`Invoices to this customer are in this currency (company: ${company.baseCurrency}).`}
        />
        <TextField
          label="Payment terms (days)"
          type="number"
          min={0}
          max={365}
          value={form.paymentTermsDays}
          onChange={set('paymentTermsDays')}
        />
      </div>
      <div className="space-y-1.5">
        <label
          htmlFor="customer-address"
          className="block text-sm font-medium text-slate-700 dark:text-slate-200"
        >
          Billing address
        </label>
        <textarea
          id="customer-address"
          rows={3}
          value={form.billingAddress}
          onChange={set('billingAddress')}
          className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
        />
      </div>
      <div className="space-y-1.5">
        <label
          htmlFor="customer-notes"
          className="block text-sm font-medium text-slate-700 dark:text-slate-200"
        >
          Notes
        </label>
        <textarea
          id="customer-notes"
          rows={2}
          value={form.notes}
          onChange={set('notes')}
          className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
        />
      </div>
      <div className="flex justify-end">
        <Button type="submit" busy={save.isPending}>
          {customer ? 'Save customer' : 'Create customer'}
        </Button>
      </div>
    </form>
  );
};
