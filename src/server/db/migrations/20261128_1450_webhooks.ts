import { type Kysely, sql } from 'kysely';
import { companyRefs, createdColumns, keyColumns } from '../migrations-helpers.ts';

// Outgoing webhooks (issue 19 item 3, docs/webhooks.md, decision 0039). A company's endpoints
// (`webhook_endpoints`: URL, the event types it takes or all, its Standard Webhooks secret,
// enabled or disabled with a reason, the current failure streak); the outbox of events
// (`webhook_events`, written in the transaction of the change that caused them, id `msg_…`);
// and one delivery per endpoint and event (`webhook_deliveries`: pending until a 2xx answer,
// or failed once its retries are used up), keeping the last request and response.

export const up = async (db: Kysely<unknown>) => {
  await sql`
    create table webhook_endpoints (
      ${keyColumns(true)},
      url text not null,
      description text not null default '',
      event_types jsonb,
      secret text not null,
      enabled boolean not null default true,
      disabled_reason text,
      disabled_at timestamptz,
      failure_streak integer not null default 0,
      failing_since timestamptz,
      ${createdColumns({ by: true, updated: true })},
      primary key (organization_id, id)
    )`.execute(db);

  await sql`
    create table webhook_events (
      ${keyColumns(true)},
      type text not null,
      payload jsonb not null,
      ${createdColumns({})},
      primary key (organization_id, id)
    )`.execute(db);

  await sql`
    create table webhook_deliveries (
      ${keyColumns(true)},
      endpoint_id text not null,
      event_id text not null,
      status text not null default 'pending' check (status in ('pending', 'succeeded', 'failed')),
      attempts integer not null default 0,
      next_attempt_at timestamptz,
      last_attempt_at timestamptz,
      request_headers jsonb,
      request_body text,
      response_status integer,
      response_headers jsonb,
      response_body text,
      error text,
      duration_ms integer,
      ${createdColumns({ updated: true })},
      primary key (organization_id, id),
      ${companyRefs({ endpoint_id: 'webhook_endpoints cascade', event_id: 'webhook_events cascade' })}
    )`.execute(db);
  // An endpoint's delivery log, newest first (keyset pages).
  await sql`create index webhook_deliveries_endpoint_idx on webhook_deliveries (organization_id, endpoint_id, created_at desc, id desc)`.execute(
    db,
  );
  await sql`create index webhook_deliveries_event_idx on webhook_deliveries (organization_id, event_id)`.execute(
    db,
  );
};

export const down = async (db: Kysely<unknown>) => {
  await sql`drop table if exists webhook_deliveries`.execute(db);
  await sql`drop table if exists webhook_events`.execute(db);
  await sql`drop table if exists webhook_endpoints`.execute(db);
};
