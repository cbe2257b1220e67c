import { beforeAll, describe, expect, it } from 'vitest';
import { cashPositionOf } from '../../../shared/cash.ts';
import type { Dashboard } from '../../../shared/dashboard.ts';
import { addDays } from '../../../shared/dates.ts';
import type { AgingReport } from '../../../shared/invoice-reports.ts';
import type { BalanceSheet, IncomeStatement } from '../../../shared/ledger.ts';
import type { PayablesAging } from '../../../shared/payables.ts';
import type { WalletSummary } from '../../../shared/wallet.ts';
import { callCompanyRoute, okCompanyRoute } from '../../testing/api.ts';
import { createTestCompany } from '../../testing/companies.ts';
import { ensureLedger, setUpTestInvoicing } from '../../testing/invoices.ts';
import { postedEntryBody } from '../../testing/ledger.ts';
import { seedTestPayables } from '../../testing/payables-seed.ts';

// The dashboard's figures against the reports they link to, on a company with fourteen months
// of entries, invoices (three paid two days late, one long overdue), bills and schedules:
// every month's income, expenses and net equal the income statement of that month, its cash
// the wallet's cash total on its last day; the cash figure equals the wallet and the balance
// sheet; receivables and payables equal the aging reports; the revenue growth equals the
// income statement's current and previous period. Bad queries answer 400.

const TODAY = '2026-06-15';
const fixture = setUpTestInvoicing({ name: 'Dashboard Co', now: `${TODAY}T12:00:00Z` });
const get = <T>(url: string) => okCompanyRoute<T>(fixture.t.app, fixture.company, 'GET', url);
const post = <T = any>(url: string, body?: unknown) =>
  okCompanyRoute<T>(fixture.t.app, fixture.company, 'POST', url, body);

let accounts: Record<string, string>;
let bankLedgerId: string;

const entry = (date: string, memo: string, debitCode: string, creditCode: string, amount: number) =>
  post('/journal-entries', postedEntryBody(date, memo, accounts[debitCode], accounts[creditCode], amount));

const invoice = async (issueDate: string) => {
  const d = await post('/invoices', {
    customerId: fixture.fx.customerId,
    issueDate,
    lines: [{ description: 'Work', quantity: '1', unitPrice: 40_000 }],
  });
  return post(`/invoices/${d.id}/send`, {});
};

beforeAll(async () => {
  const list = await get<{ accounts: { id: string; code: string }[] }>('/accounts');
  accounts = Object.fromEntries(list.accounts.map((a) => [a.code, a.id]));
  const bank = await post('/wallet/accounts', {
    name: 'Main bank',
    kind: 'bank',
    currency: 'USD',
    openingDate: '2025-01-01',
    openingBalance: 2_000_000,
  });
  bankLedgerId = bank.ledgerAccountId;
  accounts.BANK = bankLedgerId;
  // Fourteen months: sales in, rent out, a small software bill each month.
  for (let i = 0; i < 14; i += 1) {
    const month = `${2025 + Math.floor((4 + i) / 12)}-${String(((4 + i) % 12) + 1).padStart(2, '0')}`;
    await entry(`${month}-03`, `Sales ${month}`, 'BANK', '4000', 300_000 + i * 1_000);
    await entry(`${month}-05`, `Rent ${month}`, '6200', 'BANK', 150_000);
    await entry(`${month}-07`, `Software ${month}`, '6400', 'BANK', 2_000);
  }
  // Travel jumps from April to May: a spend change.
  await entry('2026-04-12', 'Train', '6800', 'BANK', 10_000);
  await entry('2026-05-12', 'Flights', '6800', 'BANK', 80_000);
  // Dated after today, inside this month: no figure up to today may count it.
  await entry('2026-06-25', 'Sale dated ahead', 'BANK', '4000', 12_345);
  // One software expense far above the usual: an unusual transaction.
  await entry('2026-06-09', 'Annual licence', '6400', 'BANK', 30_000);
  // Three invoices paid two days after their due date, then one long overdue.
  for (const issue of ['2026-01-05', '2026-02-05', '2026-03-05']) {
    const inv = await invoice(issue);
    await post(`/invoices/${inv.id}/payments`, {
      date: addDays(inv.dueDate, 2),
      amount: inv.total,
      depositAccountId: bankLedgerId,
    });
  }
  // The bank register: two withdrawals within the trailing twelve weeks (one categorised, one
  // not), a deposit and one withdrawal before the window; only the first two are other spending.
  for (const [date, amount, category] of [
    ['2026-05-20', -10_000, accounts['6500']],
    ['2026-06-12', -20_000, null],
    ['2026-06-01', 5_000, accounts['4000']],
    ['2026-02-01', -70_000, accounts['6500']],
  ] as const)
    await post('/transactions', {
      moneyAccountId: bank.id,
      date,
      description: `Register ${date}`,
      amount,
      categoryAccountId: category,
    });
  await invoice('2026-04-01');
  await invoice('2026-06-10');
  await seedTestPayables(fixture.t.app, fixture.t.database, fixture.company);
  await post('/bill-schedules', {
    supplierId: (await get<{ suppliers: { id: string }[] }>('/suppliers')).suppliers[0]!.id,
    frequency: 'monthly',
    startDate: '2026-07-01',
    reference: 'OFFICE',
    lines: [{ description: 'Office', quantity: '1', unitPrice: 70_000 }],
  });
  await post('/recurring-invoices', {
    customerId: fixture.fx.customerId,
    frequency: 'monthly',
    startDate: '2026-07-01',
    paymentTermsDays: 10,
    lines: [{ description: 'Retainer', quantity: '1', unitPrice: 90_000 }],
  });
}, 120_000);

