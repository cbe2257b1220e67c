import { useState } from 'react';
import { RECURRING_FREQUENCIES, type Recurring } from '../../../shared/invoices.ts';
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
import { useFormFields } from '../../lib/useFormFields.ts';
import { useCustomers, useInvoicingMutation, useRecurring, useTaxRates } from './invoicesApi.ts';
import {
  errorMessage,
  formatDate,
  taxRateOptions,
  todayIso,
  tryParseMoney,
  RateInput,
  DateInput,
} from './parts.tsx';

// Recurring invoices: schedules that create (and optionally send and email) an invoice each
// period. The server's job runner creates them, catching up after downtime.

const FREQUENCY_LABELS: Record<string, string> = {
  weekly: 'Weekly',
  monthly: 'Monthly',
  quarterly: 'Quarterly',
  yearly: 'Yearly',
};

export const RecurringTab = () => {
  const { can } = useCompany();
  const schedules = useRecurring();
  const [creating, setCreating] = useState(false);
  const setStatus = useInvoicingMutation((base, v: { id: string; status: string }) =>
    api.patch<Recurring>(`${base}/recurring-invoices/${v.id}`, { status: v.status }),
  );
  const rows = schedules.data ?? [];
  return (
    <ListCard
      title="Recurring invoices"
      description="Each period's invoice is created once, even after the server was down."
      actions={can('post') ? <NewButton onClick={() => setCreating(true)}>New schedule</NewButton> : null}
      notices={[{ message: setStatus.error ? errorMessage(setStatus.error) : null }]}
      state={{
        loading: schedules.isLoading,
        loadingLabel: 'Loading schedules...',
        empty: rows.length === 0,
        emptyTitle: 'No recurring invoices',
        emptyDescription:
          'Bill retainers and subscriptions automatically every week, month, quarter or year.',
      }}
      footer={creating ? <RecurringDialog onClose={() => setCreating(false)} /> : null}
    >
      <DataTable
        caption="Recurring invoice schedules"
        rows={rows}
        rowKey={(s) => s.id}
        columns={[
          { header: 'Customer', className: 'font-medium', cell: (s) => s.customerName },
          {
            header: 'Every',
            cell: (s) =>
              `${FREQUENCY_LABELS[s.frequency]}${s.autoSend ? ' · sent automatically' : ' · as drafts'}`,
          },
          { header: 'Next', cell: (s) => (s.nextDate ? formatDate(s.nextDate) : '—') },
          { header: 'Created', cell: (s) => `${s.createdCount}${s.count ? ` of ${s.count}` : ''}` },
          {
            header: 'Status',
            cell: (s) => (
              <Badge tone={s.status === 'active' ? 'green' : s.status === 'paused' ? 'amber' : 'slate'}>
                {s.status}
              </Badge>
            ),
          },
          { header: 'Amount', numeric: true, cell: (s) => <Money minor={s.total} currency={s.currency} /> },
          {
            header: 'Actions',
            actions: true,
            cell: (s) =>
              can('post') && s.status !== 'ended' ? (
                <ScheduleButtons schedule={s} onStatus={(status) => setStatus.mutate({ id: s.id, status })} />
              ) : null,
          },
        ]}
      />
    </ListCard>
  );
};

const ScheduleButtons = ({
  schedule,
  onStatus,
}: {
  schedule: Recurring;
  onStatus: (status: string) => void;
}) => (
  <div className="flex gap-1">
    <Button
      size="sm"
      variant="ghost"
      onClick={() => onStatus(schedule.status === 'active' ? 'paused' : 'active')}
    >
      {schedule.status === 'active' ? 'Pause' : 'Resume'}
    </Button>
    <Button size="sm" variant="ghost" onClick={() => onStatus('ended')}>
      End
    </Button>
  </div>
);

const RecurringDialog = ({ onClose }: { onClose: () => void }) => {
  const { company } = useCompany();
  const customers = useCustomers();
  const taxes = useTaxRates();
  const { values, bind, pick } = useFormFields({
    customerId: '',
    frequency: 'monthly',
    startDate: todayIso(),
    endDate: '',
    count: '',
    description: '',
    quantity: '1',
    price: '',
    taxRateId: '',
    exchangeRate: '',
  });
  const {
    customerId,
    frequency,
    startDate,
    endDate,
    count,
    description,
    quantity,
    price,
    taxRateId,
    exchangeRate,
  } = values;
  const [autoSend, setAutoSend] = useState(true);
  const customer = customers.data?.customers.find((c) => c.id === customerId);
  const currency = customer?.currency ?? company.baseCurrency;
  const save = useInvoicingMutation((base, body: Record<string, unknown>) =>
    api.post<Recurring>(`${base}/recurring-invoices`, body),
  );
  const submit = async () => {
    const unitPrice = tryParseMoney(price, currency);
    const body = {
      customerId,
      frequency,
      startDate,
      endDate: endDate || null,
      count: count ? Number(count) : null,
      autoSend,
      ...(currency !== company.baseCurrency ? { exchangeRate } : {}),
      lines: [
        { description, quantity, unitPrice: unitPrice ?? -1, taxRateIds: taxRateId ? [taxRateId] : [] },
      ],
    };
    await save.mutateAsync(body);
    onClose();
  };
  return (
    <FormDialog
      onClose={onClose}
      title="New recurring invoice"
      wide
      browserValidation
      onSubmit={submit}
      submitLabel="Create schedule"
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <SelectField
          label="Customer"
          {...bind('customerId')}
          emptyOption="Choose a customer"
          options={(customers.data?.customers ?? []).map((c) => ({ value: c.id, label: c.name }))}
        />
        <SelectField
          label="Every"
          {...bind('frequency')}
          options={RECURRING_FREQUENCIES.map((f) => ({ value: f, label: FREQUENCY_LABELS[f]! }))}
        />
        <DateInput label="First invoice on" {...pick('startDate')} />
        <DateInput label="End date (optional)" {...pick('endDate')} min={startDate} />
        <TextField label="Number of invoices (optional)" type="number" min={1} {...bind('count')} />
        <RateInput base={company.baseCurrency} currency={currency} {...pick('exchangeRate')} />
        <TextField label="Description" {...bind('description')} />
        <TextField label="Quantity" inputMode="decimal" {...bind('quantity')} />
        <TextField label={`Unit price (${currency})`} inputMode="decimal" {...bind('price')} />
        <SelectField label="Tax" {...bind('taxRateId')} options={taxRateOptions(taxes.data)} />
      </div>
      <CheckboxField
        label="Send and email each invoice automatically (otherwise it waits as a draft)"
        checked={autoSend}
        onChange={setAutoSend}
      />
    </FormDialog>
  );
};
