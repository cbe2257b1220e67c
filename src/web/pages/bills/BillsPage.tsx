import { Plus } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { Button } from '../../components/ui/Button.tsx';
import { PageHeader } from '../../components/ui/PageHeader.tsx';
import { PageTabs, tabFrom } from '../../components/ui/Tabs.tsx';
import { useCompany } from '../../lib/company.tsx';
import { BillEditor } from './BillEditor.tsx';
import { BillList } from './BillList.tsx';
import { BillView } from './BillView.tsx';
import { PayablesReportsTab } from './PayablesReportsTab.tsx';
import { PayablesSettingsCard } from './PayablesSettingsCard.tsx';
import { PaymentRunTab } from './PaymentRunTab.tsx';
import { RecurringBillsTab } from './RecurringBillsTab.tsx';
import { SupplierCreditsTab } from './SupplierCreditsTab.tsx';
import { SuppliersTab } from './SuppliersTab.tsx';

// /bills: what the company owes. The bill list with status tabs, the bill editor, one bill
// with its approval, payments, attachments and history, and the suppliers, payment run,
// supplier credits, recurring bills, reports and settings behind them. Which view is open
// lives in the query string (?bill=, ?new=1, ?edit=, ?tab=), so views can be bookmarked and
// the back button works.

const BillsPage = () => {
  const { company, can } = useCompany();
  const [params, setParams] = useSearchParams();
  const billId = params.get('bill');
  const editing = params.get('edit');
  const isNew = params.get('new') === '1';

  const open = (next: Record<string, string>) => setParams(next);
  const openBill = (id: string) => open({ bill: id });
  const backToList = () => open({});

  if (isNew || editing) {
    return (
      <BillEditor
        billId={editing}
        supplierId={params.get('supplier')}
        onCancel={() => (editing ? openBill(editing) : backToList())}
        onSaved={openBill}
        onOpenBill={openBill}
      />
    );
  }
  if (billId) {
    return <BillView billId={billId} onBack={backToList} onEdit={() => open({ edit: billId })} />;
  }

  const tabs = [
    {
      id: 'bills',
      label: 'Bills',
      panel: <BillList onOpen={openBill} onNew={() => open({ new: '1' })} />,
    },
    { id: 'suppliers', label: 'Suppliers', panel: <SuppliersTab onOpenBill={openBill} /> },
    { id: 'payment-run', label: 'Payment run', panel: <PaymentRunTab onOpenBill={openBill} /> },
    { id: 'credits', label: 'Credits', panel: <SupplierCreditsTab onOpenBill={openBill} /> },
    { id: 'recurring', label: 'Recurring', panel: <RecurringBillsTab onOpenBill={openBill} /> },
    { id: 'reports', label: 'Reports', panel: <PayablesReportsTab onOpenBill={openBill} /> },
    ...(can('manage_settings')
      ? [{ id: 'settings', label: 'Settings', panel: <PayablesSettingsCard /> }]
      : []),
  ];

  return (
    <div className="mx-auto max-w-7xl space-y-6">
      <PageHeader
        title="Bills"
        description={`${company.name} · what you owe your suppliers · totals in ${company.baseCurrency}`}
        actions={
          can('record') ? (
            <Button onClick={() => open({ new: '1' })}>
              <Plus className="h-4 w-4" aria-hidden="true" /> New bill
            </Button>
          ) : null
        }
      />
      <PageTabs
        label="Payables views"
        tabs={tabs}
        value={tabFrom(tabs, params.get('tab'), 'bills')}
        onValueChange={(value) => open(value === 'bills' ? {} : { tab: value })}
      />
    </div>
  );
};

export default BillsPage;
