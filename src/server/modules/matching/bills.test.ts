import { describe, expect, it } from 'vitest';
import { type TestAnswer, expectRefusal } from '../../testing/api.ts';
import { type TestCompany, createTestCompany } from '../../testing/companies.ts';
import { api, ensureLedger, systemAccount } from '../../testing/invoices.ts';
import { addTestBankAccount } from '../../testing/money.ts';
import { setUpTestApp } from '../../testing/per-file-app.ts';
import {
  ledgerAccountBalance,
  moneyAccountMismatches,
  reconcileTestLines,
  trialBalanceDifference,
} from '../../testing/transactions.ts';

// Matching a money-out bank line to the bills it pays (issue 15 §4) through the HTTP API: the
// line's suspense entry becomes Dr accounts payable / Cr the bank, the bills are paid by bill
// payments pointing at that entry, and unmatching puts everything back. PGlite by default;
// PostgreSQL with TEST_DATABASE_URL.

const t = setUpTestApp();

type Setup = {
  company: TestCompany;
  client: ReturnType<typeof api>;
  moneyAccountId: string;
  ledgerAccountId: string;
  payableId: string;
  suspenseId: string;
  supplierId: string;
  expenseId: string;
};

const setUp = async (name = 'Bill Matching Co'): Promise<Setup> => {
  const company = await createTestCompany(t.app, { name });
  await ensureLedger(t.database, company);
  const client = api(t.app, company);
  const moneyAccount = await addTestBankAccount(client, 'Operating account', '2026-01-01');
  const expense = await t.database.db
    .selectFrom('accounts')
    .select('id')
    .where('organization_id', '=', company.id)
    .where('type', '=', 'expense')
    .where('archived_at', 'is', null)
    .orderBy('code')
    .executeTakeFirstOrThrow();
  const supplier = await client.post('/suppliers', { name: 'Acme Office Supplies', accountId: expense.id });
  expect(supplier.status, JSON.stringify(supplier.body)).toBe(201);
  return {
    company,
    client,
    moneyAccountId: moneyAccount.id,
    ledgerAccountId: moneyAccount.ledgerAccountId,
    payableId: await systemAccount(t.database, company.id, 'accounts_payable'),
    suspenseId: await systemAccount(t.database, company.id, 'uncategorized_expense'),
    supplierId: supplier.body.id,
    expenseId: expense.id,
  };
};

