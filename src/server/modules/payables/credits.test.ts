import { describe, expect, it } from 'vitest';
import { expectRefusal } from '../../testing/api.ts';
import { addTestMember } from '../../testing/companies.ts';
import { api } from '../../testing/invoices.ts';
import { threeScreens } from '../../testing/money.ts';
import { accountBalance, expectBooksAgree, moneySnapshot } from '../../testing/payables-money.ts';
import {
  addTestSupplier,
  createOpenTestBill,
  createTestBill,
  setUpTestPayables,
} from '../../testing/payables.ts';

// Supplier credits through the API: issuing (numbered, Dr accounts payable, Cr the expense and
// tax it takes back, negative purchase-tax rows), the list, applying to the supplier's bills
// and taking an application back, every refusal changing nothing, voiding, refunds from the
// supplier (money in, with the register line) and their removal, a foreign credit applied at
// another rate than the bill's, and roles. After each step the books balance and accounts
// payable equals the open bills less the credit not yet used.

const fixture = setUpTestPayables({ name: 'Credits Co' });

const snapshot = () => moneySnapshot(fixture.t.database, fixture.company.id);

const issue = async (overrides: Record<string, unknown> = {}) => {
  const res = await fixture.client.post('/supplier-credits', {
    supplierId: fixture.fx.supplierId,
    date: '2026-03-02',
    reference: 'CN-77',
    reason: 'Damaged paper',
    lines: [
      { description: 'Returned paper', quantity: '1', unitPrice: 5_000, taxRateIds: [fixture.fx.taxRateId] },
    ],
    ...overrides,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};

const apply = (creditId: string, billId: string, amount: number, date = '2026-03-05') =>
  fixture.client.post(`/supplier-credits/${creditId}/apply`, { billId, amount, date });

const refund = (creditId: string, amount: number, extra: Record<string, unknown> = {}) =>
  fixture.client.post(`/supplier-credits/${creditId}/refunds`, {
    date: '2026-03-06',
    amount,
    paymentAccountId: fixture.fx.bankId,
    ...extra,
  });

const entryLines = (entryId: string) =>
  fixture.t.database.db
    .selectFrom('journal_lines')
    .select(['account_id', 'debit', 'credit'])
    .where('organization_id', '=', fixture.company.id)
    .where('entry_id', '=', entryId)
    .orderBy('line_no')
    .execute();

describe('issuing supplier credits', () => {
  it('numbers them, posts Dr payable / Cr expense and tax, writes negative tax rows, lists them', async () => {
    const first = await issue();
    expect(first).toMatchObject({
      number: 'SC-0001',
      status: 'issued',
      currency: 'USD',
      subtotal: 5_000,
      taxTotal: 1_000,
      total: 6_000,
      amountLeft: 6_000,
      supplierId: fixture.fx.supplierId,
      supplierName: 'Paper Supply Co',
    });
    expect(first.lines).toHaveLength(1);
    expect(first.lines[0]).toMatchObject({ accountId: fixture.fx.expenseAccountId, net: 5_000, tax: 1_000 });
    expect(await entryLines(first.journalEntryId)).toEqual([
      { account_id: fixture.fx.payableId, debit: 6_000, credit: 0 },
      { account_id: fixture.fx.expenseAccountId, debit: 0, credit: 5_000 },
      { account_id: fixture.fx.taxPayableId, debit: 0, credit: 1_000 },
    ]);
    const tax = await fixture.t.database.db
      .selectFrom('bill_tax_postings')
      .select(['taxable_base', 'tax_base'])
      .where('organization_id', '=', fixture.company.id)
      .where('document_id', '=', first.id)
      .execute();
    expect(tax).toEqual([{ taxable_base: -5_000, tax_base: -1_000 }]);
    await expectBooksAgree(fixture);

    const second = await issue({ date: '2026-03-03', reference: 'CN-78' });
    expect(second.number).toBe('SC-0002');
    const page1 = await fixture.client.get('/supplier-credits?limit=1');
    expect(page1.status).toBe(200);
    expect(page1.body.credits.map((c: { id: string }) => c.id)).toEqual([second.id]);
    const page2 = await fixture.client.get(`/supplier-credits?limit=1&cursor=${page1.body.nextCursor}`);
    expect(page2.body.credits.map((c: { id: string }) => c.id)).toEqual([first.id]);
    expect((await fixture.client.get('/supplier-credits?cursor=bogus')).status).toBe(400);
    const one = await fixture.client.get(`/supplier-credits/${first.id}`);
    expect(one.status).toBe(200);
    expect(one.body.number).toBe('SC-0001');
    expect((await fixture.client.get('/supplier-credits/nope')).status).toBe(404);
  });

  it('refuses an unknown supplier, a credit for nothing and bad lines, changing nothing', async () => {
    const before = await snapshot();
    const base = { date: '2026-03-02', lines: [{ description: 'x', quantity: '1', unitPrice: 100 }] };
    expectRefusal(
      await fixture.client.post('/supplier-credits', { ...base, supplierId: 'nope' }),
      400,
      'supplier_not_found',
    );
    expectRefusal(
      await fixture.client.post('/supplier-credits', {
        ...base,
        supplierId: fixture.fx.supplierId,
        lines: [{ description: 'x', quantity: '1', unitPrice: 0 }],
      }),
      400,
      'credit_total_zero',
    );
    expectRefusal(
      await fixture.client.post('/supplier-credits', {
        ...base,
        supplierId: fixture.fx.supplierId,
        lines: [{ description: 'x', quantity: '1', unitPrice: 100, accountId: fixture.fx.bankId }],
      }),
      400,
      'invalid_account',
    );
    expect(
      (await fixture.client.post('/supplier-credits', { supplierId: fixture.fx.supplierId })).status,
    ).toBe(400);
    expect(await snapshot()).toEqual(before);
  });
});

describe('applying credits to bills', () => {
  it('applies in part and in full, takes an application back, and keeps the payable in agreement', async () => {
    const credit = await issue();
    const bill = await createOpenTestBill(fixture.client, fixture.fx);
    const part = await apply(credit.id, bill.id, 2_000);
    expect(part.status, JSON.stringify(part.body)).toBe(200);
    expect(part.body).toMatchObject({ amountApplied: 2_000, amountLeft: 4_000 });
    expect(part.body.allocations).toEqual([
      expect.objectContaining({ billId: bill.id, billNumber: bill.number, amount: 2_000, reversed: false }),
    ]);
    const billNow = (await fixture.client.get(`/bills/${bill.id}`)).body;
    expect(billNow).toMatchObject({
      storedStatus: 'partially_paid',
      amountCredited: 2_000,
      amountDue: 8_000,
      balanceBase: 8_000,
    });
    expect(billNow.creditsApplied).toEqual([
      expect.objectContaining({ creditId: credit.id, creditNumber: credit.number, amount: 2_000 }),
    ]);
    await expectBooksAgree(fixture);

    // A payment of the rest and the rest of the credit on another bill.
    const paid = await fixture.client.post(`/bills/${bill.id}/payments`, {
      date: '2026-03-05',
      amount: 8_000,
      paymentAccountId: fixture.fx.bankId,
    });
    expect(paid.body.storedStatus).toBe('paid');
    const other = await createOpenTestBill(fixture.client, fixture.fx, { reference: 'B-2' });
    const rest = await apply(credit.id, other.id, 4_000);
    expect(rest.body).toMatchObject({ amountLeft: 0, amountApplied: 6_000 });
    await expectBooksAgree(fixture);

    const allocation = rest.body.allocations.find((a: { billId: string }) => a.billId === other.id);
    const back = await fixture.client.delete(`/supplier-credits/${credit.id}/allocations/${allocation.id}`);
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body).toMatchObject({ amountLeft: 4_000, amountApplied: 2_000 });
    const otherNow = (await fixture.client.get(`/bills/${other.id}`)).body;
    expect(otherNow).toMatchObject({ storedStatus: 'open', amountCredited: 0, balanceBase: 10_000 });
    await expectBooksAgree(fixture);
    expectRefusal(
      await fixture.client.delete(`/supplier-credits/${credit.id}/allocations/${allocation.id}`),
      409,
      'allocation_already_reversed',
    );
    expect((await fixture.client.delete(`/supplier-credits/${credit.id}/allocations/nope`)).status).toBe(404);
  });

  it('refuses another supplier, another currency, too much, a bill not owed and a void credit', async () => {
    const credit = await issue();
    const otherSupplier = await addTestSupplier(fixture.t.database, fixture.company, { name: 'Ink Ltd' });
    const theirs = await createOpenTestBill(fixture.client, fixture.fx, { supplierId: otherSupplier });
    const euroBill = await createOpenTestBill(fixture.client, fixture.fx, {
      currency: 'EUR',
      exchangeRate: '1.1',
      reference: 'EUR-1',
    });
    const small = await createOpenTestBill(fixture.client, fixture.fx, {
      lines: [{ description: 'Pens', quantity: '1', unitPrice: 1_000 }],
    });
    const big = await createOpenTestBill(fixture.client, fixture.fx, {
      lines: [{ description: 'Desk', quantity: '1', unitPrice: 90_000 }],
    });
    const draft = await createTestBill(fixture.client, fixture.fx);
    const voidable = await issue({ reference: 'CN-V' });
    expect(
      (await fixture.client.post(`/supplier-credits/${voidable.id}/void`, { reason: 'sent twice' })).status,
    ).toBe(200);
    const before = await snapshot();
    expectRefusal(await apply(credit.id, theirs.id, 100), 400, 'credit_other_supplier');
    expectRefusal(await apply(credit.id, euroBill.id, 100), 400, 'credit_currency_mismatch');
    expectRefusal(await apply(credit.id, big.id, 6_001), 400, 'exceeds_credit');
    const tooMuchDue = await apply(credit.id, small.id, 1_001);
    expectRefusal(tooMuchDue, 400, 'overpayment');
    expect(tooMuchDue.body.error.details).toMatchObject({ amountDue: 1_000 });
    expectRefusal(await apply(credit.id, draft.id, 100), 409, 'invalid_transition');
    expectRefusal(await apply(credit.id, small.id, 100, '2026-02-01'), 400, 'date_before_bill');
    expectRefusal(await apply(voidable.id, small.id, 100), 409, 'credit_void');
    expect((await apply(credit.id, 'nope', 100)).status).toBe(404);
    expect((await apply('nope', small.id, 100)).status).toBe(404);
    expect((await apply(credit.id, small.id, 0)).status).toBe(400);
    expect(await snapshot()).toEqual(before);
    await expectBooksAgree(fixture);
  });

  it('a euro credit applied to a euro bill of another rate books the exchange difference', async () => {
    const supplierId = await addTestSupplier(fixture.t.database, fixture.company, {
      name: 'Lyon SARL',
      currency: 'EUR',
    });
    const bill = await createOpenTestBill(fixture.client, fixture.fx, { supplierId, exchangeRate: '1.1' });
    const credit = await issue({
      supplierId,
      exchangeRate: '1.2',
      lines: [{ description: 'Refund of overcharge', quantity: '1', unitPrice: 5_000 }],
    });
    expect(credit.total).toBe(5_000);
    const fxBefore = await accountBalance(
      fixture.t.database,
      fixture.company.id,
      fixture.fx.exchangeGainLossId,
    );
    const res = await apply(credit.id, bill.id, 5_000);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // The credit was worth 6,000 in base and cleared 5,500 of payable: a loss of 500.
    expect(
      (await accountBalance(fixture.t.database, fixture.company.id, fixture.fx.exchangeGainLossId)) -
        fxBefore,
    ).toBe(500);
    const row = await fixture.t.database.db
      .selectFrom('supplier_credit_allocations')
      .select(['amount_base', 'credit_base', 'exchange_entry_id'])
      .where('organization_id', '=', fixture.company.id)
      .where('credit_id', '=', credit.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      amount_base: 5_500,
      credit_base: 6_000,
      exchange_entry_id: expect.any(String),
    });
    await expectBooksAgree(fixture);
    const back = await fixture.client.delete(
      `/supplier-credits/${credit.id}/allocations/${res.body.allocations[0].id}`,
    );
    expect(back.status).toBe(200);
    expect(await accountBalance(fixture.t.database, fixture.company.id, fixture.fx.exchangeGainLossId)).toBe(
      fxBefore,
    );
    await expectBooksAgree(fixture);
  });
});

