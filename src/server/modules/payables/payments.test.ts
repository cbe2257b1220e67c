import { describe, expect, it } from 'vitest';
import { expectRefusal } from '../../testing/api.ts';
import { addTestMember, createTestCompany } from '../../testing/companies.ts';
import { api } from '../../testing/invoices.ts';
import { addTestMoneyAccount, threeScreens } from '../../testing/money.ts';
import { accountBalance, expectBooksAgree, moneySnapshot } from '../../testing/payables-money.ts';
import {
  addTestSupplier,
  createOpenTestBill,
  createTestBill,
  setUpTestPayables,
} from '../../testing/payables.ts';
import { reconcileTestLines } from '../../testing/transactions.ts';

// Paying one bill through the API: partial and final payments (Dr accounts payable, Cr the
// money account, the register line beside it), every refusal (overpaying, a bill not owed, a
// date before the bill, a wrong account, a locked period) changing nothing, foreign bills
// with a realised gain and a loss, removing a payment (and when that is refused), the
// Idempotency-Key, roles and another company. After each money step the books balance,
// accounts payable equals the open bills, and the wallet equals the ledger.

const fixture = setUpTestPayables({ name: 'Paying Co' });

const pay = (
  billId: string,
  amount: number,
  extra: Record<string, unknown> = {},
  headers?: Record<string, string>,
) =>
  fixture.client.post(
    `/bills/${billId}/payments`,
    { date: '2026-03-05', amount, paymentAccountId: fixture.fx.bankId, ...extra },
    headers,
  );

const snapshot = () => moneySnapshot(fixture.t.database, fixture.company.id);

const registerLines = (kind: 'bill_payment', id: string) =>
  fixture.t.database.db
    .selectFrom('bank_transactions')
    .select(['id', 'amount', 'entry_id', 'category_kind', 'date'])
    .where('organization_id', '=', fixture.company.id)
    .where('source_kind', '=', kind)
    .where('source_id', '=', id)
    .orderBy('created_at')
    .execute();

const entryLines = (entryId: string) =>
  fixture.t.database.db
    .selectFrom('journal_lines')
    .select(['account_id', 'debit', 'credit', 'contact_id'])
    .where('organization_id', '=', fixture.company.id)
    .where('entry_id', '=', entryId)
    .orderBy('line_no')
    .execute();

/** The wallet shows each money account at its ledger balance, and the books balance. */
const expectWalletAgrees = async () => {
  const s = await threeScreens(fixture.t.app, fixture.t.database.db, fixture.company, '2026-12-31');
  for (const a of s.perAccount) expect(a.wallet, a.name).toEqual(a.ledger);
  expect(s.trialBalance).toBe(0);
};

