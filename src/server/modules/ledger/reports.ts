import {
  type AccountTypeName,
  type BalanceSheet,
  type CashFlow,
  type IncomeStatement,
  CASH_SUBTYPES,
  type TrialBalance,
} from '../../../shared/ledger.ts';
import { ledgerBalancesAsOf } from './balances.ts';
import { addDays, fiscalYearOf, previousPeriod } from './dates.ts';
import type { Executor } from './queries.ts';
import {
  type AccountInfo,
  balancesOver,
  checkRange,
  loadContext,
  natural,
  neg,
  netById,
  ref,
} from './report-basics.ts';

// Financial reports, computed exactly in integer minor units. Sums come from SQL: whole
// months from the kept balances, edge days from the lines, so a short period never reads the
// whole ledger. The ledgers (general ledger, journal, account transactions) are in
// report-ledgers.ts, re-exported here; what both share is report-basics.ts.

export { accountTransactions, generalLedger, journalReport } from './report-ledgers.ts';

export const trialBalance = async (
  db: Executor,
  organizationId: string,
  range: { from?: string | null; to: string },
): Promise<TrialBalance> => {
  const from = range.from ?? null;
  checkRange(from, range.to);
  const ctx = await loadContext(db, organizationId);
  const opening = from
    ? netById(await balancesOver(db, organizationId, null, addDays(from, -1), null))
    : new Map();
  const movement = await balancesOver(db, organizationId, from, range.to, null);
  const moveById = new Map(movement.map((m) => [m.account_id, m]));
  const rows = ctx.accounts
    .map((a) => {
      const open = opening.get(a.id) ?? 0;
      const m = moveById.get(a.id);
      const debit = m?.debit ?? 0;
      const credit = m?.credit ?? 0;
      return { ...ref(a), openingBalance: open, debit, credit, closingBalance: open + debit - credit };
    })
    .filter((r) => r.openingBalance !== 0 || r.debit !== 0 || r.credit !== 0);
  const totals = rows.reduce(
    (t, r) => ({
      debit: t.debit + r.debit,
      credit: t.credit + r.credit,
      closingDebit: t.closingDebit + Math.max(r.closingBalance, 0),
      closingCredit: t.closingCredit + Math.max(-r.closingBalance, 0),
    }),
    { debit: 0, credit: 0, closingDebit: 0, closingCredit: 0 },
  );
  return { currency: ctx.currency, from, to: range.to, rows, totals };
};

/** The company's context and the period's start (the fiscal year's when not given), checked. */
const periodContext = async (
  db: Executor,
  organizationId: string,
  range: { from?: string | null; to: string },
) => {
  const ctx = await loadContext(db, organizationId);
  const from = range.from ?? fiscalYearOf(range.to, ctx.fiscalYearStartMonth).start;
  checkRange(from, range.to);
  return { ctx, from };
};

export const incomeStatement = async (
  db: Executor,
  organizationId: string,
  range: { from?: string | null; to: string },
): Promise<IncomeStatement> => {
  const { ctx, from } = await periodContext(db, organizationId, range);
  const previous = previousPeriod(from, range.to);
  // Closing entries are left out: they move the year's result, they are not part of it.
  const current = netById(await balancesOver(db, organizationId, from, range.to, false));
  const prior = netById(await balancesOver(db, organizationId, previous.from, previous.to, false));
  const lines = (filter: (a: AccountInfo) => boolean) =>
    ctx.accounts
      .filter(filter)
      .map((a) => ({
        ...ref(a),
        amount: a.type === 'expense' ? (current.get(a.id) ?? 0) : neg(current.get(a.id) ?? 0),
        previousAmount: a.type === 'expense' ? (prior.get(a.id) ?? 0) : neg(prior.get(a.id) ?? 0),
      }))
      .filter((l) => l.amount !== 0 || l.previousAmount !== 0);
  const income = lines((a) => a.type === 'income');
  const costOfSales = lines((a) => a.type === 'expense' && a.subtype === 'cost_of_sales');
  const expenses = lines((a) => a.type === 'expense' && a.subtype !== 'cost_of_sales');
  const sum = (xs: { amount: number }[]) => xs.reduce((s, x) => s + x.amount, 0);
  const sumPrev = (xs: { previousAmount: number }[]) => xs.reduce((s, x) => s + x.previousAmount, 0);
  const totals = {
    income: sum(income),
    costOfSales: sum(costOfSales),
    grossProfit: sum(income) - sum(costOfSales),
    expenses: sum(expenses),
    netIncome: sum(income) - sum(costOfSales) - sum(expenses),
    previousIncome: sumPrev(income),
    previousCostOfSales: sumPrev(costOfSales),
    previousGrossProfit: sumPrev(income) - sumPrev(costOfSales),
    previousExpenses: sumPrev(expenses),
    previousNetIncome: sumPrev(income) - sumPrev(costOfSales) - sumPrev(expenses),
  };
  return {
    currency: ctx.currency,
    from,
    to: range.to,
    previousFrom: previous.from,
    previousTo: previous.to,
    income,
    costOfSales,
    expenses,
    totals,
  };
};

