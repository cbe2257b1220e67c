import { describe, expect, it } from 'vitest';
import { setUpTestApp } from '../../testing/per-file-app.ts';
import { type TestAnswer, expectRefusal } from '../../testing/api.ts';
import { type TestCompany, createTestCompany } from '../../testing/companies.ts';
import { api, ensureLedger, systemAccount } from '../../testing/invoices.ts';
import { addTestBankAccount } from '../../testing/money.ts';
import { recordDocumentLine } from '../bank-transactions/register.ts';
import {
  ledgerAccountBalance,
  reconcileTestLines,
  trialBalanceDifference,
} from '../../testing/transactions.ts';

// Matching bank lines to open invoices and recorded payments through the HTTP API (issue 13
// §4), on PGlite and, with TEST_DATABASE_URL, PostgreSQL.

const t = setUpTestApp();

type Setup = {
  company: TestCompany;
  client: ReturnType<typeof api>;
  moneyAccountId: string;
  ledgerAccountId: string;
  receivableId: string;
  customerId: string;
};

const setUp = async (name = 'Matching Co'): Promise<Setup> => {
  const company = await createTestCompany(t.app, { name });
  await ensureLedger(t.database, company);
  const client = api(t.app, company);
  const moneyAccount = await addTestBankAccount(client, 'Operating account', '2026-01-01');
  const customer = await client.post('/customers', { name: 'Northwind Traders', email: 'n@example.com' });
  expect(customer.status).toBe(201);
  return {
    company,
    client,
    moneyAccountId: moneyAccount.id,
    ledgerAccountId: moneyAccount.ledgerAccountId,
    receivableId: await systemAccount(t.database, company.id, 'accounts_receivable'),
    customerId: customer.body.id,
  };
};

