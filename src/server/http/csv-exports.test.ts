import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, setUpInvoicing } from '../testing/invoices.ts';
import { createTestApp } from '../testing/app.ts';
import { createTestCompany, type TestCompany } from '../testing/companies.ts';
import { testDatabaseKind } from '../testing/db.ts';

// Every CSV export route, with people's text that a spreadsheet would run as a formula: each
// comes out neutralised (a leading single quote), and amounts stay plain numbers.

const EVIL = '=HYPERLINK("http://x")';
const TRIGGER = /^[=+\-@\t\r]/;
const NUMBER = /^-?\d+(\.\d+)?$/;

let t: Awaited<ReturnType<typeof createTestApp>>;
let company: TestCompany;
let client: ReturnType<typeof api>;
let bankId: string;

beforeAll(async () => {
  t = await createTestApp();
  company = await createTestCompany(t.app);
  await setUpInvoicing(t.app, t.database, company);
  client = api(t.app, company);
  const accounts = (await client.get('/accounts')).body.accounts as {
    id: string;
    systemKey: string | null;
  }[];
  bankId = accounts.find((a) => a.systemKey === 'bank')!.id;
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const download = async (path: string) => {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/orgs/${company.id}${path}`,
    headers: { cookie: company.owner.cookie },
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
  expect(res.headers['content-disposition']).toMatch(/^attachment; filename="[^"]+\.csv"$/);
  const rows = parse(res.body, { relax_column_count: true }) as string[][];
  // No text cell starts with a formula trigger; only plain numbers (amounts) may start with "-".
  for (const row of rows)
    for (const cell of row)
      expect(TRIGGER.test(cell) && !NUMBER.test(cell), `cell ${JSON.stringify(cell)}`).toBe(false);
  return { rows, text: res.body };
};

describe(`CSV exports neutralise formulas (${testDatabaseKind()})`, () => {
  it('transactions export', async () => {
    const account = await client.post('/wallet/accounts', {
      name: '@Checking',
      kind: 'bank',
      currency: 'USD',
      openingDate: '2026-10-31',
    });
    expect(account.status, JSON.stringify(account.body)).toBe(201);
    const tx = await client.post('/transactions', {
      moneyAccountId: account.body.id,
      date: '2026-11-03',
      description: EVIL,
      payee: '+1 Payee',
      amount: -1_234,
      notes: '-cmd',
    });
    expect(tx.status, JSON.stringify(tx.body)).toBe(201);
    const { rows, text } = await download('/transactions/export.csv');
    expect(rows[0]).toEqual([
      'Date',
      'Account',
      'Description',
      'Payee',
      'Category',
      'Status',
      'Currency',
      'Amount',
      'Notes',
    ]);
    const row = rows.find((r) => r[2] === `'${EVIL}`);
    expect(row).toEqual([
      '2026-11-03',
      "'@Checking",
      `'${EVIL}`,
      "'+1 Payee",
      'Uncategorised',
      expect.any(String),
      'USD',
      '-12.34',
      "'-cmd",
    ]);
    // The amount is written as a number: unquoted, with no leading quote.
    expect(text).toContain(',USD,-12.34,');
  });

  it('invoices export', async () => {
    const customer = await client.post('/customers', { name: EVIL, paymentTermsDays: 14 });
    expect(customer.status, JSON.stringify(customer.body)).toBe(201);
    const invoice = await client.post('/invoices', {
      customerId: customer.body.id,
      issueDate: '2026-03-01',
      lines: [{ description: '-minus line', quantity: '1', unitPrice: 4_200 }],
    });
    expect(invoice.status, JSON.stringify(invoice.body)).toBe(201);
    const { rows } = await download('/invoices/export.csv?status=all');
    expect(rows[0]).toEqual([
      'Number',
      'Customer',
      'Issue date',
      'Due date',
      'Status',
      'Currency',
      'Total',
      'Amount due',
    ]);
    const row = rows.find((r) => r[1] === `'${EVIL}`);
    expect(row).toBeDefined();
    expect(row!.slice(6)).toEqual(['42.00', '42.00']);
  });

  it('every ledger report CSV', async () => {
    const account = await client.post('/accounts', {
      code: '-4900',
      name: EVIL,
      type: 'income',
      subtype: 'sales',
    });
    expect(account.status, JSON.stringify(account.body)).toBe(201);
    const entry = await client.post('/journal-entries', {
      date: '2026-02-10',
      memo: EVIL,
      lines: [
        { accountId: bankId, debit: 5_000, description: '@SUM(A1)' },
        { accountId: account.body.id, credit: 5_000, description: '+memo' },
      ],
    });
    expect(entry.status, JSON.stringify(entry.body)).toBe(201);
    const range = 'from=2026-01-01&to=2026-12-31';
    const cells = async (path: string) => (await download(path)).rows.flat();

    const trial = await cells(`/reports/trial-balance?${range}&format=csv`);
    expect(trial).toContain(`'-4900 ${EVIL}`);
    const income = await cells(`/reports/income-statement?${range}&format=csv`);
    expect(income.some((c) => c.includes(EVIL))).toBe(true);
    await cells('/reports/balance-sheet?asOf=2026-12-31&format=csv');
    await cells(`/reports/cash-flow?${range}&format=csv`);
    const ledger = await download(`/reports/general-ledger?accountId=${bankId}&${range}&format=csv`);
    // A line's own description is shown before the entry's memo.
    expect(ledger.rows.find((r) => r[2] === "'@SUM(A1)")!.slice(3)).toEqual([
      '50.00',
      '',
      expect.any(String),
    ]);
    const journal = await cells(`/reports/journal?${range}&format=csv`);
    expect(journal).toContain(`'${EVIL}`);
    expect(journal).toContain("'+memo");
    expect(journal).toContain(`'-4900 ${EVIL}`);
    const accountTx = await cells(`/reports/account-transactions?${range}&accountId=${bankId}&format=csv`);
    expect(accountTx).toContain("'@SUM(A1)");
  });
});
