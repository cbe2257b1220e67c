import { type Kysely, sql } from 'kysely';
import {
  rowTrigger,
  statementTrigger,
  commitTrigger,
  entriesBalancedTrigger,
  createdColumns,
  keyColumns,
  companyRefs,
  refusePostedEntryChange,
  entriesImmutableTrigger,
  refusingFunction,
  keepBalancesFunction,
  keepBalancesTrigger,
  dropTables,
} from '../migrations-helpers.ts';

// The double-entry ledger: chart of accounts, journal entries, posted lines, kept monthly
// balances, fiscal-year closes, attachments, plus the generic idempotency-key table.
//
// Posted lines live in journal_lines and nothing there is ever updated or deleted; draft and
// pending entries keep their lines in journal_draft_lines until they post. The database
// itself refuses what the service refuses: an unbalanced posted entry (deferred constraint
// trigger, checked at commit), a change to a posted entry or line, a posting on or before the
// lock date, a line on another company's account (composite foreign key).

export const up = async (db: Kysely<unknown>) => {
  await sql`
    create table ledger_settings (
      organization_id text primary key references organizations (id) on delete cascade,
      lock_date date,
      approval_required boolean not null default false,
      -- The next posted entry's number. Posting takes it with update ... returning, which
      -- row-locks it, so numbers are gap-free and a racing lock-date change waits.
      next_entry_number bigint not null default 1 check (next_entry_number > 0),
      updated_at timestamptz not null default now()
    )`.execute(db);

  await sql`
    create table accounts (
      ${keyColumns(true)},
      code text not null check (length(code) between 1 and 20),
      name text not null check (length(name) between 1 and 120),
      type text not null check (type in ('asset', 'liability', 'equity', 'income', 'expense')),
      subtype text not null,
      parent_id text,
      currency char(3) not null,
      description text not null default '',
      system_key text,
      archived_at timestamptz,
      ${createdColumns({ updated: true })},
      primary key (organization_id, id),
      ${companyRefs({ parent_id: 'accounts' })}
    )`.execute(db);
  await sql`create unique index accounts_code on accounts (organization_id, code)`.execute(db);
  await sql`create unique index accounts_system_key on accounts (organization_id, system_key) where system_key is not null`.execute(
    db,
  );

  await sql`
    create table journal_entries (
      ${keyColumns(true)},
      number bigint,
      date date not null,
      memo text not null default '',
      reference text,
      source text not null check (source in ('manual', 'invoice', 'payment', 'bank', 'transfer', 'opening_balance', 'year_end_close', 'reversal')),
      source_id text,
      status text not null check (status in ('draft', 'pending_approval', 'posted')),
      reverses_entry_id text,
      -- Closing entries (and their reversals) move income and expense to retained earnings;
      -- the income statement and cash flow leave them out.
      is_closing boolean not null default false,
      created_by text,
      approved_by text,
      posted_by text,
      posted_at timestamptz,
      ${createdColumns({ updated: true })},
      primary key (organization_id, id),
      check ((status = 'posted') = (number is not null)),
      ${companyRefs({ reverses_entry_id: 'journal_entries' })}
    )`.execute(db);
  await sql`create unique index journal_entries_number on journal_entries (organization_id, number)`.execute(
    db,
  );
  await sql`create unique index journal_entries_reverses on journal_entries (organization_id, reverses_entry_id) where reverses_entry_id is not null`.execute(
    db,
  );
  await sql`create index journal_entries_date on journal_entries (organization_id, date, number)`.execute(db);
  await sql`create index journal_entries_source on journal_entries (organization_id, source, source_id) where source_id is not null`.execute(
    db,
  );
  await sql`create index journal_entries_status on journal_entries (organization_id, status) where status <> 'posted'`.execute(
    db,
  );

  // Lines of posted entries: insert-only. date, entry number and is_closing are copied from
  // the entry so reports and the general ledger read one table in index order.
  await sql`
    create table journal_lines (
      organization_id text not null,
      entry_id text not null,
      line_no smallint not null check (line_no > 0),
      account_id text not null,
      date date not null,
      entry_number bigint not null,
      is_closing boolean not null default false,
      debit bigint not null default 0,
      credit bigint not null default 0,
      currency char(3),
      amount bigint,
      rate numeric(24, 10),
      description text,
      contact_id text,
      primary key (organization_id, entry_id, line_no),
      ${companyRefs({ entry_id: 'journal_entries', account_id: 'accounts' })},
      check (debit >= 0 and credit >= 0),
      check ((debit > 0) <> (credit > 0)),
      check ((currency is null) = (amount is null) and (currency is null) = (rate is null)),
      check (amount is null or amount >= 0),
      check (rate is null or rate > 0)
    )`.execute(db);
  await sql`create index journal_lines_account on journal_lines (organization_id, account_id, date, entry_number, line_no)`.execute(
    db,
  );
  await sql`create index journal_lines_date on journal_lines (organization_id, date)`.execute(db);

  await sql`
    create table journal_draft_lines (
      organization_id text not null,
      entry_id text not null,
      line_no smallint not null check (line_no > 0),
      account_id text not null,
      debit bigint not null default 0,
      credit bigint not null default 0,
      currency char(3),
      amount bigint,
      rate numeric(24, 10),
      description text,
      contact_id text,
      primary key (organization_id, entry_id, line_no),
      ${companyRefs({ entry_id: 'journal_entries cascade', account_id: 'accounts' })},
      check (debit >= 0 and credit >= 0),
      check ((debit > 0) <> (credit > 0))
    )`.execute(db);

  // Kept balances: per account and calendar month, the debit and credit totals of posted
  // lines, split by whether they come from a year-end close. Maintained by a trigger in the
  // same statement as the lines, so they can never drift from the lines.
  await sql`
    create table account_period_balances (
      organization_id text not null,
      account_id text not null,
      period date not null check (extract(day from period) = 1),
      is_closing boolean not null,
      debit bigint not null default 0,
      credit bigint not null default 0,
      primary key (organization_id, account_id, period, is_closing),
      ${companyRefs({ account_id: 'accounts' })}
    )`.execute(db);
  await sql`create index account_period_balances_period on account_period_balances (organization_id, period)`.execute(
    db,
  );

  await sql`
    create table fiscal_year_closes (
      ${keyColumns(true)},
      end_date date not null,
      start_date date not null,
      -- null when the year had no income or expense to move
      close_entry_id text,
      closed_by text,
      closed_at timestamptz not null default now(),
      reopen_entry_id text,
      reopened_by text,
      reopened_at timestamptz,
      primary key (organization_id, id),
      ${companyRefs({ close_entry_id: 'journal_entries', reopen_entry_id: 'journal_entries' })}
    )`.execute(db);
  await sql`create unique index fiscal_year_closes_open on fiscal_year_closes (organization_id, end_date) where reopened_at is null`.execute(
    db,
  );

  await sql`
    create table journal_attachments (
      ${keyColumns(false)},
      entry_id text not null,
      file_name text not null,
      content_type text not null,
      size_bytes integer not null check (size_bytes > 0),
      sha256 text not null,
      storage_key text not null,
      ${createdColumns({ by: true })},
      primary key (organization_id, id),
      ${companyRefs({ entry_id: 'journal_entries cascade' })}
    )`.execute(db);
  await sql`create index journal_attachments_entry on journal_attachments (organization_id, entry_id)`.execute(
    db,
  );

  await sql`
    create table idempotency_keys (
      organization_id text not null,
      key text not null,
      scope text not null,
      request_hash text not null,
      status_code integer,
      response jsonb,
      created_at timestamptz not null default now(),
      primary key (organization_id, key)
    )`.execute(db);

  // --- Guards -------------------------------------------------------------------------

  await refusePostedEntryChange('create', { insertToo: false, stamp: false }).execute(db);
  await entriesImmutableTrigger('before update or delete').execute(db);

  await refusingFunction(
    'ledger_refuse_line_change',
    'lines of posted journal entries cannot be changed or deleted; post a reversing entry instead',
  ).execute(db);
  await rowTrigger(
    'journal_lines_immutable',
    'before update or delete on journal_lines',
    'ledger_refuse_line_change',
  ).execute(db);
  await statementTrigger(
    'journal_lines_no_truncate',
    'before truncate on journal_lines',
    'ledger_refuse_line_change',
  ).execute(db);

  // A posted line must belong to a posted entry with the same date, number and closing flag,
  // and must fall after the lock date.
  await sql`
    create function ledger_check_line() returns trigger language plpgsql as $$
    declare
      e record;
      locked date;
    begin
      select status, date, number, is_closing into e
        from journal_entries where organization_id = new.organization_id and id = new.entry_id;
      if e.status is distinct from 'posted' or e.date <> new.date or e.number <> new.entry_number
         or e.is_closing <> new.is_closing then
        raise exception 'journal line does not match its posted entry %', new.entry_id using errcode = 'check_violation';
      end if;
      select lock_date into locked from ledger_settings where organization_id = new.organization_id;
      if locked is not null and new.date <= locked then
        raise exception 'the books are locked through %; nothing can post on or before that date', locked
          using errcode = 'check_violation';
      end if;
      return new;
    end $$`.execute(db);
  await rowTrigger('journal_lines_check', 'before insert on journal_lines', 'ledger_check_line').execute(db);

  // Balance at commit: every posted entry has at least two lines and sums to zero.
  await sql`
    create function ledger_check_entry_balanced() returns trigger language plpgsql as $$
    declare
      v_status text;
      v_lines integer;
      v_sum numeric;
    begin
      select status into v_status from journal_entries where organization_id = new.organization_id and id = new.id;
      if v_status is distinct from 'posted' then
        return null;
      end if;
      select count(*), coalesce(sum(debit - credit), 0) into v_lines, v_sum
        from journal_lines where organization_id = new.organization_id and entry_id = new.id;
      if v_lines < 2 then
        raise exception 'posted journal entry % needs at least two lines', new.id using errcode = 'check_violation';
      end if;
      if v_sum <> 0 then
        raise exception 'posted journal entry % is unbalanced by % minor units', new.id, v_sum
          using errcode = 'check_violation';
      end if;
      return null;
    end $$`.execute(db);
  await entriesBalancedTrigger.execute(db);

  // Lines can also be added to an already-posted entry by direct SQL; check those at commit too.
  await sql`
    create function ledger_check_line_entry_balanced() returns trigger language plpgsql as $$
    declare
      v_sum numeric;
    begin
      select coalesce(sum(debit - credit), 0) into v_sum
        from journal_lines where organization_id = new.organization_id and entry_id = new.entry_id;
      if v_sum <> 0 then
        raise exception 'posted journal entry % is unbalanced by % minor units', new.entry_id, v_sum
          using errcode = 'check_violation';
      end if;
      return null;
    end $$`.execute(db);
  await commitTrigger(
    'journal_lines_balanced',
    'after insert on journal_lines',
    'ledger_check_line_entry_balanced',
  ).execute(db);

  // Kept balances, one statement at a time (a batch of lines is one upsert per account-month).
  await keepBalancesFunction('create', false).execute(db);
  await keepBalancesTrigger.execute(db);
};

export const down = async (db: Kysely<unknown>) => {
  await dropTables(db, [
    'idempotency_keys',
    'journal_attachments',
    'fiscal_year_closes',
    'account_period_balances',
    'journal_draft_lines',
    'journal_lines',
    'journal_entries',
    'accounts',
    'ledger_settings',
  ]);
  for (const fn of [
    'ledger_keep_balances',
    'ledger_check_line_entry_balanced',
    'ledger_check_entry_balanced',
    'ledger_check_line',
    'ledger_refuse_line_change',
    'ledger_refuse_posted_entry_change',
  ]) {
    await sql`drop function if exists ${sql.id(fn)}()`.execute(db);
  }
};
