import { type Kysely, sql } from 'kysely';

// Notifications (issue 17): what a user is told about (in the app's bell, by email, by Web
// Push), the browsers that asked for Web Push, the sign-in history that decides "new device",
// and each company's large-transaction threshold. A notification belongs to one user; a
// company event's rows also name the company (deleted with it). `dedupe_key` is unique per
// user, so an event that is retried or seen twice (the overdue runner every day) notifies once.
// A row with `in_app = false` is the record that an email went out for an event whose push
// channel was off: it keeps the dedupe key and never shows in the bell.

export const up = async (db: Kysely<unknown>) => {
  await sql`
    create table notifications (
      id text primary key default gen_random_uuid()::text,
      user_id text not null references "user" ("id") on delete cascade,
      organization_id text references organizations (id) on delete cascade,
      category text not null check (category in ('transactions', 'invoices', 'payments', 'security')),
      kind text not null,
      title text not null,
      body text not null,
      link text not null,
      dedupe_key text not null,
      in_app boolean not null,
      emailed boolean not null default false,
      read_at timestamptz,
      unread smallint generated always as (case when read_at is null then 1 else 0 end) stored,
      created_at timestamptz not null default now(),
      unique (user_id, dedupe_key)
    )`.execute(db);
  await sql`create index notifications_user_newest_idx on notifications (user_id, created_at desc, id desc) where in_app`.execute(
    db,
  );
  await sql`create index notifications_user_unread_idx on notifications (user_id, unread desc, created_at desc, id desc) where in_app`.execute(
    db,
  );
  await sql`create index notifications_organization_idx on notifications (organization_id)`.execute(db);

  await sql`
    create table push_subscriptions (
      id text primary key default gen_random_uuid()::text,
      user_id text not null references "user" ("id") on delete cascade,
      endpoint text not null unique,
      p256dh text not null,
      auth text not null,
      user_agent text,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index push_subscriptions_user_idx on push_subscriptions (user_id)`.execute(db);

  await sql`
    create table sign_in_events (
      id text primary key default gen_random_uuid()::text,
      user_id text not null references "user" ("id") on delete cascade,
      session_id text,
      ip text,
      user_agent text,
      device text not null,
      device_key text not null,
      new_device boolean not null,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index sign_in_events_user_idx on sign_in_events (user_id, created_at desc, id desc)`.execute(
    db,
  );
  await sql`create index sign_in_events_device_idx on sign_in_events (user_id, device_key)`.execute(db);

  await sql`
    create table notification_settings (
      organization_id text primary key references organizations (id) on delete cascade,
      large_transaction_units integer not null check (large_transaction_units > 0),
      updated_at timestamptz not null default now()
    )`.execute(db);
};

export const down = async (db: Kysely<unknown>) => {
  await sql`drop table notification_settings`.execute(db);
  await sql`drop table sign_in_events`.execute(db);
  await sql`drop table push_subscriptions`.execute(db);
  await sql`drop table notifications`.execute(db);
};
