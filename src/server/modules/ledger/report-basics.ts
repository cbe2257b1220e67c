import { badRequest, notFound } from '../../../shared/errors.ts';
import { type AccountTypeName, isDebitNormal } from '../../../shared/ledger.ts';
import { type BalanceRow, type Executor, selectBalances, selectSettings } from './queries.ts';

// What the reports share: the company's accounts and currency, balances over a span, signs.

export type AccountInfo = { id: string; code: string; name: string; type: AccountTypeName; subtype: string };

export const loadContext = async (db: Executor, organizationId: string) => {
  const settings = await selectSettings(db, organizationId);
  if (!settings) throw notFound('Company not found.');
  const accounts = await db
    .selectFrom('accounts')
    .select(['id', 'code', 'name', 'type', 'subtype'])
    .where('organization_id', '=', organizationId)
    .orderBy('code')
    .execute();
  return {
    currency: settings.base_currency.trim(),
    fiscalYearStartMonth: settings.fiscal_year_start_month,
    accounts: accounts as AccountInfo[],
    byId: new Map(accounts.map((a) => [a.id, a as AccountInfo])),
  };
};

export const balancesOver = (
  db: Executor,
  organizationId: string,
  from: string | null,
  to: string,
  closing: boolean | null,
  accountId?: string,
) => selectBalances(db, organizationId, { from, to }, closing, accountId);

export const netById = (rows: BalanceRow[]) => new Map(rows.map((r) => [r.account_id, r.debit - r.credit]));

export const checkRange = (from: string | null | undefined, to: string) => {
  if (from && from > to) throw badRequest('invalid_range', 'The start date is after the end date.');
};

export const ref = (a: AccountInfo) => ({
  accountId: a.id,
  code: a.code,
  name: a.name,
  type: a.type,
  subtype: a.subtype,
});

/** Negation without -0, which JSON and strict equality would otherwise carry around. */
export const neg = (n: number) => (n === 0 ? 0 : -n);

/** Natural sign: debit-normal accounts positive when debits exceed credits, the others the other way. */
export const natural = (type: AccountTypeName, debitMinusCredit: number) =>
  isDebitNormal(type) ? debitMinusCredit : neg(debitMinusCredit);
