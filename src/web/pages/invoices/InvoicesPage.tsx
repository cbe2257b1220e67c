import { Plus } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { Button } from '../../components/ui/Button.tsx';
import { PageHeader } from '../../components/ui/PageHeader.tsx';
import { PageTabs, tabFrom } from '../../components/ui/Tabs.tsx';
import { useCompany } from '../../lib/company.tsx';
import { CatalogTab } from './CatalogTab.tsx';
import { CustomersTab } from './CustomersTab.tsx';
import { InvoiceEditor } from './InvoiceEditor.tsx';
import { InvoiceList } from './InvoiceList.tsx';
import { InvoiceView } from './InvoiceView.tsx';
import { RecurringTab } from './RecurringTab.tsx';
import { ReportsTab } from './ReportsTab.tsx';

// /invoices: the list with status chips, the New Invoice editor, one invoice with its PDF,
// payments and history, and the customers, items, recurring schedules and reports behind
// them. Which view is open lives in the query string, so views can be bookmarked and the
// back button works.

const InvoicesPage = () => {
  const { company, can } = useCompany();
  const [params, setParams] = useSearchParams();
  const invoiceId = params.get('invoice');
  const editing = params.get('edit');
  const isNew = params.get('new') === '1';

  const open = (next: Record<string, string>) => setParams(next);
  const openInvoice = (id: string) => open({ invoice: id });
  const backToList = () => open({});

  if (isNew || editing) {
    return (
      <InvoiceEditor
        invoiceId={editing}
        customerId={params.get('customer')}
        onCancel={() => (editing ? openInvoice(editing) : backToList())}
        onSaved={(id) => openInvoice(id)}
      />
    );
  }
  if (invoiceId) {
    return <InvoiceView invoiceId={invoiceId} onBack={backToList} onEdit={() => open({ edit: invoiceId })} />;
  }

  const tabs = [
    {
      id: 'invoices',
      label: 'Invoices',
      panel: <InvoiceList onOpen={openInvoice} onNew={() => open({ new: '1' })} />,
    },
    {
      id: 'customers',
      label: 'Customers',
      panel: (
        <CustomersTab
          customerId={params.get('customer')}
          onOpenCustomer={(id) => open(id ? { tab: 'customers', customer: id } : { tab: 'customers' })}
          onOpenInvoice={openInvoice}
          onNewInvoice={(customerId) => open({ new: '1', customer: customerId })}
        />
      ),
    },
    { id: 'items', label: 'Items & taxes', panel: <CatalogTab /> },
    { id: 'recurring', label: 'Recurring', panel: <RecurringTab /> },
    { id: 'reports', label: 'Reports', panel: <ReportsTab /> },
  ];

  return (
    <div className="mx-auto max-w-7xl space-y-6">
      <PageHeader
        title="Invoices"
        description={`${company.name} · amounts in totals are in ${company.baseCurrency}`}
        actions={
          can('record') ? (
            <Button onClick={() => open({ new: '1' })}>
              <Plus className="h-4 w-4" aria-hidden="true" /> New Invoice
            </Button>
          ) : null
        }
      />
      <PageTabs
        label="Invoicing views"
        tabs={tabs}
        value={tabFrom(tabs, params.get('tab'), 'invoices')}
        onValueChange={(value) => open(value === 'invoices' ? {} : { tab: value })}
      />
    </div>
  );
};

export default InvoicesPage;
