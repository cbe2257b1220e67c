import { type Kysely, sql } from 'kysely';
import { keyColumns, companyRefs, dropTables, createdColumns } from '../migrations-helpers.ts';

// Invoicing: customers, items, tax rates, invoices and their lines, payments, credit notes,
// the tax postings behind the sales tax report, recurring schedules and their runs, and
// per-company invoice settings. Money is bigint minor units; quantities and percentages are
// exact decimal text. Every table leads with organization_id, and references to another
// row of the company are composite (organization_id, id), so a row can never point into
// another company.

export const up = async (db: Kysely<unknown>) => {
  // The company's details printed on invoices. Nullable columns on organizations (the
  // companies module does not keep them); `if not exists` in case it adds them later.
  await sql`alter table organizations add column if not exists address text`.execute(db);
  await sql`alter table organizations add column if not exists tax_number text`.execute(db);
  await sql`alter table organizations add column if not exists logo_data bytea`.execute(db);
  await sql`alter table organizations add column if not exists logo_content_type text`.execute(db);

  await sql`
    create table invoice_settings (
      organization_id text primary key references organizations (id) on delete cascade,
      invoice_prefix text not null default 'INV-',
      -- Taken with update ... returning when an invoice is sent, so numbers are gap-free.
      next_invoice_number integer not null default 1 check (next_invoice_number > 0),
      credit_note_prefix text not null default 'CN-',
      next_credit_note_number integer not null default 1 check (next_credit_note_number > 0),
      default_terms text not null default '',
      default_notes text not null default '',
      updated_at timestamptz not null default now()
    )`.execute(db);

  await sql`
    create table customers (
      ${keyColumns(true)},
      name text not null check (length(name) between 1 and 200),
      company text not null default '',
      email text not null default '',
      phone text not null default '',
      billing_address text not null default '',
      tax_number text not null default '',
      currency char(3) not null,
      payment_terms_days integer not null default 30 check (payment_terms_days between 0 and 365),
      notes text not null default '',
      archived_at timestamptz,
      ${createdColumns({ updated: true })},
      primary key (organization_id, id)
    )`.execute(db);
  await sql`create index customers_name on customers (organization_id, lower(name))`.execute(db);

  await sql`
    create table tax_rates (
      ${keyColumns(true)},
      name text not null check (length(name) between 1 and 100),
      -- Exact decimal text, 0-100: what the company typed, never a float.
      percent text not null check (percent ~ '^[0-9]{1,3}(\\.[0-9]{1,4})?$'),
      account_id text not null,
      inclusive boolean not null default false,
      compound boolean not null default false,
      archived_at timestamptz,
      created_at timestamptz not null default now(),
      primary key (organization_id, id),
      ${companyRefs({ account_id: 'accounts' })}
    )`.execute(db);

  await sql`
    create table items (
      ${keyColumns(true)},
      name text not null check (length(name) between 1 and 200),
      description text not null default '',
      unit_price bigint not null check (unit_price >= 0),
      income_account_id text not null,
      tax_rate_id text,
      archived_at timestamptz,
      ${createdColumns({ updated: true })},
      primary key (organization_id, id),
      ${companyRefs({ income_account_id: 'accounts', tax_rate_id: 'tax_rates' })}
    )`.execute(db);
  await sql`create index items_name on items (organization_id, lower(name))`.execute(db);

  await sql`
    create table recurring_schedules (
      ${keyColumns(true)},
      customer_id text not null,
      frequency text not null check (frequency in ('weekly', 'monthly', 'quarterly', 'yearly')),
      start_date date not null,
      end_date date,
      max_count integer check (max_count > 0),
      auto_send boolean not null default false,
      status text not null default 'active' check (status in ('active', 'paused', 'ended')),
      -- The next occurrence to create, counted from start_date (0-based).
      next_index integer not null default 0,
      next_date date,
      currency char(3) not null,
      exchange_rate text not null default '1',
      payment_terms_days integer not null check (payment_terms_days between 0 and 365),
      reference text not null default '',
      notes text not null default '',
      terms text not null default '',
      lines jsonb not null,
      ${createdColumns({ by: true, updated: true })},
      primary key (organization_id, id),
      ${companyRefs({ customer_id: 'customers' })}
    )`.execute(db);
  await sql`create index recurring_schedules_due on recurring_schedules (next_date) where status = 'active'`.execute(
    db,
  );

  await sql`
    create table invoices (
      ${keyColumns(true)},
      -- Given when the invoice is sent; drafts have none, so deleting a draft leaves no gap.
      number text,
      customer_id text not null,
      issue_date date not null,
      due_date date not null check (due_date >= issue_date),
      currency char(3) not null,
      exchange_rate text not null default '1',
      reference text not null default '',
      notes text not null default '',
      terms text not null default '',
      status text not null default 'draft' check (status in ('draft', 'sent', 'partially_paid', 'paid', 'void')),
      subtotal bigint not null default 0,
      discount_total bigint not null default 0,
      tax_total bigint not null default 0,
      total bigint not null default 0 check (total >= 0),
      amount_paid bigint not null default 0 check (amount_paid >= 0),
      amount_credited bigint not null default 0 check (amount_credited >= 0),
      amount_due bigint generated always as (total - amount_paid - amount_credited) stored,
      -- Base-currency receivable posted, and what of it is still open.
      total_base bigint not null default 0,
      balance_base bigint not null default 0,
      journal_entry_id text,
      void_entry_id text,
      voided_at timestamptz,
      sent_at timestamptz,
      emailed_at timestamptz,
      recurring_schedule_id text,
      ${createdColumns({ by: true, updated: true })},
      primary key (organization_id, id),
      ${companyRefs({ customer_id: 'customers', journal_entry_id: 'journal_entries', void_entry_id: 'journal_entries', recurring_schedule_id: 'recurring_schedules' })},
      check (amount_paid + amount_credited <= total),
      check ((status = 'draft') = (number is null)),
      check ((status = 'draft') = (journal_entry_id is null))
    )`.execute(db);
  await sql`create unique index invoices_number on invoices (organization_id, number) where number is not null`.execute(
    db,
  );
  await sql`create index invoices_issue_date on invoices (organization_id, issue_date desc, id desc)`.execute(
    db,
  );
  await sql`create index invoices_status_due on invoices (organization_id, status, due_date)`.execute(db);
  await sql`create index invoices_customer on invoices (organization_id, customer_id, issue_date)`.execute(
    db,
  );

  // Lines of invoices and of credit notes (document_id is either).
  await sql`
    create table invoice_lines (
      organization_id text not null,
      document_id text not null,
      line_no smallint not null check (line_no > 0),
      item_id text,
      description text not null default '',
      quantity text not null,
      unit_price bigint not null check (unit_price >= 0),
      discount_percent text not null default '0',
      tax_rate_ids jsonb not null default '[]',
      account_id text not null,
      gross bigint not null,
      discount bigint not null,
      net bigint not null,
      tax bigint not null,
      total bigint not null,
      taxes jsonb not null default '[]',
      primary key (organization_id, document_id, line_no),
      ${companyRefs({ account_id: 'accounts', item_id: 'items' })}
    )`.execute(db);

  await sql`
    create table invoice_payments (
      ${keyColumns(false)},
      invoice_id text not null,
      date date not null,
      amount bigint not null check (amount > 0),
      currency char(3) not null,
      exchange_rate text not null default '1',
      -- The receivable cleared (at the invoice's rate) and the cash received (at the
      -- payment's rate), both in the base currency; the difference is an exchange gain or loss.
      amount_base bigint not null,
      deposit_base bigint not null,
      deposit_account_id text not null,
      method text not null,
      reference text not null default '',
      journal_entry_id text not null,
      reversal_entry_id text,
      reversed_at timestamptz,
      ${createdColumns({ by: true })},
      primary key (organization_id, id),
      ${companyRefs({ invoice_id: 'invoices', deposit_account_id: 'accounts', journal_entry_id: 'journal_entries', reversal_entry_id: 'journal_entries' })}
    )`.execute(db);
  await sql`create index invoice_payments_invoice on invoice_payments (organization_id, invoice_id)`.execute(
    db,
  );

  await sql`
    create table credit_notes (
      ${keyColumns(false)},
      number text not null,
      invoice_id text not null,
      date date not null,
      reason text not null default '',
      status text not null default 'issued' check (status in ('issued', 'void')),
      subtotal bigint not null,
      tax_total bigint not null,
      total bigint not null check (total > 0),
      currency char(3) not null,
      exchange_rate text not null default '1',
      amount_base bigint not null,
      journal_entry_id text not null,
      void_entry_id text,
      ${createdColumns({ by: true })},
      primary key (organization_id, id),
      ${companyRefs({ invoice_id: 'invoices', journal_entry_id: 'journal_entries' })}
    )`.execute(db);
  await sql`create unique index credit_notes_number on credit_notes (organization_id, number)`.execute(db);
  await sql`create index credit_notes_invoice on credit_notes (organization_id, invoice_id)`.execute(db);

  // What each document posted to each tax rate, in the base currency (credit notes negative):
  // the sales tax report reads this, and it adds up to the tax accounts' movements.
  await sql`
    create table invoice_tax_postings (
      organization_id text not null,
      document_id text not null,
      tax_rate_id text not null,
      date date not null,
      taxable_base bigint not null,
      tax_base bigint not null,
      primary key (organization_id, document_id, tax_rate_id),
      ${companyRefs({ tax_rate_id: 'tax_rates' })}
    )`.execute(db);
  await sql`create index invoice_tax_postings_date on invoice_tax_postings (organization_id, date)`.execute(
    db,
  );

  // One row per schedule and occurrence: the primary key is what stops a catch-up run, or
  // two servers running at once, from creating the same period's invoice twice.
  await sql`
    create table recurring_runs (
      organization_id text not null,
      schedule_id text not null,
      occurrence_date date not null,
      invoice_id text not null,
      created_at timestamptz not null default now(),
      primary key (organization_id, schedule_id, occurrence_date),
      ${companyRefs({ schedule_id: 'recurring_schedules', invoice_id: 'invoices cascade' })}
    )`.execute(db);

  // The history shown on an invoice (the audit log keeps the full before/after).
  await sql`
    create table invoice_events (
      ${keyColumns(false)},
      invoice_id text not null,
      kind text not null,
      message text not null,
      actor_user_id text,
      created_at timestamptz not null default now(),
      -- Insertion order: several events can share one instant (one transaction, a fixed clock).
      seq bigint generated always as identity,
      primary key (organization_id, id),
      ${companyRefs({ invoice_id: 'invoices cascade' })}
    )`.execute(db);
  await sql`create index invoice_events_invoice on invoice_events (organization_id, invoice_id, created_at)`.execute(
    db,
  );
};

export const down = async (db: Kysely<unknown>) => {
  await dropTables(db, [
    'invoice_events',
    'recurring_runs',
    'invoice_tax_postings',
    'credit_notes',
    'invoice_payments',
    'invoice_lines',
    'invoices',
    'recurring_schedules',
    'items',
    'tax_rates',
    'customers',
    'invoice_settings',
  ]);
  for (const column of ['address', 'tax_number', 'logo_data', 'logo_content_type']) {
    await sql`alter table organizations drop column if exists ${sql.id(column)}`.execute(db);
  }
};
