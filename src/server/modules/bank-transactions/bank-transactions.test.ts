import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transaction } from '../../../shared/transactions.ts';
import type { MoneyAccount } from '../../../shared/wallet.ts';
import { inTransaction } from '../../db/transaction.ts';
import { createTestApp } from '../../testing/app.ts';
import { expectRefusal } from '../../testing/api.ts';
import { type TestCompany, createTestCompany } from '../../testing/companies.ts';
import { type InvoicingFixture, api, setUpInvoicing } from '../../testing/invoices.ts';
import { addTestBankAccount } from '../../testing/money.ts';
import { reconcileTestLines } from '../../testing/transactions.ts';
import { assertNotReconciled } from './guard.ts';
import {
  deleteBankTransactions,
  setReconciliationTicks,
  updateBankTransaction,
  updateCategorisation,
} from './writes.ts';

// The bank-transactions module over the API: every invoice payment (and its removal) is a line
// of the register, and a completed reconciliation locks its lines against every change —
// editing, categorising, deleting, reversing the payment, deleting the transfer, ticking again,
// matching and unmatching — with a 409 that names the statement date. On PGlite, and on
// PostgreSQL with TEST_DATABASE_URL.

let t: Awaited<ReturnType<typeof createTestApp>>;
let company: TestCompany;
let fx: InvoicingFixture;
let client: ReturnType<typeof api>;
let bank: MoneyAccount;
let savings: MoneyAccount;

beforeAll(async () => {
  t = await createTestApp();
  // The chart's bank account gets its money account when the company is made, opening that day.
  t.clock.set('2026-02-01T12:00:00Z');
  company = await createTestCompany(t.app, { name: 'Register Co' });
  fx = await setUpInvoicing(t.app, t.database, company);
  t.clock.set('2026-03-20T12:00:00Z');
  client = api(t.app, company);
  const wallet = await client.get('/wallet');
  expect(wallet.status, JSON.stringify(wallet.body)).toBe(200);
  bank = (wallet.body.accounts as MoneyAccount[]).find((a) => a.ledgerAccountId === fx.bankId)!;
  expect(bank).toBeDefined();
  savings = await addTestBankAccount(client, 'Savings', '2026-01-01');
}, 60_000);

afterAll(async () => {
  await t?.close();
});

const sentInvoice = async () => {
  const d = await client.post('/invoices', {
    customerId: fx.customerId,
    issueDate: '2026-03-01',
    lines: [{ description: 'Work', quantity: '1', unitPrice: 100_000 }],
  });
  expect(d.status, JSON.stringify(d.body)).toBe(201);
  const s = await client.post(`/invoices/${d.body.id}/send`);
  expect(s.status, JSON.stringify(s.body)).toBe(200);
  return s.body as { id: string; number: string; total: number };
};

