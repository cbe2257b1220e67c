import { sql } from 'kysely';
import type { Executor } from '../db/transaction.ts';

// Assertions shared by the ledger's tests.

/** Rows where the kept monthly balances differ from the sum of the posted lines; [] when they agree. */
export const keptBalancesMismatch = async (db: Executor, organizationId: string) => {
  const result = await sql<{ account_id: string; period: string; is_closing: boolean }>`
    with from_lines as (
      select account_id, date_trunc('month', date)::date as period, is_closing, sum(debit) as debit, sum(credit) as credit
        from journal_lines where organization_id = ${organizationId}
       group by 1, 2, 3
    ), kept as (
      select account_id, period, is_closing, debit, credit from account_period_balances where organization_id = ${organizationId}
    )
    select coalesce(l.account_id, k.account_id) as account_id, coalesce(l.period, k.period)::text as period,
           coalesce(l.is_closing, k.is_closing) as is_closing
      from from_lines l full outer join kept k
        on k.account_id = l.account_id and k.period = l.period and k.is_closing = l.is_closing
     where coalesce(l.debit, 0) <> coalesce(k.debit, 0) or coalesce(l.credit, 0) <> coalesce(k.credit, 0)`.execute(
    db,
  );
  return result.rows;
};

export const archiveAccountForTest = (db: Executor, organizationId: string, accountId: string) =>
  db
    .updateTable('accounts')
    .set({ archived_at: new Date() })
    .where('organization_id', '=', organizationId)
    .where('id', '=', accountId)
    .execute();
