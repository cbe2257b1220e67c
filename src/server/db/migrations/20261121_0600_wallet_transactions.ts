import { type Kysely, sql } from 'kysely';
import { keyColumns, companyRefs, dropTables, createdColumns } from '../migrations-helpers.ts';

// Wallet and bank transactions: money accounts (each backed by a ledger account), exchange
// rates, statement imports, bank transactions with their splits, categorisation rules,
// transfers and reconciliations. Every row posts through the ledger; these tables keep what
// the ledger does not: the bank's view of each line (description, payee, status, the file it
// came from) and the running balance of each money account in its own currency.

export const up = async (db: Kysely<unknown>) => {
  await sql`
    create table money_accounts (
      ${keyColumns(true)},
      ledger_account_id text not null,
      name text not null check (length(name) between 1 and 120),
      kind text not null check (kind in ('bank', 'cash', 'credit_card', 'payment_processor')),
      currency char(3) not null,
      institution text not null default '',
      account_number_last4 text check (account_number_last4 ~ '^[0-9A-Za-z]{1,4}$'),
      opening_balance bigint not null default 0,
      opening_date date not null,
      opening_entry_id text,
      -- Kept in the same transaction as every change to bank_transactions: opening balance plus
      -- the sum of the account's transactions, in the account's currency.
      balance bigint not null default 0,
      csv_mapping jsonb,
      archived_at timestamptz,
      ${createdColumns({ by: true, updated: true })},
      primary key (organization_id, id),
      ${companyRefs({ ledger_account_id: 'accounts', opening_entry_id: 'journal_entries' })}
    )`.execute(db);
  await sql`create unique index money_accounts_ledger on money_accounts (organization_id, ledger_account_id)`.execute(
    db,
  );

  // Base-currency units per one unit of `currency`, as of a date.
  await sql`
    create table exchange_rates (
      organization_id text not null references organizations (id) on delete cascade,
      currency char(3) not null,
      date date not null,
      rate numeric(24, 10) not null check (rate > 0),
      ${createdColumns({ by: true })},
      primary key (organization_id, currency, date)
    )`.execute(db);

  await sql`
    create table statement_imports (
      ${keyColumns(false)},
      money_account_id text not null,
      file_name text not null,
      format text not null check (format in ('csv', 'ofx', 'camt053')),
      file_sha256 text not null,
      total_rows integer not null,
      imported_rows integer not null,
      duplicate_rows integer not null,
      rule_rows integer not null default 0,
      ${createdColumns({ by: true })},
      primary key (organization_id, id),
      ${companyRefs({ money_account_id: 'money_accounts' })}
    )`.execute(db);
  await sql`create index statement_imports_account on statement_imports (organization_id, money_account_id, created_at)`.execute(
    db,
  );

  await sql`
    create table categorization_rules (
      ${keyColumns(true)},
      name text not null,
      priority integer not null default 100,
      enabled boolean not null default true,
      description_contains text,
      payee_contains text,
      min_amount bigint check (min_amount >= 0),
      max_amount bigint check (max_amount >= 0),
      direction text not null default 'any' check (direction in ('any', 'in', 'out')),
      money_account_id text,
      set_category_account_id text not null,
      set_payee text,
      set_tax_rate integer check (set_tax_rate between 0 and 10000),
      ${createdColumns({ updated: true })},
      primary key (organization_id, id),
      ${companyRefs({ money_account_id: 'money_accounts cascade', set_category_account_id: 'accounts' })}
    )`.execute(db);
  await sql`create index categorization_rules_priority on categorization_rules (organization_id, priority, created_at)`.execute(
    db,
  );

  await sql`
    create table transfers (
      ${keyColumns(false)},
      date date not null,
      from_money_account_id text not null,
      to_money_account_id text not null,
      from_amount bigint not null check (from_amount > 0),
      to_amount bigint not null check (to_amount > 0),
      -- to-currency units per one from-currency unit; 1 when both are the same currency
      rate numeric(24, 10) not null check (rate > 0),
      memo text not null default '',
      entry_id text not null,
      ${createdColumns({ by: true })},
      primary key (organization_id, id),
      check (from_money_account_id <> to_money_account_id),
      ${companyRefs({ from_money_account_id: 'money_accounts', to_money_account_id: 'money_accounts', entry_id: 'journal_entries' })}
    )`.execute(db);

  await sql`
    create table reconciliations (
      ${keyColumns(false)},
      money_account_id text not null,
      statement_date date not null,
      statement_balance bigint not null,
      opening_balance bigint not null,
      status text not null check (status in ('in_progress', 'completed', 'undone')),
      ${createdColumns({ by: true })},
      completed_by text,
      completed_at timestamptz,
      undone_at timestamptz,
      primary key (organization_id, id),
      ${companyRefs({ money_account_id: 'money_accounts' })}
    )`.execute(db);
  await sql`create unique index reconciliations_one_open on reconciliations (organization_id, money_account_id) where status = 'in_progress'`.execute(
    db,
  );
  await sql`create index reconciliations_account on reconciliations (organization_id, money_account_id, completed_at)`.execute(
    db,
  );

  await sql`
    create table bank_transactions (
      ${keyColumns(false)},
      money_account_id text not null,
      date date not null,
      description text not null check (length(description) between 1 and 500),
      payee text,
      amount bigint not null check (amount <> 0),
      status text not null check (status in ('uncategorized', 'categorized', 'reconciled')),
      category_kind text not null check (category_kind in ('none', 'account', 'split', 'transfer')),
      category_account_id text,
      transfer_id text,
      -- basis points of a percent: 2000 = 20 %
      tax_rate integer check (tax_rate between 0 and 10000),
      notes text not null default '',
      -- base-currency units per one account-currency unit used for the posting (foreign accounts)
      rate numeric(24, 10),
      entry_id text not null,
      import_id text,
      external_id text,
      -- date|amount|description#occurrence: finds the same bank line in a re-imported file
      dedupe_key text not null,
      -- a few words of the description, for suggestions from similar transactions
      description_key text not null,
      rule_id text,
      reconciliation_id text,
      ${createdColumns({ by: true, updated: true })},
      primary key (organization_id, id),
      check ((category_kind = 'account') = (category_account_id is not null)),
      check ((category_kind = 'transfer') = (transfer_id is not null)),
      check (status <> 'reconciled' or reconciliation_id is not null),
      ${companyRefs({ money_account_id: 'money_accounts', category_account_id: 'accounts', entry_id: 'journal_entries', import_id: 'statement_imports', transfer_id: 'transfers', reconciliation_id: 'reconciliations' })}
    )`.execute(db);
  // Keyset pagination of the list in each sort order, newest first by default.
  await sql`create index bank_transactions_date on bank_transactions (organization_id, date, id)`.execute(db);
  await sql`create index bank_transactions_amount on bank_transactions (organization_id, amount, id)`.execute(
    db,
  );
  await sql`create index bank_transactions_account on bank_transactions (organization_id, money_account_id, date, id)`.execute(
    db,
  );
  await sql`create index bank_transactions_category on bank_transactions (organization_id, category_account_id, date, id) where category_account_id is not null`.execute(
    db,
  );
  await sql`create index bank_transactions_uncategorized on bank_transactions (organization_id, date, id) where category_kind = 'none'`.execute(
    db,
  );
  await sql`create unique index bank_transactions_dedupe on bank_transactions (organization_id, money_account_id, dedupe_key)`.execute(
    db,
  );
  await sql`create unique index bank_transactions_external on bank_transactions (organization_id, money_account_id, external_id) where external_id is not null`.execute(
    db,
  );
  await sql`create index bank_transactions_similar on bank_transactions (organization_id, description_key, category_account_id) where category_kind = 'account'`.execute(
    db,
  );
  await sql`create index bank_transactions_reconciliation on bank_transactions (organization_id, reconciliation_id) where reconciliation_id is not null`.execute(
    db,
  );
  await sql`create index bank_transactions_transfer on bank_transactions (organization_id, transfer_id) where transfer_id is not null`.execute(
    db,
  );

  await sql`
    create table bank_transaction_splits (
      organization_id text not null,
      transaction_id text not null,
      line_no smallint not null check (line_no > 0),
      category_account_id text not null,
      amount bigint not null check (amount <> 0),
      description text,
      primary key (organization_id, transaction_id, line_no),
      ${companyRefs({ transaction_id: 'bank_transactions cascade', category_account_id: 'accounts' })}
    )`.execute(db);
  await sql`create index bank_transaction_splits_category on bank_transaction_splits (organization_id, category_account_id)`.execute(
    db,
  );

  // Receipts and other files attached to a transaction.
  await sql`
    create table bank_transaction_attachments (
      ${keyColumns(false)},
      transaction_id text not null,
      file_name text not null,
      content_type text not null,
      size_bytes integer not null check (size_bytes > 0),
      data bytea not null,
      ${createdColumns({ by: true })},
      primary key (organization_id, id),
      ${companyRefs({ transaction_id: 'bank_transactions cascade' })}
    )`.execute(db);
  await sql`create index bank_transaction_attachments_tx on bank_transaction_attachments (organization_id, transaction_id)`.execute(
    db,
  );
};

export const down = async (db: Kysely<unknown>) => {
  await dropTables(db, [
    'bank_transaction_attachments',
    'bank_transaction_splits',
    'bank_transactions',
    'reconciliations',
    'transfers',
    'categorization_rules',
    'statement_imports',
    'exchange_rates',
    'money_accounts',
  ]);
};
