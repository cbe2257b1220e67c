import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { addDays } from '../../../shared/dates.ts';
import { addTestMember, createTestCompany } from '../../testing/companies.ts';
import { api, balancesOn, ensureLedger, extractPdfText } from '../../testing/invoices.ts';
import {
  addTestSupplier,
  createOpenTestBill,
  payablesAgreement,
  setUpTestPayables,
} from '../../testing/payables.ts';

// The payables reports over the API: AP aging buckets on their boundary days, its total
// against the accounts payable balance (as of today and of past dates), its CSV and PDF, roles
// and company isolation; and the purchase side of the tax report against the tax account.

const fixture = setUpTestPayables({ name: 'Payables Reports Co', now: '2026-07-01T12:00:00Z' });
const ASOF = '2026-06-30';

const aging = async (query = `asOf=${ASOF}`) => {
  const res = await fixture.client.get(`/payables/aging?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

/** The text of a pdfkit file whose page streams are compressed: each stream inflated, then read. */
const pdfText = (pdf: Buffer) => {
  const source = pdf.toString('latin1');
  const parts: string[] = [];
  for (const m of source.matchAll(/stream\r?\n/g)) {
    const start = m.index + m[0].length;
    const end = source.indexOf('endstream', start);
    try {
      parts.push(inflateSync(pdf.subarray(start, end)).toString('latin1'));
    } catch {
      // not a compressed stream (fonts and the like)
    }
  }
  return extractPdfText(Buffer.from(parts.join('\n'), 'latin1'));
};

const ledgerPayable = async (asOf = '2999-12-31') =>
  0 - ((await balancesOn(fixture.t.database, fixture.company.id, asOf)).byId.get(fixture.fx.payableId) ?? 0);

describe('AP aging', () => {
  it('puts each bill in its bucket by days past due on the boundary days', async () => {
    const supplierId = await addTestSupplier(fixture.t.database, fixture.company, {
      name: 'Boundary Supplier',
    });
    // Days late on ASOF -> the bucket it must land in; each bill a distinct amount.
    const cases: [number, string][] = [
      [-5, 'current'],
      [0, 'current'],
      [1, 'days1to30'],
      [30, 'days1to30'],
      [31, 'days31to60'],
      [60, 'days31to60'],
      [61, 'days61to90'],
      [90, 'days61to90'],
      [91, 'over90'],
    ];
    const expected = { current: 0, days1to30: 0, days31to60: 0, days61to90: 0, over90: 0, total: 0 };
    for (const [i, [late, bucket]] of cases.entries()) {
      const amount = 1_000 * 2 ** i;
      await createOpenTestBill(fixture.client, fixture.fx, {
        supplierId,
        issueDate: '2026-01-02',
        dueDate: addDays(ASOF, -late),
        lines: [{ description: `Late ${late}`, quantity: '1', unitPrice: amount, taxRateIds: [] }],
      });
      expected[bucket as keyof typeof expected] += amount;
      expected.total += amount;
    }
    const report = await aging();
    expect(report.currency).toBe('USD');
    expect(report.asOf).toBe(ASOF);
    const row = report.rows.find((r: { supplierId: string }) => r.supplierId === supplierId);
    expect(row).toEqual({ supplierId, supplierName: 'Boundary Supplier', ...expected });
    expect(report.totals.total).toBe(report.ledgerBalance);
    expect(report.ledgerBalance).toBe(await ledgerPayable(ASOF));
    expect(report.ledgerBalance).toBeGreaterThan(0);
  });

  it('leaves out drafts, bills issued after the date and void bills, and still equals the ledger', async () => {
    const supplierId = await addTestSupplier(fixture.t.database, fixture.company, {
      name: 'Timing Supplier',
    });
    const before = await aging();
    // A draft posts nothing.
    const draft = await fixture.client.post('/bills', {
      supplierId,
      issueDate: '2026-06-01',
      lines: [{ description: 'Draft', quantity: '1', unitPrice: 7_000, taxRateIds: [] }],
    });
    expect(draft.status).toBe(201);
    // Issued after ASOF: in today's report, not in ASOF's.
    await createOpenTestBill(fixture.client, fixture.fx, {
      supplierId,
      issueDate: '2026-07-01',
      lines: [{ description: 'Later', quantity: '1', unitPrice: 3_000, taxRateIds: [] }],
    });
    // Voided: nowhere.
    const voided = await createOpenTestBill(fixture.client, fixture.fx, {
      supplierId,
      issueDate: '2026-06-01',
      lines: [{ description: 'Void me', quantity: '1', unitPrice: 5_000, taxRateIds: [] }],
    });
    const v = await fixture.client.post(`/bills/${voided.id}/void`, { reason: 'Entered twice' });
    expect(v.status, JSON.stringify(v.body)).toBe(200);

    const then = await aging();
    expect(then.totals.total).toBe(before.totals.total);
    expect(then.rows.find((r: { supplierId: string }) => r.supplierId === supplierId)).toBeUndefined();
    expect(then.totals.total).toBe(then.ledgerBalance);

    // Today's report (no asOf: the company's today, 2026-07-01) has the later bill, current.
    const today = await aging('');
    expect(today.asOf).toBe('2026-07-01');
    const row = today.rows.find((r: { supplierId: string }) => r.supplierId === supplierId);
    expect(row).toMatchObject({ current: 3_000, total: 3_000 });
    expect(today.totals.total).toBe(today.ledgerBalance);
    const agreement = await payablesAgreement(fixture.t.database, fixture.company.id, fixture.fx.payableId);
    expect(today.ledgerBalance).toBe(agreement.ledger);
    expect(agreement.trialBalance).toBe(0);
    // Before anything was billed: nothing owed, nothing in the ledger.
    const early = await aging('asOf=2025-12-31');
    expect(early.rows).toEqual([]);
    expect(early.totals.total).toBe(0);
    expect(early.ledgerBalance).toBe(0);
  });

  it('adds back payments dated after the date, and equals the ledger after every payment step', async () => {
    const supplierId = await addTestSupplier(fixture.t.database, fixture.company, { name: 'Paid Supplier' });
    const one = await createOpenTestBill(fixture.client, fixture.fx, {
      supplierId,
      issueDate: '2026-05-01',
      dueDate: '2026-05-31',
      lines: [{ description: 'One', quantity: '1', unitPrice: 10_000, taxRateIds: [] }],
    });
    const two = await createOpenTestBill(fixture.client, fixture.fx, {
      supplierId,
      issueDate: '2026-05-02',
      dueDate: '2026-05-02',
      lines: [{ description: 'Two', quantity: '1', unitPrice: 6_000, taxRateIds: [] }],
    });
    const check = async (asOf: string, expected: Record<string, number> | undefined) => {
      const report = await aging(`asOf=${asOf}`);
      const row = report.rows.find((r: { supplierId: string }) => r.supplierId === supplierId);
      if (expected) expect(row).toMatchObject(expected);
      else expect(row).toBeUndefined();
      expect(report.totals.total).toBe(report.ledgerBalance);
      expect(report.ledgerBalance).toBe(await ledgerPayable(asOf));
    };
    // Part of bill one on 2026-06-10; bill two (and the rest of one) in a batch on 2026-06-20.
    const part = await fixture.client.post(`/bills/${one.id}/payments`, {
      date: '2026-06-10',
      amount: 4_000,
      paymentAccountId: fixture.fx.bankId,
    });
    expect(part.status, JSON.stringify(part.body)).toBe(201);
    await check('2026-06-05', { days1to30: 10_000, days31to60: 6_000, total: 16_000 });
    await check('2026-06-15', { days1to30: 6_000, days31to60: 6_000, total: 12_000 });
    const batch = await fixture.client.post('/bill-payments', {
      date: '2026-06-20',
      paymentAccountId: fixture.fx.bankId,
      bills: [
        { billId: one.id, amount: 6_000 },
        { billId: two.id, amount: 6_000 },
      ],
    });
    expect(batch.status, JSON.stringify(batch.body)).toBe(201);
    await check('2026-06-15', { days1to30: 6_000, days31to60: 6_000, total: 12_000 });
    await check(ASOF, undefined);
    // Removing the part payment: the bill owes it again on every date after it.
    const removed = await fixture.client.delete(`/bills/${one.id}/payments/${part.body.paymentId}`);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    await check('2026-06-15', { days1to30: 10_000, days31to60: 6_000, total: 16_000 });
    await check(ASOF, { days1to30: 4_000, total: 4_000 });
    const agreement = await payablesAgreement(fixture.t.database, fixture.company.id, fixture.fx.payableId);
    expect(agreement.trialBalance).toBe(0);
    expect((await aging('')).totals.total).toBe(agreement.ledger);
  });

  it('serves CSV and PDF with the same figures', async () => {
    const report = await aging();
    const csv = await fixture.client.get(`/payables/aging?asOf=${ASOF}&format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.raw.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.raw.headers['content-disposition']).toContain(`payables-aging-${ASOF}.csv`);
    const lines = (csv.body as string).trim().split('\r\n');
    expect(lines[0]).toBe('Supplier,Current,1-30,31-60,61-90,Over 90,Total');
    expect(lines).toContain('Boundary Supplier,30.00,120.00,480.00,1920.00,2560.00,5110.00');
    expect(lines).toContain(
      `Total,${[
        report.totals.current,
        report.totals.days1to30,
        report.totals.days31to60,
        report.totals.days61to90,
        report.totals.over90,
        report.totals.total,
      ]
        .map((n: number) => (n / 100).toFixed(2))
        .join(',')}`,
    );
    expect(lines.at(-1)).toBe(
      `Accounts payable in the ledger,,,,,,${(report.ledgerBalance / 100).toFixed(2)}`,
    );

    const pdf = await fixture.t.app.inject({
      method: 'GET',
      url: `/api/orgs/${fixture.company.id}/payables/aging?asOf=${ASOF}&format=pdf&dateFormat=DD/MM/YYYY`,
      headers: { cookie: fixture.company.owner.cookie },
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain('Accounts payable aging');
    expect(text).toContain('30/06/2026');
    expect(text).toContain('Boundary Supplier');
  });

  it('lets a viewer read it and answers only for the company', async () => {
    const viewer = await addTestMember(fixture.t.app, fixture.company, 'viewer');
    const asViewer = api(fixture.t.app, fixture.company, viewer.cookie);
    expect((await asViewer.get(`/payables/aging?asOf=${ASOF}`)).status).toBe(200);
    const other = await createTestCompany(fixture.t.app, { name: 'Other Payables Co' });
    await ensureLedger(fixture.t.database, other);
    const theirs = await api(fixture.t.app, other).get(`/payables/aging?asOf=${ASOF}`);
    expect(theirs.status).toBe(200);
    expect(theirs.body.rows).toEqual([]);
    expect(theirs.body.ledgerBalance).toBe(0);
    const cross = await fixture.t.app.inject({
      method: 'GET',
      url: `/api/orgs/${other.id}/payables/aging`,
      headers: { cookie: fixture.company.owner.cookie },
    });
    expect([403, 404]).toContain(cross.statusCode);
    const bad = await fixture.client.get('/payables/aging?asOf=2026-02-30');
    expect(bad.status).toBe(400);
  });
});

