import { Plus } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { Supplier } from '../../../shared/payables.ts';
import { Money } from '../../components/money/Money.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { Alert, Badge, CardError } from '../../components/ui/Card.tsx';
import { DataTable } from '../../components/ui/DataTable.tsx';
import { ListCard, LoadingState } from '../../components/ui/ListCard.tsx';
import { api } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { formatDate } from '../../lib/format.ts';
import { LinkButton, RecordHeader, StatCard } from '../invoices/parts.tsx';
import { BillStatusBadge } from './parts.tsx';
import { usePayablesMutation, useSupplier, useSupplierBills } from './SupplierApi.ts';
import { SupplierFormDialog } from './SupplierForm.tsx';
import { SupplierStatementCard } from './SupplierStatement.tsx';

// One supplier: contact and bank details, what the company owes them and the credit it holds,
// their bills, and their statement. Edit, archive and "New bill" for those who record.

/** The supplier's bank details on one line ("Acme Ltd · 12345678 · 20-00-00"), or null when none. */
export const bankDetailsText = (s: Pick<Supplier, 'bankAccountName' | 'bankAccountNumber' | 'bankCode'>) =>
  [s.bankAccountName, s.bankAccountNumber, s.bankCode].filter(Boolean).join(' · ') || null;

export const SupplierDetailView = ({
  id,
  onBack,
  onOpenBill,
}: {
  id: string;
  onBack: () => void;
  onOpenBill: (billId: string) => void;
}) => {
  const { company, can } = useCompany();
  const navigate = useNavigate();
  const detail = useSupplier(id);
  const [editing, setEditing] = useState(false);
  const archive = usePayablesMutation(
    (base, archived: boolean) => api.patch<Supplier>(`${base}/suppliers/${id}`, { archived }),
    'payables',
  );
  if (detail.isLoading) return <LoadingState label="Loading supplier..." />;
  if (!detail.data)
    return (
      <div className="space-y-4">
        <Button variant="secondary" onClick={onBack}>
          Back to suppliers
        </Button>
        <CardError
          message={detail.error?.message ?? 'Supplier not found.'}
          onRetry={() => void detail.refetch()}
        />
      </div>
    );
  const supplier = detail.data;
  const bank = bankDetailsText(supplier);
  return (
    <div className="space-y-6">
      <RecordHeader
        backLabel="Back to suppliers"
        onBack={onBack}
        heading={
          <h2 className="flex flex-wrap items-center gap-2 text-xl font-semibold text-slate-900 dark:text-white">
            {supplier.name}
            {supplier.archived ? <Badge tone="amber">Archived</Badge> : null}
          </h2>
        }
        subtitle={
          [
            supplier.company,
            supplier.email,
            supplier.phone,
            supplier.taxNumber && `Tax no. ${supplier.taxNumber}`,
          ]
            .filter(Boolean)
            .join(' · ') || 'No contact details'
        }
        actions={
          can('record') ? (
            <>
              <Button
                onClick={() => navigate(`/bills?${new URLSearchParams({ new: '1', supplier: supplier.id })}`)}
                disabled={supplier.archived}
              >
                <Plus className="h-4 w-4" aria-hidden="true" /> New bill
              </Button>
              <Button variant="secondary" onClick={() => setEditing(true)}>
                Edit
              </Button>
              <Button
                variant="ghost"
                busy={archive.isPending}
                onClick={() => archive.mutate(!supplier.archived)}
              >
                {supplier.archived ? 'Restore' : 'Archive'}
              </Button>
            </>
          ) : null
        }
      />
      {archive.error ? <Alert>{archive.error.message}</Alert> : null}
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <StatCard label="You owe">
          <span data-testid="supplier-balance">
            <Money minor={supplier.balance} currency={company.baseCurrency} />
          </span>
        </StatCard>
        <StatCard label="Credit held">
          <Money minor={supplier.credit} currency={company.baseCurrency} />
        </StatCard>
        <StatCard label="Payment terms">
          {supplier.paymentTermsDays} days · {supplier.currency}
        </StatCard>
        <StatCard label="Pay to">
          <p className="text-sm font-normal break-words">{bank ?? 'No bank details'}</p>
        </StatCard>
      </div>
      {supplier.address || supplier.notes ? (
        <div className="grid gap-4 sm:grid-cols-2">
          {supplier.address ? (
            <StatCard label="Address">
              <p className="text-sm font-normal whitespace-pre-line">{supplier.address}</p>
            </StatCard>
          ) : null}
          {supplier.notes ? (
            <StatCard label="Notes">
              <p className="text-sm font-normal whitespace-pre-line">{supplier.notes}</p>
            </StatCard>
          ) : null}
        </div>
      ) : null}
      <SupplierBills supplier={supplier} onOpenBill={onOpenBill} />
      <SupplierStatementCard supplierId={supplier.id} supplierName={supplier.name} />
      {editing ? <SupplierFormDialog supplier={supplier} onClose={() => setEditing(false)} /> : null}
    </div>
  );
};

const SupplierBills = ({
  supplier,
  onOpenBill,
}: {
  supplier: Supplier;
  onOpenBill: (billId: string) => void;
}) => {
  const bills = useSupplierBills(supplier.id);
  const rows = bills.data?.bills ?? [];
  return (
    <ListCard
      title="Bills"
      state={{
        loading: bills.isLoading,
        loadingLabel: 'Loading bills...',
        error: bills.isError ? `Could not load the bills. ${bills.error.message}` : undefined,
        onRetry: () => void bills.refetch(),
        empty: rows.length === 0,
        emptyTitle: 'No bills from this supplier yet',
      }}
    >
      <DataTable
        caption={`Bills from ${supplier.name}`}
        rows={rows}
        rowKey={(b) => b.id}
        columns={[
          {
            header: 'Number',
            rowHeader: true,
            cell: (b) => <LinkButton onClick={() => onOpenBill(b.id)}>{b.number || 'Draft'}</LinkButton>,
          },
          { header: 'Reference', cell: (b) => b.reference || '—' },
          { header: 'Date', cell: (b) => formatDate(b.issueDate) },
          { header: 'Due', cell: (b) => formatDate(b.dueDate) },
          { header: 'Status', cell: (b) => <BillStatusBadge status={b.status} /> },
          { header: 'Total', numeric: true, cell: (b) => <Money minor={b.total} currency={b.currency} /> },
          {
            header: 'Still due',
            numeric: true,
            cell: (b) => <Money minor={b.amountDue} currency={b.currency} blankZero />,
          },
        ]}
      />
    </ListCard>
  );
};
