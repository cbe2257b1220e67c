import * as Tabs from '@radix-ui/react-tabs';
import { Plus } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { Button } from '../../components/ui/Button.tsx';
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

const TABS = [
  { id: 'invoices', label: 'Invoices' },
  { id: 'customers', label: 'Customers' },
  { id: 'items', label: 'Items & taxes' },
  { id: 'recurring', label: 'Recurring' },
  { id: 'reports', label: 'Reports' },
] as const;
type TabId = (typeof TABS)[number]['id'];

const InvoicesPage = () => {
  const { company, can } = useCompany();
  const [params, setParams] = useSearchParams();
  const invoiceId = params.get('invoice');
  const editing = params.get('edit');
  const isNew = params.get('new') === '1';
  const tab: TabId = TABS.some((t) => t.id === params.get('tab')) ? (params.get('tab') as TabId) : 'invoices';

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

  return (
    <div className="mx-auto max-w-7xl space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold text-slate-900 dark:text-white">Invoices</h1>
          <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">
            {company.name} · amounts in totals are in {company.baseCurrency}
          </p>
        </div>
        {can('record') ? (
          <Button onClick={() => open({ new: '1' })}>
            <Plus className="h-4 w-4" aria-hidden="true" /> New Invoice
          </Button>
        ) : null}
      </div>
      <Tabs.Root value={tab} onValueChange={(value) => open(value === 'invoices' ? {} : { tab: value })}>
        <Tabs.List
          aria-label="Invoicing views"
          className="flex gap-1 overflow-x-auto border-b border-slate-200 dark:border-slate-800"
        >
          {TABS.map((t) => (
            <Tabs.Trigger
              key={t.id}
              value={t.id}
              className="min-h-11 shrink-0 border-b-2 border-transparent px-4 text-sm font-medium text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-brand-500 data-[state=active]:border-brand-600 data-[state=active]:text-brand-700 dark:text-slate-300 dark:hover:text-white dark:data-[state=active]:border-brand-400 dark:data-[state=active]:text-brand-300"
            >
              {t.label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <Tabs.Content value="invoices" className="pt-6 focus:outline-none">
          <InvoiceList onOpen={openInvoice} onNew={() => open({ new: '1' })} />
        </Tabs.Content>
        <Tabs.Content value="customers" className="pt-6 focus:outline-none">
          <CustomersTab
            customerId={params.get('customer')}
            onOpenCustomer={(id) => open(id ? { tab: 'customers', customer: id } : { tab: 'customers' })}
            onOpenInvoice={openInvoice}
            onNewInvoice={(customerId) => open({ new: '1', customer: customerId })}
          />
        </Tabs.Content>
        <Tabs.Content value="items" className="pt-6 focus:outline-none">
          <CatalogTab />
        </Tabs.Content>
        <Tabs.Content value="recurring" className="pt-6 focus:outline-none">
          <RecurringTab />
        </Tabs.Content>
        <Tabs.Content value="reports" className="pt-6 focus:outline-none">
          <ReportsTab />
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
};

export default InvoicesPage;
