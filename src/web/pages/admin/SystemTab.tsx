import { RefreshCw } from 'lucide-react';
import type { AdminSystem } from '../../../shared/admin.ts';
import { Button } from '../../components/ui/Button.tsx';
import { Card, CardHeader, ErrorState } from '../../components/ui/Card.tsx';
import { LoadingState } from '../../components/ui/ListCard.tsx';
import { formatCount, formatDateTime } from '../../lib/format.ts';
import { useAdminSystem } from './adminApi.ts';
import { Facts, Figure, Health, YesNo, loadError } from './parts.tsx';

// System: the running server (version, environment, uptime), its database, mail and billing
// provider, and how many users, companies and admins there are.

const uptime = (seconds: number) => {
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return d > 0 ? `${d} d ${h} h` : h > 0 ? `${h} h ${m} min` : `${m} min`;
};

export const SystemTab = () => {
  const system = useAdminSystem();
  if (system.isLoading) return <LoadingState label="Checking the system..." />;
  if (!system.data)
    return (
      <ErrorState
        message={loadError('the system status', system.error)}
        onRetry={() => void system.refetch()}
      />
    );
  return (
    <SystemView system={system.data} refreshing={system.isFetching} onRefresh={() => void system.refetch()} />
  );
};

const SystemView = ({
  system,
  refreshing,
  onRefresh,
}: {
  system: AdminSystem;
  refreshing: boolean;
  onRefresh: () => void;
}) => {
  const { database, mail, billing, counts } = system;
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Kontor {system.version} · {system.environment} · up {uptime(system.uptimeSeconds)} (since{' '}
          {formatDateTime(system.startedAt)})
        </p>
        <Button variant="secondary" busy={refreshing} onClick={onRefresh}>
          <RefreshCw className="h-4 w-4" aria-hidden="true" /> Check again
        </Button>
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        <Figure label="Users">{formatCount(counts.users)}</Figure>
        <Figure label="Companies">{formatCount(counts.companies)}</Figure>
        <Figure label="Platform admins">{formatCount(counts.admins)}</Figure>
      </div>
      <div className="grid gap-6 lg:grid-cols-3">
        <Card>
          <CardHeader title="Database" actions={<Health ok={database.ok} />} />
          <Facts
            columns={1}
            items={[
              ['Kind', database.kind === 'pglite' ? 'PGlite (embedded)' : 'PostgreSQL'],
              ['Response time', `${database.latencyMs.toFixed(1)} ms`],
              ['Migrations', formatCount(database.migrations)],
              [
                'Latest migration',
                <code key="m" className="text-xs break-all">
                  {database.latestMigration ?? '—'}
                </code>,
              ],
            ]}
          />
        </Card>
        <Card>
          <CardHeader title="Mail" actions={<Health ok={mail.ok} />} />
          <Facts
            columns={1}
            items={[
              ['Transport', mail.transport === 'smtp' ? 'SMTP' : 'Outbox (not sent)'],
              ['Detail', mail.detail],
            ]}
          />
        </Card>
        <Card>
          <CardHeader title="Billing" />
          <Facts
            columns={1}
            items={[
              [
                'Provider',
                billing.provider === 'stripe'
                  ? 'Stripe'
                  : billing.provider === 'local'
                    ? 'Local (no Stripe keys)'
                    : billing.provider,
              ],
              ['Webhook secret', <YesNo key="w" value={billing.webhookSecretSet} yes="Set" no="Not set" />],
              ['Prices configured', formatCount(billing.pricesConfigured)],
              ['Detail', billing.detail],
            ]}
          />
        </Card>
      </div>
    </div>
  );
};
