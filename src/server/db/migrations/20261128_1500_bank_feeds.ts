import { type Kysely, sql } from 'kysely';

// Bank feeds (issue 18, docs/bank-feeds.md): a company's links to its banks through a feed
// provider (Plaid, or the built-in Demo Bank), the provider's accounts of each link and the
// money account each is mapped to, and the provider's transactions as last reported (the
// mirror): a posted one points at the bank line it became (or an earlier statement import's
// line it was recognised as); a pending one is shown and never posted. The access token is
// stored only encrypted (AES-256-GCM), with the id of the key that encrypted it.

export const up = async (db: Kysely<unknown>) => {
  await sql`
    create table bank_feed_connections (
      organization_id text not null references organizations (id) on delete cascade,
      id text not null,
      provider text not null check (provider in ('plaid', 'demo')),
      item_id text not null,
      access_token_ciphertext text not null,
      access_token_key_id text not null,
      institution_name text,
      status text not null default 'active' check (status in ('active', 'error')),
      error_code text,
      error_message text,
      sync_cursor text,
      last_synced_at timestamptz,
      last_sync_error text,
      first_sync_pages integer not null default 0,
      first_sync_lines integer not null default 0,
      first_sync_oldest_date date,
      first_sync_done_at timestamptz,
      created_by text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (organization_id, id)
    )`.execute(db);
  // A provider's item is linked once, across companies (webhooks name only the item).
  await sql`create unique index bank_feed_connections_item on bank_feed_connections (provider, item_id)`.execute(
    db,
  );
  await sql`create index bank_feed_connections_item_id on bank_feed_connections (item_id)`.execute(db);

  await sql`
    create table bank_feed_accounts (
      organization_id text not null,
      id text not null,
      connection_id text not null,
      provider_account_id text not null,
      name text not null,
      mask text,
      type text not null,
      subtype text,
      currency text,
      current_balance bigint,
      money_account_id text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (organization_id, id),
      foreign key (organization_id, connection_id) references bank_feed_connections (organization_id, id) on delete cascade,
      foreign key (organization_id, money_account_id) references money_accounts (organization_id, id),
      unique (organization_id, connection_id, provider_account_id)
    )`.execute(db);
  // A money account is fed by at most one provider account.
  await sql`create unique index bank_feed_accounts_money on bank_feed_accounts (organization_id, money_account_id) where money_account_id is not null`.execute(
    db,
  );

  await sql`
    create table bank_feed_transactions (
      organization_id text not null,
      connection_id text not null,
      provider_transaction_id text not null,
      provider_account_id text not null,
      date date not null,
      amount bigint not null,
      currency text not null,
      description text not null,
      counterparty text,
      reference text,
      pending boolean not null,
      pending_id text,
      state text not null check (state in ('pending', 'waiting', 'posted', 'linked', 'skipped', 'conflict')),
      reason text,
      bank_transaction_id text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (organization_id, connection_id, provider_transaction_id),
      foreign key (organization_id, connection_id) references bank_feed_connections (organization_id, id) on delete cascade,
      foreign key (organization_id, bank_transaction_id) references bank_transactions (organization_id, id)
        on delete set null (bank_transaction_id)
    )`.execute(db);
  await sql`create index bank_feed_transactions_bank_line on bank_feed_transactions (organization_id, bank_transaction_id) where bank_transaction_id is not null`.execute(
    db,
  );
  await sql`create index bank_feed_transactions_state on bank_feed_transactions (organization_id, connection_id, state, provider_account_id)`.execute(
    db,
  );
};

export const down = async (db: Kysely<unknown>) => {
  await sql`drop table if exists bank_feed_transactions`.execute(db);
  await sql`drop table if exists bank_feed_accounts`.execute(db);
  await sql`drop table if exists bank_feed_connections`.execute(db);
};
