import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  SUBSCRIBABLE_EVENT_TYPES,
  WEBHOOK_EVENT_LABELS,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
  type WebhookEventType,
} from '../../../../shared/webhooks.ts';
import { Button } from '../../../components/ui/Button.tsx';
import { Badge } from '../../../components/ui/Card.tsx';
import { ConfirmDialog, useConfirm } from '../../../components/ui/ConfirmDialog.tsx';
import { DataTable } from '../../../components/ui/DataTable.tsx';
import { TextField } from '../../../components/ui/Field.tsx';
import { CheckboxField } from '../../../components/ui/Form.tsx';
import { FormDialog } from '../../../components/ui/FormDialog.tsx';
import { ListCard, NewButton } from '../../../components/ui/ListCard.tsx';
import { api } from '../../../lib/api.ts';
import { useCompany } from '../../../lib/company.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { invalidateAfter, keys } from '../../../lib/queryKeys.ts';
import { useAction } from '../../../lib/useAction.ts';
import { DeliveriesLog } from './DeliveriesLog.tsx';
import { SecretDialog } from './SecretDialog.tsx';

// Settings → Webhooks (issue 19; docs/webhooks.md): the company's endpoints, each with the
// events it takes, its state and its signing secret; a test event; and the delivery log of the
// chosen endpoint. Owners and admins manage endpoints; other members see them and the log.

