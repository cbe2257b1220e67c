import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type {
  WebhookDelivery,
  WebhookDeliveryDetail,
  WebhookDeliveryPage,
  WebhookEndpoint,
} from '../../../../shared/webhooks.ts';
import { Button } from '../../../components/ui/Button.tsx';
import { Badge, ErrorState } from '../../../components/ui/Card.tsx';
import { DataTable } from '../../../components/ui/DataTable.tsx';
import { FormDialog } from '../../../components/ui/FormDialog.tsx';
import { ListCard, LoadingState } from '../../../components/ui/ListCard.tsx';
import { api } from '../../../lib/api.ts';
import { useCompany } from '../../../lib/company.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { invalidateAfter, keys } from '../../../lib/queryKeys.ts';
import { useAction } from '../../../lib/useAction.ts';
import { Pager, useCursorPages } from '../../accounting/Pager.tsx';

// One endpoint's delivery log, newest first (keyset pages): each delivery's event, status,
// attempts and last answer; the detail shows the last request and response; Redeliver sends
// it again now.

const TONES = { pending: 'amber', succeeded: 'green', failed: 'red' } as const;
const LABELS = { pending: 'Pending', succeeded: 'Succeeded', failed: 'Failed' } as const;

export const DeliveriesLog = ({ endpoint, manage }: { endpoint: WebhookEndpoint; manage: boolean }) => {
  const { company } = useCompany();
  const queryClient = useQueryClient();
  const pages = useCursorPages();
  const base = `/orgs/${company.id}/webhooks`;
  const list = useQuery({
    queryKey: keys.webhookDeliveries(company.id, endpoint.id, pages.cursor),
    queryFn: () =>
      api.get<WebhookDeliveryPage>(`${base}/endpoints/${endpoint.id}/deliveries`, {
        limit: 20,
        ...(pages.cursor ? { cursor: pages.cursor } : {}),
      }),
    // A pending delivery changes on its own: look again while any is waiting.
    refetchInterval: (q) => (q.state.data?.deliveries.some((d) => d.status === 'pending') ? 2000 : false),
  });
  const [open, setOpen] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const action = useAction();
  const rows = list.data?.deliveries ?? [];
  const redeliver = (d: WebhookDelivery) =>
    action.run(
      async () => {
        await api.post(`${base}/deliveries/${d.id}/redeliver`);
        setNotice(`Sending ${d.eventType} again.`);
        await invalidateAfter.webhooks(queryClient, company.id);
      },
      { key: d.id },
    );
  return (
    <ListCard
      title="Deliveries"
      description={`What Kontor sent to ${endpoint.url}, newest first. Failed attempts are retried for about 3 days.`}
      actions={
        <Button size="sm" variant="ghost" onClick={() => void list.refetch()}>
          Refresh
        </Button>
      }
      notices={[
        { tone: 'success', message: notice },
        { tone: 'error', message: action.error },
      ]}
      state={{
        loading: list.isLoading,
        loadingLabel: 'Loading deliveries...',
        error: list.isError ? `Could not load the deliveries. ${list.error.message}` : undefined,
        onRetry: () => void list.refetch(),
        empty: rows.length === 0,
        emptyTitle: 'No deliveries yet',
        emptyDescription:
          'Send a test event, or change something in the books that this endpoint listens to.',
      }}
      footer={
        <>
          <Pager label="Deliveries" pages={pages} nextCursor={list.data?.nextCursor} />
          {open ? <DeliveryDialog deliveryId={open} onClose={() => setOpen(null)} /> : null}
        </>
      }
    >
      <DataTable
        caption={`Deliveries to ${endpoint.url}`}
        rows={rows}
        rowKey={(d) => d.id}
        columns={[
          {
            header: 'Event',
            rowHeader: true,
            cell: (d) => (
              <>
                <span className="block font-mono text-xs">{d.eventType}</span>
                <span className="block text-xs text-slate-500 dark:text-slate-400">
                  {formatDateTime(d.createdAt)}
                </span>
              </>
            ),
          },
          { header: 'Status', cell: (d) => <Badge tone={TONES[d.status]}>{LABELS[d.status]}</Badge> },
          { header: 'Attempts', numeric: true, cell: (d) => d.attempts },
          {
            header: 'Response',
            cell: (d) =>
              d.responseStatus !== null ? (
                <span className="font-mono text-xs">{d.responseStatus}</span>
              ) : d.error ? (
                <span className="text-xs text-slate-500 dark:text-slate-400">{d.error}</span>
              ) : (
                '—'
              ),
          },
          {
            header: 'Next attempt',
            className: 'whitespace-nowrap',
            cell: (d) => (d.nextAttemptAt ? formatDateTime(d.nextAttemptAt) : '—'),
          },
          {
            header: 'Actions',
            actions: true,
            cell: (d) => (
              <span className="flex justify-end gap-1">
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => setOpen(d.id)}
                  aria-label={`Details of ${d.eventType} delivery`}
                >
                  Details
                </Button>
                {manage && endpoint.enabled ? (
                  <Button
                    size="sm"
                    variant="ghost"
                    busy={action.busyKey === d.id}
                    onClick={() => void redeliver(d)}
                    aria-label={`Redeliver ${d.eventType}`}
                  >
                    Redeliver
                  </Button>
                ) : null}
              </span>
            ),
          },
        ]}
      />
    </ListCard>
  );
};

