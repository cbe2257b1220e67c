import { type Kysely, sql } from 'kysely';
import { companyRefs, createdColumns, dropTables, keyColumns } from '../migrations-helpers.ts';

// Accounts payable (issue 15): suppliers, bills and their lines, approval, payments (one by
// one or in a batch that is one cash movement), supplier credits (applied to bills or
// refunded), recurring bill schedules and their runs, the purchase-tax postings behind the tax
// report, a bill's history and its attachments (the supplier's PDF or photo), and the bank
// lines matched to bills. The payables module owns these tables; the ledger posts every
// amount (Cr accounts payable when a bill is approved, Dr accounts payable when it is paid or
// credited). Money is bigint minor units, quantities and percentages exact decimal text, and
// every reference to another row of the company is composite (organization_id, id).

export const up = async (db: Kysely<unknown>) => {
  // Per company: the approval threshold (a bill whose total in the base currency is above it
  // needs an accountant or admin; null means no bill needs approval) and the bill numbering.
  await sql`
    create table payables_settings (
      organization_id text primary key references organizations (id) on delete cascade,
      approval_threshold bigint check (approval_threshold >= 0),
      bill_prefix text not null default 'BILL-',
      next_bill_number integer not null default 1 check (next_bill_number > 0),
      credit_prefix text not null default 'SC-',
      next_credit_number integer not null default 1 check (next_credit_number > 0),
      updated_at timestamptz not null default now()
    )`.execute(db);

  await sql`
    create table suppliers (
      ${keyColumns(true)},
      name text not null check (length(name) between 1 and 200),
      company text not null default '',
      email text not null default '',
      phone text not null default '',
      address text not null default '',
      tax_number text not null default '',
      currency char(3) not null,
      payment_terms_days integer not null default 30 check (payment_terms_days between 0 and 365),
      default_account_id text,
      default_tax_rate_id text,
      -- Where the company pays the supplier: account holder, account number or IBAN, and the
      -- bank's code (sort code, routing number or BIC).
      bank_account_name text not null default '',
      bank_account_number text not null default '',
      bank_code text not null default '',
      notes text not null default '',
      archived_at timestamptz,
      ${createdColumns({ updated: true })},
      primary key (organization_id, id),
      ${companyRefs({ default_account_id: 'accounts', default_tax_rate_id: 'tax_rates' })}
    )`.execute(db);
  await sql`create index suppliers_name on suppliers (organization_id, lower(name))`.execute(db);

  await sql`
    create table bill_schedules (
      ${keyColumns(true)},
      supplier_id text not null,
      frequency text not null check (frequency in ('weekly', 'monthly', 'quarterly', 'yearly')),
      start_date date not null,
      end_date date,
      max_count integer check (max_count > 0),
      -- Submit each bill as it is created (it is then open, or awaiting approval above the
      -- threshold); otherwise it waits as a draft.
      auto_submit boolean not null default false,
      status text not null default 'active' check (status in ('active', 'paused', 'ended')),
      next_index integer not null default 0,
      next_date date,
      currency char(3) not null,
      exchange_rate text not null default '1',
      payment_terms_days integer not null check (payment_terms_days between 0 and 365),
      reference text not null default '',
      notes text not null default '',
      lines jsonb not null,
      ${createdColumns({ by: true, updated: true })},
      primary key (organization_id, id),
      ${companyRefs({ supplier_id: 'suppliers' })}
    )`.execute(db);
  await sql`create index bill_schedules_due on bill_schedules (next_date) where status = 'active'`.execute(
    db,
  );

  await sql`
    create table bills (
      ${keyColumns(true)},
      -- The company's own number (BILL-0001), given when the bill is created.
      number text not null,
      supplier_id text not null,
      -- The supplier's invoice number: with the supplier, what duplicate detection compares.
      reference text not null default '',
      issue_date date not null,
      due_date date not null check (due_date >= issue_date),
      currency char(3) not null,
      exchange_rate text not null default '1',
      notes text not null default '',
      status text not null default 'draft'
        check (status in ('draft', 'awaiting_approval', 'open', 'partially_paid', 'paid', 'void')),
      subtotal bigint not null default 0,
      discount_total bigint not null default 0,
      tax_total bigint not null default 0,
      total bigint not null default 0 check (total >= 0),
      amount_paid bigint not null default 0 check (amount_paid >= 0),
      amount_credited bigint not null default 0 check (amount_credited >= 0),
      amount_due bigint generated always as (total - amount_paid - amount_credited) stored,
      -- Base-currency payable posted, and what of it is still open.
      total_base bigint not null default 0,
      balance_base bigint not null default 0,
      journal_entry_id text,
      void_entry_id text,
      voided_at timestamptz,
      submitted_at timestamptz,
      submitted_by text,
      approved_at timestamptz,
      approved_by text,
      schedule_id text,
      ${createdColumns({ by: true, updated: true })},
      primary key (organization_id, id),
      ${companyRefs({ supplier_id: 'suppliers', journal_entry_id: 'journal_entries', void_entry_id: 'journal_entries', schedule_id: 'bill_schedules' })},
      check (amount_paid + amount_credited <= total),
      check ((status in ('draft', 'awaiting_approval')) = (journal_entry_id is null))
    )`.execute(db);
  await sql`create unique index bills_number on bills (organization_id, number)`.execute(db);
  // Duplicate detection's backstop: one live bill per supplier and supplier reference.
  await sql`
    create unique index bills_supplier_reference on bills (organization_id, supplier_id, lower(reference))
     where reference <> '' and status <> 'void'`.execute(db);
  await sql`create index bills_issue_date on bills (organization_id, issue_date desc, id desc)`.execute(db);
  await sql`create index bills_status_due on bills (organization_id, status, due_date)`.execute(db);
  await sql`create index bills_supplier on bills (organization_id, supplier_id, issue_date)`.execute(db);
  await sql`
    create index bills_open_amount on bills (organization_id, amount_due)
     where status in ('open', 'partially_paid')`.execute(db);

  // Lines of bills and of supplier credits (document_id is either); the same columns as
  // invoice_lines, so one calculation (shared/invoice-calc.ts) serves both sides.
  await sql`
    create table bill_lines (
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

  // A batch payment: several bills paid at once from one money account, one journal entry
  // (Dr accounts payable per bill, Cr the money account once) and one register line.
  await sql`
    create table bill_payment_batches (
      ${keyColumns(false)},
      date date not null,
      payment_account_id text not null,
      currency char(3) not null,
      total bigint not null check (total > 0),
      bill_count integer not null check (bill_count > 0),
      reference text not null default '',
      journal_entry_id text not null,
      reversal_entry_id text,
      reversed_at timestamptz,
      ${createdColumns({ by: true })},
      primary key (organization_id, id),
      ${companyRefs({ payment_account_id: 'accounts', journal_entry_id: 'journal_entries', reversal_entry_id: 'journal_entries' })}
    )`.execute(db);

  await sql`
    create table bill_payments (
      ${keyColumns(false)},
      bill_id text not null,
      batch_id text,
      date date not null,
      amount bigint not null check (amount > 0),
      currency char(3) not null,
      exchange_rate text not null default '1',
      -- The payable cleared (at the bill's rate) and the cash paid (at the payment's rate),
      -- both in the base currency; the difference is a realised exchange gain or loss.
      amount_base bigint not null,
      paid_base bigint not null,
      payment_account_id text not null,
      method text not null,
      reference text not null default '',
      journal_entry_id text not null,
      reversal_entry_id text,
      reversed_at timestamptz,
      ${createdColumns({ by: true })},
      primary key (organization_id, id),
      ${companyRefs({ bill_id: 'bills', batch_id: 'bill_payment_batches', payment_account_id: 'accounts', journal_entry_id: 'journal_entries', reversal_entry_id: 'journal_entries' })}
    )`.execute(db);
  await sql`create index bill_payments_bill on bill_payments (organization_id, bill_id)`.execute(db);
  await sql`create index bill_payments_batch on bill_payments (organization_id, batch_id) where batch_id is not null`.execute(
    db,
  );

  // A supplier credit (their credit note): Dr accounts payable, Cr the expense and input tax it
  // takes back. What is left of it is applied to the supplier's bills or refunded in cash.
  await sql`
    create table supplier_credits (
      ${keyColumns(true)},
      number text not null,
      supplier_id text not null,
      reference text not null default '',
      date date not null,
      currency char(3) not null,
      exchange_rate text not null default '1',
      reason text not null default '',
      status text not null default 'issued' check (status in ('issued', 'void')),
      subtotal bigint not null,
      discount_total bigint not null default 0,
      tax_total bigint not null,
      total bigint not null check (total > 0),
      amount_applied bigint not null default 0 check (amount_applied >= 0),
      amount_refunded bigint not null default 0 check (amount_refunded >= 0),
      amount_left bigint generated always as (total - amount_applied - amount_refunded) stored,
      total_base bigint not null,
      journal_entry_id text not null,
      void_entry_id text,
      voided_at timestamptz,
      ${createdColumns({ by: true, updated: true })},
      primary key (organization_id, id),
      ${companyRefs({ supplier_id: 'suppliers', journal_entry_id: 'journal_entries', void_entry_id: 'journal_entries' })},
      check (amount_applied + amount_refunded <= total)
    )`.execute(db);
  await sql`create unique index supplier_credits_number on supplier_credits (organization_id, number)`.execute(
    db,
  );
  await sql`create index supplier_credits_supplier on supplier_credits (organization_id, supplier_id, date)`.execute(
    db,
  );

  // A credit applied to a bill: no cash, no posting of its own (both sides are accounts
  // payable for the same supplier); amount_base is the payable it cleared on the bill.
  await sql`
    create table supplier_credit_allocations (
      ${keyColumns(false)},
      credit_id text not null,
      bill_id text not null,
      date date not null,
      amount bigint not null check (amount > 0),
      amount_base bigint not null,
      reversed_at timestamptz,
      ${createdColumns({ by: true })},
      primary key (organization_id, id),
      ${companyRefs({ credit_id: 'supplier_credits', bill_id: 'bills' })}
    )`.execute(db);
  await sql`create index supplier_credit_allocations_bill on supplier_credit_allocations (organization_id, bill_id)`.execute(
    db,
  );
  await sql`create index supplier_credit_allocations_credit on supplier_credit_allocations (organization_id, credit_id)`.execute(
    db,
  );

  // The supplier paid a credit back: Dr the money account, Cr accounts payable.
  await sql`
    create table supplier_credit_refunds (
      ${keyColumns(false)},
      credit_id text not null,
      date date not null,
      amount bigint not null check (amount > 0),
      amount_base bigint not null,
      payment_account_id text not null,
      reference text not null default '',
      journal_entry_id text not null,
      reversal_entry_id text,
      reversed_at timestamptz,
      ${createdColumns({ by: true })},
      primary key (organization_id, id),
      ${companyRefs({ credit_id: 'supplier_credits', payment_account_id: 'accounts', journal_entry_id: 'journal_entries', reversal_entry_id: 'journal_entries' })}
    )`.execute(db);
  await sql`create index supplier_credit_refunds_credit on supplier_credit_refunds (organization_id, credit_id)`.execute(
    db,
  );

  // What each bill (+) and supplier credit (−) posted to each tax rate, in the base currency:
  // the purchase side of the tax report, adding up to the input tax the documents posted.
  await sql`
    create table bill_tax_postings (
      organization_id text not null,
      document_id text not null,
      tax_rate_id text not null,
      date date not null,
      taxable_base bigint not null,
      tax_base bigint not null,
      primary key (organization_id, document_id, tax_rate_id),
      ${companyRefs({ tax_rate_id: 'tax_rates' })}
    )`.execute(db);
  await sql`create index bill_tax_postings_date on bill_tax_postings (organization_id, date)`.execute(db);

  // One row per schedule and occurrence, so a catch-up run or two servers never create one
  // period's bill twice.
  await sql`
    create table bill_schedule_runs (
      organization_id text not null,
      schedule_id text not null,
      occurrence_date date not null,
      bill_id text not null,
      created_at timestamptz not null default now(),
      primary key (organization_id, schedule_id, occurrence_date),
      ${companyRefs({ schedule_id: 'bill_schedules', bill_id: 'bills cascade' })}
    )`.execute(db);

  await sql`
    create table bill_events (
      ${keyColumns(false)},
      bill_id text not null,
      kind text not null,
      message text not null,
      actor_user_id text,
      created_at timestamptz not null default now(),
      seq bigint generated always as identity,
      primary key (organization_id, id),
      ${companyRefs({ bill_id: 'bills cascade' })}
    )`.execute(db);
  await sql`create index bill_events_bill on bill_events (organization_id, bill_id, created_at)`.execute(db);

  // The supplier's PDF or photo of the bill: the attachment module's columns (decision 0015).
  await sql`
    create table bill_attachments (
      ${keyColumns(false)},
      bill_id text not null,
      file_name text not null,
      content_type text not null,
      size_bytes integer not null check (size_bytes > 0),
      sha256 text not null,
      data bytea not null,
      ${createdColumns({ by: true })},
      primary key (organization_id, id),
      ${companyRefs({ bill_id: 'bills cascade' })}
    )`.execute(db);
  await sql`create index bill_attachments_bill on bill_attachments (organization_id, bill_id)`.execute(db);

  // A money-out bank line matched to the bills it pays (as bank_transaction_matches does for
  // invoices): the match re-posts the line's suspense leg to accounts payable and the bill
  // payments point at that entry. previous_entry_id is the line's entry before the match.
  await sql`
    create table bank_transaction_bill_matches (
      ${keyColumns(false)},
      transaction_id text not null,
      bill_id text not null,
      payment_id text not null,
      amount bigint not null check (amount > 0),
      previous_entry_id text not null,
      ${createdColumns({ by: true })},
      primary key (organization_id, id),
      ${companyRefs({ transaction_id: 'bank_transactions', bill_id: 'bills', payment_id: 'bill_payments', previous_entry_id: 'journal_entries' })}
    )`.execute(db);
  await sql`
    create unique index bank_transaction_bill_matches_payment
      on bank_transaction_bill_matches (organization_id, payment_id)`.execute(db);
  await sql`
    create index bank_transaction_bill_matches_transaction
      on bank_transaction_bill_matches (organization_id, transaction_id)`.execute(db);
};

export const down = async (db: Kysely<unknown>) => {
  await dropTables(db, [
    'bank_transaction_bill_matches',
    'bill_attachments',
    'bill_events',
    'bill_schedule_runs',
    'bill_tax_postings',
    'supplier_credit_refunds',
    'supplier_credit_allocations',
    'supplier_credits',
    'bill_payments',
    'bill_payment_batches',
    'bill_lines',
    'bills',
    'bill_schedules',
    'suppliers',
    'payables_settings',
  ]);
};