export const balanceSheet = async (
  db: Executor,
  organizationId: string,
  asOf: string,
): Promise<BalanceSheet> => {
  const ctx = await loadContext(db, organizationId);
  const fyStart = fiscalYearOf(asOf, ctx.fiscalYearStartMonth).start;
  // Every line, the cash and bank lines among them, from the one balance query the wallet uses.
  const all = new Map(
    [...(await ledgerBalancesAsOf(db, organizationId, asOf)).values()].map((b) => [b.accountId, b.base]),
  );
  const beforeYear = netById(await balancesOver(db, organizationId, null, addDays(fyStart, -1), null));
  const section = (type: AccountTypeName) =>
    ctx.accounts
      .filter((a) => a.type === type)
      .map((a) => ({ ...ref(a), amount: natural(type, all.get(a.id) ?? 0) }))
      .filter((l) => l.amount !== 0);
  const pl = ctx.accounts.filter((a) => a.type === 'income' || a.type === 'expense');
  const plNet = (m: Map<string, number>) => pl.reduce((s, a) => s + (m.get(a.id) ?? 0), 0);
  // Earnings not yet moved to retained earnings by a close: this year's, and any earlier
  // year that was never closed.
  const priorYearsUnclosedEarnings = neg(plNet(beforeYear));
  const currentYearEarnings = neg(plNet(all)) - priorYearsUnclosedEarnings + 0;
  const assets = section('asset');
  const liabilities = section('liability');
  const equity = section('equity');
  const total = (xs: { amount: number }[]) => xs.reduce((s, x) => s + x.amount, 0);
  const equityTotal = total(equity) + currentYearEarnings + priorYearsUnclosedEarnings;
  const totals = {
    assets: total(assets),
    liabilities: total(liabilities),
    equity: equityTotal,
    liabilitiesAndEquity: total(liabilities) + equityTotal,
  };
  return {
    currency: ctx.currency,
    asOf,
    fiscalYearStart: fyStart,
    assets,
    liabilities,
    equity,
    currentYearEarnings,
    priorYearsUnclosedEarnings,
    totals,
    balanced: totals.assets === totals.liabilitiesAndEquity,
  };
};

const INVESTING_SUBTYPES = new Set(['fixed_asset', 'other_asset']);
const FINANCING_SUBTYPES = new Set([
  'long_term_liability',
  'owner_equity',
  'drawings',
  'retained_earnings',
  'opening_balance_equity',
]);

/** Cash-flow statement, indirect method: net income adjusted by the change of every non-cash balance. */
export const cashFlow = async (
  db: Executor,
  organizationId: string,
  range: { from?: string | null; to: string },
): Promise<CashFlow> => {
  const { ctx, from } = await periodContext(db, organizationId, range);
  const movement = netById(await balancesOver(db, organizationId, from, range.to, false));
  const openingAll = netById(await balancesOver(db, organizationId, null, addDays(from, -1), null));
  const balanceAccounts = ctx.accounts.filter(
    (a) => a.type === 'asset' || a.type === 'liability' || a.type === 'equity',
  );
  const cash = balanceAccounts.filter((a) => CASH_SUBTYPES.includes(a.subtype));
  const netIncome = neg(
    ctx.accounts
      .filter((a) => a.type === 'income' || a.type === 'expense')
      .reduce((s, a) => s + (movement.get(a.id) ?? 0), 0),
  );
  const adjustments = (filter: (a: AccountInfo) => boolean) =>
    balanceAccounts
      .filter((a) => !CASH_SUBTYPES.includes(a.subtype) && filter(a))
      .map((a) => ({ ...ref(a), amount: neg(movement.get(a.id) ?? 0) }))
      .filter((l) => l.amount !== 0);
  const investing = adjustments((a) => INVESTING_SUBTYPES.has(a.subtype));
  const financing = adjustments((a) => FINANCING_SUBTYPES.has(a.subtype));
  const operating = adjustments(
    (a) => !INVESTING_SUBTYPES.has(a.subtype) && !FINANCING_SUBTYPES.has(a.subtype),
  );
  const total = (xs: { amount: number }[]) => xs.reduce((s, x) => s + x.amount, 0);
  const openingCash = cash.reduce((s, a) => s + (openingAll.get(a.id) ?? 0), 0);
  const netChange = cash.reduce((s, a) => s + (movement.get(a.id) ?? 0), 0);
  return {
    currency: ctx.currency,
    from,
    to: range.to,
    netIncome,
    operating,
    investing,
    financing,
    totals: {
      operating: netIncome + total(operating),
      investing: total(investing),
      financing: total(financing),
      netChange,
      openingCash,
      closingCash: openingCash + netChange,
    },
  };
};
