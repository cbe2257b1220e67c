import { type Kysely, sql } from 'kysely';

// The audit log every module writes to in the same transaction as the change it records.

export const up = async (db: Kysely<unknown>) => {
  await sql`
    create table audit_log (
      organization_id text not null,
      id bigint generated always as identity,
      actor_user_id text,
      action text not null,
      entity_type text not null,
      entity_id text not null,
      before jsonb,
      after jsonb,
      created_at timestamptz not null default now(),
      primary key (organization_id, id)
    )`.execute(db);
  await sql`create index audit_log_entity on audit_log (organization_id, entity_type, entity_id)`.execute(db);
};

export const down = async (db: Kysely<unknown>) => {
  await sql`drop table audit_log`.execute(db);
};
