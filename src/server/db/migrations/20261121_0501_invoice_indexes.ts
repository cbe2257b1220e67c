import { type Kysely, sql } from 'kysely';

// Indexes for the receivables aging as of a past date: payments and credit notes dated after
// it are found by date, not by reading every one.

export const up = async (db: Kysely<unknown>) => {
  await sql`create index invoice_payments_date on invoice_payments (organization_id, date) where reversal_entry_id is null`.execute(
    db,
  );
  await sql`create index credit_notes_date on credit_notes (organization_id, date) where status = 'issued'`.execute(
    db,
  );
};

export const down = async (db: Kysely<unknown>) => {
  await sql`drop index if exists invoice_payments_date`.execute(db);
  await sql`drop index if exists credit_notes_date`.execute(db);
};
