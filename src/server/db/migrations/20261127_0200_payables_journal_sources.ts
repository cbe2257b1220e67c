import { type Kysely, sql } from 'kysely';

// Payables (issue 15) post their own journal entries: a bill when it is approved ('bill'), a
// bill payment or a batch of them ('bill_payment'), and a supplier credit or its refund
// ('supplier_credit'). The ledger's source check grows by those three.

const SOURCES = [
  'manual',
  'invoice',
  'payment',
  'bank',
  'transfer',
  'opening_balance',
  'year_end_close',
  'reversal',
];

const setSources = async (db: Kysely<unknown>, sources: string[]) => {
  await sql`alter table journal_entries drop constraint if exists journal_entries_source_check`.execute(db);
  await sql`
    alter table journal_entries add constraint journal_entries_source_check
      check (source in (${sql.join(sources.map((s) => sql.lit(s)))}))`.execute(db);
};

export const up = (db: Kysely<unknown>) =>
  setSources(db, [...SOURCES, 'bill', 'bill_payment', 'supplier_credit']);

export const down = (db: Kysely<unknown>) => setSources(db, SOURCES);
