import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  API_KEY_SCOPES,
  API_KEY_SCOPE_DESCRIPTIONS,
  API_KEY_SCOPE_LABELS,
  type ApiKey,
  type ApiKeyCreated,
  type ApiKeyList,
  type ApiKeyScope,
} from '../../../shared/api-keys.ts';
import { Button } from '../../components/ui/Button.tsx';
import { Alert, Badge, Card, CardHeader } from '../../components/ui/Card.tsx';
import { ConfirmDialog, useConfirm } from '../../components/ui/ConfirmDialog.tsx';
import { DataTable } from '../../components/ui/DataTable.tsx';
import { TextField } from '../../components/ui/Field.tsx';
import { CheckboxField } from '../../components/ui/Form.tsx';
import { FormDialog } from '../../components/ui/FormDialog.tsx';
import { ListCard, NewButton } from '../../components/ui/ListCard.tsx';
import { api } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { formatDateTime, formatDayOf } from '../../lib/format.ts';
import { invalidateAfter, keys } from '../../lib/queryKeys.ts';

// Settings → API keys (issue 19; docs/api.md "Authentication"): owners and admins create keys
// for other systems (name, scopes, optional last day), see each key once in full, and revoke
// them. Everyone else sees why the list is not theirs to see.

const STATUS_TONES = { active: 'green', expired: 'amber', revoked: 'slate', disabled: 'red' } as const;
const STATUS_LABELS = {
  active: 'Active',
  expired: 'Expired',
  revoked: 'Revoked',
  disabled: 'Creator left',
} as const;

export const ApiKeysSettings = () => {
  const { company, can } = useCompany();
  if (!can('manage_members')) {
    return (
      <Card>
        <CardHeader
          title="API keys"
          description="Keys let other systems use this company's books through the API."
        />
        <div className="p-5">
          <Alert tone="info">
            Only owners and admins of {company.name} can see and manage API keys. Ask one of them if a system
            you use needs a key.
          </Alert>
        </div>
      </Card>
    );
  }
  return <ApiKeysList />;
};

const ApiKeysList = () => {
  const { company } = useCompany();
  const queryClient = useQueryClient();
  const base = `/orgs/${company.id}`;
  const list = useQuery({
    queryKey: keys.apiKeys(company.id),
    queryFn: () => api.get<ApiKeyList>(`${base}/api-keys`),
  });
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<ApiKeyCreated | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const revoking = useConfirm<ApiKey>();
  const revoke = useMutation({
    mutationFn: (key: ApiKey) => api.post<ApiKey>(`${base}/api-keys/${key.id}/revoke`),
    onSuccess: (key) => setNotice(`Revoked ${key.name}: it no longer works.`),
    onSettled: () => invalidateAfter.apiKeys(queryClient, company.id),
  });
  const rows = list.data?.keys ?? [];
  return (
    <ListCard
      title="API keys"
      description="Keys let other systems read and change this company's books through the API, within the scopes you choose. Send one as Authorization: Bearer <key>."
      actions={<NewButton onClick={() => setCreating(true)}>New API key</NewButton>}
      notices={[{ tone: 'success', message: notice }]}
      state={{
        loading: list.isLoading,
        loadingLabel: 'Loading API keys...',
        error: list.isError ? `Could not load the API keys. ${list.error.message}` : undefined,
        onRetry: () => void list.refetch(),
        empty: rows.length === 0,
        emptyTitle: 'No API keys',
        emptyDescription:
          'Create a key for a system that should reach these books: a shop, a payroll tool, a script.',
      }}
      footer={
        <>
          {creating ? (
            <CreateKeyDialog
              onClose={() => setCreating(false)}
              onCreated={(answer) => {
                setCreating(false);
                setNotice(null);
                setCreated(answer);
              }}
            />
          ) : null}
          {created ? <NewKeyDialog created={created} onClose={() => setCreated(null)} /> : null}
          <ConfirmDialog
            open={revoking.open}
            title={`Revoke ${revoking.item?.name ?? 'this key'}?`}
            description="It stops working at once, for every system that uses it. This cannot be undone."
            confirmLabel="Revoke key"
            cancelLabel="Keep key"
            onCancel={revoking.cancel}
            onConfirm={() => revoking.item && revoke.mutateAsync(revoking.item)}
          />
        </>
      }
    >
      <DataTable
        caption="API keys"
        rows={rows}
        rowKey={(k) => k.id}
        columns={[
          { header: 'Name', rowHeader: true, className: 'font-medium', cell: (k) => k.name },
          {
            header: 'Key',
            cell: (k) => (
              <code className="font-mono text-xs text-slate-700 dark:text-slate-300">{k.prefix}…</code>
            ),
          },
          {
            header: 'Scopes',
            cell: (k) => (
              <span className="flex flex-wrap gap-1">
                {k.scopes.map((s) => (
                  <Badge key={s} tone="blue">
                    {s}
                  </Badge>
                ))}
              </span>
            ),
          },
          {
            header: 'Created',
            className: 'whitespace-nowrap',
            cell: (k) => (
              <>
                {formatDayOf(k.createdAt)}
                {k.createdBy ? (
                  <span className="block text-xs text-slate-500 dark:text-slate-400">
                    by {k.createdBy.name}
                  </span>
                ) : null}
              </>
            ),
          },
          {
            header: 'Last used',
            className: 'whitespace-nowrap',
            cell: (k) => (k.lastUsedAt ? formatDateTime(k.lastUsedAt) : 'Never'),
          },
          {
            header: 'Expires',
            className: 'whitespace-nowrap',
            cell: (k) => (k.expiresAt ? formatDateTime(k.expiresAt) : 'Never'),
          },
          {
            header: 'Status',
            cell: (k) => <Badge tone={STATUS_TONES[k.status]}>{STATUS_LABELS[k.status]}</Badge>,
          },
          {
            header: 'Actions',
            actions: true,
            cell: (k) =>
              k.status === 'revoked' ? null : (
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => revoking.ask(k)}
                  aria-label={`Revoke the key ${k.name}`}
                >
                  Revoke
                </Button>
              ),
          },
        ]}
      />
    </ListCard>
  );
};

