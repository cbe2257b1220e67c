import { type Kysely, sql } from 'kysely';
import { INDEX_ONLY, statementTrigger, dropCompanyRef, addCompanyRef } from '../migrations-helpers.ts';

// Import speed (issue 12, decision 0020). A bank line's foreign key to its journal entry cost a
// trigger call, an SPI query and a row lock on the entry for every line a statement import
// inserts (about a third of the bank rows' write time). The rule stays in the database, checked
// once per statement instead: every bank line inserted or updated must point at an entry of its
// own company that exists and is posted. A posted entry can never be changed or deleted
// (journal_entries_immutable), so the reference cannot go stale afterwards, which is what the
// foreign key's other half (refusing to delete a referenced entry) guaranteed. Bank lines have
// always pointed at posted entries: every writer posts through the ledger first.
// The line's other references (money account, import, category, transfer, reconciliation)
// keep their foreign keys: each names one row per import, and their tables can delete rows.

export const up = async (db: Kysely<unknown>) => {
  await dropCompanyRef('bank_transactions', 'entry_id').execute(db);
  await sql`
    create function bank_transactions_check_entries() returns trigger language plpgsql
    ${INDEX_ONLY} as $$
    declare
      bad record;
    begin
      select n.id, n.entry_id, e.status into bad
        from new_rows n
        left join journal_entries e on e.organization_id = n.organization_id and e.id = n.entry_id
       where e.id is null or e.status <> 'posted'
       limit 1;
      if found then
        raise exception 'insert or update on table "bank_transactions" violates foreign key constraint "bank_transactions_entry": bank line % names entry %, which is % in its company',
          bad.id, bad.entry_id, coalesce('not posted (' || bad.status || ')', 'not present')
          using errcode = 'foreign_key_violation';
      end if;
      return null;
    end $$`.execute(db);
  for (const [name, event] of [
    ['bank_transactions_entries_inserted', 'after insert on bank_transactions'],
    ['bank_transactions_entries_updated', 'after update on bank_transactions'],
  ] as const) {
    await statementTrigger(name, event, 'bank_transactions_check_entries', 'new_rows').execute(db);
  }
};

export const down = async (db: Kysely<unknown>) => {
  await sql`drop trigger bank_transactions_entries_updated on bank_transactions`.execute(db);
  await sql`drop trigger bank_transactions_entries_inserted on bank_transactions`.execute(db);
  await sql`drop function bank_transactions_check_entries()`.execute(db);
  await addCompanyRef('bank_transactions', 'entry_id', 'journal_entries').execute(db);
};
