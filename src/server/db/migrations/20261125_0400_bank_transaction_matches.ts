import { type Kysely, sql } from 'kysely';
import { keyColumns, companyRefs, createdColumns } from '../migrations-helpers.ts';

// Matching (issue 13 §4): a bank line linked to the invoice payments it is the cash of. One row
// per invoice payment the line settles, with the amount it settles. Kind 'invoice': the match
// created the payment, which points at the line's own journal entry (the line's suspense leg
// re-posted to accounts receivable). Kind 'payment': the payment was recorded by hand first;
// the match made the line the register line of that payment (its entry is the payment's) and
// kept the payment's own register line, merged away, in replaced_line so unmatching restores
// it exactly. previous_entry_id is the line's entry before the match (reversed by it).

export const up = async (db: Kysely<unknown>) => {
  await sql`
    create table bank_transaction_matches (
      ${keyColumns(false)},
      transaction_id text not null,
      kind text not null check (kind in ('invoice', 'payment')),
      invoice_id text not null,
      payment_id text not null,
      amount bigint not null check (amount > 0),
      previous_entry_id text not null,
      replaced_line jsonb,
      ${createdColumns({ by: true })},
      primary key (organization_id, id),
      ${companyRefs({ transaction_id: 'bank_transactions', invoice_id: 'invoices', payment_id: 'invoice_payments', previous_entry_id: 'journal_entries' })}
    )`.execute(db);
  // A payment is the cash of at most one line.
  await sql`create unique index bank_transaction_matches_payment on bank_transaction_matches (organization_id, payment_id)`.execute(
    db,
  );
  await sql`create index bank_transaction_matches_transaction on bank_transaction_matches (organization_id, transaction_id)`.execute(
    db,
  );
  await sql`create index bank_transaction_matches_invoice on bank_transaction_matches (organization_id, invoice_id)`.execute(
    db,
  );
  // Suggestions read the open invoices of a company by amount.
  await sql`create index invoices_open_amount on invoices (organization_id, amount_due) where status in ('sent', 'partially_paid')`.execute(
    db,
  );
};

export const down = async (db: Kysely<unknown>) => {
  await sql`drop index if exists invoices_open_amount`.execute(db);
  await sql`drop table if exists bank_transaction_matches`.execute(db);
};
