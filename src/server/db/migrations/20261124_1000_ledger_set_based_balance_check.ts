import { type Kysely, sql } from 'kysely';
import {
  commitTrigger,
  entriesBalancedTrigger,
  INDEX_ONLY,
  refusePostedEntryChange,
  entriesImmutableTrigger,
  statementTrigger,
} from '../migrations-helpers.ts';

// The balance check at commit, set-based (issue 12, speed). Until now every posted entry queued
// its own deferred row trigger, so committing an import of 100,000 lines ran 100,000 trigger
// calls, each with two queries planned without knowing the company (on a database holding
// other companies' millions of lines, a brand-new company's first import could read all of a
// company's lines per entry). Same rules, checked once per transaction:
//
// - posted_txid is now filled by its column default (txid_current()) on insert; a statement
//   trigger refuses a posted entry inserted with any other value, and the row trigger still
//   stamps it when a draft is posted by an update. So "posted in this transaction" stays
//   exactly what 0401 made it (lines can only join such entries).
// - Every statement that inserts or updates journal entries registers the transaction once in
//   ledger_balance_checks (on conflict do nothing); the deferred constraint trigger on that
//   table therefore fires once per transaction, at commit, and checks in one query that every
//   entry posted in this transaction has at least two lines summing to zero. Lines can only
//   be added to entries posted in the same transaction and never change afterwards, so an
//   entry that balanced at its own commit balances for ever.
// - The checks and the per-insert line guard are planned as index lookups (entry by
//   posted_txid, lines by entry) whatever the statistics say, so their cost follows the size
//   of the transaction, not of the database.

export const up = async (db: Kysely<unknown>) => {
  await sql`create index journal_entries_posted_txid on journal_entries (posted_txid) where posted_txid is not null`.execute(
    db,
  );
  await sql`alter table journal_entries alter column posted_txid set default txid_current()`.execute(db);

  // Row trigger: immutability of posted entries, and the stamp when a draft is posted.
  await refusePostedEntryChange('create or replace', { insertToo: false, stamp: true }).execute(db);
  await sql`drop trigger journal_entries_immutable on journal_entries`.execute(db);
  await entriesImmutableTrigger('before update or delete').execute(db);

  await sql`create table ledger_balance_checks (txid bigint primary key)`.execute(db);

  await sql`
    create function ledger_register_inserted_entries() returns trigger language plpgsql as $$
    declare
      bad record;
    begin
      select id into bad from new_entries
       where status = 'posted' and posted_txid is distinct from txid_current()
       limit 1;
      if found then
        raise exception 'posted journal entry % must be stamped with the transaction that posts it', bad.id
          using errcode = 'check_violation';
      end if;
      insert into ledger_balance_checks (txid) values (txid_current()) on conflict do nothing;
      return null;
    end $$`.execute(db);
  await statementTrigger(
    'journal_entries_register_insert',
    'after insert on journal_entries',
    'ledger_register_inserted_entries',
    'new_entries',
  ).execute(db);

  await sql`
    create function ledger_register_updated_entries() returns trigger language plpgsql as $$
    begin
      insert into ledger_balance_checks (txid) values (txid_current()) on conflict do nothing;
      return null;
    end $$`.execute(db);
  await statementTrigger(
    'journal_entries_register_update',
    'after update on journal_entries',
    'ledger_register_updated_entries',
  ).execute(db);

  // At commit, once per transaction: every entry posted in it has two or more lines summing to zero.
  await sql`
    create function ledger_check_transaction_balanced() returns trigger language plpgsql
    ${INDEX_ONLY} as $$
    declare
      bad record;
    begin
      select e.id, count(l.line_no) as lines, coalesce(sum(l.debit - l.credit), 0) as diff into bad
        from journal_entries e
        left join journal_lines l on l.organization_id = e.organization_id and l.entry_id = e.id
       where e.posted_txid = txid_current() and e.status = 'posted'
       group by e.organization_id, e.id
      having count(l.line_no) < 2 or coalesce(sum(l.debit - l.credit), 0) <> 0
       limit 1;
      if found then
        if bad.lines < 2 then
          raise exception 'posted journal entry % needs at least two lines', bad.id using errcode = 'check_violation';
        end if;
        raise exception 'posted journal entry % is unbalanced by % minor units', bad.id, bad.diff
          using errcode = 'check_violation';
      end if;
      delete from ledger_balance_checks where txid = txid_current();
      return null;
    end $$`.execute(db);
  await commitTrigger(
    'ledger_balance_checks_at_commit',
    'after insert on ledger_balance_checks',
    'ledger_check_transaction_balanced',
  ).execute(db);

  await sql`drop trigger journal_entries_balanced on journal_entries`.execute(db);

  // The statement trigger on journal_lines (0401, 0300) joins the inserted lines to their
  // entries; a transition table has no statistics, so keep that join on the entry's key.
  await sql`alter function ledger_keep_balances() ${INDEX_ONLY}`.execute(db);
};

export const down = async (db: Kysely<unknown>) => {
  await sql`alter function ledger_keep_balances() reset all`.execute(db);
  await entriesBalancedTrigger.execute(db);
  await sql`drop table ledger_balance_checks`.execute(db);
  await sql`drop function ledger_check_transaction_balanced()`.execute(db);
  await sql`drop trigger journal_entries_register_update on journal_entries`.execute(db);
  await sql`drop trigger journal_entries_register_insert on journal_entries`.execute(db);
  await sql`drop function ledger_register_updated_entries()`.execute(db);
  await sql`drop function ledger_register_inserted_entries()`.execute(db);
  await sql`drop trigger journal_entries_immutable on journal_entries`.execute(db);
  await entriesImmutableTrigger('before insert or update or delete').execute(db);
  await sql`alter table journal_entries alter column posted_txid drop default`.execute(db);
  await sql`drop index journal_entries_posted_txid`.execute(db);
};