describe('tax report with purchase tax', () => {
  it('shows sales and purchase tax per rate and the net owed, equal to the tax account', async () => {
    const { taxRateId, customerId, itemId } = fixture.fx;
    const invoice = await fixture.client.post('/invoices', {
      customerId,
      issueDate: '2026-05-10',
      lines: [{ itemId, quantity: '4', unitPrice: 12_500, taxRateIds: [taxRateId] }],
    });
    expect(invoice.status, JSON.stringify(invoice.body)).toBe(201);
    expect((await fixture.client.post(`/invoices/${invoice.body.id}/send`)).status).toBe(200);
    await createOpenTestBill(fixture.client, fixture.fx, {
      issueDate: '2026-05-12',
      lines: [{ description: 'Taxed paper', quantity: '2', unitPrice: 10_000, taxRateIds: [taxRateId] }],
    });
    // Outside the period: counted in the whole-history check only.
    await createOpenTestBill(fixture.client, fixture.fx, {
      issueDate: '2026-04-30',
      lines: [{ description: 'April paper', quantity: '1', unitPrice: 5_000, taxRateIds: [taxRateId] }],
    });

    const may = await fixture.client.get('/reports/sales-tax?from=2026-05-01&to=2026-05-31');
    expect(may.status, JSON.stringify(may.body)).toBe(200);
    const row = may.body.rows.find((r: { taxRateId: string }) => r.taxRateId === taxRateId);
    expect(row).toMatchObject({
      taxable: 50_000,
      tax: 10_000,
      purchaseTaxable: 20_000,
      purchaseTax: 4_000,
      netTax: 6_000,
    });
    expect(may.body.totals).toMatchObject({
      taxable: 50_000,
      tax: 10_000,
      purchaseTaxable: 20_000,
      purchaseTax: 4_000,
      netTax: 6_000,
    });
    const april = await fixture.client.get('/reports/sales-tax?from=2026-04-01&to=2026-04-30');
    expect(april.body.rows).toEqual([
      expect.objectContaining({
        taxRateId,
        taxable: 0,
        tax: 0,
        purchaseTaxable: 5_000,
        purchaseTax: 1_000,
        netTax: -1_000,
      }),
    ]);

    // Over all time the net tax is the tax account's credit balance.
    const all = await fixture.client.get('/reports/sales-tax?from=2000-01-01&to=2199-12-31');
    const balances = await balancesOn(fixture.t.database, fixture.company.id);
    expect(all.body.totals.netTax).toBe(-(balances.byId.get(fixture.fx.taxPayableId) ?? 0));
    expect(all.body.totals.netTax).toBe(all.body.totals.tax - all.body.totals.purchaseTax);
    expect(all.body.totals.purchaseTax).toBe(5_000);
  });
});