export const WebhooksSettings = () => {
  const { company, can } = useCompany();
  const manage = can('manage_members');
  const queryClient = useQueryClient();
  const base = `/orgs/${company.id}/webhooks`;
  const list = useQuery({
    queryKey: keys.webhookEndpoints(company.id),
    queryFn: () => api.get<{ endpoints: WebhookEndpoint[] }>(`${base}/endpoints`),
  });
  const [editing, setEditing] = useState<WebhookEndpoint | 'new' | null>(null);
  const [secret, setSecret] = useState<WebhookEndpointWithSecret | null>(null);
  const [shown, setShown] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const action = useAction();
  const deleting = useConfirm<WebhookEndpoint>();
  const rows = list.data?.endpoints ?? [];
  const selected = rows.find((e) => e.id === shown) ?? null;
  const refresh = () => invalidateAfter.webhooks(queryClient, company.id);
  const act = (key: string, run: () => Promise<unknown>, message: string) =>
    action.run(
      async () => {
        await run();
        setNotice(message);
        await refresh();
      },
      { key },
    );
  return (
    <div className="space-y-6">
      <ListCard
        title="Webhooks"
        description="Kontor sends a signed HTTPS POST to these endpoints when something happens in the books (Standard Webhooks: verify the webhook-signature header with the endpoint's secret)."
        actions={manage ? <NewButton onClick={() => setEditing('new')}>Add endpoint</NewButton> : undefined}
        notices={[
          { tone: 'success', message: notice },
          { tone: 'error', message: action.error },
        ]}
        state={{
          loading: list.isLoading,
          loadingLabel: 'Loading webhook endpoints...',
          error: list.isError ? `Could not load the webhook endpoints. ${list.error.message}` : undefined,
          onRetry: () => void list.refetch(),
          empty: rows.length === 0,
          emptyTitle: 'No webhook endpoints',
          emptyDescription: manage
            ? 'Add the URL of a system that should hear about new invoices, payments, bills and transactions.'
            : 'An owner or admin can add endpoints that hear about changes in these books.',
        }}
        footer={
          <>
            {editing ? (
              <EndpointDialog
                endpoint={editing === 'new' ? null : editing}
                onClose={() => setEditing(null)}
                onSaved={(saved, message) => {
                  setEditing(null);
                  setNotice(message);
                  if ('secret' in saved) setSecret(saved as WebhookEndpointWithSecret);
                }}
              />
            ) : null}
            {secret ? (
              <SecretDialog endpoint={secret} onClose={() => setSecret(null)} onChanged={setSecret} />
            ) : null}
            <ConfirmDialog
              open={deleting.open}
              title="Delete this endpoint?"
              description={`Kontor stops sending to ${deleting.item?.url ?? 'it'} and forgets its delivery log.`}
              confirmLabel="Delete endpoint"
              cancelLabel="Keep endpoint"
              onCancel={deleting.cancel}
              onConfirm={async () => {
                const item = deleting.item;
                if (!item) return;
                await api.delete(`${base}/endpoints/${item.id}`);
                if (shown === item.id) setShown(null);
                setNotice(`Deleted the endpoint ${item.url}.`);
                await refresh();
              }}
            />
          </>
        }
      >
        <DataTable
          caption="Webhook endpoints"
          rows={rows}
          rowKey={(e) => e.id}
          columns={[
            {
              header: 'Endpoint',
              rowHeader: true,
              cell: (e) => (
                <>
                  <span className="block break-all font-mono text-xs text-slate-900 dark:text-slate-100">
                    {e.url}
                  </span>
                  {e.description ? (
                    <span className="block text-xs text-slate-500 dark:text-slate-400">{e.description}</span>
                  ) : null}
                </>
              ),
            },
            {
              header: 'Events',
              cell: (e) =>
                e.eventTypes === null ? (
                  <Badge tone="blue">All events</Badge>
                ) : (
                  <span className="flex flex-wrap gap-1">
                    {e.eventTypes.map((t) => (
                      <Badge key={t} tone="slate">
                        {t}
                      </Badge>
                    ))}
                  </span>
                ),
            },
            {
              header: 'State',
              cell: (e) =>
                e.enabled ? (
                  <>
                    <Badge tone="green">Enabled</Badge>
                    {e.failureStreak > 0 ? (
                      <span className="mt-1 block text-xs text-amber-700 dark:text-amber-300">
                        {e.failureStreak} failed attempt{e.failureStreak === 1 ? '' : 's'} in a row
                        {e.failingSince ? ` since ${formatDateTime(e.failingSince)}` : ''}
                      </span>
                    ) : null}
                  </>
                ) : (
                  <>
                    <Badge tone="amber">Disabled</Badge>
                    {e.disabledReason ? (
                      <span className="mt-1 block text-xs text-slate-500 dark:text-slate-400">
                        {e.disabledReason}
                      </span>
                    ) : null}
                  </>
                ),
            },
            {
              header: 'Actions',
              actions: true,
              cell: (e) => (
                <span className="flex flex-wrap justify-end gap-1">
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-pressed={shown === e.id}
                    onClick={() => setShown(shown === e.id ? null : e.id)}
                    aria-label={`Deliveries of ${e.url}`}
                  >
                    Deliveries
                  </Button>
                  {manage ? (
                    <>
                      <Button
                        size="sm"
                        variant="ghost"
                        disabled={!e.enabled}
                        busy={action.busyKey === `test:${e.id}`}
                        onClick={() =>
                          void act(
                            `test:${e.id}`,
                            async () => {
                              await api.post(`${base}/endpoints/${e.id}/test`);
                              setShown(e.id);
                            },
                            `Sent a test event to ${e.url}. Its delivery is in the log below.`,
                          )
                        }
                        aria-label={`Send a test event to ${e.url}`}
                      >
                        Send test
                      </Button>
                      <Button
                        size="sm"
                        variant="ghost"
                        busy={action.busyKey === `secret:${e.id}`}
                        onClick={() =>
                          void action.run(
                            async () =>
                              setSecret(
                                await api.get<WebhookEndpointWithSecret>(`${base}/endpoints/${e.id}/secret`),
                              ),
                            { key: `secret:${e.id}` },
                          )
                        }
                        aria-label={`Signing secret of ${e.url}`}
                      >
                        Secret
                      </Button>
                      <Button
                        size="sm"
                        variant="ghost"
                        onClick={() => setEditing(e)}
                        aria-label={`Edit ${e.url}`}
                      >
                        Edit
                      </Button>
                      <Button
                        size="sm"
                        variant="ghost"
                        busy={action.busyKey === `toggle:${e.id}`}
                        onClick={() =>
                          void act(
                            `toggle:${e.id}`,
                            () => api.post(`${base}/endpoints/${e.id}/${e.enabled ? 'disable' : 'enable'}`),
                            e.enabled ? `Disabled ${e.url}.` : `Enabled ${e.url}.`,
                          )
                        }
                        aria-label={`${e.enabled ? 'Disable' : 'Enable'} ${e.url}`}
                      >
                        {e.enabled ? 'Disable' : 'Enable'}
                      </Button>
                      <Button
                        size="sm"
                        variant="ghost"
                        onClick={() => deleting.ask(e)}
                        aria-label={`Delete ${e.url}`}
                      >
                        Delete
                      </Button>
                    </>
                  ) : null}
                </span>
              ),
            },
          ]}
        />
      </ListCard>
      {selected ? <DeliveriesLog endpoint={selected} manage={manage} /> : null}
    </div>
  );
};

