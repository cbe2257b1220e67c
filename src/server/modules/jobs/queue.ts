import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Executor } from '../../db/transaction.ts';
import { inTransaction } from '../../db/transaction.ts';
import { withSpan } from '../../tracing.ts';

// The durable job queue (issue 19; docs/jobs.md, decision 0036). Jobs are rows of the `jobs`
// table, on PGlite and PostgreSQL alike, so `sendJob` runs in the caller's transaction: a job
// exists exactly when the change that asked for it commits. Workers claim due rows with
// `for update skip locked`, so two server processes on one PostgreSQL never run a job twice;
// a failed job comes back after an exponential backoff and is `dead` after its retry limit.
// All times come from the queue's clock (the app context's `now`), never the database's, so
// tests move time for backoffs the way they do for everything else.

export type JobState = 'created' | 'retry' | 'active' | 'completed' | 'dead';
export const JOB_STATES: readonly JobState[] = ['created', 'retry', 'active', 'completed', 'dead'];

export type SendOptions = {
  /** The caller's transaction: the job is queued only if it commits. */
  db?: Executor;
  /** Not before this moment (default: now). */
  startAfter?: Date;
  /** At most one waiting or active job per queue and key; a second send is a no-op (null). */
  singletonKey?: string;
  /** Failures retried before the job is dead (default 5). */
  retryLimit?: number;
  /** The first retry's delay; each further one doubles it (default 10 s). */
  retryDelaySeconds?: number;
};

export type Job<T = unknown> = {
  id: string;
  name: string;
  data: T;
  /** Failures so far (0 on the first attempt). */
  retryCount: number;
  retryLimit: number;
};

export type JobHandler<T = unknown> = (job: Job<T>) => Promise<void>;

export type WorkOptions = {
  /** How long one attempt may hold the job before another worker may take it (default 15 min). */
  expireSeconds?: number;
};

export type Logger = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

export type JobQueue = {
  send: <T>(name: string, data: T, options?: SendOptions) => Promise<string | null>;
  work: <T>(name: string, handler: JobHandler<T>, options?: WorkOptions) => void;
  /** Runs `name` every `everySeconds` (first run at start), once per interval across processes. */
  schedule: (name: string, everySeconds: number) => void;
  start: () => Promise<void>;
  /** Stops polling and waits for the jobs this process is running. */
  stop: () => Promise<void>;
  /** Fires due schedules and runs every due job of the registered queues now; the number run. */
  runDue: () => Promise<number>;
};

/** A repeating piece of background work (the recurring runners): registered by main.ts. */
export type ScheduledJob<C> = {
  name: string;
  everySeconds: number;
  run: (ctx: C, log: Logger) => Promise<void>;
};

/** Runs `job` on `queue` every `job.everySeconds`, once per interval across processes. */
export const scheduleJob = <C>(queue: JobQueue, ctx: C, job: ScheduledJob<C>, log: Logger) => {
  queue.schedule(job.name, job.everySeconds);
  queue.work(job.name, () => job.run(ctx, log));
};

export const DEFAULT_RETRY_LIMIT = 5;
export const DEFAULT_RETRY_DELAY_SECONDS = 10;
/** The longest wait between two attempts, whatever the doubling says. */
export const MAX_BACKOFF_SECONDS = 6 * 3600;
const DEFAULT_EXPIRE_SECONDS = 15 * 60;
const HOUSEKEEPING_MS = 5000;
const COMPLETED_KEPT_MS = 7 * 86_400_000;
const DEAD_KEPT_MS = 30 * 86_400_000;

/** The wait before attempt `failures + 1`: delay × 2^(failures − 1), capped. */
export const backoffSeconds = (delaySeconds: number, failures: number) =>
  Math.min(MAX_BACKOFF_SECONDS, delaySeconds * 2 ** Math.max(0, failures - 1));

// Queues in this process are woken when a job is sent here, so a mail queued by a request runs
// right after the request's transaction commits instead of at the next poll.
const wakers = new Set<() => void>();

/** Tells this process's running queues that a job may be due (after a send or a retry). */
export const wakeJobQueues = () => {
  for (const wake of wakers) wake();
};

/**
 * Queues one job. With `options.db` (a transaction) it commits or rolls back with the caller's
 * change. Answers the job's id, or null when a job with the same singleton key is waiting.
 */
export const sendJob = async <T>(
  db: Executor,
  name: string,
  data: T,
  options: Omit<SendOptions, 'db'> & { now: Date },
): Promise<string | null> => {
  const retryLimit = options.retryLimit ?? DEFAULT_RETRY_LIMIT;
  const delay = options.retryDelaySeconds ?? DEFAULT_RETRY_DELAY_SECONDS;
  const startAfter = options.startAfter ?? options.now;
  const result = await sql<{ id: string }>`
    insert into jobs (queue, data, singleton_key, retry_limit, retry_delay_seconds, start_after, created_at)
    values (${name}, ${JSON.stringify(data ?? null)}::jsonb, ${options.singletonKey ?? null},
            ${retryLimit}, ${delay}, ${startAfter}, ${options.now})
    on conflict (queue, singleton_key)
      where singleton_key is not null and state in ('created', 'retry', 'active')
      do nothing
    returning id`.execute(db);
  const id = result.rows[0]?.id ?? null;
  if (id) wakeJobQueues();
  return id;
};

