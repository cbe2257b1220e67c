import { useQuery, useQueryClient } from '@tanstack/react-query';
import { RefreshCw } from 'lucide-react';
import { type AdminJob, type AdminJobs, JOB_STATE_LABELS } from '../../../shared/jobs.ts';
import { Button } from '../../components/ui/Button.tsx';
import { Alert, Badge, Card, CardHeader, EmptyState, ErrorState } from '../../components/ui/Card.tsx';
import { type Column, DataTable } from '../../components/ui/DataTable.tsx';
import { LoadingState } from '../../components/ui/ListCard.tsx';
import { api } from '../../lib/api.ts';
import { formatCount, formatDateTime } from '../../lib/format.ts';
import { invalidateAfter, keys } from '../../lib/queryKeys.ts';
import { useAction } from '../../lib/useAction.ts';
import { loadError } from './parts.tsx';

// Jobs: the durable job queue (docs/jobs.md): how many jobs wait, run, are done and are dead in
// each queue, the latest failing jobs (waiting for their next attempt) and the dead ones with
// their error, each dead one with Retry.

const useAdminJobs = () =>
  useQuery({ queryKey: keys.admin('jobs'), queryFn: () => api.get<AdminJobs>('/admin/jobs') });

const STATES = ['created', 'retry', 'active', 'completed', 'dead'] as const;

export const JobsTab = () => {
  const jobs = useAdminJobs();
  const client = useQueryClient();
  const action = useAction();
  if (jobs.isLoading) return <LoadingState label="Loading the job queue..." />;
  if (!jobs.data)
    return (
      <ErrorState message={loadError('the job queue', jobs.error)} onRetry={() => void jobs.refetch()} />
    );
  const { queues, failing, dead } = jobs.data;
  const retry = (job: AdminJob) =>
    void action.run(
      async () => {
        await api.post<AdminJob>(`/admin/jobs/${encodeURIComponent(job.id)}/retry`);
        await invalidateAfter.admin(client);
      },
      { key: job.id },
    );
  const jobColumns = (withRetry: boolean): (Column<AdminJob> | false)[] => [
    { header: 'Queue', rowHeader: true, cell: (j) => <code className="text-xs">{j.queue}</code> },
    { header: 'Attempts', numeric: true, cell: (j) => formatCount(j.retryCount) },
    {
      header: withRetry ? 'Failed' : 'Next attempt',
      cell: (j) => {
        const when = withRetry ? j.endedAt : j.nextAttemptAt;
        return when ? formatDateTime(when) : '—';
      },
    },
    {
      header: 'Error',
      cell: (j) => <span className="break-words text-sm">{j.lastError ?? '—'}</span>,
      className: 'max-w-md',
    },
    withRetry && {
      header: 'Actions',
      actions: true,
      cell: (j) => (
        <Button
          size="sm"
          variant="secondary"
          busy={action.busyKey === j.id}
          onClick={() => retry(j)}
          aria-label={`Retry ${j.queue} job`}
        >
          Retry
        </Button>
      ),
    },
  ];
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Background work: recurring invoices and bills, overdue checks and outgoing mail.
        </p>
        <Button variant="secondary" busy={jobs.isFetching} onClick={() => void jobs.refetch()}>
          <RefreshCw className="h-4 w-4" aria-hidden="true" /> Check again
        </Button>
      </div>
      {action.error ? <Alert>{action.error}</Alert> : null}
      <Card>
        <CardHeader title="Queues" />
        {queues.length === 0 ? (
          <EmptyState title="No jobs yet" description="Jobs show here once the server has queued some." />
        ) : (
          <DataTable
            caption="Jobs by queue and state"
            rows={queues}
            rowKey={(q) => q.queue}
            columns={[
              { header: 'Queue', rowHeader: true, cell: (q) => <code className="text-xs">{q.queue}</code> },
              ...STATES.map((s) => ({
                header: JOB_STATE_LABELS[s],
                numeric: true,
                cell: (q: (typeof queues)[number]) =>
                  s === 'dead' && q.dead > 0 ? (
                    <Badge tone="red">{formatCount(q.dead)}</Badge>
                  ) : (
                    formatCount(q[s])
                  ),
              })),
            ]}
          />
        )}
      </Card>
      <Card>
        <CardHeader
          title="Dead jobs"
          description="Failed on every attempt. Fix the cause, then retry: the job starts again with its full retry budget."
        />
        {dead.length === 0 ? (
          <EmptyState title="No dead jobs" description="Every job finished or is still being tried." />
        ) : (
          <DataTable caption="Dead jobs" rows={dead} rowKey={(j) => j.id} columns={jobColumns(true)} />
        )}
      </Card>
      <Card>
        <CardHeader
          title="Failing jobs"
          description="Failed at least once; tried again after a growing wait."
        />
        {failing.length === 0 ? (
          <EmptyState title="Nothing failing" description="No job is waiting to be tried again." />
        ) : (
          <DataTable caption="Failing jobs" rows={failing} rowKey={(j) => j.id} columns={jobColumns(false)} />
        )}
      </Card>
    </div>
  );
};
