import { type Kysely, sql } from 'kysely';
import { createdColumns, keyColumns } from '../migrations-helpers.ts';

// API keys per company (issue 19, item 2; decision 0038). A key is shown once; only the SHA-256
// of the whole key is stored (`hash`, unique: the look-up of a bearer key is one index probe)
// and its first 15 characters (`prefix`, e.g. `kontor_3fQ9aB7x`) to recognise it in lists.
// `scopes` are from src/shared/api-keys.ts. A key acts as the member who created it
// (`created_by`) with at most that member's role; without that member (removed from the company
// or deleted) it stops working. `last_used_at` is written at most once a minute.
//
// audit_log.api_key_id names the key a change was made with (null for the web app), so the
// audit log tells a key's changes from its creator's own.

export const up = async (db: Kysely<unknown>) => {
  await sql`
    create table api_keys (
      ${keyColumns(true)},
      name text not null check (length(name) between 1 and 100),
      prefix text not null,
      hash text not null unique,
      scopes jsonb not null check (jsonb_typeof(scopes) = 'array' and jsonb_array_length(scopes) > 0),
      expires_at timestamptz,
      last_used_at timestamptz,
      revoked_at timestamptz,
      created_by text references "user" ("id") on delete set null,
      ${createdColumns({})},
      primary key (organization_id, id)
    )`.execute(db);
  await sql`create index api_keys_created_by_idx on api_keys (created_by)`.execute(db);
  await sql`alter table audit_log add column api_key_id text`.execute(db);
};

export const down = async (db: Kysely<unknown>) => {
  await sql`alter table audit_log drop column api_key_id`.execute(db);
  await sql`drop table if exists api_keys`.execute(db);
};
