import { useState } from 'react';
import type { Item, TaxRate } from '../../../shared/invoices.ts';
import { Money } from '../../components/money/Money.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { Badge } from '../../components/ui/Card.tsx';
import { SelectField, TextField } from '../../components/ui/Field.tsx';
import { CheckboxField } from '../../components/ui/Form.tsx';
import { FormDialog } from '../../components/ui/FormDialog.tsx';
import { DataTable } from '../../components/ui/DataTable.tsx';
import { ListCard, NewButton } from '../../components/ui/ListCard.tsx';
import { api } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { InvoiceSettingsCard } from './InvoiceSettingsCard.tsx';
import { useInvoicingAccounts, useInvoicingMutation, useItems, useTaxRates } from './invoicesApi.ts';
import { errorMessage, taxRateOptions, tryParseMoney } from './parts.tsx';

// Products and services, tax rates, and the invoice settings (numbering, the company's
// address, tax number and logo printed on every invoice).

export const CatalogTab = () => (
  <div className="space-y-6">
    <ItemsCard />
    <TaxRatesCard />
    <InvoiceSettingsCard />
  </div>
);

/** Archiving (or restoring) one row of a catalog list, by id under `path`. */
const useArchive = <T,>(path: string) =>
  useInvoicingMutation((base, v: { id: string; archived: boolean }) =>
    api.patch<T>(`${base}/${path}/${v.id}`, { archived: v.archived }),
  );

const ItemsCard = () => {
  const { company, can } = useCompany();
  const items = useItems();
  const taxes = useTaxRates();
  const [creating, setCreating] = useState(false);
  const archive = useArchive<Item>('items');
  const rows = items.data ?? [];
  return (
    <ListCard
      title="Products and services"
      description="Reusable lines with a price, an income account and a default tax."
      actions={can('record') ? <NewButton onClick={() => setCreating(true)}>New item</NewButton> : null}
      notices={[{ message: archive.error ? errorMessage(archive.error) : null }]}
      state={{
        loading: items.isLoading,
        loadingLabel: 'Loading items...',
        empty: rows.length === 0,
        emptyTitle: 'No items yet',
        emptyDescription: 'Add what you sell so invoice lines fill themselves in.',
      }}
      footer={creating ? <ItemDialog onClose={() => setCreating(false)} /> : null}
    >
      <DataTable
        caption="Items"
        rows={rows}
        rowKey={(i) => i.id}
        columns={[
          { header: 'Name', className: 'font-medium', cell: (i) => i.name },
          { header: 'Description', cell: (i) => i.description || '—' },
          { header: 'Default tax', cell: (i) => taxes.data?.find((t) => t.id === i.taxRateId)?.name ?? '—' },
          {
            header: 'Unit price',
            numeric: true,
            cell: (i) => <Money minor={i.unitPrice} currency={company.baseCurrency} />,
          },
          {
            header: 'Actions',
            actions: true,
            cell: (i) =>
              can('record') ? (
                <Button
                  size="sm"
                  variant="ghost"
                  busy={archive.isPending && archive.variables?.id === i.id}
                  onClick={() => archive.mutate({ id: i.id, archived: true })}
                >
                  Archive<span className="sr-only"> {i.name}</span>
                </Button>
              ) : null,
          },
        ]}
      />
    </ListCard>
  );
};