type Claimed = {
  id: string;
  queue: string;
  data: unknown;
  retry_count: number;
  retry_limit: number;
  retry_delay_seconds: number;
  started_at: Date;
};

export const createJobQueue = (options: {
  db: Executor;
  now: () => Date;
  log?: Logger;
  /** How often an idle queue looks for due jobs (default 1 s). */
  pollIntervalMs?: number;
  /** Jobs one process runs at once (default 4). */
  concurrency?: number;
}): JobQueue => {
  const { db, now } = options;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const concurrency = options.concurrency ?? 4;
  const handlers = new Map<string, { handler: JobHandler<unknown>; expireSeconds: number }>();
  const schedules = new Map<string, number>();
  const running = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let wakeTimer: NodeJS.Timeout | undefined;
  let started = false;
  let ticking: Promise<number> | undefined;
  let lastPurge = 0;

  let registered = false;
  const registerSchedules = async () => {
    if (registered) return;
    const at = now();
    for (const [name, everySeconds] of schedules) {
      // A new schedule runs at once; a known one keeps its next run unless the interval shrank.
      await sql`
        insert into job_schedules (name, every_seconds, next_run_at, updated_at)
        values (${name}, ${everySeconds}, ${at}, ${at})
        on conflict (name) do update
          set every_seconds = excluded.every_seconds,
              next_run_at = least(job_schedules.next_run_at,
                                  ${at}::timestamptz + make_interval(secs => excluded.every_seconds)),
              updated_at = excluded.updated_at`.execute(db);
    }
    registered = true;
  };

  const fireSchedules = async () => {
    const at = now();
    for (const [name, everySeconds] of schedules) {
      await inTransaction(db, async (trx) => {
        // Whoever moves next_run_at forward owns this run; other processes see it moved.
        const claimed = await sql<{ name: string }>`
          update job_schedules set next_run_at = ${new Date(at.getTime() + everySeconds * 1000)},
                 updated_at = ${at}
           where name = ${name} and next_run_at <= ${at}
          returning name`.execute(trx);
        if (claimed.rows.length === 0) return;
        // One run at a time: a run still waiting or active makes this one a no-op.
        await sendJob(trx, name, {}, { now: at, singletonKey: name, retryLimit: 0 });
      });
    }
  };

  const expireStale = async () => {
    const at = now();
    await sql`
      update jobs
         set state = case when retry_count + 1 > retry_limit then 'dead' else 'retry' end,
             retry_count = retry_count + 1,
             start_after = ${at},
             locked_until = null,
             completed_at = ${at},
             last_error = 'The attempt did not finish in time (its process stopped or it ran too long).'
       where state = 'active' and locked_until < ${at}`.execute(db);
  };

  const purge = async () => {
    const at = now().getTime();
    if (at - lastPurge < 3_600_000) return;
    lastPurge = at;
    await sql`
      delete from jobs
       where (state = 'completed' and completed_at < ${new Date(at - COMPLETED_KEPT_MS)})
          or (state = 'dead' and completed_at < ${new Date(at - DEAD_KEPT_MS)})`.execute(db);
  };

  const claim = async (limit: number): Promise<Claimed[]> => {
    if (limit <= 0 || handlers.size === 0) return [];
    const at = now();
    const queues = [...handlers.keys()];
    const rows = await inTransaction(db, async (trx) => {
      const due = await sql<{ id: string; queue: string }>`
        select id, queue from jobs
         where queue in (${sql.join(queues)}) and state in ('created', 'retry') and start_after <= ${at}
         order by start_after, created_at, id
         limit ${limit}
         for update skip locked`.execute(trx);
      const claimed: Claimed[] = [];
      for (const row of due.rows) {
        const expire = handlers.get(row.queue)?.expireSeconds ?? DEFAULT_EXPIRE_SECONDS;
        const updated = await sql<Claimed>`
          update jobs set state = 'active', started_at = ${at},
                 locked_until = ${new Date(at.getTime() + expire * 1000)}
           where id = ${row.id}
          returning id, queue, data, retry_count, retry_limit, retry_delay_seconds, started_at`.execute(trx);
        if (updated.rows[0]) claimed.push(updated.rows[0]);
      }
      return claimed;
    });
    return rows;
  };

  const finish = async (row: Claimed, error: unknown) => {
    const at = now();
    if (error === undefined) {
      await sql`
        update jobs set state = 'completed', completed_at = ${at}, locked_until = null
         where id = ${row.id} and state = 'active' and started_at = ${row.started_at}`.execute(db);
      return;
    }
    const failures = row.retry_count + 1;
    const dead = failures > row.retry_limit;
    const message = (error instanceof Error ? error.message : String(error)).slice(0, 2000) || 'failed';
    const retryAt = new Date(at.getTime() + backoffSeconds(row.retry_delay_seconds, failures) * 1000);
    await sql`
      update jobs set state = ${dead ? 'dead' : 'retry'}, retry_count = ${failures},
             start_after = ${dead ? at : retryAt}, locked_until = null, completed_at = ${at},
             last_error = ${message}
       where id = ${row.id} and state = 'active' and started_at = ${row.started_at}`.execute(db);
    options.log?.warn(
      { jobId: row.id, queue: row.queue, failures, err: error },
      dead ? `job ${row.queue} failed for good (dead)` : `job ${row.queue} failed; retrying`,
    );
  };

  const runOne = async (row: Claimed) => {
    const entry = handlers.get(row.queue);
    let error: unknown;
    try {
      if (!entry) throw new Error(`No worker for queue ${row.queue}`);
      // With tracing on, each attempt is a span of its own trace (a no-op otherwise).
      await withSpan(
        `job ${row.queue}`,
        { 'kontor.job.queue': row.queue, 'kontor.job.id': row.id, 'kontor.job.attempt': row.retry_count + 1 },
        () =>
          entry.handler({
            id: row.id,
            name: row.queue,
            data: row.data,
            retryCount: row.retry_count,
            retryLimit: row.retry_limit,
          }),
        { root: true },
      );
    } catch (caught) {
      error = caught ?? new Error('failed');
    }
    await finish(row, error);
  };

  // An idle poll is one claim query; schedules and stale claims are looked at every few seconds
  // (and on every runDue), which is well inside their granularity.
  let lastHousekeeping = Number.NEGATIVE_INFINITY;
  const housekeeping = async (force: boolean) => {
    const at = now().getTime();
    if (!force && at - lastHousekeeping < HOUSEKEEPING_MS && at >= lastHousekeeping) return;
    lastHousekeeping = at;
    await fireSchedules();
    await expireStale();
    await purge();
  };

  /** One pass: schedules, stale locks, then as many due jobs as there are free slots. */
  const tick = async (wait: boolean): Promise<number> => {
    await housekeeping(wait);
    const rows = await claim(concurrency - running.size);
    for (const row of rows) {
      const p = runOne(row)
        .catch((error: unknown) => options.log?.warn({ err: error, jobId: row.id }, 'job bookkeeping failed'))
        .finally(() => running.delete(p));
      running.add(p);
    }
    if (wait) await Promise.all([...running]);
    return rows.length;
  };

  const safeTick = () => {
    if (!started || ticking) return;
    ticking = tick(false)
      .catch((error: unknown) => {
        options.log?.warn({ err: error }, 'job queue poll failed');
        return 0;
      })
      .finally(() => {
        ticking = undefined;
      });
  };

  const wake = () => {
    if (!started || wakeTimer) return;
    // A little later: the sender's transaction commits first.
    wakeTimer = setTimeout(() => {
      wakeTimer = undefined;
      safeTick();
    }, 25);
    wakeTimer.unref();
  };

  return {
    send: (name, data, sendOptions = {}) => {
      const { db: executor, ...rest } = sendOptions;
      return sendJob(executor ?? db, name, data, { ...rest, now: now() });
    },
    work: (name, handler, workOptions = {}) => {
      handlers.set(name, {
        handler: handler as JobHandler<unknown>,
        expireSeconds: workOptions.expireSeconds ?? DEFAULT_EXPIRE_SECONDS,
      });
    },
    schedule: (name, everySeconds) => {
      if (!Number.isInteger(everySeconds) || everySeconds <= 0)
        throw new Error(`schedule ${name}: everySeconds must be a positive integer`);
      schedules.set(name, everySeconds);
      registered = false;
    },
    start: async () => {
      if (started) return;
      await registerSchedules();
      started = true;
      wakers.add(wake);
      safeTick();
      timer = setInterval(safeTick, pollIntervalMs);
      timer.unref();
    },
    stop: async () => {
      started = false;
      wakers.delete(wake);
      if (timer) clearInterval(timer);
      if (wakeTimer) clearTimeout(wakeTimer);
      timer = undefined;
      wakeTimer = undefined;
      await ticking;
      await Promise.all([...running]);
    },
    runDue: async () => {
      await ticking;
      await registerSchedules();
      let total = 0;
      for (let round = 0; round < 1000; round += 1) {
        const n = await tick(true);
        total += n;
        if (n === 0) break;
      }
      return total;
    },
  };
};
