import { useQuery } from '@tanstack/react-query';
import { Landmark, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import type {
  BankConnection,
  BankFeeds,
  FeedAccount,
  FeedAccountMapping,
  LinkStart,
  SyncQueued,
} from '../../../shared/bank-feeds.ts';
import { Money } from '../../components/money/Money.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { Alert, Badge, Card, CardError, CardHeader, EmptyState } from '../../components/ui/Card.tsx';
import { ConfirmDialog, useConfirm } from '../../components/ui/ConfirmDialog.tsx';
import { api } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { formatCount, formatDate, formatDateTime } from '../../lib/format.ts';
import { keys } from '../../lib/queryKeys.ts';
import { useAction } from '../../lib/useAction.ts';
import { errorMessage, useInvalidateMoney, useOrgId } from '../transactions/api.ts';
import { Skeleton } from '../transactions/Controls.tsx';
import { DemoLinkDialog, MapAccountDialog, PlaidLinkLauncher } from './BankFeedsDialogs.tsx';

// The Wallet's "Bank connections" card (issue 18): each connection's state, last sync, the
// first sync's progress, its accounts and where they go, pending lines (shown, not posted),
// lines that need a look, Sync now, Reconnect (Link in update mode) and Disconnect. Members
// see it; admins (manage_settings) act. The data is under the wallet's keys, so every money
// change refreshes it, and it polls while a sync is queued or running.

const useBankFeeds = () => {
  const orgId = useOrgId();
  return useQuery({
    queryKey: keys.wallet(orgId, 'bank-feeds'),
    queryFn: () => api.get<BankFeeds>(`/orgs/${orgId}/bank-feeds`),
    refetchInterval: (q) => (q.state.data?.connections.some((c) => c.syncing) ? 2000 : false),
  });
};

type Flow = { start: LinkStart; connectionId?: string };

export const BankFeedsCard = () => {
  const { can } = useCompany();
  const orgId = useOrgId();
  const feeds = useBankFeeds();
  const refresh = useInvalidateMoney();
  const action = useAction();
  const [flow, setFlow] = useState<Flow | null>(null);
  const [mapping, setMapping] = useState<{ connection: BankConnection; account: FeedAccount } | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const disconnecting = useConfirm<BankConnection>();
  const admin = can('manage_settings');

  const startLink = (connectionId?: string) =>
    action.run(
      async () => {
        const start = await api.post<LinkStart>(
          `/orgs/${orgId}/bank-feeds/link-token`,
          connectionId ? { connectionId } : {},
        );
        setFlow({ start, ...(connectionId && { connectionId }) });
      },
      { key: connectionId ? `reconnect-${connectionId}` : 'connect' },
    );
  const exchange = async (publicToken: string) => {
    await api.post<BankConnection>(`/orgs/${orgId}/bank-feeds/connections`, { publicToken });
    setNotice('Connected. The first sync runs now; map each account to bring its lines in.');
    await refresh();
  };
  const reconnected = async (connectionId: string) => {
    await api.post<BankConnection>(`/orgs/${orgId}/bank-feeds/connections/${connectionId}/reconnected`, {});
    setNotice('Reconnected. A sync is on its way.');
    await refresh();
  };
  const syncNow = (c: BankConnection) =>
    action.run(
      async () => {
        const res = await api.post<SyncQueued>(`/orgs/${orgId}/bank-feeds/connections/${c.id}/sync`);
        setNotice(res.queued ? 'Sync queued.' : 'A sync is already on its way.');
        await refresh();
      },
      { key: `sync-${c.id}` },
    );
  const saveMapping = async (c: BankConnection, a: FeedAccount, body: FeedAccountMapping) => {
    await api.put<BankConnection>(`/orgs/${orgId}/bank-feeds/connections/${c.id}/accounts/${a.id}`, body);
    await refresh();
  };

  const data = feeds.data;
  return (
    <Card>
      <CardHeader
        title="Bank connections"
        description="Link a bank once; its transactions arrive by themselves (synced every few hours, or now)."
        actions={
          admin ? (
            <Button
              onClick={() => void startLink()}
              aria-busy={action.busyKey === 'connect' || undefined}
              data-testid="connect-bank"
            >
              <Landmark className="h-4 w-4" aria-hidden="true" /> Connect a bank
            </Button>
          ) : null
        }
      />
      <div className="space-y-4 p-5 pt-0">
        {notice ? <Alert tone="success">{notice}</Alert> : null}
        {action.error ? <Alert>{action.error}</Alert> : null}
        {feeds.isLoading ? (
          <Skeleton rows={2} />
        ) : feeds.isError ? (
          <CardError message={errorMessage(feeds.error)} onRetry={() => void feeds.refetch()} />
        ) : !data || data.connections.length === 0 ? (
          <EmptyState
            title="No bank connected"
            description={
              data?.provider === 'demo'
                ? 'Connect the built-in Demo Bank to see transactions arrive without importing statements.'
                : 'Connect your bank through Plaid to have its transactions arrive without importing statements.'
            }
          />
        ) : (
          <ul className="space-y-4" aria-label="Bank connections">
            {data.connections.map((c) => (
              <ConnectionItem
                key={c.id}
                connection={c}
                admin={admin}
                busyKey={action.busyKey}
                onSync={() => void syncNow(c)}
                onReconnect={() => void startLink(c.id)}
                onDisconnect={() => disconnecting.ask(c)}
                onMap={(a) => setMapping({ connection: c, account: a })}
              />
            ))}
          </ul>
        )}
      </div>

      {flow && flow.start.provider === 'demo' ? (
        <DemoLinkDialog
          start={flow.start}
          onClose={() => setFlow(null)}
          onPublicToken={(token) => (flow.connectionId ? reconnected(flow.connectionId) : exchange(token))}
        />
      ) : null}
      {flow && flow.start.provider === 'plaid' ? (
        <PlaidLinkLauncher
          start={flow.start}
          onExit={() => setFlow(null)}
          onSuccess={(token) => {
            const id = flow.connectionId;
            setFlow(null);
            void action.run(() => (id ? reconnected(id) : exchange(token)), { key: 'connect' });
          }}
        />
      ) : null}
      {mapping ? (
        <MapAccountDialog
          connection={mapping.connection}
          account={mapping.account}
          onClose={() => setMapping(null)}
          onSave={(body) => saveMapping(mapping.connection, mapping.account, body)}
        />
      ) : null}
      <ConfirmDialog
        open={disconnecting.open}
        title={`Disconnect ${disconnecting.item?.institutionName ?? 'this bank'}?`}
        description="The bank stops sending transactions and Kontor deletes its access. The transactions already brought in stay in your books."
        confirmLabel="Disconnect"
        onCancel={disconnecting.cancel}
        onConfirm={async () => {
          await api.delete<void>(`/orgs/${orgId}/bank-feeds/connections/${disconnecting.item!.id}`);
          setNotice('Disconnected. Its transactions stay in your books.');
          await refresh();
        }}
      />
    </Card>
  );
};

const ConnectionItem = ({
  connection: c,
  admin,
  busyKey,
  onSync,
  onReconnect,
  onDisconnect,
  onMap,
}: {
  connection: BankConnection;
  admin: boolean;
  busyKey: string | null;
  onSync: () => void;
  onReconnect: () => void;
  onDisconnect: () => void;
  onMap: (account: FeedAccount) => void;
}) => {
  const name = c.institutionName ?? 'Bank';
  return (
    <li
      className="rounded-lg border border-slate-200 p-4 dark:border-slate-700"
      aria-label={name}
      data-testid="bank-connection"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h3 className="font-semibold text-slate-900 dark:text-white">
            {name}{' '}
            {c.status === 'error' ? (
              <Badge tone="red">Needs attention</Badge>
            ) : c.syncing ? (
              <Badge tone="blue">Syncing…</Badge>
            ) : (
              <Badge tone="green">Connected</Badge>
            )}
          </h3>
          <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="last-sync">
            {c.lastSyncedAt ? `Last synced ${formatDateTime(c.lastSyncedAt)}` : 'Not synced yet'}
            {c.firstSync.done
              ? ''
              : c.firstSync.pages > 0
                ? ` · first sync: ${formatCount(c.firstSync.lines)} lines so far${c.firstSync.oldestDate ? `, back to ${formatDate(c.firstSync.oldestDate)}` : ''}`
                : ' · first sync waiting'}
          </p>
          {c.lastSyncError ? (
            <p className="text-sm text-amber-700 dark:text-amber-300">
              The last sync failed ({c.lastSyncError}); it is tried again.
            </p>
          ) : null}
        </div>
        {admin ? (
          <div className="flex gap-2">
            <Button
              variant="secondary"
              size="sm"
              onClick={onSync}
              disabled={c.status === 'error'}
              aria-busy={busyKey === `sync-${c.id}` || undefined}
            >
              <RefreshCw className="h-4 w-4" aria-hidden="true" /> Sync now
            </Button>
            <Button variant="secondary" size="sm" onClick={onDisconnect}>
              Disconnect
            </Button>
          </div>
        ) : null}
      </div>
      {c.errorCode ? (
        <div className="mt-3">
          <Alert tone="warning">
            {c.errorMessage ?? 'The bank asks you to sign in again.'}{' '}
            {admin ? (
              <Button
                size="sm"
                onClick={onReconnect}
                aria-busy={busyKey === `reconnect-${c.id}` || undefined}
                className="ml-2"
              >
                Reconnect
              </Button>
            ) : (
              'An admin can reconnect it.'
            )}
          </Alert>
        </div>
      ) : null}
      <ul
        className="mt-3 divide-y divide-slate-100 text-sm dark:divide-slate-800"
        aria-label={`Accounts at ${name}`}
      >
        {c.accounts.map((a) => (
          <li key={a.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
            <span>
              <span className="font-medium text-slate-800 dark:text-slate-100">{a.name}</span>
              {a.mask ? <span className="text-slate-500"> •••• {a.mask}</span> : null}
              <span className="text-slate-500"> · {a.currency ?? '—'}</span>
            </span>
            <span className="flex items-center gap-2">
              {a.moneyAccountName ? (
                <span className="text-slate-700 dark:text-slate-200">→ {a.moneyAccountName}</span>
              ) : (
                <span className="text-slate-500">
                  Not mapped{a.waitingCount > 0 ? ` · ${formatCount(a.waitingCount)} lines waiting` : ''}
                </span>
              )}
              {admin && a.kinds.length > 0 ? (
                <Button variant="secondary" size="sm" onClick={() => onMap(a)}>
                  {a.moneyAccountId ? 'Change' : 'Map'}
                  <span className="sr-only"> {a.name}</span>
                </Button>
              ) : null}
            </span>
          </li>
        ))}
      </ul>
      {c.pendingCount > 0 ? (
        <details className="mt-3 text-sm">
          <summary className="cursor-pointer text-slate-700 dark:text-slate-200">
            {formatCount(c.pendingCount)} pending {c.pendingCount === 1 ? 'line' : 'lines'} (not in your books
            until the bank posts them)
          </summary>
          <ul className="mt-2 space-y-1">
            {c.pending.map((p) => (
              <li key={p.id} className="flex justify-between gap-3 text-slate-600 dark:text-slate-300">
                <span>
                  {formatDate(p.date)} · {p.description}
                </span>
                <Money minor={p.amount} currency={p.currency} />
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {c.attention.length > 0 ? (
        <details className="mt-3 text-sm">
          <summary className="cursor-pointer text-amber-700 dark:text-amber-300">
            {formatCount(c.attention.length)} {c.attention.length === 1 ? 'line needs' : 'lines need'} a look
          </summary>
          <ul className="mt-2 space-y-1">
            {c.attention.map((l) => (
              <li key={l.id} className="text-slate-600 dark:text-slate-300">
                {formatDate(l.date)} · {l.description} · <Money minor={l.amount} currency={l.currency} />:{' '}
                {l.reason}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </li>
  );
};
