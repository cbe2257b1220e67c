import { type Kysely, sql } from 'kysely';
import {
  refusePostedEntryChange,
  entriesImmutableTrigger,
  keepBalancesFunction,
  keepBalancesTrigger,
} from '../migrations-helpers.ts';

// Faster database guards for posted lines, same rules. 0400 checked each line with two
// row-level queries and a deferred per-line balance check; seeding a million entries spent
// most of its time there. Now one statement-level trigger checks a whole insert at once:
// every new line belongs to an entry posted in this same transaction (recorded in
// posted_txid, so lines cannot be slipped into an entry posted earlier) with the same date,
// number and closing flag, and falls after the lock date; it then updates the kept balances.
// The deferred per-entry trigger still refuses an unbalanced entry at commit.

export const up = async (db: Kysely<unknown>) => {
  await sql`alter table journal_entries add column posted_txid bigint`.execute(db);

  await refusePostedEntryChange('create or replace', { insertToo: true, stamp: true }).execute(db);
  await sql`drop trigger journal_entries_immutable on journal_entries`.execute(db);
  await entriesImmutableTrigger('before insert or update or delete').execute(db);

  await sql`drop trigger journal_lines_check on journal_lines`.execute(db);
  await sql`drop trigger journal_lines_balanced on journal_lines`.execute(db);
  await sql`drop trigger journal_lines_keep_balances on journal_lines`.execute(db);
  await sql`drop function ledger_check_line()`.execute(db);
  await sql`drop function ledger_check_line_entry_balanced()`.execute(db);

  await keepBalancesFunction('create or replace', true).execute(db);
  await keepBalancesTrigger.execute(db);
};

export const down = async (db: Kysely<unknown>) => {
  // Going back to 0400's guards means re-running 0400; dropping the column is enough here
  // because 0400's down drops the tables and functions.
  await sql`alter table journal_entries drop column posted_txid`.execute(db);
};
