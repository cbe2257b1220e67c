import { type Kysely, sql } from 'kysely';

// A supplier credit in a foreign currency applied to a bill of another exchange rate: the bill's
// payable is cleared at the bill's rate (amount_base) and the credit is used up at the credit's
// rate (credit_base); the difference is a realised exchange gain or loss, posted by
// exchange_entry_id (Dr/Cr accounts payable against exchange gains and losses, the supplier as
// contact) and reversed when the application is taken back. For the same rate (every
// base-currency credit) credit_base = amount_base and there is no exchange entry. What is left
// of a credit in base is its total_base less the credit_base of its live applications and the
// amount_base of its live refunds.

export const up = async (db: Kysely<unknown>) => {
  await sql`
    alter table supplier_credit_allocations
      add column credit_base bigint,
      add column exchange_entry_id text,
      add constraint supplier_credit_allocations_organization_id_exchange_entry_id_fkey
        foreign key (organization_id, exchange_entry_id) references journal_entries (organization_id, id)`.execute(
    db,
  );
  await sql`update supplier_credit_allocations set credit_base = amount_base`.execute(db);
  await sql`alter table supplier_credit_allocations alter column credit_base set not null`.execute(db);
};

export const down = async (db: Kysely<unknown>) => {
  await sql`
    alter table supplier_credit_allocations
      drop constraint if exists supplier_credit_allocations_organization_id_exchange_entry_id_fkey,
      drop column if exists exchange_entry_id,
      drop column if exists credit_base`.execute(db);
};
