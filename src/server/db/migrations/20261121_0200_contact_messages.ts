import { type Kysely, sql } from 'kysely';

// Messages sent through the public contact form. Not tenant data: a visitor writes before
// any company exists, so there is no organization_id.

export const up = async (db: Kysely<unknown>) => {
  await sql`
    create table contact_messages (
      id uuid primary key default gen_random_uuid(),
      name text not null,
      email text not null,
      company text not null default '',
      message text not null,
      ip text,
      user_agent text,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index contact_messages_created_at on contact_messages (created_at desc)`.execute(db);
};

export const down = async (db: Kysely<unknown>) => {
  await sql`drop table contact_messages`.execute(db);
};
