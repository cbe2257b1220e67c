import { type Kysely, sql } from 'kysely';

// Loans are money accounts (issue 13: "bank, cash, card, loan"). A loan is a liability of the
// ledger subtype 'loan', like a credit card owes money and is never cash. The kind's check
// constraint (from 20261121_0600) gains 'loan'.

export const up = async (db: Kysely<unknown>) => {
  await sql`alter table money_accounts drop constraint if exists money_accounts_kind_check`.execute(db);
  await sql`alter table money_accounts add constraint money_accounts_kind_check
    check (kind in ('bank', 'cash', 'credit_card', 'loan', 'payment_processor'))`.execute(db);
};

export const down = async (db: Kysely<unknown>) => {
  await sql`alter table money_accounts drop constraint if exists money_accounts_kind_check`.execute(db);
  await sql`alter table money_accounts add constraint money_accounts_kind_check
    check (kind in ('bank', 'cash', 'credit_card', 'payment_processor'))`.execute(db);
};
