import { Plus } from 'lucide-react';
import { useState } from 'react';
import type { Customer } from '../../../shared/invoices.ts';
import { Money } from '../../components/money/Money.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { Alert } from '../../components/ui/Card.tsx';
import { ListCard, LoadingState } from '../../components/ui/ListCard.tsx';
import { DataTable } from '../../components/ui/DataTable.tsx';
import { api } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { CustomerFormDialog } from './CustomerForm.tsx';
import { CustomerCreditCard, CustomerStatement } from './CustomerStatement.tsx';
import { type CustomerDetail, useCustomerDetail, useInvoicingMutation } from './invoicesApi.ts';
import { LinkButton, RecordHeader, StatCard, StatusBadge, formatDate, paymentMethodText } from './parts.tsx';

// One customer: contact details, balance, credit and terms; their invoices and payments;
// their credit (Refund, Apply credit) and statement. Edit and archive for those who record.

export const CustomerDetailView = ({
  id,
  onBack,
  onOpenInvoice,
  onNewInvoice,
}: {
  id: string;
  onBack: () => void;
  onOpenInvoice: (id: string) => void;
  onNewInvoice: (customerId: string) => void;
}) => {
  const { company, can } = useCompany();
  const detail = useCustomerDetail(id);
  const [editing, setEditing] = useState(false);
  const archive = useInvoicingMutation((base, archived: boolean) =>
    api.patch<Customer>(`${base}/customers/${id}`, { archived }),
  );
  if (detail.isLoading) return <LoadingState label="Loading customer..." />;
  if (!detail.data) return <Alert>{detail.error?.message ?? 'Customer not found.'}</Alert>;
  const { customer, invoices, payments } = detail.data;
  return (
    <div className="space-y-6">
      <RecordHeader
        backLabel="Back to customers"
        onBack={onBack}
        heading={<h2 className="text-xl font-semibold text-slate-900 dark:text-white">{customer.name}</h2>}
        subtitle={
          [customer.company, customer.email, customer.phone].filter(Boolean).join(' · ') ||
          'No contact details'
        }
        actions={
          can('record') ? (
            <>
              <Button onClick={() => onNewInvoice(customer.id)} disabled={customer.archived}>
                <Plus className="h-4 w-4" aria-hidden="true" /> New invoice
              </Button>
              <Button variant="secondary" onClick={() => setEditing(true)}>
                Edit
              </Button>
              <Button
                variant="ghost"
                busy={archive.isPending}
                onClick={() => archive.mutate(!customer.archived)}
              >
                {customer.archived ? 'Restore' : 'Archive'}
              </Button>
            </>
          ) : null
        }
      />
      {archive.error ? <Alert>{archive.error.message}</Alert> : null}
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard label="Balance owed">
          <Money minor={customer.balance} currency={company.baseCurrency} />
        </StatCard>
        <StatCard label="Credit held">
          <span data-testid="customer-credit-total">
            <Money minor={customer.credit} currency={company.baseCurrency} />
          </span>
        </StatCard>
        <StatCard label="Payment terms">{customer.paymentTermsDays} days</StatCard>
        <StatCard label="Billing address">
          <p className="text-sm font-normal whitespace-pre-line">{customer.billingAddress || '—'}</p>
        </StatCard>
      </div>
      <CustomerInvoices customer={customer} invoices={invoices} onOpenInvoice={onOpenInvoice} />
      <CustomerPayments customer={customer} payments={payments} />
      <CustomerCreditCard customerId={customer.id} customerName={customer.name} invoices={invoices} />
      <CustomerStatement customerId={customer.id} customerName={customer.name} />
      {editing ? <CustomerFormDialog customer={customer} onClose={() => setEditing(false)} /> : null}
    </div>
  );
};

const CustomerInvoices = ({
  customer,
  invoices,
  onOpenInvoice,
}: {
  customer: Customer;
  invoices: CustomerDetail['invoices'];
  onOpenInvoice: (id: string) => void;
}) => (
  <ListCard
    title="Invoices"
    state={{ empty: invoices.length === 0, emptyTitle: 'No invoices for this customer yet' }}
  >
    <DataTable
      caption={`Invoices for ${customer.name}`}
      rows={invoices}
      rowKey={(inv) => inv.id}
      columns={[
        {
          header: 'Number',
          cell: (inv) => (
            <LinkButton onClick={() => onOpenInvoice(inv.id)}>{inv.number ?? 'Draft'}</LinkButton>
          ),
        },
        { header: 'Issued', className: 'py-3', cell: (inv) => formatDate(inv.issueDate) },
        { header: 'Due', className: 'py-3', cell: (inv) => formatDate(inv.dueDate) },
        { header: 'Status', className: 'py-3', cell: (inv) => <StatusBadge status={inv.status} /> },
        {
          header: 'Total',
          numeric: true,
          className: 'py-3',
          cell: (inv) => <Money minor={inv.total} currency={inv.currency} />,
        },
        {
          header: 'Due',
          numeric: true,
          className: 'py-3',
          cell: (inv) => <Money minor={inv.amountDue} currency={inv.currency} />,
        },
      ]}
    />
  </ListCard>
);

const CustomerPayments = ({
  customer,
  payments,
}: {
  customer: Customer;
  payments: CustomerDetail['payments'];
}) => (
  <ListCard title="Payments" state={{ empty: payments.length === 0, emptyTitle: 'No payments received yet' }}>
    <DataTable
      caption={`Payments from ${customer.name}`}
      rows={payments}
      rowKey={(p) => p.id}
      rowClassName={(p) => (p.reversed ? 'text-slate-400 line-through' : '')}
      columns={[
        { header: 'Date', cell: (p) => formatDate(p.date) },
        { header: 'Invoice', cell: (p) => p.invoiceNumber },
        { header: 'Method', cell: paymentMethodText },
        { header: 'Amount', numeric: true, cell: (p) => <Money minor={p.amount} currency={p.currency} /> },
      ]}
    />
  </ListCard>
);