describe('GET /dashboard', () => {
  it('answers each month as the income statement and the wallet answer it', async () => {
    const d = await get<Dashboard>('/dashboard');
    expect(d.today).toBe(TODAY);
    expect(d.months).toHaveLength(12);
    expect(d.months[0]!.from).toBe('2025-07-01');
    expect(d.months.at(-1)!.to).toBe(TODAY);
    for (const m of d.months) {
      const is = await get<IncomeStatement>(`/reports/income-statement?from=${m.from}&to=${m.to}`);
      expect(m.income, m.month).toBe(is.totals.income);
      expect(m.expenses, m.month).toBe(is.totals.costOfSales + is.totals.expenses);
      expect(m.net, m.month).toBe(is.totals.netIncome);
      const wallet = await get<WalletSummary>(`/wallet?asOf=${m.to}`);
      expect(m.cash, m.month).toBe(wallet.cashBase);
      expect(m.link).toContain(`from=${m.from}&to=${m.to}`);
    }
    expect(d.months.some((m) => m.income > 0 && m.expenses > 0)).toBe(true);
  });

  it('shows the wallet’s cash, equal to the balance sheet’s', async () => {
    const d = await get<Dashboard>('/dashboard');
    const wallet = await get<WalletSummary>('/wallet');
    const bs = await get<BalanceSheet>(`/reports/balance-sheet?asOf=${TODAY}`);
    expect(d.kpis.cash.amount).toBe(wallet.cashBase);
    expect(d.kpis.cash.amount).toBe(cashPositionOf(bs).cash);
    expect(d.kpis.cash.amount).toBe(d.months.at(-1)!.cash);
    expect(d.kpis.cash.link).toBe('/wallet');
  });

  it('answers receivables and payables as the aging reports, with what is overdue', async () => {
    const d = await get<Dashboard>('/dashboard');
    const ar = await get<AgingReport>(`/reports/receivables-aging?asOf=${TODAY}`);
    const ap = await get<PayablesAging>(`/payables/aging?asOf=${TODAY}`);
    expect(d.kpis.receivables.total).toBe(ar.totals.total);
    expect(d.kpis.receivables.total).toBe(ar.ledgerBalance);
    expect(d.kpis.receivables.overdue).toBe(ar.totals.total - ar.totals.current);
    expect(d.kpis.receivables.overdue).toBeGreaterThan(0);
    expect(d.kpis.receivables.overdueCount).toBe(1);
    expect(d.kpis.payables.total).toBe(ap.totals.total);
    expect(d.kpis.payables.overdue).toBe(ap.totals.total - ap.totals.current);
    expect(d.kpis.dso.receivables).toBe(ar.totals.total);
  });

  it('answers revenue growth as the income statement’s current and previous period', async () => {
    // Partial months at the edges read either way (kept month less lines, or lines alone).
    for (const q of [
      '',
      '?months=24',
      '?from=2026-01-01&to=2026-03-31',
      '?from=2026-01-15&to=2026-03-20',
      '?from=2026-01-25&to=2026-03-05',
      '?from=2026-02-03&to=2026-02-25',
    ]) {
      const d = await get<Dashboard>(`/dashboard${q}`);
      for (const m of d.months) {
        const month = await get<IncomeStatement>(`/reports/income-statement?from=${m.from}&to=${m.to}`);
        expect(m.income, `${q} ${m.month}`).toBe(month.totals.income);
        expect(m.net, `${q} ${m.month}`).toBe(month.totals.netIncome);
        const wallet = await get<WalletSummary>(`/wallet?asOf=${m.to}`);
        expect(m.cash, `${q} ${m.month}`).toBe(wallet.cashBase);
      }
      const is = await get<IncomeStatement>(`/reports/income-statement?from=${d.from}&to=${d.to}`);
      expect(d.kpis.revenueGrowth.current, q).toBe(is.totals.income);
      expect(d.kpis.revenueGrowth.previous, q).toBe(is.totals.previousIncome);
      expect(d.kpis.revenueGrowth.previousFrom, q).toBe(is.previousFrom);
    }
    expect((await get<Dashboard>('/dashboard?months=24')).months).toHaveLength(24);
    expect(
      (await get<Dashboard>('/dashboard?from=2026-01-01&to=2026-03-31')).months.map((m) => m.month),
    ).toEqual(['2026-01-01', '2026-02-01', '2026-03-01']);
  });

  it('burns the average net cash outflow of the last three full months; runway is cash over burn', async () => {
    const d = await get<Dashboard>('/dashboard');
    const start = await get<WalletSummary>('/wallet?asOf=2026-02-28');
    const end = await get<WalletSummary>('/wallet?asOf=2026-05-31');
    expect(d.kpis.burn.startCash).toBe(start.cashBase);
    expect(d.kpis.burn.endCash).toBe(end.cashBase);
    const burn = Math.max(0, Math.round((start.cashBase - end.cashBase) / 3));
    expect(d.kpis.burn.monthly).toBe(burn);
    expect(d.kpis.runwayMonths).toBe(burn > 0 ? Math.round((d.kpis.cash.amount / burn) * 10) / 10 : null);
  });

  it('forecasts from the open documents, the schedules and the trailing spending', async () => {
    const d = await get<Dashboard>('/dashboard');
    const f = d.forecast;
    expect(f.points).toHaveLength(13);
    expect(f.startCash).toBe(d.kpis.cash.amount);
    const sum = Object.values(f.totals).reduce((s, v) => s + v, 0);
    expect(f.endCash).toBe(f.startCash + sum);
    // Every open invoice and bill is due within 13 weeks (or overdue) in this company.
    expect(f.totals.invoice).toBe(d.kpis.receivables.total);
    const openBills = await fixture.t.database.db
      .selectFrom('bills')
      .select('balance_base')
      .where('organization_id', '=', fixture.company.id)
      .where('status', 'in', ['open', 'partially_paid'])
      .execute();
    expect(f.totals.bill).toBe(-openBills.reduce((s, b) => s + Number(b.balance_base), 0));
    // July, August and September occurrences: the invoices due 10 days later (Jul 11, Aug 11,
    // Sep 11 — all before Sep 14), the bills due on their date (payables terms of the supplier).
    expect(f.totals.recurring_invoice).toBe(3 * 90_000);
    expect(f.totals.recurring_bill).toBeLessThan(0);
    expect(Math.abs(f.totals.recurring_bill) % 70_000).toBe(0);
    expect(f.spending.weeks.reduce((s, w) => s + w, 0)).toBe(30_000);
    expect(f.spending.weeklyAverage).toBe(2_500);
    expect(f.totals.unscheduled_spending).toBe(-2_500 * 13);
    expect(f.spending.spread).toBeGreaterThan(0);
    for (const p of f.points) expect(p.low < p.balance && p.balance < p.high).toBe(true);
  });

  it('notes the spend change, the late payer and the unusual expense, each with its numbers', async () => {
    const d = await get<Dashboard>('/dashboard');
    const change = d.insights.find((i) => i.kind === 'spend_change' && i.accountId === accounts['6800']);
    expect(change).toMatchObject({
      amount: 80_000,
      previousAmount: 10_000,
      percent: 700,
      month: '2026-05-01',
    });
    const late = d.insights.find((i) => i.kind === 'late_payer');
    expect(late).toMatchObject({ usualDaysLate: 2, paidInvoices: 3, customerId: fixture.fx.customerId });
    expect(late && late.kind === 'late_payer' && late.daysLate).toBe(61);
    const unusual = d.insights.find((i) => i.kind === 'unusual_transaction');
    expect(unusual).toMatchObject({ amount: 30_000, median: 2_000, accountId: accounts['6400'] });
    expect(unusual?.link).toMatch(/^\/accounting\?entry=/);
    expect(d.recent.length).toBeGreaterThan(0);
    expect(d.hasEntries).toBe(true);
  });

  it('refuses bad queries with 400 and a field message', async () => {
    for (const q of [
      'months=13',
      'months=abc',
      'from=2026-05-01&to=2026-04-01',
      'from=2026-02-30',
      'months=12&from=2026-01-01',
      'from=2010-01-01&to=2026-01-01',
      'from=2027-01-01',
    ]) {
      const res = await callCompanyRoute(fixture.t.app, fixture.company, 'GET', `/dashboard?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.error.message, q).toBeTruthy();
    }
  });

  it('answers a new company with zeros and no entries', async () => {
    const other = await createTestCompany(fixture.t.app, { name: 'Empty Co' });
    await ensureLedger(fixture.t.database, other);
    const d = await okCompanyRoute<Dashboard>(fixture.t.app, other, 'GET', '/dashboard');
    expect(d.hasEntries).toBe(false);
    expect(d.kpis.cash.amount).toBe(0);
    expect(d.kpis.runwayMonths).toBeNull();
    expect(d.kpis.revenueGrowth.percent).toBeNull();
    expect(d.insights).toEqual([]);
    expect(d.months.every((m) => m.income === 0 && m.expenses === 0 && m.cash === 0)).toBe(true);
  });
});
