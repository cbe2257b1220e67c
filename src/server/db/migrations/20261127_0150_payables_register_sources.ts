import { type Kysely, sql } from 'kysely';

// Payables' cash movements are in the register too (issue 15): a bill payment (one bill), a
// batch payment (several bills, one bank line) and a refund from a supplier each write their
// money account's register line through the bank-transactions module, as invoice payments and
// refunds do (migration 20261125_0300). This widens source_kind to name those documents.

const KINDS_BEFORE = `('invoice_payment', 'refund')`;
const KINDS_AFTER = `('invoice_payment', 'refund', 'bill_payment', 'bill_payment_batch', 'supplier_refund')`;

const setKinds = async (db: Kysely<unknown>, kinds: string) => {
  await sql`alter table bank_transactions drop constraint if exists bank_transactions_source_kind_check`.execute(
    db,
  );
  await sql`
    alter table bank_transactions
      add constraint bank_transactions_source_kind_check check (source_kind in ${sql.raw(kinds)})`.execute(
    db,
  );
};

export const up = async (db: Kysely<unknown>) => setKinds(db, KINDS_AFTER);

export const down = async (db: Kysely<unknown>) => {
  await sql`delete from bank_transactions where source_kind in ('bill_payment', 'bill_payment_batch', 'supplier_refund')`.execute(
    db,
  );
  await setKinds(db, KINDS_BEFORE);
};
