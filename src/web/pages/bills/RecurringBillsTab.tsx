import { useState } from 'react';
import type { BillSchedule } from '../../../shared/payables.ts';
import { Money } from '../../components/money/Money.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { Badge } from '../../components/ui/Card.tsx';
import { ConfirmDialog, useConfirm } from '../../components/ui/ConfirmDialog.tsx';
import { DataTable } from '../../components/ui/DataTable.tsx';
import { ListCard, NewButton } from '../../components/ui/ListCard.tsx';
import { api } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { formatDate } from '../../lib/format.ts';
import { useAction } from '../../lib/useAction.ts';
import { FREQUENCY_LABELS, RecurringBillForm } from './RecurringBillForm.tsx';
import { useBillSchedules, usePayablesMutation } from './SupplierApi.ts';

// Recurring bills (rent, subscriptions): schedules that create a bill each period, as a draft
// or submitted. The server's runner creates them, each period's bill once, catching up after
// downtime. Pause, resume or end a schedule; the bills it made stay.

export type PayablesTabProps = { onOpenBill: (billId: string) => void };

const STATUS_TONES = { active: 'green', paused: 'amber', ended: 'slate' } as const;
const STATUS_LABELS = { active: 'Active', paused: 'Paused', ended: 'Ended' } as const;

export const RecurringBillsTab = (_props: PayablesTabProps) => {
  const [creating, setCreating] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  if (creating)
    return (
      <RecurringBillForm
        onCancel={() => setCreating(false)}
        onSaved={(s) => {
          setCreating(false);
          setNotice(
            `Created the ${FREQUENCY_LABELS[s.frequency].toLowerCase()} schedule for ${s.supplierName}${
              s.nextDate ? `; the next bill is on ${formatDate(s.nextDate)}` : ''
            }.`,
          );
        }}
      />
    );
  return <ScheduleList notice={notice} onNew={() => setCreating(true)} />;
};

const ScheduleList = ({ notice, onNew }: { notice: string | null; onNew: () => void }) => {
  const { can } = useCompany();
  const schedules = useBillSchedules();
  const action = useAction();
  const setStatus = usePayablesMutation(
    (base, v: { id: string; status: BillSchedule['status'] }) =>
      api.patch<BillSchedule>(`${base}/bill-schedules/${v.id}/status`, { status: v.status }),
    // A schedule's status posts nothing; the bills it creates later are fetched then.
    'payables',
  );
  const change = (s: BillSchedule, status: BillSchedule['status']) =>
    action.run(() => setStatus.mutateAsync({ id: s.id, status }), { key: `${s.id}:${status}` });
  const rows = schedules.data?.schedules ?? [];
  const ending = useConfirm<BillSchedule>();
  return (
    <ListCard
      title="Recurring bills"
      description="Rent, subscriptions and other regular bills, created each period — once, even after the server was down."
      actions={can('record') ? <NewButton onClick={onNew}>New recurring bill</NewButton> : null}
      notices={[{ tone: 'success', message: notice }, { message: action.error }]}
      state={{
        loading: schedules.isLoading,
        loadingLabel: 'Loading schedules...',
        error: schedules.isError ? `Could not load the schedules. ${schedules.error.message}` : undefined,
        onRetry: () => void schedules.refetch(),
        empty: rows.length === 0,
        emptyTitle: 'No recurring bills',
        emptyDescription:
          'Set up rent and subscriptions once, and the bill is there every week, month, quarter or year.',
      }}
    >
      <DataTable
        caption="Recurring bill schedules"
        rows={rows}
        rowKey={(s) => s.id}
        columns={[
          {
            header: 'Supplier',
            rowHeader: true,
            className: 'font-medium',
            cell: (s) => (
              <>
                {s.supplierName}
                {s.reference ? (
                  <span className="block text-xs font-normal text-slate-500">{s.reference}</span>
                ) : null}
              </>
            ),
          },
          {
            header: 'Every',
            cell: (s) => `${FREQUENCY_LABELS[s.frequency]} · ${s.autoSubmit ? 'submitted' : 'as drafts'}`,
          },
          { header: 'From', className: 'whitespace-nowrap', cell: (s) => formatDate(s.startDate) },
          {
            header: 'Next bill',
            className: 'whitespace-nowrap',
            cell: (s) => (s.status === 'ended' || !s.nextDate ? '—' : formatDate(s.nextDate)),
          },
          { header: 'Created', cell: (s) => `${s.createdCount}${s.count ? ` of ${s.count}` : ''}` },
          {
            header: 'Status',
            cell: (s) => <Badge tone={STATUS_TONES[s.status]}>{STATUS_LABELS[s.status]}</Badge>,
          },
          { header: 'Amount', numeric: true, cell: (s) => <Money minor={s.total} currency={s.currency} /> },
          can('record') && {
            header: 'Actions',
            actions: true,
            cell: (s) =>
              s.status === 'ended' ? null : (
                <div className="flex gap-1">
                  <Button
                    size="sm"
                    variant="ghost"
                    busy={action.busyKey === `${s.id}:${s.status === 'active' ? 'paused' : 'active'}`}
                    onClick={() => void change(s, s.status === 'active' ? 'paused' : 'active')}
                    aria-label={`${s.status === 'active' ? 'Pause' : 'Resume'} the schedule of ${s.supplierName}`}
                  >
                    {s.status === 'active' ? 'Pause' : 'Resume'}
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    busy={action.busyKey === `${s.id}:ended`}
                    onClick={() => ending.ask(s)}
                    aria-label={`End the schedule of ${s.supplierName}`}
                  >
                    End
                  </Button>
                </div>
              ),
          },
        ]}
      />
      <ConfirmDialog
        open={ending.open}
        title={`End the schedule of ${ending.item?.supplierName ?? ''}?`}
        description="No more bills are created; the ones it made stay."
        confirmLabel="End schedule"
        cancelLabel="Keep schedule"
        onCancel={ending.cancel}
        onConfirm={() => ending.item && setStatus.mutateAsync({ id: ending.item.id, status: 'ended' })}
      />
    </ListCard>
  );
};
