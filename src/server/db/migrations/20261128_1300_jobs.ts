import { type Kysely, sql } from 'kysely';

// The durable job queue (issue 19, docs/jobs.md): one row per job, on PGlite and PostgreSQL
// alike. A job waits (`created`, or `retry` after a failure) until `start_after`, is claimed by
// one worker with `for update skip locked` (`active`, held until `locked_until`), and ends
// `completed`, or `dead` once it has failed `retry_limit + 1` times. A singleton key allows one
// waiting-or-active job per queue and key (the partial unique index). `job_schedules` holds each
// repeating job's next run; a process claims a run by moving `next_run_at` forward, so with
// several server processes a schedule fires once per interval.

export const up = async (db: Kysely<unknown>) => {
  await sql`
    create table jobs (
      id text primary key default gen_random_uuid()::text,
      queue text not null,
      data jsonb not null default '{}'::jsonb,
      state text not null default 'created'
        check (state in ('created', 'retry', 'active', 'completed', 'dead')),
      singleton_key text,
      retry_limit integer not null default 5 check (retry_limit >= 0),
      retry_count integer not null default 0,
      retry_delay_seconds integer not null default 10 check (retry_delay_seconds >= 0),
      start_after timestamptz not null default now(),
      locked_until timestamptz,
      last_error text,
      created_at timestamptz not null default now(),
      started_at timestamptz,
      completed_at timestamptz
    )`.execute(db);
  // What a worker polls: due jobs of its queues, oldest first.
  await sql`create index jobs_due_idx on jobs (queue, start_after) where state in ('created', 'retry')`.execute(
    db,
  );
  await sql`create index jobs_active_idx on jobs (locked_until) where state = 'active'`.execute(db);
  await sql`create index jobs_state_idx on jobs (state, queue)`.execute(db);
  await sql`create unique index jobs_singleton_idx on jobs (queue, singleton_key)
    where singleton_key is not null and state in ('created', 'retry', 'active')`.execute(db);

  await sql`
    create table job_schedules (
      name text primary key,
      every_seconds integer not null check (every_seconds > 0),
      next_run_at timestamptz not null,
      updated_at timestamptz not null default now()
    )`.execute(db);
};

export const down = async (db: Kysely<unknown>) => {
  await sql`drop table if exists job_schedules`.execute(db);
  await sql`drop table if exists jobs`.execute(db);
};
