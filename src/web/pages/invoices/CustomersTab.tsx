import { useState } from 'react';
import { Money } from '../../components/money/Money.tsx';
import { CheckboxField } from '../../components/ui/Form.tsx';
import { ListCard, NewButton, SearchField } from '../../components/ui/ListCard.tsx';
import { DataTable } from '../../components/ui/DataTable.tsx';
import { useCompany } from '../../lib/company.tsx';
import { CustomerDetailView } from './CustomerDetail.tsx';
import { CustomerFormDialog } from './CustomerForm.tsx';
import { useCustomers } from './invoicesApi.ts';
import { LinkButton } from './parts.tsx';

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
    <ListCard
      title="Customers"
      description="Who you invoice, and what each owes you."
      actions={can('record') ? <NewButton onClick={() => setCreating(true)}>New customer</NewButton> : null}
      toolbar={
        <>
          <SearchField
            label="Search customers"
            value={search}
            onChange={setSearch}
            placeholder="Search name, company, email"
          />
          <CheckboxField label="Show archived" checked={showArchived} onChange={setShowArchived} />
        </>
      }
      state={{
        loading: customers.isLoading,
        loadingLabel: 'Loading customers...',
        empty: rows.length === 0,
        emptyTitle: search ? 'No customers match' : 'No customers yet',
        emptyDescription: search ? 'Try another name.' : 'Add the people and businesses you invoice.',
      }}
      footer={creating ? <CustomerFormDialog onClose={() => setCreating(false)} /> : null}
    >
      <DataTable
        caption="Customers"
        rows={rows}
        rowKey={(c) => c.id}
        rowClassName={() => 'hover:bg-slate-50 dark:hover:bg-slate-800/50'}
        columns={[
          {
            header: 'Name',
            cell: (c) => (
              <>
                <LinkButton onClick={() => onOpen(c.id)}>{c.name}</LinkButton>
                {c.company ? <span className="block text-xs text-slate-500">{c.company}</span> : null}
                {c.archived ? (
                  <span className="text-xs text-amber-700 dark:text-amber-400"> archived</span>
                ) : null}
              </>
            ),
          },
          { header: 'Email', className: 'py-3', cell: (c) => c.email || '—' },
          { header: 'Terms', className: 'py-3', cell: (c) => `${c.paymentTermsDays} days` },
          { header: 'Currency', className: 'py-3', cell: (c) => c.currency },
          {
            header: `Balance owed (${company.baseCurrency})`,
            numeric: true,
            className: 'py-3 font-medium',
            cell: (c) => <Money minor={c.balance} currency={company.baseCurrency} />,
          },
        ]}
      />
    </ListCard>
  );
};
