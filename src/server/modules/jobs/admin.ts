import { sql } from 'kysely';
import type { AdminJob, AdminJobQueueCounts, AdminJobs, JobStateName } from '../../../shared/jobs.ts';
import { conflict, notFound } from '../../../shared/errors.ts';
import type { Executor } from '../../db/transaction.ts';
import { wakeJobQueues } from './queue.ts';

// What the admin console reads and does with the queue (docs/jobs.md, "Seeing and retrying"):
// counts by queue and state, the latest failing and dead jobs with their error, and a retry
// that puts a dead job back in line with a fresh retry budget.

const LATEST = 20;

type JobRow = {
  id: string;
  queue: string;
  state: JobStateName;
  retry_count: number;
  retry_limit: number;
  last_error: string | null;
  created_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
  start_after: Date;
};

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

const toJob = (r: JobRow): AdminJob => ({
  id: r.id,
  queue: r.queue,
  state: r.state,
  retryCount: Number(r.retry_count),
  retryLimit: Number(r.retry_limit),
  lastError: r.last_error,
  createdAt: new Date(r.created_at).toISOString(),
  startedAt: iso(r.started_at),
  endedAt: iso(r.completed_at),
  nextAttemptAt: r.state === 'created' || r.state === 'retry' ? iso(r.start_after) : null,
});

const JOB_COLUMNS = sql`id, queue, state, retry_count, retry_limit, last_error, created_at, started_at,
  completed_at, start_after`;

const latestIn = async (db: Executor, state: JobStateName) =>
  (
    await sql<JobRow>`
      select ${JOB_COLUMNS} from jobs where state = ${state}
       order by completed_at desc nulls last, id desc limit ${LATEST}`.execute(db)
  ).rows.map(toJob);

export const jobsOverview = async (db: Executor): Promise<AdminJobs> => {
  const counts = await sql<{ queue: string; state: JobStateName; n: number }>`
    select queue, state, count(*)::int as n from jobs group by queue, state order by queue`.execute(db);
  const byQueue = new Map<string, AdminJobQueueCounts>();
  for (const r of counts.rows) {
    const row = byQueue.get(r.queue) ?? {
      queue: r.queue,
      created: 0,
      retry: 0,
      active: 0,
      completed: 0,
      dead: 0,
    };
    row[r.state] = Number(r.n);
    byQueue.set(r.queue, row);
  }
  return {
    queues: [...byQueue.values()],
    failing: await latestIn(db, 'retry'),
    dead: await latestIn(db, 'dead'),
  };
};

/** Puts a dead job back in line now, with its retry budget restored. */
export const retryDeadJob = async (db: Executor, id: string, now: Date): Promise<AdminJob> => {
  const current = await sql<{ state: JobStateName }>`select state from jobs where id = ${id}`.execute(db);
  const state = current.rows[0]?.state;
  if (!state) throw notFound('No job with this id.');
  if (state !== 'dead')
    throw conflict('job_not_dead', 'Only a dead job can be retried; this one is not dead.', { state });
  // A waiting twin with the same singleton key (a newer scheduled run) already covers it.
  const twin = await sql<{ id: string }>`
    select t.id from jobs d join jobs t on t.queue = d.queue and t.singleton_key = d.singleton_key
     where d.id = ${id} and t.id <> d.id and t.state in ('created', 'retry', 'active')`.execute(db);
  if (twin.rows.length > 0)
    throw conflict('job_already_queued', 'A job of the same kind is already waiting or running.');
  let updated: { rows: JobRow[] };
  try {
    updated = await sql<JobRow>`
      update jobs set state = 'created', retry_count = 0, start_after = ${now}, locked_until = null
       where id = ${id} and state = 'dead'
      returning ${JOB_COLUMNS}`.execute(db);
  } catch (error) {
    // The singleton index: a twin was queued between the check and the update.
    if ((error as { code?: string }).code === '23505')
      throw conflict('job_already_queued', 'A job of the same kind is already waiting or running.');
    throw error;
  }
  const row = updated.rows[0];
  if (!row) throw conflict('job_not_dead', 'Only a dead job can be retried; this one is not dead.');
  wakeJobQueues();
  return toJob(row);
};
