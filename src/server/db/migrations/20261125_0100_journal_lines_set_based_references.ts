import { type Kysely, sql } from 'kysely';
import { refusingFunction, statementTrigger, dropCompanyRef, addCompanyRef } from '../migrations-helpers.ts';

// Import speed (issue 12, decision 0020). Every journal line paid for two foreign-key checks,
// one trigger call and one SPI query each (plus a row lock on the referenced row): about half
// of the time of a 100,000-line import's line inserts. Both rules are already enforced set-based
// by the statement trigger that every insert of lines runs (ledger_keep_balances, 0401/0300/1000),
// so the row-level checks are dropped and the rules stay in the database:
//
// - line → entry: the trigger refuses any line whose entry does not exist, is not posted, or was
//   not posted in this same transaction (and date, number, closing flag must match). A posted
//   entry cannot be changed or deleted (journal_entries_immutable), and lines cannot be changed or
//   deleted (journal_lines_immutable), so a line's entry exists for as long as the line does.
// - line → account: the same statement upserts a row of account_period_balances for every
//   (company, account, month, closing flag) it touches, and that table's foreign key to accounts
//   is checked for each new row. So every line's account exists when the line is inserted (a
//   line on another company's account or an unknown one is refused, 23503 as before), and an
//   account with lines keeps a balances row, whose foreign key refuses the account's deletion.
//   Balances rows are never deleted by the application; this migration makes that a database
//   rule too, so that guarantee cannot be taken away by hand.

export const up = async (db: Kysely<unknown>) => {
  await dropCompanyRef('journal_lines', 'entry_id').execute(db);
  await dropCompanyRef('journal_lines', 'account_id').execute(db);
  await refusingFunction(
    'ledger_refuse_balance_delete',
    'kept account balances cannot be deleted; they follow the journal lines',
  ).execute(db);
  await statementTrigger(
    'account_period_balances_no_delete',
    'before delete or truncate on account_period_balances',
    'ledger_refuse_balance_delete',
  ).execute(db);
};

export const down = async (db: Kysely<unknown>) => {
  await sql`drop trigger account_period_balances_no_delete on account_period_balances`.execute(db);
  await sql`drop function ledger_refuse_balance_delete()`.execute(db);
  await addCompanyRef('journal_lines', 'account_id', 'accounts').execute(db);
  await addCompanyRef('journal_lines', 'entry_id', 'journal_entries').execute(db);
};
