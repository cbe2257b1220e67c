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

// Batch payments and the payment run through the API: several bills paid at once (one journal
// entry with a payable debit per bill and one money credit, one register line, one payment
// row per bill), any bad bill refusing the whole batch by name with nothing written, removing
// a batch, roles; the payment run lists what is due by a date by supplier with totals.

const fixture = setUpTestPayables({ name: 'Batch Co', now: '2026-03-10T12:00:00Z' });

const snapshot = () => moneySnapshot(fixture.t.database, fixture.company.id);

const batch = (bills: { billId: string; amount: number }[], extra: Record<string, unknown> = {}) =>
  fixture.client.post('/bill-payments', {
    date: '2026-03-09',
    paymentAccountId: fixture.fx.bankId,
    reference: 'RUN-1',
    bills,
    ...extra,
  });

describe('batch payments', () => {
  it('pays several bills of two suppliers with one entry, one register line and a payment per bill', async () => {
    const second = await addTestSupplier(fixture.t.database, fixture.company, { name: 'Cleaning Ltd' });
    const a = await createOpenTestBill(fixture.client, fixture.fx, { reference: 'A-1' });
    const b = await createOpenTestBill(fixture.client, fixture.fx, {
      reference: 'B-1',
      lines: [{ description: 'Toner', quantity: '3', unitPrice: 2_500 }],
    });
    const c = await createOpenTestBill(fixture.client, fixture.fx, { supplierId: second, reference: 'C-1' });
    const bankBefore = await accountBalance(fixture.t.database, fixture.company.id, fixture.fx.bankId);
    const res = await batch([
      { billId: a.id, amount: 10_000 },
      { billId: b.id, amount: 5_000 },
      { billId: c.id, amount: 10_000 },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      amount: 25_000,
      currency: 'USD',
      billCount: 3,
      paymentAccountId: fixture.fx.bankId,
      reference: 'RUN-1',
      reversed: false,
    });
    expect(res.body.payments).toHaveLength(3);
    for (const p of res.body.payments) {
      expect(p.batchId).toBe(res.body.id);
      expect(p.journalEntryId).toBe(res.body.journalEntryId);
    }
    const lines = await fixture.t.database.db
      .selectFrom('journal_lines')
      .select(['account_id', 'debit', 'credit', 'contact_id'])
      .where('organization_id', '=', fixture.company.id)
      .where('entry_id', '=', res.body.journalEntryId)
      .orderBy('line_no')
      .execute();
    expect(lines).toEqual([
      { account_id: fixture.fx.payableId, debit: 10_000, credit: 0, contact_id: fixture.fx.supplierId },
      { account_id: fixture.fx.payableId, debit: 5_000, credit: 0, contact_id: fixture.fx.supplierId },
      { account_id: fixture.fx.payableId, debit: 10_000, credit: 0, contact_id: second },
      { account_id: fixture.fx.bankId, debit: 0, credit: 25_000, contact_id: null },
    ]);
    const register = await fixture.t.database.db
      .selectFrom('bank_transactions')
      .select(['amount', 'entry_id'])
      .where('organization_id', '=', fixture.company.id)
      .where('source_kind', '=', 'bill_payment_batch')
      .where('source_id', '=', res.body.id)
      .execute();
    expect(register).toEqual([{ amount: -25_000, entry_id: res.body.journalEntryId }]);
    expect(await accountBalance(fixture.t.database, fixture.company.id, fixture.fx.bankId)).toBe(
      bankBefore - 25_000,
    );
    const statuses = await Promise.all(
      [a, b, c].map(async (x) => (await fixture.client.get(`/bills/${x.id}`)).body.storedStatus),
    );
    expect(statuses).toEqual(['paid', 'partially_paid', 'paid']);
    await expectBooksAgree(fixture);
    const s = await threeScreens(fixture.t.app, fixture.t.database.db, fixture.company, '2026-12-31');
    for (const acc of s.perAccount) expect(acc.wallet, acc.name).toEqual(acc.ledger);

    const read = await fixture.client.get(`/bill-payments/${res.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
    expect((await fixture.client.get('/bill-payments/nope')).status).toBe(404);

    // A payment of the batch is removed with the whole batch only.
    expectRefusal(
      await fixture.client.delete(
        `/bills/${a.id}/payments/${res.body.payments.find((p: { billId: string }) => p.billId === a.id).id}`,
      ),
      409,
      'payment_in_batch',
    );
    const removed = await fixture.client.delete(`/bill-payments/${res.body.id}`);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(removed.body.reversed).toBe(true);
    expect(removed.body.payments.every((p: { reversed: boolean }) => p.reversed)).toBe(true);
    const after = await Promise.all(
      [a, b, c].map(async (x) => (await fixture.client.get(`/bills/${x.id}`)).body),
    );
    expect(after.map((x) => [x.storedStatus, x.amountPaid, x.balanceBase])).toEqual([
      ['open', 0, 10_000],
      ['open', 0, 7_500],
      ['open', 0, 10_000],
    ]);
    expect(await accountBalance(fixture.t.database, fixture.company.id, fixture.fx.bankId)).toBe(bankBefore);
    await expectBooksAgree(fixture);
    const before = await snapshot();
    expectRefusal(
      await fixture.client.delete(`/bill-payments/${res.body.id}`),
      409,
      'batch_already_reversed',
    );
    expect(await snapshot()).toEqual(before);
  });

  it('refuses the whole batch when one bill is bad, naming it, and writes nothing', async () => {
    const good = await createOpenTestBill(fixture.client, fixture.fx, { reference: 'G-1' });
    const draft = await createTestBill(fixture.client, fixture.fx, { reference: 'D-1' });
    const voided = await createOpenTestBill(fixture.client, fixture.fx, { reference: 'V-1' });
    expect((await fixture.client.post(`/bills/${voided.id}/void`, {})).status).toBe(200);
    const late = await createOpenTestBill(fixture.client, fixture.fx, {
      reference: 'L-1',
      issueDate: '2026-03-09',
    });
    const euro = await createOpenTestBill(fixture.client, fixture.fx, {
      reference: 'E-1',
      currency: 'EUR',
      exchangeRate: '1.1',
    });
    const before = await snapshot();
    const cases: [unknown[], number, string, string][] = [
      [
        [
          { billId: good.id, amount: 1_000 },
          { billId: draft.id, amount: 1_000 },
        ],
        409,
        'invalid_transition',
        draft.number,
      ],
      [
        [
          { billId: good.id, amount: 1_000 },
          { billId: voided.id, amount: 1_000 },
        ],
        409,
        'invalid_transition',
        voided.number,
      ],
      [[{ billId: good.id, amount: 10_001 }], 400, 'overpayment', good.number],
      [
        [
          { billId: good.id, amount: 1_000 },
          { billId: euro.id, amount: 1_000 },
        ],
        400,
        'batch_currency_mismatch',
        euro.number,
      ],
      [
        [
          { billId: good.id, amount: 1_000 },
          { billId: good.id, amount: 1_000 },
        ],
        400,
        'bill_listed_twice',
        '',
      ],
    ];
    for (const [bills, status, code, number] of cases) {
      const res = await batch(bills as { billId: string; amount: number }[]);
      expectRefusal(res, status, code);
      if (number) expect(res.body.error.message).toContain(number);
    }
    const early = await batch(
      [
        { billId: good.id, amount: 1_000 },
        { billId: late.id, amount: 1_000 },
      ],
      {
        date: '2026-03-05',
      },
    );
    expectRefusal(early, 400, 'date_before_bill');
    expect(early.body.error.message).toContain(late.number);
    expect(early.body.error.details).toMatchObject({ billId: late.id });
    const missing = await batch([
      { billId: good.id, amount: 1_000 },
      { billId: 'no-such-bill', amount: 1_000 },
    ]);
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toContain('no-such-bill');
    expectRefusal(
      await batch([{ billId: good.id, amount: 1_000 }], { paymentAccountId: fixture.fx.expenseAccountId }),
      400,
      'invalid_payment_account',
    );
    expect((await batch([])).status).toBe(400);
    expect(await snapshot()).toEqual(before);
  });

  it('members and viewers cannot pay a batch or remove one (403)', async () => {
    const bill = await createOpenTestBill(fixture.client, fixture.fx, { reference: 'R-1' });
    const paid = await batch([{ billId: bill.id, amount: 1_000 }]);
    expect(paid.status).toBe(201);
    const users = [
      await addTestMember(fixture.t.app, fixture.company, 'member'),
      await addTestMember(fixture.t.app, fixture.company, 'viewer'),
    ];
    const before = await snapshot();
    for (const user of users) {
      const as = api(fixture.t.app, fixture.company, user.cookie);
      const res = await as.post('/bill-payments', {
        date: '2026-03-09',
        paymentAccountId: fixture.fx.bankId,
        bills: [{ billId: bill.id, amount: 1_000 }],
      });
      expect(res.status).toBe(403);
      expect((await as.delete(`/bill-payments/${paid.body.id}`)).status).toBe(403);
      expect((await as.get(`/bill-payments/${paid.body.id}`)).status).toBe(200);
      expect((await as.get('/payables/payment-run')).status).toBe(200);
    }
    expect(await snapshot()).toEqual(before);
  });
});

describe('payment run', () => {
  it('lists open and partly paid bills due by the date (a week from today by default), by supplier', async () => {
    const supplierId = await addTestSupplier(fixture.t.database, fixture.company, {
      name: 'Aardvark Rentals',
    });
    await fixture.t.database.db
      .updateTable('suppliers')
      .set({ bank_account_number: 'GB33BUKB20201555555555', bank_code: 'BUKBGB22' })
      .where('organization_id', '=', fixture.company.id)
      .where('id', '=', supplierId)
      .execute();
    const overdue = await createOpenTestBill(fixture.client, fixture.fx, {
      supplierId,
      reference: 'PR-1',
      issueDate: '2026-02-01',
      dueDate: '2026-03-01',
    });
    const soon = await createOpenTestBill(fixture.client, fixture.fx, {
      supplierId,
      reference: 'PR-2',
      issueDate: '2026-03-01',
      dueDate: '2026-03-15',
      lines: [{ description: 'Van', quantity: '1', unitPrice: 4_000 }],
    });
    await fixture.client.post(`/bills/${soon.id}/payments`, {
      date: '2026-03-05',
      amount: 1_000,
      paymentAccountId: fixture.fx.bankId,
    });
    const later = await createOpenTestBill(fixture.client, fixture.fx, {
      supplierId,
      reference: 'PR-3',
      issueDate: '2026-03-01',
      dueDate: '2026-03-25',
    });
    const paidOff = await createOpenTestBill(fixture.client, fixture.fx, {
      supplierId,
      reference: 'PR-4',
      issueDate: '2026-03-01',
      dueDate: '2026-03-02',
    });
    await fixture.client.post(`/bills/${paidOff.id}/payments`, {
      date: '2026-03-05',
      amount: 10_000,
      paymentAccountId: fixture.fx.bankId,
    });
    await createTestBill(fixture.client, fixture.fx, {
      supplierId,
      reference: 'PR-5',
      dueDate: '2026-03-03',
    });

    const run = await fixture.client.get('/payables/payment-run');
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    expect(run.body).toMatchObject({ today: '2026-03-10', dueBy: '2026-03-17', baseCurrency: 'USD' });
    const mine = run.body.suppliers.find((s: { supplierId: string }) => s.supplierId === supplierId);
    expect(mine).toMatchObject({
      supplierName: 'Aardvark Rentals',
      bankAccountNumber: 'GB33BUKB20201555555555',
      bankCode: 'BUKBGB22',
      totals: [{ amount: 13_000, currency: 'USD' }],
    });
    expect(
      mine.bills.map((b: { id: string; status: string; amountDue: number }) => [b.id, b.status, b.amountDue]),
    ).toEqual([
      [overdue.id, 'overdue', 10_000],
      [soon.id, 'partially_paid', 3_000],
    ]);
    // Suppliers in name order; the totals add up over them.
    expect(run.body.suppliers[0].supplierName).toBe('Aardvark Rentals');
    const sum = run.body.suppliers.reduce(
      (s: number, x: { totals: { amount: number }[] }) => s + x.totals.reduce((t, y) => t + y.amount, 0),
      0,
    );
    expect(run.body.totals.reduce((s: number, t: { amount: number }) => s + t.amount, 0)).toBe(sum);
    expect(run.body.billCount).toBe(
      run.body.suppliers.reduce((s: number, x: { bills: unknown[] }) => s + x.bills.length, 0),
    );

    const wider = await fixture.client.get('/payables/payment-run?dueBy=2026-03-31');
    const mineLater = wider.body.suppliers.find((s: { supplierId: string }) => s.supplierId === supplierId);
    expect(mineLater.bills.map((b: { id: string }) => b.id)).toEqual([overdue.id, soon.id, later.id]);
    expect(mineLater.totals).toEqual([{ amount: 23_000, currency: 'USD' }]);
    expect((await fixture.client.get('/payables/payment-run?dueBy=soon')).status).toBe(400);
  });
});