const invoice = async (s: Setup, amount: number, issueDate = '2026-03-01') => {
  const created = await s.client.post('/invoices', {
    customerId: s.customerId,
    issueDate,
    lines: [{ description: 'Work', quantity: '1', unitPrice: amount }],
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const sent = await s.client.post(`/invoices/${created.body.id}/send`, { email: false });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  return { id: created.body.id as string, number: sent.body.number as string };
};

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

/** Confirms a match of the bank line (POST /transactions/:id/match). */
const matchLine = (s: Setup, lineId: string, body: unknown, headers?: Record<string, string>) =>
  s.client.post(`/transactions/${lineId}/match`, body, headers);

/** Matches the bank line to invoices; the match must be made. */
const matchInvoices = async (s: Setup, lineId: string, invoices: { invoiceId: string; amount: number }[]) => {
  const res = await matchLine(s, lineId, { invoices });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

const ledgerBalance = (companyId: string, accountId: string) =>
  ledgerAccountBalance(t.database.db, companyId, accountId);

/** The stored status (the API shows a derived one, such as overdue), paid and due amounts. */
const invoiceState = async (s: Setup, id: string) => {
  const row = await t.database.db
    .selectFrom('invoices')
    .select(['status', 'amount_paid', 'amount_due'])
    .where('organization_id', '=', s.company.id)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return { status: row.status, amountPaid: Number(row.amount_paid), amountDue: Number(row.amount_due) };
};

/** Everything matching could change, to compare before and after a refused request. */
const snapshot = async (companyId: string) => {
  const db = t.database.db;
  const [entries, lines, payments, matches, txs, invoices] = await Promise.all([
    db.selectFrom('journal_entries').select(['id']).where('organization_id', '=', companyId).execute(),
    db.selectFrom('journal_lines').select(['entry_id']).where('organization_id', '=', companyId).execute(),
    db
      .selectFrom('invoice_payments')
      .select(['id', 'reversal_entry_id'])
      .where('organization_id', '=', companyId)
      .orderBy('id')
      .execute(),
    db.selectFrom('bank_transaction_matches').selectAll().where('organization_id', '=', companyId).execute(),
    db
      .selectFrom('bank_transactions')
      .select(['id', 'entry_id', 'category_kind', 'status'])
      .where('organization_id', '=', companyId)
      .orderBy('id')
      .execute(),
    db
      .selectFrom('invoices')
      .select(['id', 'amount_paid', 'status', 'balance_base'])
      .where('organization_id', '=', companyId)
      .orderBy('id')
      .execute(),
  ]);
  return { entries: entries.length, lines: lines.length, payments, matches, txs, invoices };
};

/** A request that must be refused with `status` and `code` and change nothing matching could change. */
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

/** Records a payment of the invoice by hand into the bank account; it must be recorded. */
const recordPayment = async (s: Setup, inv: { id: string }, amount: number) => {
  const recorded = await s.client.post(`/invoices/${inv.id}/payments`, {
    date: '2026-03-09',
    amount,
    depositAccountId: s.ledgerAccountId,
  });
  expect(recorded.status, JSON.stringify(recorded.body)).toBe(201);
  return recorded.body.paymentId as string;
};

/**
 * A payment recorded by hand and its own register line, written here when the invoices module
 * has not; `ownLine()` reads the payment's register lines (the imported one once matched).
 */
const recordPaymentWithOwnLine = async (s: Setup, inv: { id: string; number: string }, amount: number) => {
  const paymentId = await recordPayment(s, inv, amount);
  const db = t.database.db;
  const ownLine = () =>
    db
      .selectFrom('bank_transactions')
      .selectAll()
      .where('organization_id', '=', s.company.id)
      .where('source_kind', '=', 'invoice_payment')
      .where('source_id', '=', paymentId)
      .where('category_kind', '=', 'payment')
      .execute();
  if ((await ownLine()).length === 0) {
    const payment = await db
      .selectFrom('invoice_payments')
      .select('journal_entry_id')
      .where('organization_id', '=', s.company.id)
      .where('id', '=', paymentId)
      .executeTakeFirstOrThrow();
    await db.transaction().execute((trx) =>
      recordDocumentLine(trx, {
        organizationId: s.company.id,
        ledgerAccountId: s.ledgerAccountId,
        date: '2026-03-09',
        amount,
        description: `Payment for invoice ${inv.number}`,
        entryId: payment.journal_entry_id,
        source: { kind: 'invoice_payment', id: paymentId },
        invoiceId: inv.id,
        createdBy: s.company.owner.id,
      }),
    );
  }
  return { paymentId, ownLine };
};

describe('suggestions', () => {
  it('ranks the exact open amount and the invoice number in the description first', async () => {
    const s = await setUp();
    const exact = await invoice(s, 12_000);
    const other = await invoice(s, 50_000);
    const byNumber = await invoice(s, 30_000);
    await invoice(s, 77_700);
    const tx = await line(s, 12_000, 'ACME CORP transfer');
    const res = await s.client.get(`/transactions/${tx}/match-suggestions`);
    expect(res.status).toBe(200);
    expect(res.body.suggestions[0]).toMatchObject({
      kind: 'invoice',
      invoiceId: exact.id,
      amount: 12_000,
      reasons: expect.arrayContaining(['exact_amount']),
    });
    expect(res.body.suggestions.map((x: { invoiceId: string }) => x.invoiceId)).not.toContain(other.id);

    // The number in the description beats an amount that is merely smaller than what is due.
    const tx2 = await line(s, 10_000, `Payment ${byNumber.number.toLowerCase()} thanks`);
    const res2 = await s.client.get(`/transactions/${tx2}/match-suggestions`);
    expect(res2.body.suggestions[0]).toMatchObject({
      invoiceId: byNumber.id,
      amount: 10_000,
      reasons: expect.arrayContaining(['number_in_text', 'partial_amount']),
    });

    // The customer's name finds their invoices.
    const tx3 = await line(s, 1_234, 'SEPA CREDIT NORTHWIND TRADERS REF 991');
    const res3 = await s.client.get(`/transactions/${tx3}/match-suggestions`);
    expect(res3.body.suggestions.length).toBeGreaterThan(0);
    expect(
      res3.body.suggestions.every((x: { reasons: string[] }) => x.reasons.includes('customer_in_text')),
    ).toBe(true);

    // Money out and lines before the invoice get none.
    const out = await line(s, -12_000, 'Refund');
    expect((await s.client.get(`/transactions/${out}/match-suggestions`)).body.suggestions).toEqual([]);
    const early = await line(s, 12_000, 'Early', '2026-02-01');
    expect((await s.client.get(`/transactions/${early}/match-suggestions`)).body.suggestions).toEqual([]);
  });

  it('suggests for a whole imported statement at once', async () => {
    const s = await setUp();
    const a = await invoice(s, 4_500);
    const b = await invoice(s, 9_900);
    const imported = await s.client.post('/statement-imports', {
      moneyAccountId: s.moneyAccountId,
      fileName: 'march.csv',
      format: 'csv',
      content: `date,description,amount\n2026-03-11,Customer payment,45.00\n2026-03-12,Paying ${b.number},99.00\n2026-03-13,Coffee,-3.50\n`,
      mapping: { dateColumn: 0, descriptionColumn: 1, amountColumn: 2, dateFormat: 'YYYY-MM-DD' },
      applyRules: false,
    });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    const res = await s.client.get(`/statement-imports/${imported.body.id}/match-suggestions?limit=2`);
    expect(res.status).toBe(200);
    expect(res.body.lines).toHaveLength(2);
    const firstIds = res.body.lines.map(
      (l: { suggestions: { invoiceId: string }[] }) => l.suggestions[0]?.invoiceId,
    );
    expect(firstIds.sort()).toEqual([a.id, b.id].sort());
    expect((await s.client.get('/statement-imports/no-such-import/match-suggestions')).status).toBe(404);
    // Confirming a suggestion on an imported line (posted through the ledger's bulk path).
    const bankBefore = await ledgerBalance(s.company.id, s.ledgerAccountId);
    for (const l of res.body.lines) {
      const top = l.suggestions[0];
      const confirmed = await matchLine(s, l.transactionId, {
        invoices: [{ invoiceId: top.invoiceId, amount: top.amount }],
      });
      expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    }
    expect(await ledgerBalance(s.company.id, s.ledgerAccountId)).toBe(bankBefore);
    expect((await invoiceState(s, a.id)).status).toBe('paid');
    expect((await invoiceState(s, b.id)).status).toBe('paid');
    expect(await trialBalanceDifference(t.database.db, s.company.id)).toBe(0);
    // Matched lines are no longer suggested for.
    expect(
      (await s.client.get(`/statement-imports/${imported.body.id}/match-suggestions`)).body.lines,
    ).toEqual([]);
  });
});

describe('confirming and unmatching a match to invoices', () => {
  it('re-posts the suspense leg to receivables: one cash movement, bank balance unchanged', async () => {
    const s = await setUp();
    const inv = await invoice(s, 20_000);
    const tx = await line(s, 20_000, 'Incoming');
    const bankBefore = await ledgerBalance(s.company.id, s.ledgerAccountId);
    const arBefore = await ledgerBalance(s.company.id, s.receivableId);
    const before = await snapshot(s.company.id);

    const res = await matchLine(s, tx, {
      invoices: [{ invoiceId: inv.id, amount: 20_000 }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.match).toMatchObject({
      kind: 'invoice',
      amount: 20_000,
      allocations: [{ invoiceId: inv.id, invoiceNumber: inv.number, amount: 20_000 }],
    });
    expect(await ledgerBalance(s.company.id, s.ledgerAccountId)).toBe(bankBefore);
    expect(await ledgerBalance(s.company.id, s.receivableId)).toBe(arBefore - 20_000);
    expect(await trialBalanceDifference(t.database.db, s.company.id)).toBe(0);
    expect(await invoiceState(s, inv.id)).toMatchObject({ status: 'paid', amountPaid: 20_000, amountDue: 0 });
    // A payment matched from the bank is a payment received, as one typed in is (issue 17).
    const told = await t.database.db
      .selectFrom('notifications')
      .select(['kind', 'title'])
      .where('organization_id', '=', s.company.id)
      .where('user_id', '=', s.company.owner.id)
      .execute();
    expect(told.map((n) => n.kind).sort()).toEqual(['invoice_paid', 'payment_received']);
    expect(told.find((n) => n.kind === 'payment_received')?.title).toBe('Payment received: $200.00');
    const txRow = (await s.client.get(`/transactions/${tx}`)).body;
    expect(txRow.categoryKind).toBe('payment');
    // The payment points at the line's entry: the cash is posted once.
    const payment = await t.database.db
      .selectFrom('invoice_payments')
      .selectAll()
      .where('organization_id', '=', s.company.id)
      .where('invoice_id', '=', inv.id)
      .executeTakeFirstOrThrow();
    expect(payment.journal_entry_id).toBe(txRow.entryId);
    // No second register line was written for the payment.
    const lines = await t.database.db
      .selectFrom('bank_transactions')
      .select('id')
      .where('organization_id', '=', s.company.id)
      .where('amount', '=', 20_000)
      .execute();
    expect(lines).toHaveLength(1);
    expect((await s.client.get(`/transactions/${tx}/match`)).body.match.allocations[0].invoiceNumber).toBe(
      inv.number,
    );

    // The matched line is the payment's register line: not recategorised, split or deleted.
    const frozen = await snapshot(s.company.id);
    const recat = await s.client.patch(`/transactions/${tx}`, {
      categoryAccountId: await systemAccount(t.database, s.company.id, 'uncategorized_income'),
    });
    expect(recat.status).toBeGreaterThanOrEqual(400);
    expect(recat.status).toBeLessThan(500);
    const gone = await s.client.delete(`/transactions/${tx}`);
    expect(gone.status).toBeGreaterThanOrEqual(400);
    expect(gone.status).toBeLessThan(500);
    expect(await snapshot(s.company.id)).toEqual(frozen);

    // Removing the payment from the invoice is refused: unmatch instead.
    const del = await s.client.delete(`/invoices/${inv.id}/payments/${payment.id}`);
    expectRefusal(del, 409, 'payment_matched_to_bank_line');

    const un = await s.client.delete(`/transactions/${tx}/match`);
    expect(un.status, JSON.stringify(un.body)).toBe(200);
    expect(un.body.match).toBeNull();
    expect(await ledgerBalance(s.company.id, s.ledgerAccountId)).toBe(bankBefore);
    expect(await ledgerBalance(s.company.id, s.receivableId)).toBe(arBefore);
    expect(await trialBalanceDifference(t.database.db, s.company.id)).toBe(0);
    expect(await invoiceState(s, inv.id)).toMatchObject({ status: 'sent', amountPaid: 0, amountDue: 20_000 });
    const after = await snapshot(s.company.id);
    expect(after.invoices).toEqual(before.invoices);
    expect(after.matches).toEqual([]);
    expect((await s.client.get(`/transactions/${tx}`)).body).toMatchObject({
      categoryKind: 'none',
      status: 'uncategorized',
    });
    // A retried confirmation with the same Idempotency-Key answers as the first did, once.
    const key = { 'idempotency-key': `match-${tx}` };
    const body = { invoices: [{ invoiceId: inv.id, amount: 20_000 }] };
    const first = await matchLine(s, tx, body, key);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const replay = await matchLine(s, tx, body, key);
    expect(replay.status).toBe(200);
    expect(replay.raw.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect((await snapshot(s.company.id)).matches).toHaveLength(1);
    expect((await s.client.delete(`/transactions/${tx}/match`)).status).toBe(200);

    // It can be matched again after unmatching.
    const again = await matchLine(s, tx, {
      invoices: [{ invoiceId: inv.id, amount: 20_000 }],
    });
    expect(again.status).toBe(200);
  });

  it('settles several invoices with one line, and one invoice with several lines', async () => {
    const s = await setUp();
    const a = await invoice(s, 10_000);
    const b = await invoice(s, 5_000);
    const c = await invoice(s, 9_000);
    const both = await line(s, 15_000, 'Two invoices');
    const res = await matchLine(s, both, {
      invoices: [
        { invoiceId: a.id, amount: 10_000 },
        { invoiceId: b.id, amount: 5_000 },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.match.allocations).toHaveLength(2);
    expect((await invoiceState(s, a.id)).status).toBe('paid');
    expect((await invoiceState(s, b.id)).status).toBe('paid');

    const first = await line(s, 4_000, 'Part one');
    const second = await line(s, 5_000, 'Part two');
    await matchInvoices(s, first, [{ invoiceId: c.id, amount: 4_000 }]);
    expect(await invoiceState(s, c.id)).toMatchObject({ status: 'partially_paid', amountPaid: 4_000 });
    await matchInvoices(s, second, [{ invoiceId: c.id, amount: 5_000 }]);
    expect(await invoiceState(s, c.id)).toMatchObject({ status: 'paid', amountPaid: 9_000, amountDue: 0 });
    // Unmatching the first part leaves the second.
    expect((await s.client.delete(`/transactions/${first}/match`)).status).toBe(200);
    expect(await invoiceState(s, c.id)).toMatchObject({ status: 'partially_paid', amountPaid: 5_000 });
    expect(await trialBalanceDifference(t.database.db, s.company.id)).toBe(0);
  });
});

describe('matching a payment recorded by hand', () => {
  it('takes the payment as the line’s posting: the cash counts once, and unmatching restores both', async () => {
    const s = await setUp();
    const inv = await invoice(s, 8_000);
    const bankAtStart = await ledgerBalance(s.company.id, s.ledgerAccountId);
    const paymentId = await recordPayment(s, inv, 8_000);
    const before = await snapshot(s.company.id);
    const bankWithPayment = await ledgerBalance(s.company.id, s.ledgerAccountId);
    expect(bankWithPayment).toBe(bankAtStart + 8_000);

    // The same money arrives on the imported statement: counted twice until matched.
    const tx = await line(s, 8_000, `Northwind ${inv.number}`);
    expect(await ledgerBalance(s.company.id, s.ledgerAccountId)).toBe(bankAtStart + 16_000);
    const beforeMatch = await snapshot(s.company.id);
    const suggestions = (await s.client.get(`/transactions/${tx}/match-suggestions`)).body.suggestions;
    expect(suggestions[0]).toMatchObject({ kind: 'payment', paymentId, invoiceId: inv.id });

    const res = await matchLine(s, tx, { paymentId });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.match).toMatchObject({ kind: 'payment', amount: 8_000 });
    expect(await ledgerBalance(s.company.id, s.ledgerAccountId)).toBe(bankAtStart + 8_000);
    expect(await trialBalanceDifference(t.database.db, s.company.id)).toBe(0);
    expect(await invoiceState(s, inv.id)).toMatchObject({ status: 'paid', amountPaid: 8_000 });
    // One register line for the cash: the imported one, now the payment's.
    const register = await t.database.db
      .selectFrom('bank_transactions')
      .select(['id', 'category_kind', 'source_id'])
      .where('organization_id', '=', s.company.id)
      .where('amount', '=', 8_000)
      .execute();
    expect(register).toEqual([{ id: tx, category_kind: 'payment', source_id: paymentId }]);
    // Not twice: the payment is taken now.
    const other = await line(s, 8_000, 'Another 80');
    const twice = await matchLine(s, other, { paymentId });
    expectRefusal(twice, 409, 'payment_already_matched');
    expect(
      (await s.client.get(`/transactions/${other}/match-suggestions`)).body.suggestions.some(
        (x: { paymentId: string | null }) => x.paymentId === paymentId,
      ),
    ).toBe(false);
    expect((await s.client.delete(`/invoices/${inv.id}/payments/${paymentId}`)).status).toBe(409);

    const un = await s.client.delete(`/transactions/${tx}/match`);
    expect(un.status, JSON.stringify(un.body)).toBe(200);
    expect(await ledgerBalance(s.company.id, s.ledgerAccountId)).toBe(bankAtStart + 24_000);
    const after = await snapshot(s.company.id);
    const withoutOther = (x: typeof after) => x.txs.filter((r) => r.id !== other);
    // The payment's own register line (if it had one) is back exactly, and the line waits again.
    expect(withoutOther(after).filter((r) => r.id !== tx)).toEqual(
      beforeMatch.txs.filter((r) => r.id !== tx),
    );
    expect(after.txs.find((r) => r.id === tx)).toMatchObject({
      category_kind: 'none',
      status: 'uncategorized',
    });
    expect(after.invoices).toEqual(before.invoices);
    expect(after.payments).toEqual(before.payments);
    expect(await trialBalanceDifference(t.database.db, s.company.id)).toBe(0);
  });
});

describe("a recorded payment's own register line", () => {
  it('is merged into the imported line on match and comes back exactly on unmatch', async () => {
    const s = await setUp();
    const inv = await invoice(s, 6_000);
    const { paymentId, ownLine } = await recordPaymentWithOwnLine(s, inv, 6_000);
    const db = t.database.db;
    const [own] = await ownLine();
    expect(own).toBeDefined();
    const bankWithBoth = await ledgerBalance(s.company.id, s.ledgerAccountId);
    const tx = await line(s, 6_000, 'Northwind');
    expect(await ledgerBalance(s.company.id, s.ledgerAccountId)).toBe(bankWithBoth + 6_000);

    const res = await matchLine(s, tx, { paymentId });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // One register line for the cash, the imported one; the ledger counts it once.
    expect((await ownLine()).map((r) => r.id)).toEqual([tx]);
    expect(await ledgerBalance(s.company.id, s.ledgerAccountId)).toBe(bankWithBoth);
    expect(await trialBalanceDifference(db, s.company.id)).toBe(0);

    expect((await s.client.delete(`/transactions/${tx}/match`)).status).toBe(200);
    const back = await ownLine();
    expect(back).toHaveLength(1);
    expect(back[0]).toEqual(own);
    expect(await ledgerBalance(s.company.id, s.ledgerAccountId)).toBe(bankWithBoth + 6_000);
  });

  it('refuses when that line is reconciled, and changes nothing', async () => {
    const s = await setUp();
    const inv = await invoice(s, 6_000);
    const { paymentId, ownLine } = await recordPaymentWithOwnLine(s, inv, 6_000);
    const [own] = await ownLine();
    await reconcileTestLines(
      s.client,
      { moneyAccountId: s.moneyAccountId, statementDate: '2026-03-31', statementBalance: 6_000 },
      [own!.id],
    );
    const tx = await line(s, 6_000, 'Northwind', '2026-04-02');
    await expectRefusedUnchanged(s, () => matchLine(s, tx, { paymentId }), 409, 'transaction_reconciled');
  });
});

describe('bad input changes nothing', () => {
  it('refuses with a clear 4xx and leaves every table as it was', async () => {
    const s = await setUp();
    const inv = await invoice(s, 10_000);
    const paid = await invoice(s, 3_000);
    const voided = await invoice(s, 6_000);
    expect((await s.client.post(`/invoices/${voided.id}/void`, {})).status).toBeLessThan(300);
    const paidLine = await line(s, 3_000, 'Paid it');
    await matchInvoices(s, paidLine, [{ invoiceId: paid.id, amount: 3_000 }]);
    const tx = await line(s, 10_000, 'Incoming');
    const big = await line(s, 12_000, 'Too much');
    const out = await line(s, -10_000, 'Money out');
    const categorised = await s.client.post('/transactions', {
      moneyAccountId: s.moneyAccountId,
      date: '2026-03-10',
      description: 'Categorised',
      amount: 10_000,
      categoryAccountId: await systemAccount(t.database, s.company.id, 'uncategorized_income'),
    });
    const other = await setUp('Other Co');
    const otherInvoice = await invoice(other, 10_000);
    const otherLine = await line(other, 10_000, 'Theirs');

    const cases: [string, string, unknown, number, string?][] = [
      ['twice', paidLine, { invoices: [{ invoiceId: inv.id, amount: 3_000 }] }, 409, 'already_matched'],
      ['paid invoice', tx, { invoices: [{ invoiceId: paid.id, amount: 10_000 }] }, 409, 'invalid_transition'],
      [
        'void invoice',
        tx,
        { invoices: [{ invoiceId: voided.id, amount: 10_000 }] },
        409,
        'invalid_transition',
      ],
      ['overpayment', big, { invoices: [{ invoiceId: inv.id, amount: 12_000 }] }, 400, 'overpayment'],
      [
        'not the whole line',
        tx,
        { invoices: [{ invoiceId: inv.id, amount: 9_000 }] },
        400,
        'allocation_mismatch',
      ],
      [
        'same invoice twice',
        tx,
        {
          invoices: [
            { invoiceId: inv.id, amount: 5_000 },
            { invoiceId: inv.id, amount: 5_000 },
          ],
        },
        400,
        'duplicate_invoice',
      ],
      ['money out', out, { invoices: [{ invoiceId: inv.id, amount: 10_000 }] }, 400, 'not_money_in'],
      [
        'categorised line',
        categorised.body.id,
        { invoices: [{ invoiceId: inv.id, amount: 10_000 }] },
        409,
        'not_uncategorized',
      ],
      ["another company's invoice", tx, { invoices: [{ invoiceId: otherInvoice.id, amount: 10_000 }] }, 404],
      ["another company's line", otherLine, { invoices: [{ invoiceId: inv.id, amount: 10_000 }] }, 404],
      ['unknown payment', tx, { paymentId: 'nope' }, 404],
      ['both kinds', tx, { invoices: [{ invoiceId: inv.id, amount: 10_000 }], paymentId: 'x' }, 400],
      ['neither', tx, {}, 400],
      ['zero amount', tx, { invoices: [{ invoiceId: inv.id, amount: 0 }] }, 400],
    ];
    for (const [label, id, body, status, code] of cases) {
      const before = await snapshot(s.company.id);
      const res = await matchLine(s, id, body);
      expect(res.status, `${label}: ${JSON.stringify(res.body)}`).toBe(status);
      expect(res.body.error.message.length, label).toBeGreaterThan(10);
      if (code) expect(res.body.error.code, label).toBe(code);
      expect(await snapshot(s.company.id), label).toEqual(before);
    }
    // Unmatching a line that is not matched, or another company's.
    const before = await snapshot(s.company.id);
    expect((await s.client.delete(`/transactions/${tx}/match`)).status).toBe(409);
    expect((await s.client.delete(`/transactions/${otherLine}/match`)).status).toBe(404);
    expect((await s.client.get(`/transactions/${otherLine}/match-suggestions`)).status).toBe(404);
    expect((await s.client.get(`/transactions/${otherLine}/match`)).status).toBe(404);
    expect(await snapshot(s.company.id)).toEqual(before);
    expect(await trialBalanceDifference(t.database.db, s.company.id)).toBe(0);
  });

  it('refuses to unmatch in a locked period and a reconciled line', async () => {
    const s = await setUp();
    const inv = await invoice(s, 10_000);
    const inv2 = await invoice(s, 2_000);
    const tx = await line(s, 10_000, 'Incoming', '2026-03-10');
    await matchInvoices(s, tx, [{ invoiceId: inv.id, amount: 10_000 }]);
    const lock = await s.client.patch('/ledger/settings', { lockDate: '2026-03-31' });
    expect(lock.status, JSON.stringify(lock.body)).toBe(200);
    await expectRefusedUnchanged(s, () => s.client.delete(`/transactions/${tx}/match`), 409, 'period_locked');
    expect((await s.client.patch('/ledger/settings', { lockDate: null })).status).toBe(200);

    // A reconciled line is locked.
    const tx2 = await line(s, 2_000, 'Small', '2026-03-11');
    await matchInvoices(s, tx2, [{ invoiceId: inv2.id, amount: 2_000 }]);
    await reconcileTestLines(
      s.client,
      { moneyAccountId: s.moneyAccountId, statementDate: '2026-03-31', statementBalance: 12_000 },
      [tx, tx2],
    );
    await expectRefusedUnchanged(
      s,
      () => s.client.delete(`/transactions/${tx2}/match`),
      409,
      'transaction_reconciled',
    );
  });
});

describe('an overpaying line kept as customer credit', () => {
  const creditHeld = async (s: Setup) => {
    const res = await s.client.get(`/customers/${s.customerId}/credit`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return (res.body.balances.find((b: { currency: string }) => b.currency === 'USD')?.amount ?? 0) as number;
  };

  it('settles the invoice, posts the excess to Customer credit, and unmatching takes it back', async () => {
    const s = await setUp('Overpaid Co');
    const creditAccount = await systemAccount(t.database, s.company.id, 'customer_credit');
    const inv = await invoice(s, 10_000);
    const tx = await line(s, 12_500, `Payment ${inv.number}`);

    // Without the option the excess is refused, and the message says how to keep it.
    const refused = await expectRefusedUnchanged(
      s,
      () => matchLine(s, tx, { invoices: [{ invoiceId: inv.id, amount: 10_000 }] }),
      400,
      'allocation_mismatch',
    );
    expect(refused.body.error.message).toMatch(/credit/);

    const bankBefore = await ledgerBalance(s.company.id, s.ledgerAccountId);
    const res = await matchLine(s, tx, {
      invoices: [{ invoiceId: inv.id, amount: 10_000 }],
      keepExcessAsCredit: true,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.match).toMatchObject({ kind: 'invoice', amount: 12_500, creditAmount: 2_500 });
    expect(res.body.match.allocations).toEqual([
      expect.objectContaining({ invoiceId: inv.id, amount: 10_000 }),
    ]);
    expect(await invoiceState(s, inv.id)).toEqual({ status: 'paid', amountPaid: 10_000, amountDue: 0 });
    expect(await ledgerBalance(s.company.id, creditAccount)).toBe(-2_500);
    expect(await ledgerBalance(s.company.id, s.receivableId)).toBe(0);
    expect(await ledgerBalance(s.company.id, s.ledgerAccountId)).toBe(bankBefore);
    expect(await creditHeld(s)).toBe(2_500);
    expect(await trialBalanceDifference(t.database.db, s.company.id)).toBe(0);
    // The statement shows the line's whole amount as the payment: the customer is 2,500 in credit.
    const statement = await s.client.get(`/customers/${s.customerId}/statement`);
    expect(statement.body.closingBalance).toBe(-2_500);
    expect(statement.body.creditHeld).toBe(2_500);

    const un = await s.client.delete(`/transactions/${tx}/match`);
    expect(un.status, JSON.stringify(un.body)).toBe(200);
    expect(await invoiceState(s, inv.id)).toEqual({ status: 'sent', amountPaid: 0, amountDue: 10_000 });
    expect(await ledgerBalance(s.company.id, creditAccount)).toBe(0);
    expect(await creditHeld(s)).toBe(0);
    expect(await trialBalanceDifference(t.database.db, s.company.id)).toBe(0);
    const after = await s.client.get(`/customers/${s.customerId}/statement`);
    expect(after.body.closingBalance).toBe(10_000);
  });

  it('refuses an invoice left part-owed or invoices of two customers; nothing changes', async () => {
    const s = await setUp('Excess Rules Co');
    const inv = await invoice(s, 10_000);
    const other = await s.client.post('/customers', { name: 'Second Customer' });
    const created = await s.client.post('/invoices', {
      customerId: other.body.id,
      issueDate: '2026-03-01',
      lines: [{ description: 'Work', quantity: '1', unitPrice: 1_000 }],
    });
    await s.client.post(`/invoices/${created.body.id}/send`, { email: false });
    const tx = await line(s, 15_000, 'Big payment');
    const cases: [string, unknown, string][] = [
      [
        'part-owed',
        { invoices: [{ invoiceId: inv.id, amount: 9_000 }], keepExcessAsCredit: true },
        'excess_with_open_invoice',
      ],
      [
        'two customers',
        {
          invoices: [
            { invoiceId: inv.id, amount: 10_000 },
            { invoiceId: created.body.id, amount: 1_000 },
          ],
          keepExcessAsCredit: true,
        },
        'excess_several_customers',
      ],
      [
        'more than the line',
        { invoices: [{ invoiceId: inv.id, amount: 16_000 }], keepExcessAsCredit: true },
        'allocation_mismatch',
      ],
    ];
    for (const [label, body, code] of cases) {
      const before = await snapshot(s.company.id);
      const res = await matchLine(s, tx, body);
      expect(res.status, `${label}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.error.code, label).toBe(code);
      expect(await snapshot(s.company.id), label).toEqual(before);
    }
  });

  it('refuses to unmatch with 409 credit_already_used once the credit was applied or refunded', async () => {
    const s = await setUp('Credit Used Co');
    const inv = await invoice(s, 10_000);
    const next = await invoice(s, 1_500);
    const tx = await line(s, 13_000, 'Payment with extra');
    const res = await matchLine(s, tx, {
      invoices: [{ invoiceId: inv.id, amount: 10_000 }],
      keepExcessAsCredit: true,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const applied = await s.client.post(`/customers/${s.customerId}/credit/applications`, {
      invoiceId: next.id,
      amount: 1_500,
      date: '2026-03-11',
    });
    expect(applied.status, JSON.stringify(applied.body)).toBe(201);
    await expectRefusedUnchanged(
      s,
      () => s.client.delete(`/transactions/${tx}/match`),
      409,
      'credit_already_used',
    );

    // Refunding the rest leaves none of that credit either.
    const refund = await s.client.post(`/customers/${s.customerId}/credit/refunds`, {
      currency: 'USD',
      amount: 1_500,
      date: '2026-03-12',
      moneyAccountId: s.moneyAccountId,
    });
    expect(refund.status, JSON.stringify(refund.body)).toBe(201);
    expect((await s.client.delete(`/transactions/${tx}/match`)).status).toBe(409);
    expect(await trialBalanceDifference(t.database.db, s.company.id)).toBe(0);
  });
});
