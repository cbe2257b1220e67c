import { type Kysely, sql } from 'kysely';
import { dropTables } from '../migrations-helpers.ts';

// Billing and the platform admin console (issue 16). The paying party is the user who owns
// companies (the "account"): one billing_accounts row per user, made at sign-up with a
// 14-day trial on the plan chosen on the pricing page. The subscription's state mirrors the
// provider's (Stripe, or the built-in local provider); provider events are stored by id so a
// webhook delivered twice is applied once, and `state_changed_at` (the provider's time of the
// last applied change) lets an older event arriving late be recorded and skipped. Promo codes
// gain kinds (plan access, trial extension, discount); contact messages gain read/replied
// state; platform admins and their actions get tables of their own (an admin action is not a
// company's, so it is not in audit_log, whose rows all belong to a company).

export const up = async (db: Kysely<unknown>) => {
  await sql`
    create table billing_accounts (
      user_id text primary key references "user" ("id") on delete cascade,
      plan text not null check (plan in ('personal', 'business', 'enterprise')),
      "interval" text not null check ("interval" in ('monthly', 'yearly')),
      status text not null default 'trialing'
        check (status in ('trialing', 'active', 'past_due', 'canceled', 'unpaid', 'incomplete')),
      trial_ends_at timestamptz not null,
      provider text not null default 'local' check (provider in ('local', 'stripe')),
      customer_id text,
      subscription_id text,
      current_period_end timestamptz,
      cancel_at_period_end boolean not null default false,
      canceled_at timestamptz,
      -- The card on file as the provider reports it: { brand, last4, expMonth, expYear }.
      payment_method jsonb,
      -- A redeemed discount code, applied at the next checkout (percent off, 1-100).
      discount_code text,
      percent_off integer check (percent_off between 1 and 100),
      -- A redeemed plan-access code: that plan without paying, until granted_until (null: no end).
      granted_plan text check (granted_plan in ('personal', 'business', 'enterprise')),
      granted_until timestamptz,
      state_changed_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create unique index billing_accounts_subscription on billing_accounts (provider, subscription_id)
    where subscription_id is not null`.execute(db);
  await sql`create unique index billing_accounts_customer on billing_accounts (provider, customer_id)
    where customer_id is not null`.execute(db);
  await sql`create index billing_accounts_trial_end on billing_accounts (trial_ends_at)`.execute(db);

  // Every provider event applied (or skipped as stale), by its id: a replay is a no-op.
  await sql`
    create table billing_events (
      provider text not null,
      event_id text not null,
      type text not null,
      user_id text references "user" ("id") on delete set null,
      event_created_at timestamptz not null,
      outcome text not null check (outcome in ('applied', 'stale', 'ignored')),
      received_at timestamptz not null default now(),
      primary key (provider, event_id)
    )`.execute(db);

  // The provider's invoices for an account (the billing page's history with PDF links).
  await sql`
    create table billing_invoices (
      provider text not null,
      id text not null,
      user_id text not null references "user" ("id") on delete cascade,
      number text not null default '',
      status text not null check (status in ('draft', 'open', 'paid', 'void', 'uncollectible')),
      currency char(3) not null,
      amount_due bigint not null check (amount_due >= 0),
      amount_paid bigint not null check (amount_paid >= 0),
      description text not null default '',
      period_start timestamptz,
      period_end timestamptz,
      hosted_url text,
      pdf_url text,
      created_at timestamptz not null,
      primary key (provider, id)
    )`.execute(db);
  await sql`create index billing_invoices_user on billing_invoices (user_id, created_at desc)`.execute(db);

  // The built-in local provider's checkout sessions (its stand-in for Stripe Checkout).
  await sql`
    create table billing_checkouts (
      id text primary key,
      user_id text not null references "user" ("id") on delete cascade,
      plan text not null check (plan in ('personal', 'business', 'enterprise')),
      "interval" text not null check ("interval" in ('monthly', 'yearly')),
      percent_off integer check (percent_off between 1 and 100),
      status text not null default 'open'
        check (status in ('open', 'requires_action', 'complete', 'failed', 'expired')),
      failure text,
      created_at timestamptz not null default now(),
      completed_at timestamptz
    )`.execute(db);
  await sql`create index billing_checkouts_user on billing_checkouts (user_id, created_at desc)`.execute(db);

  await sql`alter table promo_codes
    add column kind text not null default 'plan_access'
      check (kind in ('plan_access', 'trial_extension', 'discount')),
    add column trial_days integer check (trial_days between 1 and 365),
    add column percent_off integer check (percent_off between 1 and 100),
    add column access_days integer check (access_days between 1 and 3650),
    add column updated_at timestamptz not null default now(),
    add constraint promo_codes_kind_fields check (
      (kind <> 'trial_extension' or trial_days is not null) and
      (kind <> 'discount' or percent_off is not null))`.execute(db);
  await sql`alter table promo_redemptions add column kind text not null default 'plan_access'`.execute(db);

  await sql`alter table contact_messages
    add column read_at timestamptz,
    add column replied_at timestamptz`.execute(db);
  await sql`create index contact_messages_created on contact_messages (created_at desc)`.execute(db);

  // Platform admins granted with `npm run admin -- grant EMAIL` (ADMIN_EMAILS adds more from
  // the environment without a row).
  await sql`
    create table platform_admins (
      user_id text primary key references "user" ("id") on delete cascade,
      granted_by text,
      granted_at timestamptz not null default now()
    )`.execute(db);

  // What platform admins did: who (kept when the admin's account is deleted), what, to what.
  await sql`
    create table admin_audit_log (
      id bigint generated always as identity primary key,
      admin_user_id text not null,
      admin_email text not null,
      action text not null,
      target_type text not null,
      target_id text not null,
      details jsonb,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index admin_audit_log_created on admin_audit_log (created_at desc)`.execute(db);

  // The admin console's cross-company audit search (by user, by action, by date).
  await sql`create index audit_log_created on audit_log (created_at desc)`.execute(db);
  await sql`create index audit_log_actor on audit_log (actor_user_id, created_at desc)`.execute(db);
};

export const down = async (db: Kysely<unknown>) => {
  await sql`drop index audit_log_actor`.execute(db);
  await sql`drop index audit_log_created`.execute(db);
  await sql`drop index contact_messages_created`.execute(db);
  await sql`alter table contact_messages drop column read_at, drop column replied_at`.execute(db);
  await sql`alter table promo_redemptions drop column kind`.execute(db);
  await sql`alter table promo_codes drop constraint promo_codes_kind_fields,
    drop column kind, drop column trial_days, drop column percent_off, drop column access_days,
    drop column updated_at`.execute(db);
  await dropTables(db, [
    'admin_audit_log',
    'platform_admins',
    'billing_checkouts',
    'billing_invoices',
    'billing_events',
    'billing_accounts',
  ]);
};
