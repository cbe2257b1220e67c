import { Upload } from 'lucide-react';
import { useState } from 'react';
import { Money } from '../../components/money/Money.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { DataTable } from '../../components/ui/DataTable.tsx';
import { CheckboxField } from '../../components/ui/Form.tsx';
import { ListCard, NewButton, SearchField } from '../../components/ui/ListCard.tsx';
import { useCompany } from '../../lib/company.tsx';
import { LinkButton } from '../invoices/parts.tsx';
import { useSuppliers } from './SupplierApi.ts';
import { SupplierDetailView } from './SupplierDetail.tsx';
import { SupplierFormDialog } from './SupplierForm.tsx';
import { SupplierImportDialog } from './SupplierImport.tsx';

// Suppliers: search, create, edit, archive, import from CSV; one supplier's bills, balance,
// credit, bank details and statement, with "New bill" for them.

export type PayablesTabProps = { onOpenBill: (billId: string) => void };

export const SuppliersTab = ({ onOpenBill }: PayablesTabProps) => {
  const [supplierId, setSupplierId] = useState<string | null>(null);
  if (supplierId)
    return <SupplierDetailView id={supplierId} onBack={() => setSupplierId(null)} onOpenBill={onOpenBill} />;
  return <SupplierList onOpen={setSupplierId} />;
};

const SupplierList = ({ onOpen }: { onOpen: (id: string) => void }) => {
  const { company, can } = useCompany();
  const [search, setSearch] = useState('');
  const [showArchived, setShowArchived] = useState(false);
  const [dialog, setDialog] = useState<'new' | 'import' | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const suppliers = useSuppliers(search, showArchived);
  const rows = suppliers.data?.suppliers ?? [];
  const close = () => setDialog(null);
  return (
    <ListCard
      title="Suppliers"
      description="Who bills you, what you owe each, and where to pay them."
      actions={
        can('record') ? (
          <>
            <Button variant="secondary" onClick={() => setDialog('import')}>
              <Upload className="h-4 w-4" aria-hidden="true" /> Import CSV
            </Button>
            <NewButton onClick={() => setDialog('new')}>New supplier</NewButton>
          </>
        ) : null
      }
      toolbar={
        <>
          <SearchField
            label="Search suppliers"
            value={search}
            onChange={setSearch}
            placeholder="Search name, company, email"
          />
          <CheckboxField label="Show archived" checked={showArchived} onChange={setShowArchived} />
        </>
      }
      notices={[{ tone: 'success', message: notice }]}
      state={{
        loading: suppliers.isLoading,
        loadingLabel: 'Loading suppliers...',
        error: suppliers.isError ? `Could not load the suppliers. ${suppliers.error.message}` : undefined,
        onRetry: () => void suppliers.refetch(),
        empty: rows.length === 0,
        emptyTitle: search ? 'No suppliers match' : 'No suppliers yet',
        emptyDescription: search
          ? 'Try another name.'
          : 'Add the businesses that bill you, or import them from a CSV file.',
      }}
      footer={
        dialog === 'new' ? (
          <SupplierFormDialog onClose={close} onSaved={(s) => setNotice(`Created ${s.name}.`)} />
        ) : dialog === 'import' ? (
          <SupplierImportDialog
            onClose={close}
            onDone={(message) => {
              close();
              setNotice(message);
            }}
          />
        ) : null
      }
    >
      <DataTable
        caption="Suppliers"
        rows={rows}
        rowKey={(s) => s.id}
        rowClassName={() => 'hover:bg-slate-50 dark:hover:bg-slate-800/50'}
        columns={[
          {
            header: 'Name',
            rowHeader: true,
            cell: (s) => (
              <>
                <LinkButton onClick={() => onOpen(s.id)}>{s.name}</LinkButton>
                {s.company ? <span className="block text-xs text-slate-500">{s.company}</span> : null}
                {s.archived ? (
                  <span className="text-xs text-amber-700 dark:text-amber-400"> archived</span>
                ) : null}
              </>
            ),
          },
          { header: 'Email', className: 'py-3', cell: (s) => s.email || '—' },
          { header: 'Terms', className: 'py-3', cell: (s) => `${s.paymentTermsDays} days` },
          { header: 'Currency', className: 'py-3', cell: (s) => s.currency },
          {
            header: `You owe (${company.baseCurrency})`,
            numeric: true,
            className: 'py-3 font-medium',
            cell: (s) => <Money minor={s.balance} currency={company.baseCurrency} />,
          },
          {
            header: `Credit (${company.baseCurrency})`,
            numeric: true,
            className: 'py-3',
            cell: (s) => <Money minor={s.credit} currency={company.baseCurrency} blankZero />,
          },
        ]}
      />
    </ListCard>
  );
};