describe('voiding and refunds', () => {
  it('voids an unused credit, refuses voiding one in use', async () => {
    const used = await issue({ reference: 'CN-U' });
    const bill = await createOpenTestBill(fixture.client, fixture.fx, { reference: 'VB-1' });
    expect((await apply(used.id, bill.id, 1_000)).status).toBe(200);
    const before = await snapshot();
    expectRefusal(await fixture.client.post(`/supplier-credits/${used.id}/void`, {}), 409, 'credit_in_use');
    expect(await snapshot()).toEqual(before);

    const unused = await issue({ reference: 'CN-N' });
    const voided = await fixture.client.post(`/supplier-credits/${unused.id}/void`, {
      reason: 'wrong supplier',
    });
    expect(voided.status).toBe(200);
    expect(voided.body).toMatchObject({ status: 'void', amountLeft: 0 });
    const tax = await fixture.t.database.db
      .selectFrom('bill_tax_postings')
      .select('tax_base')
      .where('organization_id', '=', fixture.company.id)
      .where('document_id', '=', unused.id)
      .execute();
    expect(tax).toEqual([]);
    expectRefusal(await fixture.client.post(`/supplier-credits/${unused.id}/void`, {}), 409, 'credit_void');
    await expectBooksAgree(fixture);
  });

  it('records a refund as money in with its register line, and removes it', async () => {
    const credit = await issue({ reference: 'CN-R' });
    const bankBefore = await accountBalance(fixture.t.database, fixture.company.id, fixture.fx.bankId);
    const before = await snapshot();
    expectRefusal(await refund(credit.id, 6_001), 400, 'exceeds_credit');
    expectRefusal(
      await refund(credit.id, 100, { paymentAccountId: fixture.fx.expenseAccountId }),
      400,
      'invalid_payment_account',
    );
    expectRefusal(await refund(credit.id, 100, { date: '2026-03-01' }), 400, 'date_before_credit');
    expect(await snapshot()).toEqual(before);

    const res = await refund(credit.id, 2_500, { reference: 'WIRE-9' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ amountRefunded: 2_500, amountLeft: 3_500 });
    const r = res.body.refunds[0];
    expect(r).toMatchObject({ amount: 2_500, paymentAccountId: fixture.fx.bankId, reversed: false });
    expect(await entryLines(r.journalEntryId)).toEqual([
      { account_id: fixture.fx.bankId, debit: 2_500, credit: 0 },
      { account_id: fixture.fx.payableId, debit: 0, credit: 2_500 },
    ]);
    const lines = await fixture.t.database.db
      .selectFrom('bank_transactions')
      .select('amount')
      .where('organization_id', '=', fixture.company.id)
      .where('source_kind', '=', 'supplier_refund')
      .where('source_id', '=', r.id)
      .execute();
    expect(lines.map((l) => l.amount)).toEqual([2_500]);
    expect(await accountBalance(fixture.t.database, fixture.company.id, fixture.fx.bankId)).toBe(
      bankBefore + 2_500,
    );
    await expectBooksAgree(fixture);
    const s = await threeScreens(fixture.t.app, fixture.t.database.db, fixture.company, '2026-12-31');
    for (const a of s.perAccount) expect(a.wallet, a.name).toEqual(a.ledger);

    // The rest refunded empties the credit; then the first refund is removed.
    expect((await refund(credit.id, 3_500)).body.amountLeft).toBe(0);
    await expectBooksAgree(fixture);
    const removed = await fixture.client.delete(`/supplier-credits/${credit.id}/refunds/${r.id}`);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(removed.body).toMatchObject({ amountRefunded: 3_500, amountLeft: 2_500 });
    expect(removed.body.refunds.find((x: { id: string }) => x.id === r.id).reversed).toBe(true);
    const after = await fixture.t.database.db
      .selectFrom('bank_transactions')
      .select('amount')
      .where('organization_id', '=', fixture.company.id)
      .where('source_kind', '=', 'supplier_refund')
      .where('source_id', '=', r.id)
      .orderBy('created_at')
      .execute();
    expect(after.map((l) => l.amount)).toEqual([2_500, -2_500]);
    await expectBooksAgree(fixture);
    expectRefusal(
      await fixture.client.delete(`/supplier-credits/${credit.id}/refunds/${r.id}`),
      409,
      'refund_already_reversed',
    );
  });
});

