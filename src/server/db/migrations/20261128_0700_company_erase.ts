import { type Kysely, sql } from 'kysely';
import { entriesImmutableTrigger, rowTrigger, statementTrigger } from '../migrations-helpers.ts';

// Erasing a whole company (issue 16: the admin console deletes a user and the companies only
// they own). Every company table cascades from organizations, but the ledger's guards refuse
// to delete posted entries, their lines and the kept balances, so a company with books could
// never be deleted. The guards now step aside for exactly one company, and only inside a
// transaction that names it: `set_config('kontor.erasing_company', <id>, true)` (local to the
// transaction; src/server/modules/admin/erase.ts). Everywhere else they refuse as before.

const ERASING = "current_setting('kontor.erasing_company', true)";

export const up = async (db: Kysely<unknown>) => {
  await sql`drop trigger journal_entries_immutable on journal_entries`.execute(db);
  await sql
    .raw(
      `create trigger journal_entries_immutable before update or delete on journal_entries for each row when (${ERASING} is distinct from old.organization_id) execute function ledger_refuse_posted_entry_change()`,
    )
    .execute(db);
  await sql`drop trigger journal_lines_immutable on journal_lines`.execute(db);
  await sql
    .raw(
      `create trigger journal_lines_immutable before update or delete on journal_lines for each row when (${ERASING} is distinct from old.organization_id) execute function ledger_refuse_line_change()`,
    )
    .execute(db);
  await sql`drop trigger account_period_balances_no_delete on account_period_balances`.execute(db);
  await sql
    .raw(
      `create trigger account_period_balances_no_delete before delete on account_period_balances for each statement when (coalesce(${ERASING}, '') = '') execute function ledger_refuse_balance_delete()`,
    )
    .execute(db);
  await statementTrigger(
    'account_period_balances_no_truncate',
    'before truncate on account_period_balances',
    'ledger_refuse_balance_delete',
  ).execute(db);
};

export const down = async (db: Kysely<unknown>) => {
  await sql`drop trigger account_period_balances_no_truncate on account_period_balances`.execute(db);
  await sql`drop trigger account_period_balances_no_delete on account_period_balances`.execute(db);
  await statementTrigger(
    'account_period_balances_no_delete',
    'before delete or truncate on account_period_balances',
    'ledger_refuse_balance_delete',
  ).execute(db);
  await sql`drop trigger journal_lines_immutable on journal_lines`.execute(db);
  await rowTrigger(
    'journal_lines_immutable',
    'before update or delete on journal_lines',
    'ledger_refuse_line_change',
  ).execute(db);
  await sql`drop trigger journal_entries_immutable on journal_entries`.execute(db);
  await entriesImmutableTrigger('before update or delete').execute(db);
};
