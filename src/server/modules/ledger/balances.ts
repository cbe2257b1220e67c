import { sql } from 'kysely';
import { notFound } from '../../../shared/errors.ts';
import { type Executor, selectBalances, selectSettings } from './queries.ts';

// The one balance query behind every "how much money is there" figure: the wallet's accounts,
// the balance sheet's lines (its cash and bank lines among them) and so the dashboard's cash
// position, which reads the balance sheet. Balances come from posted lines only: whole months
// from the kept monthly balances, the edge days from the lines.

export type LedgerBalance = {
  accountId: string;
  /** The account's currency (the base currency for most accounts). */
  currency: string;
  /** Debits minus credits in base-currency minor units (the book value). */
  base: number;
  /**
   * Debits minus credits in the account's own currency: equal to `base` for a base-currency
   * account; for a foreign-currency account the sum of its lines' foreign amounts (every line
   * on such an account carries the account's currency, amount and rate — posting refuses
   * anything else).
   */
  amount: number;
};

/**
 * Balances at the end of `asOf` of the given ledger accounts (every account of the company
 * when `accountIds` is omitted). Accounts without postings are answered with zeros.
 */
export const ledgerBalancesAsOf = async (
  db: Executor,
  organizationId: string,
  asOf: string,
  accountIds?: readonly string[],
): Promise<Map<string, LedgerBalance>> => {
  const settings = await selectSettings(db, organizationId);
  if (!settings) throw notFound('Company not found.');
  const base = settings.base_currency.trim();
  if (accountIds !== undefined && accountIds.length === 0) return new Map();
  let accountsQuery = db
    .selectFrom('accounts')
    .select(['id', 'currency'])
    .where('organization_id', '=', organizationId);
  if (accountIds !== undefined) accountsQuery = accountsQuery.where('id', 'in', [...accountIds]);
  const accounts = await accountsQuery.execute();
  const rows = await selectBalances(
    db,
    organizationId,
    { from: null, to: asOf },
    null,
    accountIds === undefined ? undefined : [...accountIds],
  );
  const baseById = new Map(rows.map((r) => [r.account_id, Number(r.debit) - Number(r.credit)]));
  const foreign = accounts.filter((a) => a.currency.trim() !== base).map((a) => a.id);
  const foreignById = new Map<string, number>();
  if (foreign.length > 0) {
    const result = await sql<{ account_id: string; amount: string }>`
      select account_id,
             sum(case when currency is null then debit - credit
                      when debit > 0 then amount else -amount end)::bigint as amount
        from journal_lines
       where organization_id = ${organizationId}
         and account_id in (${sql.join(foreign)})
         and date <= ${asOf}
       group by account_id`.execute(db);
    for (const r of result.rows) foreignById.set(r.account_id, Number(r.amount));
  }
  const out = new Map<string, LedgerBalance>();
  for (const a of accounts) {
    const currency = a.currency.trim();
    const baseBalance = baseById.get(a.id) ?? 0;
    out.set(a.id, {
      accountId: a.id,
      currency,
      base: baseBalance,
      amount: currency === base ? baseBalance : (foreignById.get(a.id) ?? 0),
    });
  }
  return out;
};
