import { useState } from 'react';
import type { PayablesSettings } from '../../../shared/payables.ts';
import { Alert, Card, CardHeader, CardError } from '../../components/ui/Card.tsx';
import { AmountField, TextField } from '../../components/ui/Field.tsx';
import { Form } from '../../components/ui/Form.tsx';
import { LoadingState } from '../../components/ui/ListCard.tsx';
import { api } from '../../lib/api.ts';
import { useFormFields } from '../../lib/useFormFields.ts';
import { priceText } from '../invoices/editorState.ts';
import { errorMessage, succeeded, tryParseMoney } from '../invoices/parts.tsx';
import { useBillMutation, usePayablesSettings } from './billsApi.ts';

// The payables settings (for those who manage settings): the approval threshold — bills whose
// total in the base currency is above it wait for an accountant's or admin's approval — and
// the bill number prefix.

export const PayablesSettingsCard = () => {
  const settings = usePayablesSettings();
  if (settings.isLoading) return <LoadingState label="Loading payables settings..." />;
  if (!settings.data)
    return (
      <Card>
        <CardError
          message={`Could not load the payables settings. ${settings.error?.message ?? ''}`}
          onRetry={() => void settings.refetch()}
        />
      </Card>
    );
  return <SettingsForm key={JSON.stringify(settings.data)} settings={settings.data} />;
};

const SettingsForm = ({ settings }: { settings: PayablesSettings }) => {
  const currency = settings.baseCurrency;
  const { values, bind } = useFormFields({
    threshold: settings.approvalThreshold === null ? '' : priceText(settings.approvalThreshold, currency),
    billPrefix: settings.billPrefix,
  });
  const [saved, setSaved] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const save = useBillMutation(
    (b, body: { approvalThreshold: number | null; billPrefix: string }) =>
      api.patch<PayablesSettings>(`${b}/payables/settings`, body),
    'payables',
  );
  const threshold = values.threshold.trim() === '' ? null : tryParseMoney(values.threshold, currency);
  return (
    <Card>
      <CardHeader
        title="Payables settings"
        description="Who must approve a bill before it is booked, and how bills are numbered."
      />
      <Form
        className="space-y-4 px-5 py-4"
        onSubmit={async () => {
          setSaved(false);
          setProblem(null);
          if (values.threshold.trim() !== '' && (threshold === null || threshold < 0)) {
            setProblem(`Enter the threshold as an amount in ${currency}, or leave it empty.`);
            return;
          }
          setSaved(
            await succeeded(
              save.mutateAsync({ approvalThreshold: threshold, billPrefix: values.billPrefix }),
            ),
          );
        }}
        error={problem ?? (save.error ? errorMessage(save.error) : null)}
        submitLabel="Save settings"
        busy={save.isPending}
      >
        {saved ? <Alert tone="success">Settings saved.</Alert> : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <AmountField
            label={`Approval threshold (${currency})`}
            {...bind('threshold')}
            placeholder="No approval needed"
            hint="Bills with a total above this (in the base currency) wait for an accountant or admin to approve them. Empty: no bill needs approval."
          />
          <TextField
            label="Bill number prefix"
            {...bind('billPrefix')}
            hint={`Next: ${values.billPrefix}${String(settings.nextBillNumber).padStart(4, '0')}`}
          />
        </div>
      </Form>
    </Card>
  );
};
