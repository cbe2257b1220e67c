import { type Kysely, sql } from 'kysely';

// Request counters shared by every server process on one PostgreSQL (issue 20 §1; decision
// 0044): the /api limit and the per-route limits (contact form, promo look-up, webhooks) of
// src/server/http/rate-limit.ts count here, one row per key and window (`count` requests so
// far, the window ending at `resets_at`, epoch milliseconds). One upsert per request
// (src/server/db/rate-counter.ts); the `rate-limit-sweep` job deletes ended windows.
//
// Unlogged: a counter needs no crash safety (after a crash PostgreSQL empties the table and
// every window starts afresh), and skipping the write-ahead log makes the per-request write
// cheaper. A streaming replica does not have the rows; nothing reads them there. The fill
// factor leaves room on each page so an increment is a HOT update (no index write).

export const up = async (db: Kysely<unknown>) => {
  await sql`
    create unlogged table rate_limit_hits (
      key text primary key,
      count integer not null check (count > 0),
      resets_at bigint not null
    ) with (fillfactor = 70)`.execute(db);
};

export const down = async (db: Kysely<unknown>) => {
  await sql`drop table if exists rate_limit_hits`.execute(db);
};
