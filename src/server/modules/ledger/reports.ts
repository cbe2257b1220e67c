import {
  type AccountTypeName,
  type BalanceSheet,
  type CashFlow,
  type IncomeCompare,
  type IncomeStatement,
  CASH_SUBTYPES,
  type TrialBalance,
} from '../../../shared/ledger.ts';
import { ledgerBalancesAsOf } from './balances.ts';
import { addDays, comparisonPeriod, fiscalYearOf } from './dates.ts';
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

/** Income or expense as the income statement shows it: income positive, expenses positive. */
const plAmount = (a: AccountInfo, debitMinusCredit: number) =>
  a.type === 'expense' ? debitMinusCredit : neg(debitMinusCredit);

/**
 * The income statement for [from, to] with two comparisons: the period just before
 * (`previous…`, previousPeriod) and the same period a year earlier (`lastYear…`,
 * samePeriodLastYear). Both are always computed; `compare` names the ones to show
 * (`comparisons`, in column order, labelled with their dates).
 */
export const incomeStatement = async (
  db: Executor,
  organizationId: string,
  range: { from?: string | null; to: string; compare?: IncomeCompare },
): Promise<IncomeStatement> => {
  const { ctx, from } = await periodContext(db, organizationId, range);
  const previous = comparisonPeriod('previous', from, range.to);
  const lastYear = comparisonPeriod('lastYear', from, range.to);
  // Closing entries are left out: they move the year's result, they are not part of it.
  const over = async (p: { from: string; to: string }) =>
    netById(await balancesOver(db, organizationId, p.from, p.to, false));
  const [current, prior, yearAgo] = await Promise.all([
    over({ from, to: range.to }),
    over(previous),
    over(lastYear),
  ]);
  const lines = (filter: (a: AccountInfo) => boolean) =>
    ctx.accounts
      .filter(filter)
      .map((a) => ({
        ...ref(a),
        amount: plAmount(a, current.get(a.id) ?? 0),
        previousAmount: plAmount(a, prior.get(a.id) ?? 0),
        lastYearAmount: plAmount(a, yearAgo.get(a.id) ?? 0),
      }))
      .filter((l) => l.amount !== 0 || l.previousAmount !== 0 || l.lastYearAmount !== 0);
  const income = lines((a) => a.type === 'income');
  const costOfSales = lines((a) => a.type === 'expense' && a.subtype === 'cost_of_sales');
  const expenses = lines((a) => a.type === 'expense' && a.subtype !== 'cost_of_sales');
  const figures = (key: 'amount' | 'previousAmount' | 'lastYearAmount') => {
    const sum = (xs: typeof income) => xs.reduce((s, x) => s + x[key], 0);
    return {
      income: sum(income),
      costOfSales: sum(costOfSales),
      grossProfit: sum(income) - sum(costOfSales),
      expenses: sum(expenses),
      netIncome: sum(income) - sum(costOfSales) - sum(expenses),
    };
  };
  const now = figures('amount');
  const prev = figures('previousAmount');
  const ago = figures('lastYearAmount');
  const compare = range.compare ?? 'both';
  const comparisons = [
    ...(compare === 'previous' || compare === 'both' ? [{ kind: 'previous' as const, ...previous }] : []),
    ...(compare === 'lastYear' || compare === 'both' ? [{ kind: 'lastYear' as const, ...lastYear }] : []),
  ];
  return {
    currency: ctx.currency,
    from,
    to: range.to,
    previousFrom: previous.from,
    previousTo: previous.to,
    lastYearFrom: lastYear.from,
    lastYearTo: lastYear.to,
    comparisons,
    income,
    costOfSales,
    expenses,
    totals: {
      ...now,
      previousIncome: prev.income,
      previousCostOfSales: prev.costOfSales,
      previousGrossProfit: prev.grossProfit,
      previousExpenses: prev.expenses,
      previousNetIncome: prev.netIncome,
      lastYearIncome: ago.income,
      lastYearCostOfSales: ago.costOfSales,
      lastYearGrossProfit: ago.grossProfit,
      lastYearExpenses: ago.expenses,
      lastYearNetIncome: ago.netIncome,
    },
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

/**
 * How the cash flow statement classifies each non-cash balance account, by subtype:
 * - cash: bank, cash, cash equivalents (CASH_SUBTYPES), whose change the statement explains;
 * - non-cash adjustments: accumulated depreciation (its movement is the depreciation charged,
 *   an expense that used no cash);
 * - investing: fixed assets and other (long-term) assets;
 * - financing: loans, long-term liabilities and every equity account (owner's capital,
 *   drawings, retained earnings, opening balances);
 * - working capital (operating): everything else, i.e. receivables, inventory, prepaid
 *   expenses, other current assets, payables, tax, credit cards, other current liabilities.
 */
export const cashFlowSection = (subtype: string) => {
  if (CASH_SUBTYPES.includes(subtype)) return 'cash';
  if (NON_CASH_SUBTYPES.has(subtype)) return 'adjustments';
  if (INVESTING_SUBTYPES.has(subtype)) return 'investing';
  if (FINANCING_SUBTYPES.has(subtype)) return 'financing';
  return 'workingCapital';
};
const NON_CASH_SUBTYPES = new Set(['accumulated_depreciation']);
const INVESTING_SUBTYPES = new Set(['fixed_asset', 'other_asset']);
const FINANCING_SUBTYPES = new Set([
  'loan',
  'long_term_liability',
  'owner_equity',
  'drawings',
  'retained_earnings',
  'opening_balance_equity',
]);

/**
 * Cash-flow statement, indirect method: net income, adjusted by the change of every non-cash
 * balance account in its section (cashFlowSection). Each posted entry balances, so net income
 * plus every such change is exactly the change in the cash accounts: the statement adds up.
 */
export const cashFlow = async (
  db: Executor,
  organizationId: string,
  range: { from?: string | null; to: string },
): Promise<CashFlow> => {
  const { ctx, from } = await periodContext(db, organizationId, range);
  // Closing entries move P&L to retained earnings; both sides are left out, as in net income.
  const [movement, openingAll] = await Promise.all([
    balancesOver(db, organizationId, from, range.to, false).then(netById),
    balancesOver(db, organizationId, null, addDays(from, -1), null).then(netById),
  ]);
  const balanceAccounts = ctx.accounts.filter(
    (a) => a.type === 'asset' || a.type === 'liability' || a.type === 'equity',
  );
  const cash = balanceAccounts.filter((a) => cashFlowSection(a.subtype) === 'cash');
  const netIncome = neg(
    ctx.accounts
      .filter((a) => a.type === 'income' || a.type === 'expense')
      .reduce((s, a) => s + (movement.get(a.id) ?? 0), 0),
  );
  const section = (name: ReturnType<typeof cashFlowSection>) =>
    balanceAccounts
      .filter((a) => cashFlowSection(a.subtype) === name)
      .map((a) => ({ ...ref(a), amount: neg(movement.get(a.id) ?? 0) }))
      .filter((l) => l.amount !== 0);
  const adjustments = section('adjustments');
  const workingCapital = section('workingCapital');
  const investing = section('investing');
  const financing = section('financing');
  const total = (xs: { amount: number }[]) => xs.reduce((s, x) => s + x.amount, 0);
  const openingCash = cash.reduce((s, a) => s + (openingAll.get(a.id) ?? 0), 0);
  const netChange = cash.reduce((s, a) => s + (movement.get(a.id) ?? 0), 0);
  return {
    currency: ctx.currency,
    from,
    to: range.to,
    netIncome,
    adjustments,
    workingCapital,
    investing,
    financing,
    totals: {
      adjustments: total(adjustments),
      workingCapital: total(workingCapital),
      operating: netIncome + total(adjustments) + total(workingCapital),
      investing: total(investing),
      financing: total(financing),
      netChange,
      openingCash,
      closingCash: openingCash + netChange,
    },
  };
};