describe('roles', () => {
  it('members and viewers read credits but cannot issue, apply, refund or void them (403)', async () => {
    const credit = await issue({ reference: 'CN-ROLE' });
    const bill = await createOpenTestBill(fixture.client, fixture.fx, { reference: 'ROLE-1' });
    const users = [
      await addTestMember(fixture.t.app, fixture.company, 'member'),
      await addTestMember(fixture.t.app, fixture.company, 'viewer'),
    ];
    const before = await snapshot();
    for (const user of users) {
      const as = api(fixture.t.app, fixture.company, user.cookie);
      expect((await as.get('/supplier-credits')).status).toBe(200);
      expect((await as.get(`/supplier-credits/${credit.id}`)).status).toBe(200);
      expect(
        (
          await as.post('/supplier-credits', {
            supplierId: fixture.fx.supplierId,
            date: '2026-03-02',
            lines: [{ description: 'x', quantity: '1', unitPrice: 100 }],
          })
        ).status,
      ).toBe(403);
      expect(
        (await as.post(`/supplier-credits/${credit.id}/apply`, { billId: bill.id, amount: 100 })).status,
      ).toBe(403);
      expect(
        (
          await as.post(`/supplier-credits/${credit.id}/refunds`, {
            date: '2026-03-06',
            amount: 100,
            paymentAccountId: fixture.fx.bankId,
          })
        ).status,
      ).toBe(403);
      expect((await as.post(`/supplier-credits/${credit.id}/void`, {})).status).toBe(403);
    }
    expect(await snapshot()).toEqual(before);
  });
});
