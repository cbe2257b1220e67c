import { useState } from 'react';
import type { InvoiceSettings } from '../../../shared/invoices.ts';
import { Button } from '../../components/ui/Button.tsx';
import { Alert, Card, CardHeader } from '../../components/ui/Card.tsx';
import { TextField, TextAreaField } from '../../components/ui/Field.tsx';
import { Form } from '../../components/ui/Form.tsx';
import { api } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { useFormFields } from '../../lib/useFormFields.ts';
import { useInvoiceSettings, useInvoicingMutation, useOrgPath } from './invoicesApi.ts';
import { errorMessage, succeeded } from './parts.tsx';

// The invoice settings: numbering, and the company's address, tax number, logo and default
// terms printed on every invoice. Those who manage settings edit them; others read them.

export const InvoiceSettingsCard = () => {
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
  const { base } = useOrgPath();
  const { values: form, bind } = useFormFields({
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
  const fields = (
    <fieldset disabled={!editable} className="grid gap-4 sm:grid-cols-2">
      <TextField
        label="Invoice number prefix"
        {...bind('invoicePrefix')}
        hint={`Next: ${form.invoicePrefix}${String(settings.nextInvoiceNumber).padStart(4, '0')}`}
      />
      <TextField label="Credit note prefix" {...bind('creditNotePrefix')} />
      <TextField label="Company tax number" {...bind('taxNumber')} />
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
      <div className="sm:col-span-2">
        <TextAreaField id="company-address" label="Company address" rows={3} {...bind('address')} />
      </div>
      <div className="sm:col-span-2">
        <TextAreaField id="default-terms" label="Default terms" {...bind('defaultTerms')} />
      </div>
    </fieldset>
  );
  return (
    <Card>
      <CardHeader
        title="Invoice settings"
        description="Numbering and the company details printed on every invoice."
      />
      {editable ? (
        <Form
          className="space-y-4 px-5 py-4"
          noValidate={false}
          onSubmit={async () => {
            setSaved(false);
            setSaved(await succeeded(save.mutateAsync({ ...form, ...(logo !== undefined ? { logo } : {}) })));
          }}
          error={save.error ? errorMessage(save.error) : null}
          submitLabel="Save settings"
          busy={save.isPending}
        >
          {saved ? <Alert tone="success">Settings saved.</Alert> : null}
          {fields}
        </Form>
      ) : (
        <div className="px-5 py-4">{fields}</div>
      )}
    </Card>
  );
};
