import { useState } from 'react';
import type { AdminSubscriptionRow } from '../../../shared/admin.ts';
import { SUBSCRIPTION_STATUSES, SUBSCRIPTION_STATUS_LABELS } from '../../../shared/billing.ts';
import { PLAN_CURRENCY } from '../../../shared/plans.ts';
import { Badge, Card, CardHeader, ErrorState } from '../../components/ui/Card.tsx';
import { DataTable } from '../../components/ui/DataTable.tsx';
import { ListCard, LoadingState } from '../../components/ui/ListCard.tsx';
import { formatAmount, formatCount, formatDate, formatPercent } from '../../lib/format.ts';
import { Pager, useCursorPages } from '../accounting/Pager.tsx';
import {
  type AdminSubscriptionSummary,
  type SubscriptionFilter,
  useAdminSubscriptionSummary,
  useAdminSubscriptions,
} from './adminApi.ts';
import {
  FilterSelect,
  Figure,
  SubscriptionBadge,
  adminListState,
  capitalized,
  loadError,
  planName,
} from './parts.tsx';

// Subscriptions: what they bring in a month (MRR), how many are in each state, the trials
// ending this week and the last 30 days' churn; then every account's subscription, by state.

const FILTERS: readonly { value: SubscriptionFilter; label: string }[] = [
  { value: 'all', label: 'All' },
  ...SUBSCRIPTION_STATUSES.map((s) => ({ value: s, label: SUBSCRIPTION_STATUS_LABELS[s] })),
  { value: 'read_only', label: 'Read-only (trial over)' },
];

export const SubscriptionsTab = () => (
  <div className="space-y-6">
    <Summary />
    <SubscriptionList />
  </div>
);

const Summary = () => {
  const summary = useAdminSubscriptionSummary();
  if (summary.isLoading) return <LoadingState label="Loading the subscription summary..." />;
  if (!summary.data)
    return (
      <ErrorState
        message={loadError('the subscription summary', summary.error)}
        onRetry={() => void summary.refetch()}
      />
    );
  return <SummaryView summary={summary.data} />;
};

const SummaryView = ({ summary }: { summary: AdminSubscriptionSummary }) => {
  const { churn30Days: churn } = summary;
  const count = (status: string) => summary.byStatus[status] ?? 0;
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Figure
          label="Monthly recurring revenue"
          hint="Active and past-due subscriptions; yearly ones divided by 12."
        >
          {formatAmount(summary.mrr, summary.currency)}
        </Figure>
        <Figure label="Active subscriptions" hint={`${formatCount(count('past_due'))} past due`}>
          {formatCount(count('active'))}
        </Figure>
        <Figure
          label="On a free trial"
          hint={`${formatCount(summary.trialsEndingThisWeek.length)} ending this week`}
        >
          {formatCount(count('trialing'))}
        </Figure>
        <Figure
          label="Churn, last 30 days"
          hint={`${formatCount(churn.canceled)} canceled of ${formatCount(churn.activeAtStart)} active 30 days ago`}
        >
          {formatPercent(churn.rate)}
        </Figure>
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader title="By status" />
          <ul className="divide-y divide-slate-100 dark:divide-slate-800">
            {SUBSCRIPTION_STATUSES.map((s) => (
              <li key={s} className="flex items-center justify-between px-5 py-2.5 text-sm">
                <SubscriptionBadge status={s} />
                <span className="font-medium text-slate-900 tabular-nums dark:text-white">
                  {formatCount(count(s))}
                </span>
              </li>
            ))}
          </ul>
        </Card>
        <Card>
          <CardHeader
            title="Trials ending this week"
            description="Accounts to reach out to before they turn read-only."
          />
          {summary.trialsEndingThisWeek.length === 0 ? (
            <p className="px-5 py-4 text-sm text-slate-500 dark:text-slate-400">
              No trial ends in the next 7 days.
            </p>
          ) : (
            <ul className="divide-y divide-slate-100 dark:divide-slate-800">
              {summary.trialsEndingThisWeek.map((t) => (
                <li
                  key={t.userId}
                  className="flex flex-wrap items-center justify-between gap-2 px-5 py-2.5 text-sm"
                >
                  <span className="min-w-0 break-all text-slate-900 dark:text-slate-100">{t.email}</span>
                  <span className="text-slate-600 dark:text-slate-300">
                    {planName(t.plan)} · ends {formatDate(t.trialEndsAt)}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>
    </>
  );
};

const SubscriptionList = () => {
  const [status, setStatus] = useState<SubscriptionFilter>('all');
  const pages = useCursorPages();
  const list = useAdminSubscriptions(status, pages.cursor);
  const rows = list.data?.subscriptions ?? [];
  return (
    <ListCard
      title="All subscriptions"
      toolbar={
        <FilterSelect label="Status" value={status} pages={pages} onChange={setStatus} options={FILTERS} />
      }
      state={adminListState(list, 'subscriptions', rows.length === 0, {
        title: status === 'all' ? 'No subscriptions yet' : 'None in this state',
      })}
      footer={<Pager label="Subscriptions" pages={pages} nextCursor={list.data?.nextCursor} />}
    >
      <DataTable<AdminSubscriptionRow>
        caption="Subscriptions"
        rows={rows}
        rowKey={(s) => s.userId}
        columns={[
          { header: 'Account', rowHeader: true, cell: (s) => <span className="break-all">{s.email}</span> },
          { header: 'Plan', cell: (s) => `${planName(s.plan)}, ${s.interval}` },
          {
            header: 'Status',
            cell: (s) => (
              <span className="flex flex-wrap gap-1">
                <SubscriptionBadge status={s.status} />
                {s.cancelAtPeriodEnd ? <Badge tone="amber">Cancels at period end</Badge> : null}
              </span>
            ),
          },
          {
            header: 'Trial ends / renews',
            cell: (s) =>
              s.status === 'trialing'
                ? `Trial ends ${formatDate(s.trialEndsAt)}`
                : s.currentPeriodEnd
                  ? `${s.cancelAtPeriodEnd ? 'Ends' : 'Renews'} ${formatDate(s.currentPeriodEnd)}`
                  : '—',
          },
          { header: 'Provider', cell: (s) => capitalized(s.provider) },
          { header: 'MRR', numeric: true, cell: (s) => formatAmount(s.mrr, PLAN_CURRENCY) },
        ]}
      />
    </ListCard>
  );
};