describe('paying a bill', () => {
  it('pays in part, then the rest: payable debited, bank credited, register line out, paid', async () => {
    const bill = await createOpenTestBill(fixture.client, fixture.fx, { reference: 'INV-PART' });
    expect(bill.total).toBe(10_000);
    const bankBefore = await accountBalance(fixture.t.database, fixture.company.id, fixture.fx.bankId);

    const first = await pay(bill.id, 4_000, { reference: 'TX-1' });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body).toMatchObject({
      storedStatus: 'partially_paid',
      amountPaid: 4_000,
      amountDue: 6_000,
      balanceBase: 6_000,
    });
    expect(first.body.paymentId).toEqual(expect.any(String));
    expect(first.body.payments).toHaveLength(1);
    expect(first.body.payments[0]).toMatchObject({
      id: first.body.paymentId,
      amount: 4_000,
      currency: 'USD',
      paymentAccountId: fixture.fx.bankId,
      batchId: null,
      reversed: false,
    });
    const lines = await entryLines(first.body.payments[0].journalEntryId);
    expect(lines).toEqual([
      { account_id: fixture.fx.payableId, debit: 4_000, credit: 0, contact_id: bill.supplierId },
      { account_id: fixture.fx.bankId, debit: 0, credit: 4_000, contact_id: bill.supplierId },
    ]);
    const register = await registerLines('bill_payment', first.body.paymentId);
    expect(register).toHaveLength(1);
    expect(register[0]).toMatchObject({ amount: -4_000, category_kind: 'payment', date: '2026-03-05' });
    expect(register[0]!.entry_id).toBe(first.body.payments[0].journalEntryId);
    await expectBooksAgree(fixture);

    const second = await pay(bill.id, 6_000, { date: '2026-03-08' });
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    expect(second.body).toMatchObject({
      storedStatus: 'paid',
      amountDue: 0,
      balanceBase: 0,
      amountPaid: 10_000,
    });
    expect(second.body.history.map((h: { kind: string }) => h.kind)).toContain('payment');
    expect(await accountBalance(fixture.t.database, fixture.company.id, fixture.fx.bankId)).toBe(
      bankBefore - 10_000,
    );
    await expectBooksAgree(fixture);
    await expectWalletAgrees();
  });

  it('refuses paying more than is due (400 overpayment naming the amount due) and changes nothing', async () => {
    const bill = await createOpenTestBill(fixture.client, fixture.fx);
    await pay(bill.id, 2_500);
    const before = await snapshot();
    const res = await pay(bill.id, 7_501);
    expectRefusal(res, 400, 'overpayment');
    expect(res.body.error.message).toContain('$75.00');
    expect(res.body.error.details).toMatchObject({ amountDue: 7_500, billId: bill.id });
    expect(await snapshot()).toEqual(before);
    // Exactly the amount due is fine.
    expect((await pay(bill.id, 7_500)).status).toBe(201);
    await expectBooksAgree(fixture);
  });

  it('refuses a draft, a bill awaiting approval, a void and a paid bill with 409 invalid_transition', async () => {
    const draft = await createTestBill(fixture.client, fixture.fx);
    const voided = await createOpenTestBill(fixture.client, fixture.fx);
    expect((await fixture.client.post(`/bills/${voided.id}/void`, { reason: 'entered twice' })).status).toBe(
      200,
    );
    const paid = await createOpenTestBill(fixture.client, fixture.fx);
    expect((await pay(paid.id, 10_000)).status).toBe(201);
    // A bill above the threshold submitted by a member waits for approval.
    expect((await fixture.client.patch('/payables/settings', { approvalThreshold: 5_000 })).status).toBe(200);
    const member = await addTestMember(fixture.t.app, fixture.company, 'member');
    const asMember = api(fixture.t.app, fixture.company, member.cookie);
    const waiting = await createTestBill(asMember, fixture.fx);
    const submitted = await asMember.post(`/bills/${waiting.id}/submit`);
    expect(submitted.body.storedStatus).toBe('awaiting_approval');
    expect((await fixture.client.patch('/payables/settings', { approvalThreshold: null })).status).toBe(200);

    const before = await snapshot();
    for (const [bill, word] of [
      [draft, 'a draft'],
      [waiting, 'awaiting approval'],
      [voided, 'void'],
      [paid, 'paid'],
    ] as const) {
      const res = await pay(bill.id, 100);
      expectRefusal(res, 409, 'invalid_transition');
      expect(res.body.error.message).toContain(word);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a date before the bill, a wrong account and an unknown bill, changing nothing', async () => {
    const bill = await createOpenTestBill(fixture.client, fixture.fx);
    const eur = await addTestMoneyAccount(fixture.t.app, fixture.company, {
      name: 'Euro account',
      currency: 'EUR',
      openingDate: '2026-01-01',
    });
    const before = await snapshot();
    expectRefusal(await pay(bill.id, 100, { date: '2026-02-28' }), 400, 'date_before_bill');
    expectRefusal(
      await pay(bill.id, 100, { paymentAccountId: fixture.fx.expenseAccountId }),
      400,
      'invalid_payment_account',
    );
    expectRefusal(
      await pay(bill.id, 100, { paymentAccountId: fixture.fx.payableId }),
      400,
      'invalid_payment_account',
    );
    expectRefusal(await pay(bill.id, 100, { paymentAccountId: 'no-such-account' }), 400, 'account_not_found');
    const mismatch = await pay(bill.id, 100, { paymentAccountId: eur.ledgerAccountId });
    expectRefusal(mismatch, 400, 'payment_currency_mismatch');
    expect(mismatch.body.error.message).toContain('EUR');
    expect((await pay(bill.id, 0)).status).toBe(400);
    expect((await pay(bill.id, -5)).status).toBe(400);
    expect((await pay('no-such-bill', 100)).status).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses a payment dated in a locked period with a 4xx, changing nothing', async () => {
    const bill = await createOpenTestBill(fixture.client, fixture.fx);
    await fixture.t.database.db
      .updateTable('ledger_settings')
      .set({ lock_date: '2026-03-06' })
      .where('organization_id', '=', fixture.company.id)
      .execute();
    try {
      const before = await snapshot();
      const res = await pay(bill.id, 1_000, { date: '2026-03-05' });
      expect(res.status, JSON.stringify(res.body)).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(res.body.error.code).toBe('period_locked');
      expect(await snapshot()).toEqual(before);
      expect((await pay(bill.id, 1_000, { date: '2026-03-07' })).status).toBe(201);
    } finally {
      await fixture.t.database.db
        .updateTable('ledger_settings')
        .set({ lock_date: null })
        .where('organization_id', '=', fixture.company.id)
        .execute();
    }
    await expectBooksAgree(fixture);
  });
});

