import { useState } from 'react';
import { Money } from '../../components/money/Money.tsx';
import { CheckboxField } from '../../components/ui/Form.tsx';
import { ListCard, NewButton, SearchField } from '../../components/ui/ListCard.tsx';
import { Table, Td, Th } from '../../components/ui/Table.tsx';
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
                <LinkButton onClick={() => onOpen(c.id)}>{c.name}</LinkButton>
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
    </ListCard>
  );
};