const CreateKeyDialog = ({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (created: ApiKeyCreated) => void;
}) => {
  const { company } = useCompany();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiKeyScope[]>(['read']);
  const [expiresOn, setExpiresOn] = useState('');
  const toggle = (scope: ApiKeyScope, on: boolean) =>
    setScopes((now) => (on ? [...now, scope] : now.filter((s) => s !== scope)));
  const submit = async () => {
    if (!name.trim()) return 'Give the key a name, e.g. the system that will use it.';
    if (scopes.length === 0) return 'Choose at least one scope.';
    const answer = await api.post<ApiKeyCreated>(`/orgs/${company.id}/api-keys`, {
      name: name.trim(),
      scopes,
      expiresOn: expiresOn || null,
    });
    await invalidateAfter.apiKeys(queryClient, company.id);
    onCreated(answer);
  };
  return (
    <FormDialog
      title="New API key"
      description="The key acts as you, with at most your role, and only within the scopes chosen here."
      onClose={onClose}
      onSubmit={submit}
      submitLabel="Create key"
      wide
    >
      <TextField
        label="Name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        placeholder="Shop sync"
        maxLength={100}
        hint="What uses the key, so you know which to revoke."
      />
      <fieldset className="space-y-2">
        <legend className="mb-1 text-sm font-medium text-slate-700 dark:text-slate-200">Scopes</legend>
        {API_KEY_SCOPES.map((scope) => (
          <CheckboxField
            key={scope}
            label={`${API_KEY_SCOPE_LABELS[scope]} (${scope})`}
            description={API_KEY_SCOPE_DESCRIPTIONS[scope]}
            checked={scopes.includes(scope)}
            onChange={(on) => toggle(scope, on)}
          />
        ))}
        <p className="text-xs text-slate-500 dark:text-slate-400">
          No key can manage members, invitations, company settings or API keys.
        </p>
      </fieldset>
      <TextField
        label="Last day it works (optional)"
        type="date"
        value={expiresOn}
        onChange={(e) => setExpiresOn(e.target.value)}
        hint="It stops at the end of that day (UTC). Leave empty for a key that does not expire."
      />
    </FormDialog>
  );
};

const NewKeyDialog = ({ created, onClose }: { created: ApiKeyCreated; onClose: () => void }) => {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.secret);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };
  return (
    <FormDialog
      title={`Your new key: ${created.key.name}`}
      description="Copy it now and keep it somewhere safe, such as your system's secret store."
      onClose={onClose}
      onSubmit={onClose}
      submitLabel="Done"
      cancelLabel="Close"
    >
      <Alert tone="warning">
        You will not see this key again. If you lose it, revoke it and create a new one.
      </Alert>
      <TextField
        label="API key"
        readOnly
        value={created.secret}
        onFocus={(e) => e.currentTarget.select()}
        className="font-mono"
      />
      <div className="flex items-center gap-3">
        <Button type="button" variant="secondary" onClick={() => void copy()}>
          Copy key
        </Button>
        <span role="status" className="text-sm text-slate-600 dark:text-slate-300">
          {copied === 'yes'
            ? 'Copied.'
            : copied === 'failed'
              ? 'Could not copy: select the key and copy it.'
              : ''}
        </span>
      </div>
    </FormDialog>
  );
};
