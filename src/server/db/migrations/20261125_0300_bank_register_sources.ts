import { type Kysely, sql } from 'kysely';

// Every cash movement is in the register (issue 13). A bank transaction may now be the
// register line of a document another module posted: an invoice payment (or its removal) or a
// refund. Such a line has category kind 'payment': its journal entry is the document's, so it
// is never categorised or split; source_kind and source_id name the document, invoice_id the
// invoice it concerns (for the link in the list). Only the bank-transactions module writes
// these rows (decision 0024).

export const up = async (db: Kysely<unknown>) => {
  await sql`alter table bank_transactions drop constraint if exists bank_transactions_category_kind_check`.execute(
    db,
  );
  await sql`
    alter table bank_transactions
      add constraint bank_transactions_category_kind_check
        check (category_kind in ('none', 'account', 'split', 'transfer', 'payment')),
      add column source_kind text check (source_kind in ('invoice_payment', 'refund')),
      add column source_id text,
      add column invoice_id text,
      add constraint bank_transactions_source_check
        check ((category_kind = 'payment') = (source_kind is not null) and (source_kind is null) = (source_id is null))`.execute(
    db,
  );
  await sql`create index bank_transactions_source on bank_transactions (organization_id, source_kind, source_id) where source_id is not null`.execute(
    db,
  );
};

export const down = async (db: Kysely<unknown>) => {
  await sql`delete from bank_transactions where category_kind = 'payment'`.execute(db);
  await sql`drop index if exists bank_transactions_source`.execute(db);
  await sql`
    alter table bank_transactions
      drop constraint if exists bank_transactions_source_check,
      drop column if exists invoice_id,
      drop column if exists source_id,
      drop column if exists source_kind,
      drop constraint if exists bank_transactions_category_kind_check`.execute(db);
  await sql`
    alter table bank_transactions add constraint bank_transactions_category_kind_check
      check (category_kind in ('none', 'account', 'split', 'transfer'))`.execute(db);
};