describe('foreign-currency bills', () => {
  const eurBill = async (rate: string) => {
    const supplierId = await addTestSupplier(fixture.t.database, fixture.company, {
      name: `Berlin GmbH ${rate}`,
      currency: 'EUR',
    });
    const bill = await createOpenTestBill(fixture.client, fixture.fx, { supplierId, exchangeRate: rate });
    expect(bill.currency).toBe('EUR');
    return bill;
  };

  it('books a realised loss when the euro is dearer on the payment day, a gain when cheaper', async () => {
    const fxAccount = fixture.fx.exchangeGainLossId;
    const loss = await eurBill('1.1');
    expect(loss.totalBase).toBe(11_000);
    const fxBefore = await accountBalance(fixture.t.database, fixture.company.id, fxAccount);
    const paidDear = await pay(loss.id, 10_000, { exchangeRate: '1.2' });
    expect(paidDear.status, JSON.stringify(paidDear.body)).toBe(201);
    expect(paidDear.body).toMatchObject({ storedStatus: 'paid', balanceBase: 0 });
    // 12,000 left the bank for a payable of 11,000: a loss of 1,000 (a debit).
    const afterLoss = await accountBalance(fixture.t.database, fixture.company.id, fxAccount);
    expect(afterLoss - fxBefore).toBe(1_000);
    const lossLines = await entryLines(paidDear.body.payments[0].journalEntryId);
    expect(lossLines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ account_id: fixture.fx.payableId, debit: 11_000 }),
        expect.objectContaining({ account_id: fixture.fx.bankId, credit: 12_000 }),
        expect.objectContaining({ account_id: fxAccount, debit: 1_000 }),
      ]),
    );
    await expectBooksAgree(fixture);

    const gain = await eurBill('1.1');
    // Paid in two parts at 1.05: the payable cleared is 11,000 exactly, the cash 10,500.
    expect((await pay(gain.id, 3_333, { exchangeRate: '1.05' })).status).toBe(201);
    const last = await pay(gain.id, 6_667, { exchangeRate: '1.05' });
    expect(last.status).toBe(201);
    expect(last.body).toMatchObject({ storedStatus: 'paid', balanceBase: 0 });
    const afterGain = await accountBalance(fixture.t.database, fixture.company.id, fxAccount);
    expect(afterGain - afterLoss).toBe(-500);
    await expectBooksAgree(fixture);
    await expectWalletAgrees();
  });

  it("uses the day's rate when none is given, and refuses without one", async () => {
    const bill = await eurBill('1.1');
    const before = await snapshot();
    const missing = await pay(bill.id, 1_000, { date: '2026-03-02' });
    expectRefusal(missing, 400, 'exchange_rate_required');
    expect(missing.body.error.message).toContain('EUR');
    expect(await snapshot()).toEqual(before);
    expect(
      (await fixture.client.post('/wallet/rates', { currency: 'EUR', date: '2026-03-03', rate: '1.15' }))
        .status,
    ).toBeLessThan(300);
    const res = await pay(bill.id, 2_000, { date: '2026-03-04' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const payment = res.body.payments.at(-1);
    expect(payment.exchangeRate).toBe('1.15');
    const row = await fixture.t.database.db
      .selectFrom('bill_payments')
      .select(['amount_base', 'paid_base'])
      .where('organization_id', '=', fixture.company.id)
      .where('id', '=', res.body.paymentId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ amount_base: 2_200, paid_base: 2_300 });
    await expectBooksAgree(fixture);
  });

  it('pays from a euro account: the register line is in euros and the wallet equals the ledger', async () => {
    const eur = await addTestMoneyAccount(fixture.t.app, fixture.company, {
      name: 'Euro payments',
      currency: 'EUR',
      openingDate: '2026-01-01',
    });
    const bill = await eurBill('1.1');
    const res = await pay(bill.id, 4_000, { paymentAccountId: eur.ledgerAccountId, exchangeRate: '1.25' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const register = await registerLines('bill_payment', res.body.paymentId);
    expect(register.map((r) => r.amount)).toEqual([-4_000]);
    expect(await accountBalance(fixture.t.database, fixture.company.id, eur.ledgerAccountId)).toBe(-5_000);
    await expectBooksAgree(fixture);
    await expectWalletAgrees();
    // The rest from the US dollar (base currency) account.
    expect((await pay(bill.id, 1_000, { exchangeRate: '1.2' })).status).toBe(201);
    await expectBooksAgree(fixture);
  });
});

describe('removing a payment', () => {
  it('posts the reversal, takes the register line back and makes the bill owed again', async () => {
    const bill = await createOpenTestBill(fixture.client, fixture.fx);
    const paid = await pay(bill.id, 10_000);
    expect(paid.body.storedStatus).toBe('paid');
    const removed = await fixture.client.delete(`/bills/${bill.id}/payments/${paid.body.paymentId}`);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(removed.body).toMatchObject({
      storedStatus: 'open',
      amountPaid: 0,
      amountDue: 10_000,
      balanceBase: 10_000,
    });
    expect(removed.body.payments[0]).toMatchObject({ reversed: true, reversalEntryId: expect.any(String) });
    const register = await registerLines('bill_payment', paid.body.paymentId);
    expect(register.map((r) => r.amount)).toEqual([-10_000, 10_000]);
    // The original entry is still there, reversed, never deleted.
    expect(await entryLines(paid.body.payments[0].journalEntryId)).toHaveLength(2);
    await expectBooksAgree(fixture);
    await expectWalletAgrees();

    const before = await snapshot();
    expectRefusal(
      await fixture.client.delete(`/bills/${bill.id}/payments/${paid.body.paymentId}`),
      409,
      'payment_already_reversed',
    );
    expect((await fixture.client.delete(`/bills/${bill.id}/payments/nope`)).status).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses removing a payment a completed reconciliation took in (409), changing nothing', async () => {
    const account = await addTestMoneyAccount(fixture.t.app, fixture.company, {
      name: 'Reconciled checking',
      openingDate: '2026-01-01',
    });
    const bill = await createOpenTestBill(fixture.client, fixture.fx);
    const paid = await pay(bill.id, 3_000, { paymentAccountId: account.ledgerAccountId });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    const [line] = await registerLines('bill_payment', paid.body.paymentId);
    await reconcileTestLines(
      fixture.client,
      { moneyAccountId: account.id, statementDate: '2026-03-06', statementBalance: -3_000 },
      [line!.id],
    );
    const before = await snapshot();
    const res = await fixture.client.delete(`/bills/${bill.id}/payments/${paid.body.paymentId}`);
    expectRefusal(res, 409, 'transaction_reconciled');
    expect(res.body.error.message).toContain('2026-03-06');
    expect(await snapshot()).toEqual(before);
  });

  it('refuses removing a payment matched to a bank line (409), changing nothing', async () => {
    const bill = await createOpenTestBill(fixture.client, fixture.fx);
    const paid = await pay(bill.id, 2_000);
    const [line] = await registerLines('bill_payment', paid.body.paymentId);
    // The matching module writes this row when a bank line is matched to the payment.
    await fixture.t.database.db
      .insertInto('bank_transaction_bill_matches')
      .values({
        organization_id: fixture.company.id,
        id: `match-${paid.body.paymentId}`,
        transaction_id: line!.id,
        bill_id: bill.id,
        payment_id: paid.body.paymentId,
        amount: 2_000,
        previous_entry_id: line!.entry_id,
        created_by: fixture.company.owner.id,
      })
      .execute();
    const before = await snapshot();
    expectRefusal(
      await fixture.client.delete(`/bills/${bill.id}/payments/${paid.body.paymentId}`),
      409,
      'payment_matched_to_bank_line',
    );
    expect(await snapshot()).toEqual(before);
  });
});

describe('Idempotency-Key, roles and companies', () => {
  it('a repeated key replays the first answer and records nothing; on another bill it is refused', async () => {
    const bill = await createOpenTestBill(fixture.client, fixture.fx);
    const key = { 'idempotency-key': `pay-${bill.id}` };
    const first = await pay(bill.id, 1_500, {}, key);
    expect(first.status).toBe(201);
    const written = await snapshot();
    const again = await pay(bill.id, 1_500, {}, key);
    expect(again.status).toBe(201);
    expect(again.raw.headers['idempotent-replayed']).toBe('true');
    expect(again.body.paymentId).toBe(first.body.paymentId);
    expect(await snapshot()).toEqual(written);
    expectRefusal(await pay(bill.id, 1_600, {}, key), 409, 'idempotency_key_reused');
    const other = await createOpenTestBill(fixture.client, fixture.fx);
    const withOther = await snapshot();
    expectRefusal(await pay(other.id, 1_500, {}, key), 409, 'idempotency_key_reused');
    expect(await snapshot()).toEqual(withOther);
  });

  it('members and viewers cannot pay or remove payments (403); an accountant can', async () => {
    const bill = await createOpenTestBill(fixture.client, fixture.fx);
    const paid = await pay(bill.id, 1_000);
    const users = [
      ['member', await addTestMember(fixture.t.app, fixture.company, 'member')],
      ['viewer', await addTestMember(fixture.t.app, fixture.company, 'viewer')],
    ] as const;
    const before = await snapshot();
    for (const [role, user] of users) {
      const as = api(fixture.t.app, fixture.company, user.cookie);
      const res = await as.post(`/bills/${bill.id}/payments`, {
        date: '2026-03-05',
        amount: 100,
        paymentAccountId: fixture.fx.bankId,
      });
      expect(res.status, role).toBe(403);
      expect((await as.delete(`/bills/${bill.id}/payments/${paid.body.paymentId}`)).status, role).toBe(403);
      // Reading the bill is fine.
      expect((await as.get(`/bills/${bill.id}`)).status, role).toBe(200);
    }
    expect(await snapshot()).toEqual(before);
    const accountant = await addTestMember(fixture.t.app, fixture.company, 'accountant');
    const asAccountant = api(fixture.t.app, fixture.company, accountant.cookie);
    const res = await asAccountant.post(`/bills/${bill.id}/payments`, {
      date: '2026-03-05',
      amount: 100,
      paymentAccountId: fixture.fx.bankId,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });

  it("another company cannot pay or remove this company's payments (404)", async () => {
    const bill = await createOpenTestBill(fixture.client, fixture.fx);
    const paid = await pay(bill.id, 1_000);
    const other = await createTestCompany(fixture.t.app, { name: 'Other Co' });
    const asOther = api(fixture.t.app, other);
    const before = await snapshot();
    expect(
      (
        await asOther.post(`/bills/${bill.id}/payments`, {
          date: '2026-03-05',
          amount: 100,
          paymentAccountId: fixture.fx.bankId,
        })
      ).status,
    ).toBe(404);
    expect((await asOther.delete(`/bills/${bill.id}/payments/${paid.body.paymentId}`)).status).toBe(404);
    // Nor pay this company's bill from its own bank account, through this company's path.
    expect(
      (
        await fixture.client.post(`/bills/${bill.id}/payments`, {
          date: '2026-03-05',
          amount: 100,
          paymentAccountId: (
            await fixture.t.database.db
              .selectFrom('accounts')
              .select('id')
              .where('organization_id', '=', other.id)
              .where('system_key', '=', 'bank')
              .executeTakeFirstOrThrow()
          ).id,
        })
      ).status,
    ).toBe(400);
    expect(await snapshot()).toEqual(before);
  });
});