/** An open bill (submitted with no approval threshold) of `amount`. */
const bill = async (
  s: Setup,
  amount: number,
  options: { issueDate?: string; currency?: string; exchangeRate?: string; submit?: boolean } = {},
) => {
  const created = await s.client.post('/bills', {
    supplierId: s.supplierId,
    issueDate: options.issueDate ?? '2026-03-01',
    ...(options.currency ? { currency: options.currency, exchangeRate: options.exchangeRate } : {}),
    lines: [{ description: 'Paper', quantity: '1', unitPrice: amount, accountId: s.expenseId }],
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  if (options.submit !== false) {
    const submitted = await s.client.post(`/bills/${created.body.id}/submit`, {});
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200);
  }
  return { id: created.body.id as string, number: created.body.number as string };
};

/** An uncategorised bank line (negative: money out). */
const line = async (s: Setup, amount: number, description: string, date = '2026-03-10') => {
  const res = await s.client.post('/transactions', {
    moneyAccountId: s.moneyAccountId,
    date,
    description,
    amount,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(res.body.categoryKind).toBe('none');
  return res.body.id as string;
};

const matchLine = (s: Setup, lineId: string, body: unknown) =>
  s.client.post(`/transactions/${lineId}/match`, body);

const billState = async (s: Setup, id: string) => {
  const row = await t.database.db
    .selectFrom('bills')
    .select(['status', 'amount_paid', 'amount_due', 'balance_base'])
    .where('organization_id', '=', s.company.id)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return {
    status: row.status,
    amountPaid: Number(row.amount_paid),
    amountDue: Number(row.amount_due),
    balanceBase: Number(row.balance_base),
  };
};

const balance = (s: Setup, accountId: string) => ledgerAccountBalance(t.database.db, s.company.id, accountId);

/** The books balance, and every money account's ledger balance agrees with its register (the Wallet). */
const expectBooksAgree = async (s: Setup) => {
  expect(await trialBalanceDifference(t.database.db, s.company.id)).toBe(0);
  expect(await moneyAccountMismatches(t.database.db, s.company.id)).toEqual([]);
};

const snapshot = async (companyId: string) => {
  const db = t.database.db;
  const [entries, payments, matches, txs, bills] = await Promise.all([
    db.selectFrom('journal_entries').select('id').where('organization_id', '=', companyId).execute(),
    db
      .selectFrom('bill_payments')
      .select(['id', 'reversal_entry_id'])
      .where('organization_id', '=', companyId)
      .orderBy('id')
      .execute(),
    db
      .selectFrom('bank_transaction_bill_matches')
      .selectAll()
      .where('organization_id', '=', companyId)
      .execute(),
    db
      .selectFrom('bank_transactions')
      .select(['id', 'entry_id', 'category_kind', 'status'])
      .where('organization_id', '=', companyId)
      .orderBy('id')
      .execute(),
    db
      .selectFrom('bills')
      .select(['id', 'amount_paid', 'status', 'balance_base'])
      .where('organization_id', '=', companyId)
      .orderBy('id')
      .execute(),
  ]);
  return { entries: entries.length, payments, matches, txs, bills };
};

const expectRefusedUnchanged = async (
  s: Setup,
  request: () => Promise<TestAnswer>,
  status: number,
  code: string,
) => {
  const before = await snapshot(s.company.id);
  const res = await request();
  expectRefusal(res, status, code);
  expect(await snapshot(s.company.id)).toEqual(before);
  return res;
};

describe('matching a money-out line to bills', () => {
  it('pays one bill in full: AP and suspense cleared, the bill paid, the match shown', async () => {
    const s = await setUp();
    const b = await bill(s, 12_500);
    expect(await balance(s, s.payableId)).toBe(-12_500);
    const tx = await line(s, -12_500, 'ACME OFFICE SUPPLIES CARD 4411');
    expect(await balance(s, s.suspenseId)).toBe(12_500);
    const bankBefore = await balance(s, s.ledgerAccountId);

    const res = await matchLine(s, tx, { bills: [{ billId: b.id, amount: 12_500 }] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.match).toMatchObject({
      transactionId: tx,
      kind: 'bill',
      amount: 12_500,
      allocations: [],
      creditAmount: 0,
      bills: [{ billId: b.id, billNumber: b.number, supplierName: 'Acme Office Supplies', amount: 12_500 }],
    });
    expect(await billState(s, b.id)).toEqual({
      status: 'paid',
      amountPaid: 12_500,
      amountDue: 0,
      balanceBase: 0,
    });
    expect(await balance(s, s.payableId)).toBe(0);
    expect(await balance(s, s.suspenseId)).toBe(0);
    expect(await balance(s, s.ledgerAccountId)).toBe(bankBefore);
    await expectBooksAgree(s);

    // The payment row points at the line's new entry, with the line's text as reference.
    const tline = await t.database.db
      .selectFrom('bank_transactions')
      .selectAll()
      .where('organization_id', '=', s.company.id)
      .where('id', '=', tx)
      .executeTakeFirstOrThrow();
    expect(tline.category_kind).toBe('payment');
    const [payment] = await t.database.db
      .selectFrom('bill_payments')
      .selectAll()
      .where('organization_id', '=', s.company.id)
      .where('bill_id', '=', b.id)
      .execute();
    expect(payment).toMatchObject({
      amount: 12_500,
      method: 'bank_transfer',
      reference: 'ACME OFFICE SUPPLIES CARD 4411',
      journal_entry_id: tline.entry_id,
      payment_account_id: s.ledgerAccountId,
      reversal_entry_id: null,
    });
    const again = await s.client.get(`/transactions/${tx}/match`);
    expect(again.status).toBe(200);
    expect(again.body.match).toEqual(res.body.match);

    // The bill shows the payment as the line's cash, and it goes only by unmatching the line.
    const shown = await s.client.get(`/bills/${b.id}`);
    expect(shown.status).toBe(200);
    expect(shown.body.payments).toEqual([
      expect.objectContaining({ id: payment!.id, bankTransactionId: tx, reversed: false }),
    ]);
    await expectRefusedUnchanged(
      s,
      () => s.client.delete(`/bills/${b.id}/payments/${payment!.id}`),
      409,
      'payment_matched_to_bank_line',
    );
  });

  it('pays two bills, one partly, and unmatching restores both and the suspense posting', async () => {
    const s = await setUp();
    const a = await bill(s, 10_000);
    const b = await bill(s, 8_000);
    const tx = await line(s, -15_000, 'Acme two bills');
    const res = await matchLine(s, tx, {
      bills: [
        { billId: a.id, amount: 10_000 },
        { billId: b.id, amount: 5_000 },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await billState(s, a.id)).toMatchObject({ status: 'paid', amountDue: 0 });
    expect(await billState(s, b.id)).toMatchObject({
      status: 'partially_paid',
      amountDue: 3_000,
      balanceBase: 3_000,
    });
    expect(await balance(s, s.payableId)).toBe(-3_000);
    await expectBooksAgree(s);

    const un = await s.client.delete(`/transactions/${tx}/match`);
    expect(un.status, JSON.stringify(un.body)).toBe(200);
    expect(un.body.match).toBeNull();
    expect(await billState(s, a.id)).toEqual({
      status: 'open',
      amountPaid: 0,
      amountDue: 10_000,
      balanceBase: 10_000,
    });
    expect(await billState(s, b.id)).toEqual({
      status: 'open',
      amountPaid: 0,
      amountDue: 8_000,
      balanceBase: 8_000,
    });
    expect(await balance(s, s.payableId)).toBe(-18_000);
    expect(await balance(s, s.suspenseId)).toBe(15_000);
    await expectBooksAgree(s);
    const payments = await t.database.db
      .selectFrom('bill_payments')
      .select(['reversal_entry_id', 'reversed_at'])
      .where('organization_id', '=', s.company.id)
      .execute();
    expect(payments).toHaveLength(2);
    for (const p of payments) {
      expect(p.reversal_entry_id).not.toBeNull();
      expect(p.reversed_at).not.toBeNull();
    }
    const txRow = await t.database.db
      .selectFrom('bank_transactions')
      .select(['category_kind', 'source_kind', 'source_id'])
      .where('organization_id', '=', s.company.id)
      .where('id', '=', tx)
      .executeTakeFirstOrThrow();
    expect(txRow).toEqual({ category_kind: 'none', source_kind: null, source_id: null });
    expect((await s.client.get(`/transactions/${tx}/match`)).body.match).toBeNull();

    // Matched again after unmatching: the same result as the first time.
    const rematch = await matchLine(s, tx, {
      bills: [
        { billId: b.id, amount: 8_000 },
        { billId: a.id, amount: 7_000 },
      ],
    });
    expect(rematch.status, JSON.stringify(rematch.body)).toBe(200);
    expect(await balance(s, s.payableId)).toBe(-3_000);
    await expectBooksAgree(s);
  });
});

describe('refusals change nothing', () => {
  it('refuses bad matches with a clear 4xx', async () => {
    const s = await setUp();
    const b = await bill(s, 10_000);
    const draft = await bill(s, 4_000, { submit: false });
    const late = await bill(s, 4_000, { issueDate: '2026-03-20' });
    const moneyIn = await line(s, 10_000, 'Refund');
    const out = await line(s, -10_000, 'Acme');
    const small = await line(s, -12_000, 'Acme too much');

    await expectRefusedUnchanged(
      s,
      () => matchLine(s, moneyIn, { bills: [{ billId: b.id, amount: 10_000 }] }),
      400,
      'not_money_out',
    );
    await expectRefusedUnchanged(
      s,
      () => matchLine(s, small, { bills: [{ billId: b.id, amount: 12_000 }] }),
      400,
      'overpayment',
    );
    await expectRefusedUnchanged(
      s,
      () => matchLine(s, small, { bills: [{ billId: b.id, amount: 10_000 }] }),
      400,
      'allocation_mismatch',
    );
    await expectRefusedUnchanged(
      s,
      () =>
        matchLine(s, out, {
          bills: [
            { billId: draft.id, amount: 4_000 },
            { billId: b.id, amount: 6_000 },
          ],
        }),
      409,
      'invalid_transition',
    );
    await expectRefusedUnchanged(
      s,
      () =>
        matchLine(s, out, {
          bills: [
            { billId: late.id, amount: 4_000 },
            { billId: b.id, amount: 6_000 },
          ],
        }),
      400,
      'payment_before_bill',
    );
    await expectRefusedUnchanged(
      s,
      () =>
        matchLine(s, out, {
          bills: [
            { billId: b.id, amount: 5_000 },
            { billId: b.id, amount: 5_000 },
          ],
        }),
      400,
      'duplicate_bill',
    );
    await expectRefusedUnchanged(
      s,
      () => matchLine(s, out, { bills: [{ billId: 'nope', amount: 10_000 }] }),
      404,
      'not_found',
    );
    // Invoices and bills at once: the schema refuses it.
    const both = await matchLine(s, out, {
      bills: [{ billId: b.id, amount: 10_000 }],
      invoices: [{ invoiceId: 'x', amount: 1 }],
    });
    expect(both.status).toBe(400);
    // Money out cannot be matched to invoices either.
    await expectRefusedUnchanged(
      s,
      () => matchLine(s, out, { invoices: [{ invoiceId: 'x', amount: 10_000 }] }),
      400,
      'not_money_in',
    );
  });

  it("refuses another company's bill (404), a foreign-currency bill, a matched line and a reconciled one", async () => {
    const s = await setUp();
    const other = await setUp('Other Payables Co');
    const theirs = await bill(other, 5_000);
    const eur = await bill(s, 5_000, { currency: 'EUR', exchangeRate: '1.1' });
    const b = await bill(s, 5_000);
    const tx = await line(s, -5_000, 'Acme');
    await expectRefusedUnchanged(
      s,
      () => matchLine(s, tx, { bills: [{ billId: theirs.id, amount: 5_000 }] }),
      404,
      'not_found',
    );
    await expectRefusedUnchanged(
      s,
      () => matchLine(s, tx, { bills: [{ billId: eur.id, amount: 5_000 }] }),
      400,
      'currency_mismatch',
    );
    expect((await matchLine(s, tx, { bills: [{ billId: b.id, amount: 5_000 }] })).status).toBe(200);
    const b2 = await bill(s, 5_000);
    await expectRefusedUnchanged(
      s,
      () => matchLine(s, tx, { bills: [{ billId: b2.id, amount: 5_000 }] }),
      409,
      'already_matched',
    );
    // Another company cannot see or unmatch the line.
    expect((await other.client.get(`/transactions/${tx}/match`)).status).toBe(404);
    expect((await other.client.delete(`/transactions/${tx}/match`)).status).toBe(404);

    // A reconciled line can be neither matched nor unmatched.
    const tx2 = await line(s, -5_000, 'Acme again', '2026-03-11');
    await reconcileTestLines(
      s.client,
      { moneyAccountId: s.moneyAccountId, statementDate: '2026-03-31', statementBalance: -10_000 },
      [tx, tx2],
    );
    await expectRefusedUnchanged(
      s,
      () => matchLine(s, tx2, { bills: [{ billId: b2.id, amount: 5_000 }] }),
      409,
      'transaction_reconciled',
    );
    await expectRefusedUnchanged(
      s,
      () => s.client.delete(`/transactions/${tx}/match`),
      409,
      'transaction_reconciled',
    );
    await expectBooksAgree(s);
  });
});

describe('suggestions for money out', () => {
  it('suggests open bills for a money-out line, the same amount and the named supplier first', async () => {
    const s = await setUp('Bill Suggestions Co');
    const exact = await bill(s, 12_500);
    const other = await bill(s, 30_000);
    await bill(s, 12_500, { submit: false }); // a draft is not owed: never suggested
    const out = await line(s, -12_500, 'ACME OFFICE CARD PAYMENT');
    const res = await s.client.get(`/transactions/${out}/match-suggestions`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.suggestions).toEqual([]);
    expect(res.body.bills.map((b: { billId: string }) => b.billId)).toEqual([exact.id, other.id]);
    expect(res.body.bills[0]).toMatchObject({
      kind: 'bill',
      billNumber: exact.number,
      supplierName: 'Acme Office Supplies',
      amount: 12_500,
      amountDue: 12_500,
    });
    expect(res.body.bills[0].reasons).toEqual(expect.arrayContaining(['exact_amount', 'supplier_in_text']));
    expect(res.body.bills[1].reasons).toEqual(expect.arrayContaining(['supplier_in_text', 'partial_amount']));
    expect(res.body.bills[1].amount).toBe(12_500);

    // Confirming the first suggestion as it is makes the match.
    const first = res.body.bills[0];
    expect(
      (await matchLine(s, out, { bills: [{ billId: first.billId, amount: first.amount }] })).status,
    ).toBe(200);
    // Money in gets no bills; a matched line gets none either.
    const moneyIn = await line(s, 12_500, 'ACME refund');
    expect((await s.client.get(`/transactions/${moneyIn}/match-suggestions`)).body.bills).toEqual([]);
    expect((await s.client.get(`/transactions/${out}/match-suggestions`)).body.bills).toEqual([]);
    // A paid bill is no longer suggested.
    const next = await line(s, -12_500, 'ACME OFFICE');
    const after = await s.client.get(`/transactions/${next}/match-suggestions`);
    expect(after.body.bills.map((b: { billId: string }) => b.billId)).toEqual([other.id]);
  });
});
