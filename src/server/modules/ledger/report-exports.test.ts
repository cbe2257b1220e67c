import { beforeAll, describe, expect, it } from 'vitest';
import { createTestCompany, type TestCompany } from '../../testing/companies.ts';
import { api, ensureLedger } from '../../testing/invoices.ts';
import { systemAccountsOf } from '../../testing/ledger.ts';
import { createOpenTestBill, setUpTestPayables } from '../../testing/payables.ts';
import { compressedPdfText } from '../../testing/pdf.ts';

// Every report over the API: the income statement against the previous period and the same
// period last year (labelled, with change and percent, as JSON, CSV and PDF), the cash flow
// statement's sections on a worked example, each report as CSV (ISO dates, plain numbers) and
// PDF (the user's date style) with a known figure in it, and bad periods answered 400 with the
// data left alone.

const fixture = setUpTestPayables({ name: 'Report Exports Co', now: '2026-04-10T12:00:00Z' });

/** A second company with only hand-posted entries, so every figure below is known. */
let books: TestCompany;
let a: Record<string, string>;
const call = (path: string) => api(fixture.t.app, books).get(path);

const post = async (
  date: string,
  memo: string,
  lines: { accountId: string; debit?: number; credit?: number }[],
) => {
  const res = await api(fixture.t.app, books).post('/journal-entries', { date, memo, lines });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
};
const entry = (debit: string, credit: string, amount: number) => [
  { accountId: a[debit]!, debit: amount },
  { accountId: a[credit]!, credit: amount },
];

beforeAll(async () => {
  books = await createTestCompany(fixture.t.app, { name: 'Comparison Books' });
  await ensureLedger(fixture.t.database, books);
  a = await systemAccountsOf(fixture.t.app, books);
  // Services sold for cash: 1,000.00 in Feb 2025, 2,000.00 in Nov 2025, 3,000.00 in Feb 2026.
  await post('2025-02-10', 'Consulting Q1 2025', entry('bank', 'services', 100_000));
  await post('2025-11-10', 'Consulting Q4 2025', entry('bank', 'services', 200_000));
  await post('2026-02-10', 'Consulting Q1 2026', entry('bank', 'services', 300_000));
  // The cash flow example, all in March 2026.
  await post('2026-03-02', 'Loan received', entry('bank', 'loans_payable', 1_000_000));
  await post('2026-03-03', 'Equipment bought', entry('equipment', 'bank', 500_000));
  await post('2026-03-04', 'Sale on credit', entry('accounts_receivable', 'sales', 150_000));
  await post('2026-03-05', 'Fuel on the card', entry('uncategorized_expense', 'credit_card', 20_000));
  await post('2026-03-31', 'Depreciation', entry('depreciation', 'accumulated_depreciation', 10_000));
  await post('2026-03-31', 'Owner drawing', entry('owner_drawings', 'bank', 30_000));
}, 60_000);

describe('income statement comparisons', () => {
  it('compares with the previous period and the same period last year, labelled, with change and percent', async () => {
    const res = await call('/reports/income-statement?from=2026-02-01&to=2026-02-28');
    expect(res.status).toBe(200);
    const d = res.body;
    // Feb 2026 (28 days) against Jan 2026 and Feb 2025.
    expect(d).toMatchObject({ previousFrom: '2026-01-01', previousTo: '2026-01-31' });
    expect(d).toMatchObject({ lastYearFrom: '2025-02-01', lastYearTo: '2025-02-28' });
    expect(d.comparisons.map((c: { label: string }) => c.label)).toEqual([
      'Jan 2026 (previous period)',
      'Feb 2025 (same period last year)',
    ]);
    expect(d.totals).toMatchObject({ income: 300_000, previousIncome: 0, lastYearIncome: 100_000 });
    const services = d.income.find((l: { accountId: string }) => l.accountId === a.services);
    expect(services).toMatchObject({ amount: 300_000, previousAmount: 0, lastYearAmount: 100_000 });
  });

  it('writes the chosen comparisons to CSV with ISO dates and plain numbers', async () => {
    const q = '/reports/income-statement?from=2026-01-01&to=2026-02-28';
    const both = await call(`${q}&format=csv&dateFormat=MM/DD/YYYY`);
    expect(both.status).toBe(200);
    expect(both.raw.headers['content-type']).toContain('text/csv');
    const lines = both.raw.body.split('\r\n');
    expect(lines[0]).toBe(
      'Account,Jan–Feb 2026,Nov–Dec 2025 (previous period),Change,Change %,Jan–Feb 2025 (same period last year),Change,Change %',
    );
    // 3,000.00 against 2,000.00 (+50 %) and 1,000.00 (+200 %).
    expect(lines).toContain('Total income,3000.00,2000.00,1000.00,50.0,1000.00,2000.00,200.0');
    const lastYear = await call(`${q}&format=csv&compare=lastYear`);
    expect(lastYear.raw.body.split('\r\n')[0]).toBe(
      'Account,Jan–Feb 2026,Jan–Feb 2025 (same period last year),Change,Change %',
    );
    const none = await call(`${q}&format=csv&compare=none`);
    expect(none.raw.body.split('\r\n')[0]).toBe('Account,Jan–Feb 2026');
    expect(none.raw.body).toContain('Total income,3000.00\r\n');
    // A change from nothing has no percent: the cell is empty, not a made-up number.
    const previous = await call(
      '/reports/income-statement?from=2026-02-01&to=2026-02-28&format=csv&compare=previous',
    );
    expect(previous.raw.body).toContain('Total income,3000.00,0.00,3000.00,\r\n');
  });

  it('prints both comparisons in the PDF, in the chosen date style', async () => {
    const res = await call(
      '/reports/income-statement?from=2026-01-01&to=2026-03-31&format=pdf&dateFormat=DD/MM/YYYY',
    );
    expect(res.status).toBe(200);
    expect(res.raw.headers['content-type']).toBe('application/pdf');
    const text = compressedPdfText(res.raw.rawPayload);
    expect(text).toContain('Income statement');
    expect(text).toContain('01/01/2026 to 31/03/2026');
    expect(text).toContain('(previous period)');
    expect(text).toContain('(same period last year)');
    expect(text).toContain('$4,500.00');
    expect(text).toContain('+200.0%');
  });
});

