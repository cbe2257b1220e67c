import { Plus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import type { InvoiceSettings, Item, TaxRate } from '../../../shared/invoices.ts';
import { Money } from '../../components/money/Money.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { Alert, Badge, Card, CardHeader, EmptyState } from '../../components/ui/Card.tsx';
import { Dialog } from '../../components/ui/Dialog.tsx';
import { SelectField, TextField } from '../../components/ui/Field.tsx';
import { Table, Td, Th } from '../../components/ui/Table.tsx';
import { api } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import {
  useInvoiceSettings,
  useInvoicingAccounts,
  useInvoicingMutation,
  useItems,
  useTaxRates,
} from './invoicesApi.ts';
import { errorMessage, tryParseMoney } from './parts.tsx';

// Products and services, tax rates, and the invoice settings (numbering, the company's
// address, tax number and logo printed on every invoice).

export const CatalogTab = () => (
  <div className="space-y-6">
    <ItemsCard />
    <TaxRatesCard />
    <SettingsCard />
  </div>
);

const ItemsCard = () => {
  const { company, can } = useCompany();
  const items = useItems();
  const taxes = useTaxRates();
  const [creating, setCreating] = useState(false);
  const archive = useInvoicingMutation((base, v: { id: string; archived: boolean }) =>
    api.patch<Item>(`${base}/items/${v.id}`, { archived: v.archived }),
  );
  const rows = items.data ?? [];
  return (
    <Card>
      <CardHeader
        title="Products and services"
        description="Reusable lines with a price, an income account and a default tax."
        actions={
          can('record') ? (
            <Button onClick={() => setCreating(true)}>
              <Plus className="h-4 w-4" aria-hidden="true" /> New item
            </Button>
          ) : undefined
        }
      />
      {archive.error ? (
        <div className="px-5 pt-4">
          <Alert>{errorMessage(archive.error)}</Alert>
        </div>
      ) : null}
      {items.isLoading ? (
        <p className="px-5 py-6 text-sm text-slate-500" role="status">
          Loading items...
        </p>
      ) : rows.length === 0 ? (
        <EmptyState
          title="No items yet"
          description="Add what you sell so invoice lines fill themselves in."
        />
      ) : (
        <Table caption="Items" captionHidden>
          <thead>
            <tr>
              <Th>Name</Th>
              <Th>Description</Th>
              <Th>Default tax</Th>
              <Th numeric>Unit price</Th>
              <Th>
                <span className="sr-only">Actions</span>
              </Th>
            </tr>
          </thead>
          <tbody>
            {rows.map((i) => (
              <tr key={i.id}>
                <Td className="font-medium">{i.name}</Td>
                <Td>{i.description || '—'}</Td>
                <Td>{taxes.data?.find((t) => t.id === i.taxRateId)?.name ?? '—'}</Td>
                <Td numeric>
                  <Money minor={i.unitPrice} currency={company.baseCurrency} />
                </Td>
                <Td>
                  {can('record') ? (
                    <Button
                      size="sm"
                      variant="ghost"
                      busy={archive.isPending && archive.variables?.id === i.id}
                      onClick={() => archive.mutate({ id: i.id, archived: true })}
                    >
                      Archive<span className="sr-only"> {i.name}</span>
                    </Button>
                  ) : null}
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <Dialog open={creating} onOpenChange={setCreating} title="New item">
        <ItemForm onSaved={() => setCreating(false)} />
      </Dialog>
    </Card>
  );
};

const ItemForm = ({ onSaved }: { onSaved: () => void }) => {
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
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (!name.trim() || parsed === null || parsed < 0) return;
    const ok = await save
      .mutateAsync({
        name,
        description,
        unitPrice: parsed,
        taxRateId: taxRateId || null,
        incomeAccountId: accountId || null,
      })
      .then(() => true)
      .catch(() => false);
    if (ok) onSaved();
  };
  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      {save.error ? <Alert>{errorMessage(save.error)}</Alert> : null}
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
        options={[
          { value: '', label: 'Sales (default)' },
          ...income.map((a) => ({ value: a.id, label: `${a.code} ${a.name}` })),
        ]}
      />
      <SelectField
        label="Default tax"
        value={taxRateId}
        onChange={(e) => setTaxRateId(e.target.value)}
        options={[
          { value: '', label: 'No tax' },
          ...(taxes.data ?? [])
            .filter((t) => !t.archived)
            .map((t) => ({ value: t.id, label: `${t.name} (${t.percent}%)` })),
        ]}
      />
      <div className="flex justify-end">
        <Button type="submit" busy={save.isPending}>
          Create item
        </Button>
      </div>
    </form>
  );
};

const TaxRatesCard = () => {
  const { can } = useCompany();
  const taxes = useTaxRates();
  const [creating, setCreating] = useState(false);
  const archive = useInvoicingMutation((base, v: { id: string; archived: boolean }) =>
    api.patch<TaxRate>(`${base}/tax-rates/${v.id}`, { archived: v.archived }),
  );
  const rows = taxes.data ?? [];
  return (
    <Card>
      <CardHeader
        title="Tax rates"
        description="Percentages are kept exactly as entered; a rate never changes once invoices use it."
        actions={
          can('manage_settings') ? (
            <Button onClick={() => setCreating(true)}>
              <Plus className="h-4 w-4" aria-hidden="true" /> New tax rate
            </Button>
          ) : undefined
        }
      />
      {rows.length === 0 ? (
        <EmptyState
          title="No tax rates yet"
          description="Add the sales taxes you charge (VAT, GST, sales tax)."
        />
      ) : (
        <Table caption="Tax rates" captionHidden>
          <thead>
            <tr>
              <Th>Name</Th>
              <Th numeric>Rate</Th>
              <Th>Kind</Th>
              <Th>
                <span className="sr-only">Actions</span>
              </Th>
            </tr>
          </thead>
          <tbody>
            {rows.map((t: TaxRate) => (
              <tr key={t.id}>
                <Td className="font-medium">{t.name}</Td>
                <Td numeric>{t.percent}%</Td>
                <Td className="space-x-1">
                  <Badge>{t.inclusive ? 'Inclusive' : 'Exclusive'}</Badge>
                  {t.compound ? <Badge tone="violet">Compound</Badge> : null}
                  {t.archived ? <Badge tone="amber">Archived</Badge> : null}
                </Td>
                <Td>
                  {can('manage_settings') ? (
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => archive.mutate({ id: t.id, archived: !t.archived })}
                    >
                      {t.archived ? 'Restore' : 'Archive'}
                      <span className="sr-only"> {t.name}</span>
                    </Button>
                  ) : null}
                </Td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
      <Dialog open={creating} onOpenChange={setCreating} title="New tax rate">
        <TaxRateForm onSaved={() => setCreating(false)} />
      </Dialog>
    </Card>
  );
};

const TaxRateForm = ({ onSaved }: { onSaved: () => void }) => {
  const [name, setName] = useState('');
  const [percent, setPercent] = useState('');
  const [inclusive, setInclusive] = useState(false);
  const [compound, setCompound] = useState(false);
  const save = useInvoicingMutation((base, body: Record<string, unknown>) =>
    api.post<TaxRate>(`${base}/tax-rates`, body),
  );
  return (
    <form
      className="space-y-4"
      onSubmit={async (e) => {
        e.preventDefault();
        const ok = await save
          .mutateAsync({ name, percent: percent.trim(), inclusive, compound })
          .then(() => true)
          .catch(() => false);
        if (ok) onSaved();
      }}
    >
      {save.error ? <Alert>{errorMessage(save.error)}</Alert> : null}
      <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} required autoFocus />
      <TextField
        label="Rate (%)"
        inputMode="decimal"
        value={percent}
        onChange={(e) => setPercent(e.target.value)}
        hint="For example 20 or 9.975"
        required
      />
      <label className="flex min-h-11 items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={inclusive}
          onChange={(e) => setInclusive(e.target.checked)}
          className="h-5 w-5"
        />
        Prices include this tax
      </label>
      <label className="flex min-h-11 items-center gap-2 text-sm">
        <input
          type="checkbox"
          checked={compound}
          onChange={(e) => setCompound(e.target.checked)}
          className="h-5 w-5"
        />
        Compound: charged on the price plus the taxes before it
      </label>
      <div className="flex justify-end">
        <Button type="submit" busy={save.isPending}>
          Create tax rate
        </Button>
      </div>
    </form>
  );
};

const SettingsCard = () => {
  const { can } = useCompany();
  const settings = useInvoiceSettings();
  if (!settings.data) return null;
  return (
    <SettingsForm
      key={JSON.stringify(settings.data)}
      settings={settings.data}
      editable={can('manage_settings')}
    />
  );
};

const SettingsForm = ({ settings, editable }: { settings: InvoiceSettings; editable: boolean }) => {
  const { base } = useInvoicingBase();
  const [form, setForm] = useState({
    invoicePrefix: settings.invoicePrefix,
    creditNotePrefix: settings.creditNotePrefix,
    address: settings.address,
    taxNumber: settings.taxNumber,
    defaultTerms: settings.defaultTerms,
  });
  const [logo, setLogo] = useState<string | null | undefined>(undefined);
  const [saved, setSaved] = useState(false);
  const save = useInvoicingMutation((b, body: Record<string, unknown>) =>
    api.patch<InvoiceSettings>(`${b}/invoice-settings`, body),
  );
  const set = (key: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm((f) => ({ ...f, [key]: e.target.value }));
  return (
    <Card>
      <CardHeader
        title="Invoice settings"
        description="Numbering and the company details printed on every invoice."
      />
      <form
        className="space-y-4 px-5 py-4"
        onSubmit={async (e) => {
          e.preventDefault();
          setSaved(false);
          const ok = await save
            .mutateAsync({ ...form, ...(logo !== undefined ? { logo } : {}) })
            .then(() => true)
            .catch(() => false);
          setSaved(ok);
        }}
      >
        {save.error ? <Alert>{errorMessage(save.error)}</Alert> : null}
        {saved ? <Alert tone="success">Settings saved.</Alert> : null}
        <fieldset disabled={!editable} className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Invoice number prefix"
            value={form.invoicePrefix}
            onChange={set('invoicePrefix')}
            hint={`Next: ${form.invoicePrefix}${String(settings.nextInvoiceNumber).padStart(4, '0')}`}
          />
          <TextField
            label="Credit note prefix"
            value={form.creditNotePrefix}
            onChange={set('creditNotePrefix')}
          />
          <TextField label="Company tax number" value={form.taxNumber} onChange={set('taxNumber')} />
          <div className="space-y-1.5">
            <label
              htmlFor="invoice-logo"
              className="block text-sm font-medium text-slate-700 dark:text-slate-200"
            >
              Logo (PNG or JPEG, up to 500 KB)
            </label>
            <div className="flex items-center gap-3">
              {settings.hasLogo && logo !== null ? (
                <img
                  src={`/api${base}/invoice-settings/logo`}
                  alt="Current logo"
                  className="h-11 w-auto rounded border border-slate-200 bg-white p-1"
                />
              ) : null}
              <input
                id="invoice-logo"
                type="file"
                accept="image/png,image/jpeg"
                onChange={(e) => {
                  const file = e.target.files?.[0];
                  if (!file) return;
                  const reader = new FileReader();
                  reader.onload = () => setLogo(String(reader.result));
                  reader.readAsDataURL(file);
                }}
                className="min-h-11 text-sm text-slate-600 file:mr-3 file:min-h-11 file:cursor-pointer file:rounded-lg file:border file:border-slate-300 file:bg-white file:px-4 file:text-sm file:font-semibold file:text-slate-800 hover:file:bg-slate-50 dark:text-slate-300 dark:file:border-slate-700 dark:file:bg-slate-900 dark:file:text-slate-100"
              />
              {settings.hasLogo ? (
                <Button size="sm" variant="ghost" onClick={() => setLogo(null)}>
                  Remove
                </Button>
              ) : null}
            </div>
          </div>
          <div className="space-y-1.5 sm:col-span-2">
            <label
              htmlFor="company-address"
              className="block text-sm font-medium text-slate-700 dark:text-slate-200"
            >
              Company address
            </label>
            <textarea
              id="company-address"
              rows={3}
              value={form.address}
              onChange={set('address')}
              className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
            />
          </div>
          <div className="space-y-1.5 sm:col-span-2">
            <label
              htmlFor="default-terms"
              className="block text-sm font-medium text-slate-700 dark:text-slate-200"
            >
              Default terms
            </label>
            <textarea
              id="default-terms"
              rows={2}
              value={form.defaultTerms}
              onChange={set('defaultTerms')}
              className="block w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
            />
          </div>
        </fieldset>
        {editable ? (
          <div className="flex justify-end">
            <Button type="submit" busy={save.isPending}>
              Save settings
            </Button>
          </div>
        ) : null}
      </form>
    </Card>
  );
};

const useInvoicingBase = () => {
  const { company } = useCompany();
  return { base: `/orgs/${company.id}` };
};