const EndpointDialog = ({
  endpoint,
  onClose,
  onSaved,
}: {
  endpoint: WebhookEndpoint | null;
  onClose: () => void;
  onSaved: (saved: WebhookEndpoint | WebhookEndpointWithSecret, message: string) => void;
}) => {
  const { company } = useCompany();
  const queryClient = useQueryClient();
  const [url, setUrl] = useState(endpoint?.url ?? '');
  const [description, setDescription] = useState(endpoint?.description ?? '');
  const [all, setAll] = useState(endpoint ? endpoint.eventTypes === null : true);
  const [types, setTypes] = useState<WebhookEventType[]>(endpoint?.eventTypes ?? []);
  const toggle = (type: WebhookEventType, on: boolean) =>
    setTypes((now) => (on ? [...now, type] : now.filter((t) => t !== type)));
  const submit = async () => {
    if (!url.trim()) return 'Enter the URL that receives the webhooks.';
    if (!all && types.length === 0) return 'Choose at least one event, or All events.';
    const body = { url: url.trim(), description: description.trim(), eventTypes: all ? null : types };
    const base = `/orgs/${company.id}/webhooks/endpoints`;
    const saved = endpoint
      ? await api.patch<WebhookEndpoint>(`${base}/${endpoint.id}`, body)
      : await api.post<WebhookEndpointWithSecret>(base, body);
    await invalidateAfter.webhooks(queryClient, company.id);
    onSaved(saved, endpoint ? `Saved ${saved.url}.` : `Added ${saved.url}. Copy its signing secret now.`);
  };
  return (
    <FormDialog
      title={endpoint ? 'Edit endpoint' : 'Add endpoint'}
      description="Kontor POSTs JSON to this URL, signed with the endpoint's secret. Deployed servers send only to public https URLs."
      onClose={onClose}
      onSubmit={submit}
      submitLabel={endpoint ? 'Save endpoint' : 'Add endpoint'}
      wide
    >
      <TextField
        label="Endpoint URL"
        type="url"
        value={url}
        onChange={(e) => setUrl(e.target.value)}
        placeholder="https://example.com/webhooks/kontor"
        maxLength={2000}
        required
      />
      <TextField
        label="Description (optional)"
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        maxLength={200}
        hint="What receives them, so you know which endpoint is which."
      />
      <fieldset className="space-y-2">
        <legend className="mb-1 text-sm font-medium text-slate-700 dark:text-slate-200">Events</legend>
        <CheckboxField
          label="All events"
          description="Every event, including types added later."
          checked={all}
          onChange={setAll}
        />
        {all
          ? null
          : SUBSCRIBABLE_EVENT_TYPES.map((type) => (
              <CheckboxField
                key={type}
                label={type}
                description={WEBHOOK_EVENT_LABELS[type]}
                checked={types.includes(type)}
                onChange={(on) => toggle(type, on)}
              />
            ))}
      </fieldset>
    </FormDialog>
  );
};
