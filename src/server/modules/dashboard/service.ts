import type { Dashboard, DashboardMonth, DashboardQuery, ForecastItem } from '../../../shared/dashboard.ts';
import {
  addDays,
  addMonthsToMonthStart,
  monthEnd,
  monthStart,
  previousPeriod,
} from '../../../shared/dates.ts';
import { badRequest } from '../../../shared/errors.ts';
import { convertMinor } from '../../../shared/money.ts';
import { isLiabilityMoneyAccountKind } from '../../../shared/wallet.ts';
import type { AppContext } from '../../context.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { companyToday, loadCompany, toBase } from '../invoices/common.ts';
import { selectOpenBalancesAsOf } from '../invoices/queries-reports.ts';
import { listSchedules } from '../invoices/recurring.ts';
import { selectBalances } from '../ledger/queries.ts';
import { loadContext } from '../ledger/report-basics.ts';
import { listBillSchedules } from '../payables/recurring.ts';
import { selectOpenBillsAsOf, selectUnusedCreditsAsOf } from '../payables/reports-queries.ts';
import { getWalletSummary } from '../wallet/summary.ts';
import { TRAILING_WEEKS, buildForecast, forecastEnd, upcomingDueDates } from './forecast.ts';
import { latePayers, spendChanges, unusualTransactions } from './insights.ts';
import {
  selectActiveBillSchedules,
  selectActiveInvoiceSchedules,
  selectInvoicedSales,
  selectMonthlyMovements,
  selectOpenBills,
  selectOpenInvoices,
  selectRecentEntries,
  selectSpendingByWeek,
} from './queries.ts';

// The dashboard in one answer (docs/dashboard.md). It reads other modules' services and
// queries — the wallet's summary for cash, the ledger's kept balances for the months, the
// aging reports for what is owed — and writes nothing. The figures equal the reports they
// link to: dashboard.test.ts compares them.

export const DSO_WINDOW_DAYS = 90;
const round1 = (n: number) => Math.round(n * 10) / 10;

const reportLink = (report: string, from: string, to: string) =>
  `/accounting?tab=reports&report=${report}&from=${from}&to=${to}`;

/** The range the query asks for: 12 or 24 months to today, or from/to (a year to `to` when only `to`). */
export const dashboardRange = (query: DashboardQuery, today: string) => {
  const to = query.to ?? today;
  const from = query.from ?? addMonthsToMonthStart(monthStart(to), -((query.months ?? 12) - 1));
  if (from > to)
    throw badRequest('invalid_range', 'The start date is after the end date.', { field: 'from' });
  return { from, to };
};

const monthsOf = (from: string, to: string) => {
  const out: { month: string; from: string; to: string }[] = [];
  for (let m = monthStart(from); m <= to; m = addMonthsToMonthStart(m, 1))
    out.push({ month: m, from: m < from ? from : m, to: monthEnd(m) > to ? to : monthEnd(m) });
  return out;
};

