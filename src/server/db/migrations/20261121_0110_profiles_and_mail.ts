import { type Kysely, sql } from 'kysely';

// User profiles (SPEC section 3) and the mail outbox. Neither is company data: a profile
// belongs to one user across companies, and mail is addressed to people, so neither
// carries organization_id. Access rules live in the services (a user reads only their own).

export const up = async (db: Kysely<unknown>) => {
  await sql`
    create table user_profiles (
      user_id text primary key references "user" ("id") on delete cascade,
      email text not null,
      first_name text not null default '',
      last_name text not null default '',
      display_name text not null default '',
      phone text not null default '',
      company text not null default '',
      role text not null default '',
      timezone text not null default 'UTC',
      photo_url text not null default '',
      is_active boolean not null default true,
      preferences jsonb not null,
      security jsonb not null,
      created_at timestamptz not null default now(),
      last_login_at timestamptz,
      updated_at timestamptz not null default now()
    )`.execute(db);

  await sql`
    create table mail_outbox (
      id uuid primary key default gen_random_uuid(),
      to_address text not null,
      subject text not null,
      text_body text not null,
      html_body text,
      attachments jsonb not null default '[]'::jsonb,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index mail_outbox_to_created_idx on mail_outbox (to_address, created_at desc)`.execute(db);
};

export const down = async (db: Kysely<unknown>) => {
  await sql`drop table mail_outbox`.execute(db);
  await sql`drop table user_profiles`.execute(db);
};