describe('cash flow statement (indirect method)', () => {
  it('explains the change in cash on a worked example', async () => {
    const res = await call('/reports/cash-flow?from=2026-03-01&to=2026-03-31');
    expect(res.status).toBe(200);
    const d = res.body;
    const line = (section: string, key: string) =>
      d[section].find((l: { accountId: string }) => l.accountId === a[key])?.amount;
    // Net income: sale on credit 1,500 less fuel 200 and depreciation 100.
    expect(d.netIncome).toBe(150_000 - 20_000 - 10_000);
    expect(line('adjustments', 'accumulated_depreciation')).toBe(10_000);
    expect(line('workingCapital', 'accounts_receivable')).toBe(-150_000);
    expect(line('workingCapital', 'credit_card')).toBe(20_000);
    expect(line('investing', 'equipment')).toBe(-500_000);
    expect(line('financing', 'loans_payable')).toBe(1_000_000);
    expect(line('financing', 'owner_drawings')).toBe(-30_000);
    expect(d.totals).toEqual({
      adjustments: 10_000,
      workingCapital: -130_000,
      operating: 0,
      investing: -500_000,
      financing: 970_000,
      netChange: 470_000,
      openingCash: 600_000,
      closingCash: 1_070_000,
    });
    // The bank's balance over the period moved by exactly the net change.
    const bank = await call(`/reports/general-ledger?accountId=${a.bank}&from=2026-03-01&to=2026-03-31`);
    expect(bank.body.closingBalance - bank.body.openingBalance).toBe(d.totals.netChange);
    const csv = await call('/reports/cash-flow?from=2026-03-01&to=2026-03-31&format=csv');
    expect(csv.raw.body).toContain('  Adjustments for non-cash items,');
    expect(csv.raw.body).toContain('Net change in cash,4700.00');
  });
});

