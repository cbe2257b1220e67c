import { parse } from 'csv-parse/sync';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { addTestSupplier, createOpenTestBill, setUpTestPayables } from '../../testing/payables.ts';

// A supplier's statement over the API: bills, payments, a void bill and a removed payment in
// date order with the running balance, the opening balance before `from`, the closing balance
// against the supplier's balance and their share of accounts payable in the ledger, and CSV.

const fixture = setUpTestPayables({ name: 'Supplier Statement Co' });

const bill = (supplierId: string, issueDate: string, unitPrice: number, description = 'Goods') =>
  createOpenTestBill(fixture.client, fixture.fx, {
    supplierId,
    issueDate,
    lines: [{ description, quantity: '1', unitPrice, taxRateIds: [] }],
  });

const pay = async (billId: string, date: string, amount: number) => {
  const res = await fixture.client.post(`/bills/${billId}/payments`, {
    date,
    amount,
    paymentAccountId: fixture.fx.bankId,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};

/** The supplier's accounts payable in the ledger (credit minus debit) on `to`. */
const ledgerShare = async (supplierId: string, to: string) => {
  const { rows } = await sql<{ owed: string }>`
    select coalesce(sum(l.credit - l.debit), 0)::text as owed
      from journal_lines l join journal_entries e on e.organization_id = l.organization_id and e.id = l.entry_id
     where l.organization_id = ${fixture.company.id} and l.account_id = ${fixture.fx.payableId}
       and l.contact_id = ${supplierId} and e.date <= ${to}`.execute(fixture.t.database.db);
  return Number(rows[0]!.owed);
};

describe('supplier statement', () => {
  it('lists what was billed and paid with a running balance that ends at what is owed', async () => {
    const supplierId = await addTestSupplier(fixture.t.database, fixture.company, {
      name: 'Statement Supplier',
    });
    const a = await bill(supplierId, '2026-03-01', 10_000, 'Paper');
    const b = await bill(supplierId, '2026-03-05', 5_000, 'Ink');
    const c = await bill(supplierId, '2026-03-06', 2_000, 'Entered twice');
    const voided = await fixture.client.post(`/bills/${c.id}/void`, { reason: 'Duplicate' });
    expect(voided.status, JSON.stringify(voided.body)).toBe(200);
    await pay(b.id, '2026-03-08', 3_000);
    const paid = await pay(a.id, '2026-03-09', 1_000);
    const removed = await fixture.client.delete(`/bills/${a.id}/payments/${paid.paymentId}`);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);

    const res = await fixture.client.get(`/suppliers/${supplierId}/statement?from=2026-03-04&to=2026-03-31`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const s = res.body;
    expect(s).toMatchObject({
      from: '2026-03-04',
      to: '2026-03-31',
      currency: 'USD',
      openingBalance: 10_000,
    });
    expect(s.supplier.name).toBe('Statement Supplier');
    expect(
      s.lines.map(
        (l: {
          date: string;
          kind: string;
          number: string;
          charges: number;
          payments: number;
          balance: number;
        }) => [l.date, l.kind, l.number, l.charges, l.payments, l.balance],
      ),
    ).toEqual([
      ['2026-03-05', 'bill', b.number, 5_000, 0, 15_000],
      ['2026-03-06', 'bill', c.number, 2_000, 0, 17_000],
      ['2026-03-06', 'void', c.number, 0, 2_000, 15_000],
      ['2026-03-08', 'payment', b.number, 0, 3_000, 12_000],
      ['2026-03-09', 'payment', a.number, 0, 1_000, 11_000],
      ['2026-03-09', 'payment_removed', a.number, 1_000, 0, 12_000],
    ]);
    expect(s.closingBalance).toBe(12_000);
    // What the company owes them on open bills, less their unused credit, and the ledger agree.
    expect(s.closingBalance).toBe(s.supplier.balance - s.supplier.credit);
    expect(s.closingBalance).toBe(await ledgerShare(supplierId, '2026-03-31'));

    // Up to a date: later lines are left out; without `from` there is no opening balance.
    const early = await fixture.client.get(`/suppliers/${supplierId}/statement?to=2026-03-05`);
    expect(early.body.from).toBeNull();
    expect(early.body.openingBalance).toBe(0);
    expect(early.body.lines.map((l: { kind: string }) => l.kind)).toEqual(['bill', 'bill']);
    expect(early.body.closingBalance).toBe(15_000);
    expect(early.body.closingBalance).toBe(await ledgerShare(supplierId, '2026-03-05'));

    // No dates: everything up to the company's today (2026-03-10).
    const all = await fixture.client.get(`/suppliers/${supplierId}/statement`);
    expect(all.body.to).toBe('2026-03-10');
    expect(all.body.closingBalance).toBe(12_000);

    const backwards = await fixture.client.get(
      `/suppliers/${supplierId}/statement?from=2026-04-01&to=2026-03-01`,
    );
    expect(backwards.status).toBe(400);
    const badDate = await fixture.client.get(`/suppliers/${supplierId}/statement?from=yesterday`);
    expect(badDate.status).toBe(400);
  });

  it('leaves drafts out and serves the statement as CSV', async () => {
    const supplierId = await addTestSupplier(fixture.t.database, fixture.company, {
      name: 'CSV, "Quoted" Supplier',
    });
    const draft = await fixture.client.post('/bills', {
      supplierId,
      issueDate: '2026-03-02',
      lines: [{ description: 'Draft only', quantity: '1', unitPrice: 99_900, taxRateIds: [] }],
    });
    expect(draft.status).toBe(201);
    const b = await bill(supplierId, '2026-03-03', 12_345);
    const json = await fixture.client.get(`/suppliers/${supplierId}/statement?to=2026-03-31`);
    expect(json.body.lines).toHaveLength(1);
    expect(json.body.closingBalance).toBe(12_345);

    const csv = await fixture.client.get(`/suppliers/${supplierId}/statement.csv?to=2026-03-31`);
    expect(csv.status).toBe(200);
    expect(csv.raw.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.raw.headers['content-disposition']).toContain(
      'supplier-statement-CSV-Quoted-Supplier-2026-03-31.csv',
    );
    expect((csv.body as string).split('\r\n')).toEqual([
      'Date,Type,Number,Reference,Description,Charges,Payments and credits,Balance,Currency',
      ',Opening balance,,,,,,0.00,USD',
      `2026-03-03,Bill,${b.number},,"Bill ${b.number}, due ${b.dueDate}",123.45,,123.45,USD`,
      ',Closing balance,,,,,,123.45,USD',
      '',
    ]);
  });

  it('takes supplier credits, their application and refund, into the statement, the aging and the tax report', async () => {
    const supplierId = await addTestSupplier(fixture.t.database, fixture.company, {
      name: 'Credit Supplier',
    });
    const { taxRateId } = fixture.fx;
    const b = await createOpenTestBill(fixture.client, fixture.fx, {
      supplierId,
      issueDate: '2026-03-02',
      lines: [{ description: 'Chairs', quantity: '1', unitPrice: 10_000, taxRateIds: [taxRateId] }],
    });
    expect(b.total).toBe(12_000);
    const credit = await fixture.client.post('/supplier-credits', {
      supplierId,
      date: '2026-03-04',
      reference: 'CN-7',
      lines: [{ description: 'Broken chair', quantity: '1', unitPrice: 5_000, taxRateIds: [taxRateId] }],
    });
    expect(credit.status, JSON.stringify(credit.body)).toBe(201);
    expect(credit.body.total).toBe(6_000);
    const creditId = credit.body.id;
    const applied = await fixture.client.post(`/supplier-credits/${creditId}/apply`, {
      billId: b.id,
      amount: 2_000,
      date: '2026-03-05',
    });
    expect([200, 201], JSON.stringify(applied.body)).toContain(applied.status);
    const refunded = await fixture.client.post(`/supplier-credits/${creditId}/refunds`, {
      date: '2026-03-06',
      amount: 1_000,
      paymentAccountId: fixture.fx.bankId,
    });
    expect([200, 201], JSON.stringify(refunded.body)).toContain(refunded.status);

    // Owed 12,000 - 2,000 applied on the bill = 10,000; credit left 6,000 - 2,000 - 1,000 = 3,000.
    const supplier = (await fixture.client.get(`/suppliers/${supplierId}`)).body;
    expect(supplier).toMatchObject({ balance: 10_000, credit: 3_000 });

    const s = (await fixture.client.get(`/suppliers/${supplierId}/statement?to=2026-03-31`)).body;
    expect(
      s.lines.map((l: { date: string; kind: string; charges: number; payments: number; balance: number }) => [
        l.date,
        l.kind,
        l.charges,
        l.payments,
        l.balance,
      ]),
    ).toEqual([
      ['2026-03-02', 'bill', 12_000, 0, 12_000],
      ['2026-03-04', 'credit', 0, 6_000, 6_000],
      ['2026-03-05', 'credit_applied', 0, 0, 6_000],
      ['2026-03-06', 'refund', 1_000, 0, 7_000],
    ]);
    expect(s.closingBalance).toBe(supplier.balance - supplier.credit);
    expect(s.closingBalance).toBe(await ledgerShare(supplierId, '2026-03-31'));

    // The aging nets the credit left from what the supplier is owed, in current; it equals the
    // ledger on each date: before the credit, before the application, after the refund.
    for (const [asOf, total] of [
      ['2026-03-03', 12_000],
      ['2026-03-04', 6_000],
      ['2026-03-05', 6_000],
      ['2026-03-31', 7_000],
    ] as const) {
      const aging = (await fixture.client.get(`/payables/aging?asOf=${asOf}`)).body;
      const row = aging.rows.find((r: { supplierId: string }) => r.supplierId === supplierId);
      expect(row.total, asOf).toBe(total);
      expect(aging.totals.total, asOf).toBe(aging.ledgerBalance);
    }

    // The credit takes its input tax back: purchase tax 2,000 on the bill, -1,000 on the credit.
    const tax = (await fixture.client.get('/reports/sales-tax?from=2026-03-04&to=2026-03-04')).body;
    expect(tax.rows.find((r: { taxRateId: string }) => r.taxRateId === taxRateId)).toMatchObject({
      purchaseTaxable: -5_000,
      purchaseTax: -1_000,
      netTax: 1_000,
    });
  });

  it('shows the exchange difference of a foreign credit applied at another rate, and a void credit', async () => {
    const supplierId = await addTestSupplier(fixture.t.database, fixture.company, {
      name: 'Euro Supplier',
      currency: 'EUR',
    });
    const b = await createOpenTestBill(fixture.client, fixture.fx, {
      supplierId,
      issueDate: '2026-03-02',
      currency: 'EUR',
      exchangeRate: '1.2',
      lines: [{ description: 'Machine', quantity: '1', unitPrice: 10_000, taxRateIds: [] }],
    });
    expect(b.totalBase).toBe(12_000);
    const credit = await fixture.client.post('/supplier-credits', {
      supplierId,
      date: '2026-03-03',
      currency: 'EUR',
      exchangeRate: '1.1',
      lines: [{ description: 'Discount', quantity: '1', unitPrice: 5_000, taxRateIds: [] }],
    });
    expect(credit.status, JSON.stringify(credit.body)).toBe(201);
    const applied = await fixture.client.post(`/supplier-credits/${credit.body.id}/apply`, {
      billId: b.id,
      amount: 5_000,
      date: '2026-03-04',
    });
    expect([200, 201], JSON.stringify(applied.body)).toContain(applied.status);
    const other = await fixture.client.post('/supplier-credits', {
      supplierId,
      date: '2026-03-05',
      currency: 'EUR',
      exchangeRate: '1.2',
      lines: [{ description: 'Wrong', quantity: '1', unitPrice: 1_000, taxRateIds: [] }],
    });
    expect(other.status, JSON.stringify(other.body)).toBe(201);
    const voided = await fixture.client.post(`/supplier-credits/${other.body.id}/void`, { reason: 'Typo' });
    expect(voided.status, JSON.stringify(voided.body)).toBe(200);

    const s = (await fixture.client.get(`/suppliers/${supplierId}/statement?to=2026-03-31`)).body;
    expect(s.currency).toBe('USD');
    const rows = s.lines.map((l: { kind: string; charges: number; payments: number; balance: number }) => [
      l.kind,
      l.charges,
      l.payments,
      l.balance,
    ]);
    // The bill owed 120.00 in base; the credit took 55.00; applying it cleared 60.00 of the bill
    // (its rate), so the ledger posted a 5.00 exchange gain on accounts payable.
    expect(rows.slice(0, 3)).toEqual([
      ['bill', 12_000, 0, 12_000],
      ['credit', 0, 5_500, 6_500],
      ['credit_applied', 0, 500, 6_000],
    ]);
    expect(s.lines[2].description).toMatch(/exchange gain/);
    expect(rows.slice(3).map((r: unknown[]) => r[0])).toEqual(['credit', 'void']);
    expect(s.closingBalance).toBe(6_000);
    const supplier = (await fixture.client.get(`/suppliers/${supplierId}`)).body;
    expect(s.closingBalance).toBe(supplier.balance - supplier.credit);
    expect(s.closingBalance).toBe(await ledgerShare(supplierId, '2026-03-31'));
    const aging = (await fixture.client.get('/payables/aging?asOf=2026-03-31')).body;
    expect(aging.totals.total).toBe(aging.ledgerBalance);
  });

  it('neutralises formula text in the statement and aging CSV, keeping amounts numbers', async () => {
    const evil = '=HYPERLINK("http://x")';
    const supplierId = await addTestSupplier(fixture.t.database, fixture.company, { name: evil });
    await createOpenTestBill(fixture.client, fixture.fx, {
      supplierId,
      issueDate: '2026-03-03',
      reference: '+SUM(A1)',
      lines: [{ description: 'Formula', quantity: '1', unitPrice: 4_200, taxRateIds: [] }],
    });
    const statement = await fixture.client.get(`/suppliers/${supplierId}/statement.csv?to=2026-03-31`);
    const rows = parse(statement.body as string) as string[][];
    const bill = rows.find((r) => r[1] === 'Bill')!;
    expect(bill[3]).toBe("'+SUM(A1)");
    expect(bill[5]).toBe('42.00');
    const aging = await fixture.client.get('/payables/aging?asOf=2026-03-31&format=csv');
    const agingRows = parse(aging.body as string) as string[][];
    expect(agingRows.find((r) => r[0] === `'${evil}`)?.[6]).toBe('42.00');
    expect(agingRows.some((r) => r[0] === evil)).toBe(false);
  });
});
