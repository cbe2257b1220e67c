import { sql } from 'kysely';
import { badRequest, notFound } from '../../../shared/errors.ts';
import {
  type AccountTypeName,
  type BalanceSheet,
  type CashFlow,
  type GeneralLedger,
  type IncomeStatement,
  CASH_SUBTYPES,
  type TrialBalance,
  isDebitNormal,
} from '../../../shared/ledger.ts';
import { LEDGER_VOLUME_LIMIT } from '../../../shared/money.ts';
import { ledgerBalancesAsOf } from './balances.ts';
import { addDays, fiscalYearOf, previousPeriod, wholeMonthSpan } from './dates.ts';
import { decodeCursor, encodeCursor, invalidCursor } from '../../db/cursor.ts';
import { type BalanceRow, type Executor, selectBalances, selectSettings } from './queries.ts';

// Financial reports, computed exactly in integer minor units. Sums come from SQL: whole
// months from the kept balances, edge days from the lines, so a short period never reads the
// whole ledger.

type AccountInfo = { id: string; code: string; name: string; type: AccountTypeName; subtype: string };

const loadContext = async (db: Executor, organizationId: string) => {
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

const balancesOver = (
  db: Executor,
  organizationId: string,
  from: string | null,
  to: string,
  closing: boolean | null,
  accountId?: string,
) => selectBalances(db, organizationId, { from, to, ...wholeMonthSpan(from, to) }, closing, accountId);

const netById = (rows: BalanceRow[]) => new Map(rows.map((r) => [r.account_id, r.debit - r.credit]));

const checkRange = (from: string | null | undefined, to: string) => {
  if (from && from > to) throw badRequest('invalid_range', 'The start date is after the end date.');
};

const ref = (a: AccountInfo) => ({
  accountId: a.id,
  code: a.code,
  name: a.name,
  type: a.type,
  subtype: a.subtype,
});

/** Negation without -0, which JSON and strict equality would otherwise carry around. */
const neg = (n: number) => (n === 0 ? 0 : -n);

/** Natural sign: debit-normal accounts positive when debits exceed credits, the others the other way. */
const natural = (type: AccountTypeName, debitMinusCredit: number) =>
  isDebitNormal(type) ? debitMinusCredit : neg(debitMinusCredit);

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

export const incomeStatement = async (
  db: Executor,
  organizationId: string,
  range: { from?: string | null; to: string },
): Promise<IncomeStatement> => {
  const ctx = await loadContext(db, organizationId);
  const from = range.from ?? fiscalYearOf(range.to, ctx.fiscalYearStartMonth).start;
  checkRange(from, range.to);
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
  const ctx = await loadContext(db, organizationId);
  const from = range.from ?? fiscalYearOf(range.to, ctx.fiscalYearStartMonth).start;
  checkRange(from, range.to);
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

// --- Ledgers with keyset pagination ------------------------------------------------------

// Cursors (src/server/db/cursor.ts) hold (date, entry number, line number): exact integers,
// unique per company, so every line is on exactly one page.

/** One account's posted lines in date order with a running balance; pages by (date, number, line). */
export const generalLedger = async (
  db: Executor,
  organizationId: string,
  query: { accountId: string; from?: string | null; to: string; limit: number; cursor?: string },
): Promise<GeneralLedger> => {
  const from = query.from ?? null;
  checkRange(from, query.to);
  const ctx = await loadContext(db, organizationId);
  const account = ctx.byId.get(query.accountId);
  if (!account) throw notFound('Account not found.');
  const cursor = decodeCursor(query.cursor, {
    date: 'date',
    number: 'integer',
    line: 'integer',
    balance: 'integer',
  });
  // The running balance rides in the cursor; a real one is within the ledger's volume limit.
  if (cursor && Math.abs(cursor.balance) > LEDGER_VOLUME_LIMIT) throw invalidCursor();
  const openingRows = from
    ? await balancesOver(db, organizationId, null, addDays(from, -1), null, account.id)
    : [];
  const openingBalance = natural(
    account.type,
    openingRows.reduce((s, r) => s + r.debit - r.credit, 0),
  );
  const totalRows = await balancesOver(db, organizationId, null, query.to, null, account.id);
  const closingBalance = natural(
    account.type,
    totalRows.reduce((s, r) => s + r.debit - r.credit, 0),
  );
  let q = db
    .selectFrom('journal_lines as l')
    .innerJoin('journal_entries as e', (j) =>
      j.onRef('e.organization_id', '=', 'l.organization_id').onRef('e.id', '=', 'l.entry_id'),
    )
    .select([
      'l.entry_id',
      'l.entry_number',
      'l.line_no',
      'l.date',
      'l.debit',
      'l.credit',
      'l.description',
      'e.memo',
      'e.reference',
      'e.source',
    ])
    .where('l.organization_id', '=', organizationId)
    .where('l.account_id', '=', account.id)
    .where('l.date', '<=', query.to);
  if (from) q = q.where('l.date', '>=', from);
  if (cursor) {
    q = q.where(
      sql<boolean>`(l.date, l.entry_number, l.line_no) > (${cursor.date}::date, ${cursor.number}::bigint, ${cursor.line}::bigint)`,
    );
  }
  const rows = await q
    .orderBy('l.date')
    .orderBy('l.entry_number')
    .orderBy('l.line_no')
    .limit(query.limit + 1)
    .execute();
  const page = rows.slice(0, query.limit);
  let balance = cursor ? cursor.balance : openingBalance;
  const out = page.map((r) => {
    balance += natural(account.type, r.debit - r.credit);
    return {
      entryId: r.entry_id,
      entryNumber: r.entry_number,
      lineNo: r.line_no,
      date: r.date,
      memo: r.memo,
      reference: r.reference,
      source: r.source,
      description: r.description,
      debit: r.debit,
      credit: r.credit,
      balance,
    };
  });
  const last = out.at(-1);
  return {
    currency: ctx.currency,
    account: ref(account),
    from,
    to: query.to,
    openingBalance,
    closingBalance,
    rows: out,
    nextCursor:
      rows.length > query.limit && last
        ? encodeCursor({
            date: last.date,
            number: last.entryNumber,
            line: last.lineNo,
            balance: last.balance,
          })
        : null,
  };
};

/** The journal: posted entries in date and number order with their lines. */
export const journalReport = async (
  db: Executor,
  organizationId: string,
  query: { from?: string | null; to: string; limit: number; cursor?: string },
) => {
  const from = query.from ?? null;
  checkRange(from, query.to);
  const ctx = await loadContext(db, organizationId);
  const cursor = decodeCursor(query.cursor, { date: 'date', number: 'integer' });
  let q = db
    .selectFrom('journal_entries')
    .select(['id', 'number', 'date', 'memo', 'reference', 'source', 'reverses_entry_id'])
    .where('organization_id', '=', organizationId)
    .where('status', '=', 'posted')
    .where('date', '<=', query.to);
  if (from) q = q.where('date', '>=', from);
  if (cursor) q = q.where(sql<boolean>`(date, number) > (${cursor.date}::date, ${cursor.number}::bigint)`);
  const entries = await q
    .orderBy('date')
    .orderBy('number')
    .limit(query.limit + 1)
    .execute();
  const page = entries.slice(0, query.limit);
  const lines =
    page.length === 0
      ? []
      : await db
          .selectFrom('journal_lines')
          .select([
            'entry_id',
            'line_no',
            'account_id',
            'debit',
            'credit',
            'currency',
            'amount',
            'rate',
            'description',
          ])
          .where('organization_id', '=', organizationId)
          .where(
            'entry_id',
            'in',
            page.map((e) => e.id),
          )
          .orderBy('entry_id')
          .orderBy('line_no')
          .execute();
  const byEntry = new Map<string, typeof lines>();
  for (const l of lines) byEntry.set(l.entry_id, [...(byEntry.get(l.entry_id) ?? []), l]);
  const last = page.at(-1);
  return {
    currency: ctx.currency,
    from,
    to: query.to,
    entries: page.map((e) => ({
      id: e.id,
      number: e.number!,
      date: e.date,
      memo: e.memo,
      reference: e.reference,
      source: e.source,
      reversesEntryId: e.reverses_entry_id,
      lines: (byEntry.get(e.id) ?? []).map((l) => {
        const a = ctx.byId.get(l.account_id)!;
        return {
          lineNo: l.line_no,
          accountId: l.account_id,
          accountCode: a.code,
          accountName: a.name,
          debit: l.debit,
          credit: l.credit,
          currency: l.currency?.trim() ?? null,
          amount: l.amount,
          description: l.description,
        };
      }),
    })),
    nextCursor:
      entries.length > query.limit && last
        ? encodeCursor({ date: last.date, number: last.number ?? 0 })
        : null,
  };
};

/**
 * Account transactions: every posted line in the range (optionally of one account) with the
 * other side of its entry, as QuickBooks' "transaction detail by account" shows it.
 */
export const accountTransactions = async (
  db: Executor,
  organizationId: string,
  query: { accountId?: string; from?: string | null; to: string; limit: number; cursor?: string },
) => {
  const from = query.from ?? null;
  checkRange(from, query.to);
  const ctx = await loadContext(db, organizationId);
  if (query.accountId && !ctx.byId.has(query.accountId)) throw notFound('Account not found.');
  const cursor = decodeCursor(query.cursor, { date: 'date', number: 'integer', line: 'integer' });
  let q = db
    .selectFrom('journal_lines as l')
    .innerJoin('journal_entries as e', (j) =>
      j.onRef('e.organization_id', '=', 'l.organization_id').onRef('e.id', '=', 'l.entry_id'),
    )
    .select([
      'l.entry_id',
      'l.entry_number',
      'l.line_no',
      'l.date',
      'l.account_id',
      'l.debit',
      'l.credit',
      'l.description',
      'e.memo',
      'e.source',
      sql<string[]>`(select array_agg(distinct o.account_id) from journal_lines o
        where o.organization_id = l.organization_id and o.entry_id = l.entry_id and o.account_id <> l.account_id)`.as(
        'other_accounts',
      ),
    ])
    .where('l.organization_id', '=', organizationId)
    .where('l.date', '<=', query.to);
  if (from) q = q.where('l.date', '>=', from);
  if (query.accountId) q = q.where('l.account_id', '=', query.accountId);
  if (cursor) {
    q = q.where(
      sql<boolean>`(l.date, l.entry_number, l.line_no) > (${cursor.date}::date, ${cursor.number}::bigint, ${cursor.line}::bigint)`,
    );
  }
  const rows = await q
    .orderBy('l.date')
    .orderBy('l.entry_number')
    .orderBy('l.line_no')
    .limit(query.limit + 1)
    .execute();
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const label = (id: string) => {
    const a = ctx.byId.get(id);
    return a ? `${a.code} ${a.name}` : id;
  };
  return {
    currency: ctx.currency,
    from,
    to: query.to,
    rows: page.map((r) => {
      const others = r.other_accounts ?? [];
      return {
        entryId: r.entry_id,
        entryNumber: r.entry_number,
        lineNo: r.line_no,
        date: r.date,
        accountId: r.account_id,
        account: label(r.account_id),
        memo: r.memo,
        source: r.source,
        description: r.description,
        split: others.length === 0 ? '' : others.length === 1 ? label(others[0]!) : '-Split-',
        debit: r.debit,
        credit: r.credit,
      };
    }),
    nextCursor:
      rows.length > query.limit && last
        ? encodeCursor({ date: last.date, number: last.entry_number, line: last.line_no })
        : null,
  };
};