const ItemDialog = ({ onClose }: { onClose: () => void }) => {
  const { company } = useCompany();
  const taxes = useTaxRates();
  const accounts = useInvoicingAccounts();
  const income = (accounts.data ?? []).filter((a) => a.type === 'income');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [price, setPrice] = useState('');
  const [taxRateId, setTaxRateId] = useState('');
  const [accountId, setAccountId] = useState('');
  const [touched, setTouched] = useState(false);
  const parsed = tryParseMoney(price, company.baseCurrency);
  const save = useInvoicingMutation((base, body: Record<string, unknown>) =>
    api.post<Item>(`${base}/items`, body),
  );
  const submit = async () => {
    setTouched(true);
    if (!name.trim() || parsed === null || parsed < 0) return;
    const body = {
      name,
      description,
      unitPrice: parsed,
      taxRateId: taxRateId || null,
      incomeAccountId: accountId || null,
    };
    await save.mutateAsync(body);
    onClose();
  };
  return (
    <FormDialog onClose={onClose} title="New item" onSubmit={submit} submitLabel="Create item">
      <TextField
        label="Name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={touched && !name.trim() ? 'Enter the item name.' : null}
        autoFocus
      />
      <TextField label="Description" value={description} onChange={(e) => setDescription(e.target.value)} />
      <TextField
        label={`Unit price (${company.baseCurrency})`}
        inputMode="decimal"
        value={price}
        onChange={(e) => setPrice(e.target.value)}
        error={touched && (parsed === null || parsed < 0) ? 'Enter a price, e.g. 125.00.' : null}
      />
      <SelectField
        label="Income account"
        value={accountId}
        onChange={(e) => setAccountId(e.target.value)}
        emptyOption="Sales (default)"
        options={income.map((a) => ({ value: a.id, label: `${a.code} ${a.name}` }))}
      />
      <SelectField
        label="Default tax"
        value={taxRateId}
        onChange={(e) => setTaxRateId(e.target.value)}
        options={taxRateOptions(taxes.data)}
      />
    </FormDialog>
  );
};

const TaxRatesCard = () => {
  const { can } = useCompany();
  const taxes = useTaxRates();
  const [creating, setCreating] = useState(false);
  const archive = useArchive<TaxRate>('tax-rates');
  const rows = taxes.data ?? [];
  return (
    <ListCard
      title="Tax rates"
      description="Percentages are kept exactly as entered; a rate never changes once invoices use it."
      actions={
        can('manage_settings') ? <NewButton onClick={() => setCreating(true)}>New tax rate</NewButton> : null
      }
      state={{
        loading: false,
        loadingLabel: 'Loading tax rates...',
        empty: rows.length === 0,
        emptyTitle: 'No tax rates yet',
        emptyDescription: 'Add the sales taxes you charge (VAT, GST, sales tax).',
      }}
      footer={creating ? <TaxRateDialog onClose={() => setCreating(false)} /> : null}
    >
      <DataTable
        caption="Tax rates"
        rows={rows}
        rowKey={(t) => t.id}
        columns={[
          { header: 'Name', className: 'font-medium', cell: (t) => t.name },
          { header: 'Rate', numeric: true, cell: (t) => `${t.percent}%` },
          {
            header: 'Kind',
            className: 'space-x-1',
            cell: (t) => (
              <>
                <Badge>{t.inclusive ? 'Inclusive' : 'Exclusive'}</Badge>
                {t.compound ? <Badge tone="violet">Compound</Badge> : null}
                {t.archived ? <Badge tone="amber">Archived</Badge> : null}
              </>
            ),
          },
          {
            header: 'Actions',
            actions: true,
            cell: (t) =>
              can('manage_settings') ? (
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => archive.mutate({ id: t.id, archived: !t.archived })}
                >
                  {t.archived ? 'Restore' : 'Archive'}
                  <span className="sr-only"> {t.name}</span>
                </Button>
              ) : null,
          },
        ]}
      />
    </ListCard>
  );
};

const TaxRateDialog = ({ onClose }: { onClose: () => void }) => {
  const [name, setName] = useState('');
  const [percent, setPercent] = useState('');
  const [inclusive, setInclusive] = useState(false);
  const [compound, setCompound] = useState(false);
  const save = useInvoicingMutation((base, body: Record<string, unknown>) =>
    api.post<TaxRate>(`${base}/tax-rates`, body),
  );
  return (
    <FormDialog
      onClose={onClose}
      title="New tax rate"
      browserValidation
      onSubmit={async () => {
        await save.mutateAsync({ name, percent: percent.trim(), inclusive, compound });
        onClose();
      }}
      submitLabel="Create tax rate"
    >
      <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} required autoFocus />
      <TextField
        label="Rate (%)"
        inputMode="decimal"
        value={percent}
        onChange={(e) => setPercent(e.target.value)}
        hint="For example 20 or 9.975"
        required
      />
      <CheckboxField label="Prices include this tax" checked={inclusive} onChange={setInclusive} />
      <CheckboxField
        label="Compound: charged on the price plus the taxes before it"
        checked={compound}
        onChange={setCompound}
      />
    </FormDialog>
  );
};
