import { ArrowLeft, Plus, Search } from 'lucide-react';
import { useState } from 'react';
import type { Customer } from '../../../shared/invoices.ts';
import { Money } from '../../components/money/Money.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { Alert, Card, CardHeader, EmptyState } from '../../components/ui/Card.tsx';
import { Dialog } from '../../components/ui/Dialog.tsx';
import { Table, Td, Th } from '../../components/ui/Table.tsx';
import { api } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { CustomerForm } from './CustomerForm.tsx';
import { CustomerCreditCard, CustomerStatement } from './CustomerStatement.tsx';
import { useCustomerDetail, useCustomers, useInvoicingMutation } from './invoicesApi.ts';
import { METHOD_LABELS, StatusBadge, formatDate } from './parts.tsx';

// Customers: search, create, edit, archive; one customer's invoices, payments, balance, credit
// (with Refund and Apply credit) and statement.

export const CustomersTab = ({
  customerId,
  onOpenCustomer,
  onOpenInvoice,
  onNewInvoice,
}: {
  customerId: string | null;
  onOpenCustomer: (id: string | null) => void;
  onOpenInvoice: (id: string) => void;
  onNewInvoice: (customerId: string) => void;
}) => {
  if (customerId)
    return (
      <CustomerDetailView
        id={customerId}
        onBack={() => onOpenCustomer(null)}
        onOpenInvoice={onOpenInvoice}
        onNewInvoice={onNewInvoice}
      />
    );
  return <CustomerList onOpen={onOpenCustomer} />;
};

