import { useState } from 'react';
import type { Customer } from '../../../shared/invoices.ts';
import { TextField, TextAreaField } from '../../components/ui/Field.tsx';
import { FormDialog } from '../../components/ui/FormDialog.tsx';
import { api } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { useFormFields } from '../../lib/useFormFields.ts';
import { useInvoicingMutation } from './invoicesApi.ts';

// Create or edit a customer, in a dialog: the contact details invoices print and the payment
// terms that set each invoice's due date. It may open over the invoice editor's form; the
// kit's form keeps its submit to itself.

export const CustomerFormDialog = ({
  customer,
  onClose,
  onSaved,
}: {
  customer?: Customer;
  onClose: () => void;
  onSaved?: (c: Customer) => void;
}) => {
  const { company } = useCompany();
  const { values: form, bind } = useFormFields({
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

  const submit = async () => {
    if (!form.name.trim()) {
      setNameError('Enter the customer name.');
      return;
    }
    setNameError(null);
    const saved = await save.mutateAsync({
      ...form,
      currency: form.currency.trim().toUpperCase(),
      paymentTermsDays: Number(form.paymentTermsDays) || 0,
    });
    onSaved?.(saved);
    onClose();
  };

  return (
    <FormDialog
      onClose={onClose}
      title={customer ? `Edit ${customer.name}` : 'New customer'}
      wide
      onSubmit={submit}
      submitLabel={customer ? 'Save customer' : 'Create customer'}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Name" {...bind('name')} error={nameError} required autoFocus />
        <TextField label="Company" {...bind('company')} />
        <TextField label="Email" type="email" {...bind('email')} hint="Invoices are emailed here." />
        <TextField label="Phone" {...bind('phone')} />
        <TextField label="Tax number" {...bind('taxNumber')} />
        <TextField
          label="Currency"
          {...bind('currency')}
          maxLength={3}
          hint={`Invoices to this customer are in this currency (company: ${company.baseCurrency}).`}
        />
        <TextField
          label="Payment terms (days)"
          type="number"
          min={0}
          max={365}
          {...bind('paymentTermsDays')}
        />
      </div>
      <TextAreaField id="customer-address" label="Billing address" rows={3} {...bind('billingAddress')} />
      <TextAreaField id="customer-notes" label="Notes" {...bind('notes')} />
    </FormDialog>
  );
};