const linesOf = async (moneyAccountId: string) => {
  const res = await client.get(`/transactions?moneyAccountId=${moneyAccountId}&limit=200`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.transactions as Transaction[];
};

/** Records a payment of the invoice into the bank account; it must be recorded. */
const payInvoice = async (
  invoiceId: string,
  body: { date: string; amount: number; reference?: string; keepExcessAsCredit?: boolean },
) => {
  const paid = await client.post(`/invoices/${invoiceId}/payments`, { ...body, depositAccountId: fx.bankId });
  expect(paid.status, JSON.stringify(paid.body)).toBe(201);
  return paid.body.paymentId as string;
};

/** Records a line typed by hand; it must be recorded. */
const recordLine = async (moneyAccountId: string, date: string, description: string, amount: number) => {
  const res = await client.post('/transactions', { moneyAccountId, date, description, amount });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as Transaction;
};

/** An open account of the chart of that type. */
const chartAccount = (type: 'income' | 'expense') =>
  t.database.db
    .selectFrom('accounts')
    .select('id')
    .where('organization_id', '=', company.id)
    .where('type', '=', type)
    .where('archived_at', 'is', null)
    .executeTakeFirstOrThrow();

const row = (id: string) =>
  t.database.db
    .selectFrom('bank_transactions')
    .selectAll()
    .where('organization_id', '=', company.id)
    .where('id', '=', id)
    .executeTakeFirst();

describe('every cash movement is in the register', () => {
  it('writes a payment line with the payment’s entry, and a line that takes it back when removed', async () => {
    const inv = await sentInvoice();
    const paymentId = await payInvoice(inv.id, { date: '2026-03-05', amount: 40_000, reference: 'WIRE-17' });
    const payment = await t.database.db
      .selectFrom('invoice_payments')
      .selectAll()
      .where('organization_id', '=', company.id)
      .where('id', '=', paymentId)
      .executeTakeFirstOrThrow();

    const lines = (await linesOf(bank.id)).filter((l) => l.source?.id === paymentId);
    expect(lines).toHaveLength(1);
    const line = lines[0]!;
    expect(line).toMatchObject({
      amount: 40_000,
      date: '2026-03-05',
      categoryKind: 'payment',
      categoryName: 'Invoice payment',
      status: 'categorized',
      entryId: payment.journal_entry_id,
      source: { kind: 'invoice_payment', id: paymentId, invoiceId: inv.id },
    });
    expect(line.description).toContain(inv.number);
    expect(line.description).toContain('WIRE-17');

    const removed = await client.delete(`/invoices/${inv.id}/payments/${paymentId}`);
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    const reversed = await t.database.db
      .selectFrom('invoice_payments')
      .select('reversal_entry_id')
      .where('organization_id', '=', company.id)
      .where('id', '=', paymentId)
      .executeTakeFirstOrThrow();
    const after = (await linesOf(bank.id)).filter((l) => l.source?.id === paymentId);
    expect(after.map((l) => l.amount).sort((a, b) => a - b)).toEqual([-40_000, 40_000]);
    const back = after.find((l) => l.amount < 0)!;
    expect(back.entryId).toBe(reversed.reversal_entry_id);
    expect(back.categoryKind).toBe('payment');
    expect(back.description).toContain('removed');
  });

  it('writes an overpayment as one line in and its refund as one line out', async () => {
    const inv = await sentInvoice();
    const paymentId = await payInvoice(inv.id, {
      date: '2026-03-08',
      amount: inv.total + 5_000,
      keepExcessAsCredit: true,
    });
    const refund = await client.post(`/invoices/${inv.id}/refunds`, {
      date: '2026-03-09',
      amount: 5_000,
      moneyAccountId: bank.id,
      reference: 'RF-1',
    });
    expect(refund.status, JSON.stringify(refund.body)).toBe(201);
    const lines = await linesOf(bank.id);
    const moneyIn = lines.filter((l) => l.source?.id === paymentId);
    expect(moneyIn.map((l) => l.amount)).toEqual([inv.total + 5_000]);
    const out = lines.filter((l) => l.source?.kind === 'refund' && l.source.invoiceId === inv.id);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({
      amount: -5_000,
      date: '2026-03-09',
      categoryKind: 'payment',
      categoryName: 'Refund',
    });
    const credit = await t.database.db
      .selectFrom('customer_credit_entries')
      .select(['id', 'journal_entry_id'])
      .where('organization_id', '=', company.id)
      .where('invoice_id', '=', inv.id)
      .where('kind', '=', 'refund')
      .executeTakeFirstOrThrow();
    expect(out[0]!.source?.id).toBe(credit.id);
    expect(out[0]!.entryId).toBe(credit.journal_entry_id);
    expect(out[0]!.description).toContain('RF-1');
  });

  it('refuses to categorise, split, re-date or delete a payment line, but keeps notes', async () => {
    const inv = await sentInvoice();
    const paymentId = await payInvoice(inv.id, { date: '2026-03-06', amount: 25_000 });
    const line = (await linesOf(bank.id)).find((l) => l.source?.id === paymentId)!;
    const income = await chartAccount('income');
    const before = await row(line.id);
    for (const body of [
      { categoryAccountId: income.id },
      { amount: 1 },
      { date: '2026-03-07' },
      {
        splits: [
          { categoryAccountId: income.id, amount: 20_000 },
          { categoryAccountId: income.id, amount: 5_000 },
        ],
      },
    ]) {
      const res = await client.patch(`/transactions/${line.id}`, body);
      expectRefusal(res, 409, 'transaction_is_payment');
    }
    const del = await client.delete(`/transactions/${line.id}`);
    expectRefusal(del, 409, 'transaction_is_payment');
    const bulk = await client.post('/transactions/bulk-categorize', {
      transactionIds: [line.id],
      categoryAccountId: income.id,
    });
    expectRefusal(bulk, 409, 'transactions_locked');
    expect(await row(line.id)).toEqual(before);
    const noted = await client.patch(`/transactions/${line.id}`, { notes: 'Paid early' });
    expect(noted.status, JSON.stringify(noted.body)).toBe(200);
    expect(noted.body.notes).toBe('Paid early');
    expect(noted.body.entryId).toBe(line.entryId);
  });
});

describe('a completed reconciliation locks its lines', () => {
  it('refuses every change to a reconciled line with a 409 naming the statement date, until undone', async () => {
    // A line typed by hand, an invoice payment and a transfer, all before the statement date.
    const expense = await chartAccount('expense');
    const manual = await recordLine(bank.id, '2026-03-10', 'Office chairs', -12_000);
    const inv = await sentInvoice();
    const paymentId = await payInvoice(inv.id, { date: '2026-03-11', amount: 30_000 });
    const transfer = await client.post('/wallet/transfers', {
      fromAccountId: bank.id,
      toAccountId: savings.id,
      date: '2026-03-12',
      amount: 5_000,
    });
    expect(transfer.status, JSON.stringify(transfer.body)).toBe(201);

    // A line matched to an invoice (matching, issue 13 §4), to unmatch once reconciled.
    const received = await recordLine(bank.id, '2026-03-13', 'Incoming wire', 10_000);
    const inv2 = await sentInvoice();
    const matched = await client.post(`/transactions/${received.id}/match`, {
      invoices: [{ invoiceId: inv2.id, amount: 10_000 }],
    });
    expect(matched.status, JSON.stringify(matched.body)).toBeLessThan(300);

    const lines = await linesOf(bank.id);
    const balance = lines.reduce((s, l) => s + l.amount, 0);
    await reconcileTestLines(
      client,
      { moneyAccountId: bank.id, statementDate: '2026-03-15', statementBalance: balance },
      lines.map((l) => l.id),
    );

    const manualId = manual.id;
    const paymentLine = lines.find((l) => l.source?.id === paymentId)!;
    const leg = lines.find((l) => l.transferId === transfer.body.id)!;
    const snapshot = await t.database.db
      .selectFrom('bank_transactions')
      .selectAll()
      .where('organization_id', '=', company.id)
      .orderBy('id')
      .execute();
    const entries = async () =>
      Number(
        (
          await t.database.db
            .selectFrom('journal_entries')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('organization_id', '=', company.id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const entriesBefore = await entries();

    const refusals: [string, Promise<{ status: number; body: any }>][] = [
      ['edit', client.patch(`/transactions/${manualId}`, { description: 'Desk chairs' })],
      ['notes', client.patch(`/transactions/${manualId}`, { notes: 'x' })],
      ['categorise', client.patch(`/transactions/${manualId}`, { categoryAccountId: expense.id })],
      [
        'bulk categorise',
        client.post('/transactions/bulk-categorize', {
          transactionIds: [manualId],
          categoryAccountId: expense.id,
        }),
      ],
      ['delete', client.delete(`/transactions/${manualId}`)],
      ['notes on the payment line', client.patch(`/transactions/${paymentLine.id}`, { notes: 'x' })],
      ['reverse the payment', client.delete(`/invoices/${inv.id}/payments/${paymentId}`)],
      ['delete the transfer', client.delete(`/wallet/transfers/${transfer.body.id}`)],
      [
        'match',
        client.post(`/transactions/${manualId}/match`, { invoices: [{ invoiceId: inv.id, amount: 1 }] }),
      ],
      ['unmatch', client.delete(`/transactions/${received.id}/match`)],
    ];
    for (const [what, pending] of refusals) {
      const res = await pending;
      expect(res.status, `${what}: ${JSON.stringify(res.body)}`).toBe(409);
      expect(res.body.error.code, what).toBe('transaction_reconciled');
      expect(res.body.error.message, what).toContain('2026-03-15');
      expect(res.body.error.details.statementDate, what).toBe('2026-03-15');
    }
    // Ticking into a new reconciliation is refused the same way.
    const next = await client.post('/reconciliations', {
      moneyAccountId: bank.id,
      statementDate: '2026-03-31',
      statementBalance: balance,
    });
    expect(next.status).toBe(201);
    const tickAgain = await client.post(`/reconciliations/${next.body.id}/tick`, {
      transactionIds: [leg.id],
      ticked: true,
    });
    expect(tickAgain.status).toBe(409);
    expect(tickAgain.body.error.message).toContain('2026-03-15');
    expect((await client.delete(`/reconciliations/${next.body.id}`)).status).toBe(204);

    // Nothing changed: the lines and the journal are as they were.
    expect(
      await t.database.db
        .selectFrom('bank_transactions')
        .selectAll()
        .where('organization_id', '=', company.id)
        .orderBy('id')
        .execute(),
    ).toEqual(snapshot);
    expect(await entries()).toBe(entriesBefore);

    // Undoing the reconciliation unlocks them.
    const undone = await client.post('/reconciliations/undo-last', { moneyAccountId: bank.id });
    expect(undone.status, JSON.stringify(undone.body)).toBe(200);
    const edited = await client.patch(`/transactions/${manualId}`, { categoryAccountId: expense.id });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const reversed = await client.delete(`/invoices/${inv.id}/payments/${paymentId}`);
    expect(reversed.status, JSON.stringify(reversed.body)).toBe(200);
    expect((await client.delete(`/wallet/transfers/${transfer.body.id}`)).status).toBe(204);
  });

  it('the writers themselves refuse a reconciled line, whoever calls them', async () => {
    const manual = await recordLine(savings.id, '2026-03-02', 'Interest', 700);
    const lines = (await linesOf(savings.id)).filter((l) => l.date <= '2026-03-03');
    await reconcileTestLines(
      client,
      {
        moneyAccountId: savings.id,
        statementDate: '2026-03-03',
        statementBalance: lines.reduce((s, l) => s + l.amount, 0),
      },
      lines.map((l) => l.id),
    );
    const id = manual.id;
    const before = await row(id);
    const attempts: [string, (trx: any) => Promise<unknown>][] = [
      ['guard', (trx) => assertNotReconciled(trx, company.id, { ids: [id] })],
      ['update', (trx) => updateBankTransaction(trx, company.id, id, { notes: 'changed' })],
      ['delete', (trx) => deleteBankTransactions(trx, company.id, [id])],
      ['tick', (trx) => setReconciliationTicks(trx, company.id, [id], null)],
      [
        'categorise',
        (trx) =>
          updateCategorisation(trx, company.id, [
            { id, entryId: before!.entry_id, categoryKind: 'none', categoryAccountId: null },
          ]),
      ],
    ];
    for (const [what, attempt] of attempts) {
      await expect(
        inTransaction(t.database.db, (trx) => attempt(trx)),
        what,
      ).rejects.toMatchObject({ status: 409, code: 'transaction_reconciled' });
    }
    expect(await row(id)).toEqual(before);
  });
});
