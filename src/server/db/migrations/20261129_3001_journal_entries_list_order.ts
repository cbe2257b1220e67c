import { type Kysely, sql } from 'kysely';

// The journal-entry list (newest first: date, then creation time, then id; ledger/entries.ts)
// reads its first page in this index's order instead of sorting every entry of the company
// (issue 20 §3: the first page of every list within 50 ms at a million entries).

export const up = async (db: Kysely<unknown>) => {
  await sql`create index journal_entries_list on journal_entries (organization_id, date, created_at, id)`.execute(
    db,
  );
};

export const down = async (db: Kysely<unknown>) => {
  await sql`drop index journal_entries_list`.execute(db);
};