describe('every report as CSV and PDF', () => {
  beforeAll(async () => {
    const c = fixture.client;
    const inv = await c.post('/invoices', {
      customerId: fixture.fx.customerId,
      issueDate: '2026-01-05',
      lines: [
        { itemId: fixture.fx.itemId, quantity: '2', unitPrice: 12_500, taxRateIds: [fixture.fx.taxRateId] },
      ],
    });
    expect(inv.status, JSON.stringify(inv.body)).toBe(201);
    expect((await c.post(`/invoices/${inv.body.id}/send`)).status).toBe(200);
    await createOpenTestBill(c, fixture.fx, { issueDate: '2026-03-01' });
  }, 60_000);

  // Each report, the company it reads, its query, a figure its CSV must hold and its PDF title.
  const bank = () => a.bank!;
  const reports: {
    name: string;
    own?: boolean;
    path: () => string;
    csv: string;
    pdf: string;
    title: string;
  }[] = [
    {
      name: 'trial balance',
      path: () => '/reports/trial-balance?to=2026-03-31',
      csv: 'Total,,,',
      pdf: '$',
      title: 'Trial balance',
    },
    {
      name: 'general ledger',
      path: () => `/reports/general-ledger?accountId=${bank()}&from=2026-02-01&to=2026-03-31`,
      csv: '2026-02-10,3,Consulting Q1 2026,3000.00,,6000.00',
      pdf: '10/02/2026',
      title: 'General ledger',
    },
    {
      name: 'journal',
      path: () => '/reports/journal?from=2026-03-01&to=2026-03-31',
      csv: '2026-03-02,4,',
      pdf: '02/03/2026',
      title: 'Journal',
    },
    {
      name: 'account transactions',
      path: () => '/reports/account-transactions?from=2026-03-01&to=2026-03-31',
      csv: '2026-03-03,5,',
      pdf: '03/03/2026',
      title: 'Account transactions',
    },
    {
      name: 'balance sheet',
      path: () => '/reports/balance-sheet?asOf=2026-03-31',
      csv: 'Total assets,',
      pdf: '31/03/2026',
      title: 'Balance sheet',
    },
    {
      name: 'income statement',
      path: () => '/reports/income-statement?from=2026-01-01&to=2026-03-31',
      csv: 'Total income,4500.00,',
      pdf: '$4,500.00',
      title: 'Income statement',
    },
    {
      name: 'cash flow',
      path: () => '/reports/cash-flow?from=2026-01-01&to=2026-03-31',
      csv: 'Net change in cash,7700.00',
      pdf: '$7,700.00',
      title: 'Cash flow statement',
    },
    {
      name: 'receivables aging',
      own: true,
      path: () => '/reports/receivables-aging?asOf=2026-03-31',
      csv: 'Northwind Traders,0.00,0.00,0.00,300.00,0.00,300.00',
      pdf: '$300.00',
      title: 'Accounts receivable aging',
    },
    {
      name: 'tax report',
      own: true,
      path: () => '/reports/sales-tax?from=2026-01-01&to=2026-03-31',
      csv: '250.00,50.00,',
      pdf: '$50.00',
      title: 'Tax report',
    },
    {
      name: 'payables aging',
      own: true,
      path: () => '/payables/aging?asOf=2026-03-31',
      csv: ',100.00',
      pdf: '$100.00',
      title: 'Accounts payable aging',
    },
  ];

  for (const r of reports) {
    it(`${r.name}: CSV with ISO dates and plain numbers, PDF in the chosen style`, async () => {
      const client = r.own ? fixture.client : api(fixture.t.app, books);
      const sep = r.path().includes('?') ? '&' : '?';
      const csv = await client.get(`${r.path()}${sep}format=csv&dateFormat=DD/MM/YYYY`);
      expect(csv.status, csv.raw.body).toBe(200);
      expect(csv.raw.headers['content-type']).toContain('text/csv');
      expect(csv.raw.headers['content-disposition']).toMatch(/attachment; filename=.*\.csv/);
      expect(csv.raw.body).toContain(r.csv);
      // CSV keeps ISO dates whatever the date style asked for.
      expect(csv.raw.body).not.toMatch(/\d{2}\/\d{2}\/\d{4}/);
      const pdf = await client.get(`${r.path()}${sep}format=pdf&dateFormat=DD/MM/YYYY`);
      expect(pdf.status).toBe(200);
      expect(pdf.raw.headers['content-type']).toBe('application/pdf');
      expect(pdf.raw.headers['content-disposition']).toMatch(/attachment; filename=".*\.pdf"/);
      const text = compressedPdfText(pdf.raw.rawPayload);
      expect(text).toContain(r.title);
      expect(text).toContain(r.pdf);
    });
  }
});

describe('bad report queries', () => {
  it('answers 400 with a field message for a bad period, date, comparison or format', async () => {
    const bad = [
      '/reports/income-statement?from=2026-03-31&to=2026-01-01',
      '/reports/income-statement?from=2026-01-01&to=2026-02-30',
      '/reports/income-statement?to=2026-03-31&compare=quarter',
      '/reports/income-statement?to=2026-03-31&format=xlsx',
      '/reports/cash-flow?from=2026-03-31&to=2026-01-01',
      '/reports/trial-balance?from=2026-03-31&to=2026-01-01',
      '/reports/journal?from=2026-03-31&to=2026-01-01&format=csv',
      `/reports/general-ledger?accountId=x&from=2026-03-31&to=2026-01-01`,
      '/reports/account-transactions?from=2026-03-31&to=2026-01-01',
      '/reports/balance-sheet?asOf=2026-13-01',
      '/reports/cash-flow?to=2026-03-31&dateFormat=YY',
      '/reports/sales-tax?from=2026-03-31&to=2026-01-01&format=pdf',
      '/reports/receivables-aging?asOf=yesterday&format=csv',
    ];
    const before = await call('/reports/trial-balance?to=2026-12-31');
    for (const path of bad) {
      const res = await call(path);
      expect(res.status, path).toBe(400);
      expect(res.body.error.message, path).toBeTruthy();
    }
    expect((await call('/reports/trial-balance?to=2026-12-31')).body).toEqual(before.body);
  });
});