export const getDashboard = async (
  ctx: AppContext,
  member: MemberContext,
  query: DashboardQuery,
): Promise<Dashboard> => {
  const db = ctx.database.db;
  const org = member.organizationId;
  const company = await loadCompany(db, org);
  const today = companyToday(ctx.now(), company.time_zone);
  const { from, to } = dashboardRange(query, today);
  const [ledger, wallet] = await Promise.all([
    loadContext(db, org),
    getWalletSummary(ctx, member, { asOf: today }),
  ]);
  const currency = ledger.currency;
  const cashIds = wallet.accounts
    .filter((a) => !isLiabilityMoneyAccountKind(a.kind))
    .map((a) => a.ledgerAccountId);

  // The insights read on their own connections while the figures below are read.
  const names = new Map(ledger.accounts.map((a) => [a.id, a.name]));
  const insightsRead = Promise.all([
    spendChanges(db, org, today, ledger.accounts),
    latePayers(db, org, today),
    unusualTransactions(db, org, today, names),
  ]);
  // Handled here too, so a failure while the figures are still being read is not an unhandled
  // rejection; it is thrown where the insights are awaited.
  insightsRead.catch(() => undefined);

  const incomeIds = ledger.accounts.filter((a) => a.type === 'income').map((a) => a.id);
  const burnFrom = addMonthsToMonthStart(monthStart(today), -3);
  const burnTo = addDays(monthStart(today), -1);
  const previous = previousPeriod(from, to);
  const beforeFrom = addDays(from, -1);
  // The cash accounts' base-currency balance at the end of `date`: what ledgerBalancesAsOf's
  // `base` adds up for them, read with its one balance query (the company, its settings and
  // the accounts are known here already).
  const cashAt = async (date: string) =>
    (await selectBalances(db, org, { from: null, to: date }, null, cashIds)).reduce(
      (s, r) => s + Number(r.debit) - Number(r.credit),
      0,
    );

  const [
    monthly,
    opening,
    burnStart,
    burnEnd,
    previousRows,
    receivableRows,
    payableRows,
    unusedCredits,
    openInvoices,
    openBills,
    invoiceSchedules,
    billSchedules,
    spending,
    sales,
    recent,
  ] = await Promise.all([
    selectMonthlyMovements(db, org, from, to, cashIds),
    selectBalances(db, org, { from: null, to: beforeFrom }, null, cashIds),
    cashAt(addDays(burnFrom, -1)),
    cashAt(burnTo),
    selectBalances(db, org, previous, false, incomeIds),
    selectOpenBalancesAsOf(db, org, today),
    selectOpenBillsAsOf(db, org, today),
    selectUnusedCreditsAsOf(db, org, today),
    selectOpenInvoices(db, org),
    selectOpenBills(db, org),
    selectActiveInvoiceSchedules(db, org),
    selectActiveBillSchedules(db, org),
    selectSpendingByWeek(db, org, today, TRAILING_WEEKS),
    selectInvoicedSales(db, org, addDays(today, 1 - DSO_WINDOW_DAYS), today),
    selectRecentEntries(db, org, 6),
  ]);

  // --- Months: income and expenses as the income statement adds them, cash as the wallet.
  const months: DashboardMonth[] = [];
  let cash = opening.reduce((s, r) => s + Number(r.debit) - Number(r.credit), 0);
  const byMonth = new Map(monthly.map((r) => [r.month, r]));
  for (const m of monthsOf(from, to)) {
    const row = byMonth.get(m.month);
    const income = row?.income ?? 0;
    const expenses = row?.expenses ?? 0;
    cash += row?.cash ?? 0;
    months.push({
      month: m.month,
      from: m.from,
      to: m.to,
      income: income + 0,
      expenses: expenses + 0,
      net: income - expenses + 0,
      cash,
      link: reportLink('income-statement', m.from, m.to),
    });
  }

  // --- Key figures. What is owed comes from the aging reports' own queries (invoices'
  // selectOpenBalancesAsOf, payables' selectOpenBillsAsOf and selectUnusedCreditsAsOf), without
  // the reports' ledger cross-check: the totals and the overdue part are theirs.
  const owed = (rows: { due_date: string; balance: number | string }[], credits = 0) => {
    const total = rows.reduce((s, r) => s + Number(r.balance), 0) - credits;
    const late = rows.filter((r) => r.due_date < today);
    return { total, overdue: late.reduce((s, r) => s + Number(r.balance), 0), overdueCount: late.length };
  };
  const receivables = owed(receivableRows);
  const payables = owed(
    payableRows,
    unusedCredits.reduce((s, c) => s + Number(c.credit), 0),
  );
  const burnMonthly = Math.max(0, Math.round((burnStart - burnEnd) / 3));
  const currentIncome = months.reduce((s, m) => s + m.income, 0);
  // The period before, as the income statement's previous column (closing entries left out).
  const previousIncome = previousRows.reduce((s, r) => s + r.credit - r.debit, 0);
  const kpis: Dashboard['kpis'] = {
    cash: { amount: wallet.cashBase, asOf: today, link: '/wallet' },
    burn: {
      monthly: burnMonthly,
      from: burnFrom,
      to: burnTo,
      startCash: burnStart,
      endCash: burnEnd,
      link: reportLink('cash-flow', burnFrom, burnTo),
    },
    runwayMonths: burnMonthly > 0 ? round1(Math.max(wallet.cashBase, 0) / burnMonthly) : null,
    revenueGrowth: {
      current: currentIncome,
      previous: previousIncome + 0,
      percent:
        previousIncome === 0
          ? null
          : round1(((currentIncome - previousIncome) / Math.abs(previousIncome)) * 100),
      from,
      to,
      previousFrom: previous.from,
      previousTo: previous.to,
      link: reportLink('income-statement', from, to),
    },
    dso: {
      days: sales > 0 ? round1((receivables.total / sales) * DSO_WINDOW_DAYS) : null,
      receivables: receivables.total,
      sales,
      windowDays: DSO_WINDOW_DAYS,
      link: '/invoices?tab=reports',
    },
    receivables: {
      ...receivables,
      link: '/invoices?tab=reports',
      overdueLink: '/invoices',
    },
    payables: {
      ...payables,
      link: '/bills?tab=reports',
      overdueLink: '/bills?tab=payment-run',
    },
  };

  // --- Forecast inputs.
  const horizon = forecastEnd(today);
  const items: ForecastItem[] = [];
  for (const i of openInvoices)
    items.push({
      source: 'invoice',
      date: i.due_date,
      amount: i.balance,
      label: `${i.number ?? 'Invoice'} · ${i.name}`,
      link: `/invoices?invoice=${encodeURIComponent(i.id)}`,
    });
  for (const b of openBills)
    items.push({
      source: 'bill',
      date: b.due_date,
      amount: -b.balance,
      label: `${b.number} · ${b.name}`,
      link: `/bills?bill=${encodeURIComponent(b.id)}`,
    });
  const needInvoiceTotals = invoiceSchedules.length > 0;
  const needBillTotals = billSchedules.length > 0;
  const [invoiceTotals, billTotals] = await Promise.all([
    needInvoiceTotals ? listSchedules(ctx, member) : { schedules: [] },
    needBillTotals ? listBillSchedules(ctx, member) : { schedules: [] },
  ]);
  const recurring = (
    rows: typeof invoiceSchedules,
    listed: { id: string; total: number; customerName?: string; supplierName?: string }[],
    source: 'recurring_invoice' | 'recurring_bill',
  ) => {
    const byId = new Map(listed.map((s) => [s.id, s]));
    for (const s of rows) {
      const listing = byId.get(s.id);
      if (!listing || listing.total === 0) continue;
      const base = toBase(listing.total, s.currency.trim(), s.exchange_rate, currency);
      const dates = upcomingDueDates(
        {
          frequency: s.frequency,
          startDate: s.start_date,
          endDate: s.end_date,
          maxCount: s.max_count,
          nextIndex: s.next_index,
          nextDate: s.next_date,
          paymentTermsDays: s.payment_terms_days,
        },
        horizon,
      );
      for (const date of dates)
        items.push({
          source,
          date,
          amount: source === 'recurring_invoice' ? base : -base,
          label: `Recurring · ${listing.customerName ?? listing.supplierName ?? ''}`,
          link: source === 'recurring_invoice' ? '/invoices?tab=recurring' : '/bills?tab=recurring',
        });
    }
  };
  recurring(invoiceSchedules, invoiceTotals.schedules, 'recurring_invoice');
  recurring(billSchedules, billTotals.schedules, 'recurring_bill');
  const spendingWeeks = Array.from({ length: TRAILING_WEEKS }, () => 0);
  for (const r of spending) {
    if (r.week < 0 || r.week >= TRAILING_WEEKS) continue;
    const base =
      r.currency === currency ? r.spent : r.rate ? convertMinor(r.spent, r.currency, r.rate, currency) : 0;
    spendingWeeks[r.week]! += base;
  }
  const forecast = buildForecast({
    today,
    startCash: wallet.cashBase,
    items,
    spendingWeeks,
    spendingLink: '/transactions',
  });

  // --- Insights.
  const [changes, late, unusual] = await insightsRead;

  return {
    currency,
    today,
    from,
    to,
    months,
    kpis,
    forecast,
    insights: [...changes, ...late, ...unusual],
    recent: recent.map((e) => ({
      id: e.id,
      number: e.number === null ? null : Number(e.number),
      date: e.date,
      memo: e.memo,
      source: e.source,
      status: e.status as Dashboard['recent'][number]['status'],
      reversedByEntryId: e.reversed_by,
      totalDebit: e.total_debit,
    })),
    hasEntries: recent.length > 0,
  };
};
