import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MoneyAccount } from '../../../shared/wallet.ts';
import { createTestApp } from '../../testing/app.ts';
import { expectRefusal } from '../../testing/api.ts';
import { type TestCompany, createTestCompany } from '../../testing/companies.ts';
import { api, type InvoicingFixture, setUpInvoicing } from '../../testing/invoices.ts';
import { addTestBankAccount } from '../../testing/money.ts';

// No cash movement of a document is dated before its money account's opening date (issue 13):
// hand-typed lines were refused already; invoice payments and refunds write their register
// line through recordDocumentLine, which refuses them the same way (400 naming the account
// and its opening date) and the whole request rolls back. PGlite by default, PostgreSQL with
// TEST_DATABASE_URL.

let t: Awaited<ReturnType<typeof createTestApp>>;
let company: TestCompany;
let fx: InvoicingFixture;
let client: ReturnType<typeof api>;
let savings: MoneyAccount;

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set('2026-11-20T12:00:00Z');
  company = await createTestCompany(t.app);
  fx = await setUpInvoicing(t.app, t.database, company);
  client = api(t.app, company);
  savings = await addTestBankAccount(client, 'Savings', '2026-11-10');
});
afterAll(async () => {
  await t?.close();
});

const sentInvoice = async (unitPrice: number) => {
  const d = await client.post('/invoices', {
    customerId: fx.customerId,
    issueDate: '2026-11-02',
    lines: [{ description: 'Work', quantity: '1', unitPrice }],
  });
  expect(d.status, JSON.stringify(d.body)).toBe(201);
  const s = await client.post(`/invoices/${d.body.id}/send`, { email: false });
  expect(s.status, JSON.stringify(s.body)).toBe(200);
  return s.body as { id: string };
};

/** Everything a refused request must leave untouched. */
const snapshot = async () => {
  const count = async (table: string) =>
    Number(
      (
        await sql<{
          n: string;
        }>`select count(*) as n from ${sql.table(table)} where organization_id = ${company.id}`.execute(
          t.database.db,
        )
      ).rows[0]!.n,
    );
  return {
    entries: await count('journal_entries'),
    lines: await count('bank_transactions'),
    payments: await count('invoice_payments'),
    credit: await count('customer_credit_entries'),
    invoices: await t.database.db
      .selectFrom('invoices')
      .select(['id', 'amount_paid', 'status'])
      .where('organization_id', '=', company.id)
      .orderBy('id')
      .execute(),
  };
};

describe('document cash lines before the opening date', () => {
  it('refuses an invoice payment into an account before it opens, naming it and the date; nothing changes', async () => {
    const invoice = await sentInvoice(10_000);
    const before = await snapshot();
    const res = await client.post(`/invoices/${invoice.id}/payments`, {
      date: '2026-11-05',
      amount: 10_000,
      depositAccountId: savings.ledgerAccountId,
    });
    expectRefusal(res, 400, 'before_opening');
    expect(res.body.error.message).toMatch(/Savings/);
    expect(res.body.error.message).toMatch(/2026-11-10/);
    expect(await snapshot()).toEqual(before);

    // On the opening date it is recorded, with its register line.
    const okRes = await client.post(`/invoices/${invoice.id}/payments`, {
      date: '2026-11-10',
      amount: 10_000,
      depositAccountId: savings.ledgerAccountId,
    });
    expect(okRes.status, JSON.stringify(okRes.body)).toBe(201);
    const after = await snapshot();
    expect(after.lines).toBe(before.lines + 1);
    expect(after.payments).toBe(before.payments + 1);
  });

  it('refuses a refund paid from an account before it opens; nothing changes', async () => {
    const invoice = await sentInvoice(1_000);
    const paid = await client.post(`/invoices/${invoice.id}/payments`, {
      date: '2026-11-12',
      amount: 1_700,
      depositAccountId: savings.ledgerAccountId,
      keepExcessAsCredit: true,
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    const before = await snapshot();
    const res = await client.post(`/invoices/${invoice.id}/refunds`, {
      amount: 700,
      date: '2026-11-09',
      moneyAccountId: savings.id,
    });
    expectRefusal(res, 400, 'before_opening');
    expect(res.body.error.message).toMatch(/Savings opens on 2026-11-10/);
    expect(await snapshot()).toEqual(before);

    const okRes = await client.post(`/invoices/${invoice.id}/refunds`, {
      amount: 700,
      date: '2026-11-12',
      moneyAccountId: savings.id,
    });
    expect(okRes.status, JSON.stringify(okRes.body)).toBe(201);
    expect((await snapshot()).lines).toBe(before.lines + 1);
  });
});
