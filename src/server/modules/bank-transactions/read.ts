import type { Executor } from '../../db/transaction.ts';

// Reads of the bank lines that several modules start from (reads are open to every module;
// the writes are writes.ts, register.ts, match.ts and bulk.ts).

/** Bank lines (`t`) joined to their money account (`m`) within the company. */
export const bankLinesWithAccount = (db: Executor) =>
  db
    .selectFrom('bank_transactions as t')
    .innerJoin('money_accounts as m', (j) =>
      j.onRef('m.organization_id', '=', 't.organization_id').onRef('m.id', '=', 't.money_account_id'),
    );