const CustomerList = ({ onOpen }: { onOpen: (id: string) => void }) => {
  const { company, can } = useCompany();
  const [search, setSearch] = useState('');
  const [showArchived, setShowArchived] = useState(false);
  const [creating, setCreating] = useState(false);
  const customers = useCustomers(search, showArchived);
  const rows = customers.data?.customers ?? [];
  return (
    <Card>
      <CardHeader
        title="Customers"
        description="Who you invoice, and what each owes you."
        actions={
          can('record') ? (
            <Button onClick={() => setCreating(true)}>
              <Plus className="h-4 w-4" aria-hidden="true" /> New customer
            </Button>
          ) : undefined
        }
      />
      <div className="flex flex-wrap items-center gap-3 px-4 py-3">
        <label className="relative block">
          <span className="sr-only">Search customers</span>
          <Search
            className="pointer-events-none absolute top-3.5 left-3 h-4 w-4 text-slate-400"
            aria-hidden="true"
          />
          <input
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="Search name, company, email"
            className="min-h-11 w-72 rounded-lg border border-slate-300 bg-white pr-3 pl-9 text-sm dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
          />
        </label>
        <label className="flex min-h-11 items-center gap-2 text-sm text-slate-700 dark:text-slate-200">
          <input
            type="checkbox"
            checked={showArchived}
            onChange={(e) => setShowArchived(e.target.checked)}
            className="h-5 w-5"
          />
          Show archived
        </label>
      </div>
      {customers.isLoading ? (
        <p className="px-5 py-8 text-sm text-slate-500" role="status">
          Loading customers...
        </p>
      ) : rows.length === 0 ? (
        <EmptyState
          title={search ? 'No customers match' : 'No customers yet'}
          description={search ? 'Try another name.' : 'Add the people and businesses you invoice.'}
        />
      ) : (
        <Table caption="Customers" captionHidden>
          <thead>
            <tr>
              <Th>Name</Th>
              <Th>Email</Th>
              <Th>Terms</Th>
              <Th>Currency</Th>
              <Th numeric>Balance owed ({company.baseCurrency})</Th>
            </tr>
          </thead>
          <tbody>
            {rows.map((c) => (
              <tr key={c.id} className="hover:bg-slate-50 dark:hover:bg-slate-800/50">
                <Td>
                  <button
                    type="button"
                    onClick={() => onOpen(c.id)}
                    className="min-h-11 text-left font-medium text-brand-700 hover:underline dark:text-brand-300"
                  >
                    {c.name}
                  </button>
                  {c.company ? <span className="block text-xs text-slate-500">{c.company}</span> : null}
                  {c.archived ? (
                    <span className="text-xs text-amber-700 dark:text-amber-400"> archived</span>
                  ) : null}
                </Td>
                <Td className="py-3">{c.email || '—'}</Td>
                <Td className="py-3">{c.paymentTermsDays} days</Td>
                <Td className="py-3">{c.currency}</Td>
                <Td numeric className="py-3 font-medium">
                  <Money minor={c.balance} currency={company.baseCurrency} />
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <Dialog open={creating} onOpenChange={setCreating} title="New customer" wide>
        <CustomerForm onSaved={() => setCreating(false)} />
      </Dialog>
    </Card>
  );
};

const CustomerDetailView = ({
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
  if (detail.isLoading)
    return (
      <p className="py-8 text-sm text-slate-500" role="status">
        Loading customer...
      </p>
    );
  if (!detail.data) return <Alert>{detail.error?.message ?? 'Customer not found.'}</Alert>;
  const { customer, invoices, payments } = detail.data;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="flex items-start gap-2">
          <Button variant="ghost" onClick={onBack} aria-label="Back to customers">
            <ArrowLeft className="h-4 w-4" aria-hidden="true" />
          </Button>
          <div>
            <h2 className="text-xl font-semibold text-slate-900 dark:text-white">{customer.name}</h2>
            <p className="text-sm text-slate-500 dark:text-slate-400">
              {[customer.company, customer.email, customer.phone].filter(Boolean).join(' · ') ||
                'No contact details'}
            </p>
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          {can('record') ? (
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
          ) : null}
        </div>
      </div>
      {archive.error ? <Alert>{archive.error.message}</Alert> : null}
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Card className="px-5 py-4">
          <p className="text-sm text-slate-500 dark:text-slate-400">Balance owed</p>
          <p className="mt-1 text-xl font-semibold">
            <Money minor={customer.balance} currency={company.baseCurrency} />
          </p>
        </Card>
        <Card className="px-5 py-4">
          <p className="text-sm text-slate-500 dark:text-slate-400">Credit held</p>
          <p className="mt-1 text-xl font-semibold" data-testid="customer-credit-total">
            <Money minor={customer.credit} currency={company.baseCurrency} />
          </p>
        </Card>
        <Card className="px-5 py-4">
          <p className="text-sm text-slate-500 dark:text-slate-400">Payment terms</p>
          <p className="mt-1 text-xl font-semibold">{customer.paymentTermsDays} days</p>
        </Card>
        <Card className="px-5 py-4">
          <p className="text-sm text-slate-500 dark:text-slate-400">Billing address</p>
          <p className="mt-1 text-sm whitespace-pre-line">{customer.billingAddress || '—'}</p>
        </Card>
      </div>
      <Card>
        <CardHeader title="Invoices" />
        {invoices.length === 0 ? (
          <EmptyState title="No invoices for this customer yet" />
        ) : (
          <Table caption={`Invoices for ${customer.name}`} captionHidden>
            <thead>
              <tr>
                <Th>Number</Th>
                <Th>Issued</Th>
                <Th>Due</Th>
                <Th>Status</Th>
                <Th numeric>Total</Th>
                <Th numeric>Due</Th>
              </tr>
            </thead>
            <tbody>
              {invoices.map((inv) => (
                <tr key={inv.id}>
                  <Td>
                    <button
                      type="button"
                      onClick={() => onOpenInvoice(inv.id)}
                      className="min-h-11 font-medium text-brand-700 hover:underline dark:text-brand-300"
                    >
                      {inv.number ?? 'Draft'}
                    </button>
                  </Td>
                  <Td className="py-3">{formatDate(inv.issueDate)}</Td>
                  <Td className="py-3">{formatDate(inv.dueDate)}</Td>
                  <Td className="py-3">
                    <StatusBadge status={inv.status} />
                  </Td>
                  <Td numeric className="py-3">
                    <Money minor={inv.total} currency={inv.currency} />
                  </Td>
                  <Td numeric className="py-3">
                    <Money minor={inv.amountDue} currency={inv.currency} />
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Card>
      <Card>
        <CardHeader title="Payments" />
        {payments.length === 0 ? (
          <EmptyState title="No payments received yet" />
        ) : (
          <Table caption={`Payments from ${customer.name}`} captionHidden>
            <thead>
              <tr>
                <Th>Date</Th>
                <Th>Invoice</Th>
                <Th>Method</Th>
                <Th numeric>Amount</Th>
              </tr>
            </thead>
            <tbody>
              {payments.map((p) => (
                <tr key={p.id} className={p.reversed ? 'text-slate-400 line-through' : ''}>
                  <Td>{formatDate(p.date)}</Td>
                  <Td>{p.invoiceNumber}</Td>
                  <Td>
                    {METHOD_LABELS[p.method] ?? p.method}
                    {p.reference ? ` · ${p.reference}` : ''}
                  </Td>
                  <Td numeric>
                    <Money minor={p.amount} currency={p.currency} />
                  </Td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
      </Card>
      <CustomerCreditCard customerId={customer.id} customerName={customer.name} invoices={invoices} />
      <CustomerStatement customerId={customer.id} customerName={customer.name} />
      <Dialog open={editing} onOpenChange={setEditing} title={`Edit ${customer.name}`} wide>
        <CustomerForm customer={customer} onSaved={() => setEditing(false)} />
      </Dialog>
    </div>
  );
};