const Block = ({ label, text }: { label: string; text: string }) => (
  <div>
    <h3 className="mb-1 text-sm font-medium text-slate-700 dark:text-slate-200">{label}</h3>
    <pre className="max-h-64 overflow-auto whitespace-pre-wrap break-all rounded-lg bg-slate-50 p-3 font-mono text-xs text-slate-800 dark:bg-slate-950 dark:text-slate-200">
      {text}
    </pre>
  </div>
);

const headerLines = (headers: Record<string, string>) =>
  Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');

const pretty = (body: string) => {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
};

const DeliveryDialog = ({ deliveryId, onClose }: { deliveryId: string; onClose: () => void }) => {
  const { company } = useCompany();
  const detail = useQuery({
    queryKey: keys.webhookDelivery(company.id, deliveryId),
    queryFn: () => api.get<WebhookDeliveryDetail>(`/orgs/${company.id}/webhooks/deliveries/${deliveryId}`),
  });
  const d = detail.data;
  return (
    <FormDialog
      title="Delivery"
      onClose={onClose}
      onSubmit={onClose}
      submitLabel={null}
      cancelLabel="Close"
      wide
    >
      {detail.isLoading ? (
        <LoadingState label="Loading the delivery..." />
      ) : detail.isError || !d ? (
        <ErrorState message="Could not load the delivery." onRetry={() => void detail.refetch()} />
      ) : (
        <div className="space-y-4">
          <p className="text-sm text-slate-700 dark:text-slate-200">
            <span className="font-mono">{d.eventType}</span> ·{' '}
            <Badge tone={TONES[d.status]}>{LABELS[d.status]}</Badge> · {d.attempts} attempt
            {d.attempts === 1 ? '' : 's'}
            {d.durationMs !== null ? ` · ${d.durationMs} ms` : ''}
            {d.lastAttemptAt ? ` · last ${formatDateTime(d.lastAttemptAt)}` : ''}
          </p>
          {d.error ? <p className="text-sm text-red-700 dark:text-red-300">{d.error}</p> : null}
          {d.request ? (
            <>
              <Block label="Request headers" text={headerLines(d.request.headers)} />
              <Block label="Request body" text={pretty(d.request.body)} />
            </>
          ) : (
            <p className="text-sm text-slate-500 dark:text-slate-400">Not sent yet.</p>
          )}
          {d.response ? (
            <>
              <Block label={`Response ${d.response.status}`} text={headerLines(d.response.headers)} />
              <Block label="Response body (first 4 KB)" text={d.response.body || '(empty)'} />
            </>
          ) : d.request ? (
            <p className="text-sm text-slate-500 dark:text-slate-400">No answer came.</p>
          ) : null}
        </div>
      )}
    </FormDialog>
  );
};
