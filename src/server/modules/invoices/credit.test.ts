import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../testing/app.ts';
import { type TestCompany, createTestCompany } from '../../testing/companies.ts';
import {
  type InvoicingFixture,
  api,
  balancesOn,
  extractPdfText,
  setUpInvoicing,
  systemAccount,
} from '../../testing/invoices.ts';
import { invoiceTotalsLines } from '../../../shared/invoice-totals.ts';

// Customer credit and refunds over the HTTP API (issue 13 §5): an overpayment leaves credit,
// credit is applied to another invoice or refunded from a money account, a credit note on a
// paid invoice is refunded as cash, the statement's running balance, and every refusal (more
// than the credit, another customer, another currency, a void invoice, another company's
// money account) is a 4xx that changes nothing.

let t: Awaited<ReturnType<typeof createTestApp>>;
let company: TestCompany;
let other: TestCompany;
let fx: InvoicingFixture;
let client: ReturnType<typeof api>;
let checking: { id: string; ledgerAccountId: string };
let otherMoneyAccount: string;
let creditAccountId: string;

const createMoneyAccount = async (c: ReturnType<typeof api>, name: string, currency = 'USD') => {
  const res = await c.post('/wallet/accounts', {
    name,
    kind: 'bank',
    currency,
    openingDate: '2026-01-01',
    openingBalance: 1_000_000,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const id = res.body.id ?? res.body.account?.id;
  const row = await c.get(`/wallet/accounts/${id}`);
  return { id, ledgerAccountId: row.body.ledgerAccountId ?? row.body.account?.ledgerAccountId };
};

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set('2026-03-10T12:00:00Z');
  company = await createTestCompany(t.app, { name: 'Credit Co' });
  other = await createTestCompany(t.app, { name: 'Other Co' });
  fx = await setUpInvoicing(t.app, t.database, company);
  await setUpInvoicing(t.app, t.database, other);
  client = api(t.app, company);
  checking = await createMoneyAccount(client, 'Checking');
  otherMoneyAccount = (await createMoneyAccount(api(t.app, other), 'Their bank')).id;
  creditAccountId = await systemAccount(t.database, company.id, 'customer_credit');
}, 60_000);

afterAll(async () => {
  await t?.close();
});

const sentInvoice = async (
  unitPrice: number,
  customerId = fx.customerId,
  extra: Record<string, unknown> = {},
) => {
  const d = await client.post('/invoices', {
    customerId,
    issueDate: '2026-03-01',
    lines: [{ description: 'Work', quantity: '1', unitPrice }],
    ...extra,
  });
  expect(d.status, JSON.stringify(d.body)).toBe(201);
  const s = await client.post(`/invoices/${d.body.id}/send`, { email: false });
  expect(s.status, JSON.stringify(s.body)).toBe(200);
  return s.body;
};

const pay = (invoiceId: string, amount: number, keepExcessAsCredit?: boolean) =>
  client.post(`/invoices/${invoiceId}/payments`, {
    date: '2026-03-05',
    amount,
    depositAccountId: checking.ledgerAccountId,
    ...(keepExcessAsCredit === undefined ? {} : { keepExcessAsCredit }),
  });

const credit = async (customerId = fx.customerId) =>
  (await client.get(`/customers/${customerId}/credit`)).body;
const creditIn = async (currency: string, customerId = fx.customerId) =>
  (await credit(customerId)).balances.find((b: { currency: string }) => b.currency === currency)?.amount ?? 0;

/** Everything a refused request must leave untouched. */
const snapshot = async () => ({
  balances: [...(await balancesOn(t.database, company.id)).byId.entries()].sort(),
  credit: await t.database.db
    .selectFrom('customer_credit_entries')
    .select(['id', 'amount'])
    .where('organization_id', '=', company.id)
    .orderBy('id')
    .execute(),
  invoices: await t.database.db
    .selectFrom('invoices')
    .select(['id', 'amount_paid', 'amount_credited', 'status', 'balance_base'])
    .where('organization_id', '=', company.id)
    .orderBy('id')
    .execute(),
});

const ledgerCredit = async () => -((await balancesOn(t.database, company.id)).byId.get(creditAccountId) ?? 0);

describe('overpayment', () => {
  it('is refused without the option, and says how to keep the excess', async () => {
    const invoice = await sentInvoice(10_000);
    const before = await snapshot();
    const res = await pay(invoice.id, 12_000);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('overpayment');
    expect(res.body.error.message).toMatch(/credit/);
    expect(await snapshot()).toEqual(before);
  });

  it('with keepExcessAsCredit settles the invoice and leaves the rest as customer credit', async () => {
    const invoice = await sentInvoice(10_000);
    const creditBefore = await creditIn('USD');
    const ledgerBefore = await ledgerCredit();
    const res = await pay(invoice.id, 12_000, true);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.storedStatus).toBe('paid');
    expect(res.body.amountPaid).toBe(10_000);
    expect(res.body.amountDue).toBe(0);
    expect(res.body.payments[0].amount).toBe(12_000);
    expect(res.body.payments[0].creditAmount).toBe(2_000);
    expect(await creditIn('USD')).toBe(creditBefore + 2_000);
    expect(await ledgerCredit()).toBe(ledgerBefore + 2_000);
    const customer = await client.get(`/customers/${fx.customerId}`);
    expect(customer.body.customer.credit).toBe(ledgerBefore + 2_000);
    const b = await balancesOn(t.database, company.id);
    expect(b.sum).toBe(0);
  });
});

describe('applying credit', () => {
  it('settles another open invoice of the same customer', async () => {
    const source = await sentInvoice(5_000);
    await pay(source.id, 8_000, true);
    const available = await creditIn('USD');
    expect(available).toBeGreaterThanOrEqual(3_000);
    const target = await sentInvoice(2_500);
    const res = await client.post(`/customers/${fx.customerId}/credit/applications`, {
      invoiceId: target.id,
      amount: 2_500,
      date: '2026-03-06',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.storedStatus).toBe('paid');
    expect(res.body.creditApplied).toBe(2_500);
    expect(res.body.amountPaid).toBe(2_500);
    expect(res.body.history.some((h: { kind: string }) => h.kind === 'credit_applied')).toBe(true);
    expect(await creditIn('USD')).toBe(available - 2_500);
    expect((await balancesOn(t.database, company.id)).sum).toBe(0);
    // Page, PDF and email say the same, every figure positive: Credit applied, not Paid.
    const lines = invoiceTotalsLines(res.body);
    expect(lines).toEqual([
      'Subtotal: $25.00',
      'Total: $25.00',
      'Credit applied: $25.00',
      'Amount due: $0.00',
    ]);
    const pdf = await t.app.inject({
      method: 'GET',
      url: `/api/orgs/${company.id}/invoices/${target.id}/pdf`,
      headers: { cookie: company.owner.cookie },
    });
    const text = extractPdfText(pdf.rawPayload);
    expect(text).toContain('Credit applied');
    expect(text).not.toMatch(/-\$/);
    expect(text).not.toMatch(/\nPaid\n/);
  });

  it('refuses more than the credit, another customer, another currency, a void invoice; nothing changes', async () => {
    const other = await client.post('/customers', { name: 'Someone Else' });
    const euro = await client.post('/customers', { name: 'Euro GmbH', currency: 'EUR' });
    const open = await sentInvoice(1_000_000);
    const theirs = await sentInvoice(1_000, other.body.id);
    const voided = await sentInvoice(1_000);
    expect((await client.post(`/invoices/${voided.id}/void`, { reason: 'wrong' })).status).toBe(200);
    const euroInvoice = await sentInvoice(1_000, euro.body.id, { exchangeRate: '1.1' });
    // Give the euro customer some USD-free credit: none. Give our customer plenty of USD credit.
    const before = await snapshot();
    const tooMuch = await client.post(`/customers/${fx.customerId}/credit/applications`, {
      invoiceId: open.id,
      amount: (await creditIn('USD')) + 1,
      date: '2026-03-06',
    });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.error.code).toBe('exceeds_credit');
    const crossCustomer = await client.post(`/customers/${fx.customerId}/credit/applications`, {
      invoiceId: theirs.id,
      amount: 100,
      date: '2026-03-06',
    });
    expect(crossCustomer.status).toBe(400);
    expect(crossCustomer.body.error.code).toBe('credit_other_customer');
    const crossCurrency = await client.post(`/customers/${euro.body.id}/credit/applications`, {
      invoiceId: euroInvoice.id,
      amount: 100,
      date: '2026-03-06',
    });
    expect(crossCurrency.status).toBe(400);
    expect(crossCurrency.body.error.code).toBe('exceeds_credit');
    const onVoid = await client.post(`/customers/${fx.customerId}/credit/applications`, {
      invoiceId: voided.id,
      amount: 100,
      date: '2026-03-06',
    });
    expect(onVoid.status).toBe(409);
    expect(onVoid.body.error.message).toMatch(/void/);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses USD credit on a EUR invoice of the same customer, naming both currencies', async () => {
    const both = await client.post('/customers', { name: 'Two Currencies Ltd' });
    const usd = await sentInvoice(1_000, both.body.id);
    await pay(usd.id, 1_500, true);
    const eur = await sentInvoice(1_000, both.body.id, { currency: 'EUR', exchangeRate: '1.1' });
    const before = await snapshot();
    const res = await client.post(`/customers/${both.body.id}/credit/applications`, {
      invoiceId: eur.id,
      amount: 100,
      date: '2026-03-06',
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('credit_currency_mismatch');
    expect(res.body.error.message).toMatch(/USD/);
    expect(res.body.error.message).toMatch(/EUR/);
    expect(await snapshot()).toEqual(before);
  });
});

describe('refunds', () => {
  it('pay credit back from a money account (Dr customer credit, Cr the account)', async () => {
    const invoice = await sentInvoice(1_000);
    await pay(invoice.id, 1_700, true);
    const available = await creditIn('USD');
    const bankBefore = (await balancesOn(t.database, company.id)).byId.get(checking.ledgerAccountId) ?? 0;
    const res = await client.post(`/invoices/${invoice.id}/refunds`, {
      amount: 700,
      date: '2026-03-07',
      moneyAccountId: checking.id,
      reference: 'R-1',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.history.some((h: { kind: string }) => h.kind === 'refund')).toBe(true);
    expect(await creditIn('USD')).toBe(available - 700);
    const b = await balancesOn(t.database, company.id);
    expect(b.byId.get(checking.ledgerAccountId)).toBe(bankBefore - 700);
    expect(b.sum).toBe(0);
    // The cash movement is in the money account's register, as one line of the refund.
    const line = await t.database.db
      .selectFrom('bank_transactions')
      .select(['amount', 'source_kind', 'invoice_id', 'entry_id'])
      .where('organization_id', '=', company.id)
      .where('money_account_id', '=', checking.id)
      .where('source_kind', '=', 'refund')
      .where('invoice_id', '=', invoice.id)
      .execute();
    expect(line).toHaveLength(1);
    expect(line[0]!.amount).toBe(-700);
  });

  it('refuse more than the credit, a void invoice, another company’s money account; nothing changes', async () => {
    const invoice = await sentInvoice(1_000);
    const voided = await sentInvoice(1_000);
    await client.post(`/invoices/${voided.id}/void`, { reason: '' });
    const before = await snapshot();
    const tooMuch = await client.post(`/customers/${fx.customerId}/credit/refunds`, {
      currency: 'USD',
      amount: (await creditIn('USD')) + 1,
      date: '2026-03-07',
      moneyAccountId: checking.id,
    });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.error.code).toBe('exceeds_credit');
    const onVoid = await client.post(`/invoices/${voided.id}/refunds`, {
      amount: 1,
      date: '2026-03-07',
      moneyAccountId: checking.id,
    });
    expect(onVoid.status).toBe(409);
    const foreignAccount = await client.post(`/invoices/${invoice.id}/refunds`, {
      amount: 1,
      date: '2026-03-07',
      moneyAccountId: otherMoneyAccount,
    });
    expect(foreignAccount.status).toBe(400);
    expect(foreignAccount.body.error.code).toBe('money_account_not_found');
    const payVoid = await pay(voided.id, 100);
    expect(payVoid.status).toBe(409);
    expect(await snapshot()).toEqual(before);
  });

  it('a credit note on a paid invoice goes to credit and can be refunded as cash, once', async () => {
    const c = await client.post('/customers', { name: 'Returns Ltd' });
    const invoice = await sentInvoice(4_000, c.body.id);
    await pay(invoice.id, 4_000);
    const available = await creditIn('USD', c.body.id);
    const note = await client.post(`/invoices/${invoice.id}/credit-notes`, {
      date: '2026-03-08',
      reason: 'Returned goods',
      lines: [{ description: 'Return', quantity: '1', unitPrice: 1_500 }],
    });
    expect(note.status, JSON.stringify(note.body)).toBe(201);
    const cn = note.body.creditNotes[0];
    expect(cn.toCredit).toBe(1_500);
    expect(note.body.amountCredited).toBe(0);
    expect(available).toBe(0);
    expect(await creditIn('USD', c.body.id)).toBe(1_500);
    const tooMuch = await client.post(`/invoices/${invoice.id}/credit-notes/${cn.id}/refunds`, {
      amount: 1_501,
      date: '2026-03-09',
      moneyAccountId: checking.id,
    });
    expect(tooMuch.status).toBe(400);
    const ok = await client.post(`/invoices/${invoice.id}/credit-notes/${cn.id}/refunds`, {
      amount: 1_500,
      date: '2026-03-09',
      moneyAccountId: checking.id,
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const again = await client.post(`/invoices/${invoice.id}/credit-notes/${cn.id}/refunds`, {
      amount: 1,
      date: '2026-03-09',
      moneyAccountId: checking.id,
    });
    expect(again.status).toBe(400);
    expect(again.body.error.code).toBe('nothing_to_refund');
    // The note's credit is spent, so voiding it would overdraw the credit: refused.
    const before = await snapshot();
    const voidNote = await client.post(`/invoices/${invoice.id}/credit-notes/${cn.id}/void`);
    expect(voidNote.status).toBe(409);
    expect(voidNote.body.error.code).toBe('credit_already_used');
    expect(await snapshot()).toEqual(before);
    expect((await balancesOn(t.database, company.id)).sum).toBe(0);
  });

  it('removing an overpayment whose credit was used is refused', async () => {
    const c = await client.post('/customers', { name: 'Fresh Start Ltd' });
    const invoice = await sentInvoice(1_000, c.body.id);
    const paid = await pay(invoice.id, 1_600, true);
    const refund = await client.post(`/customers/${c.body.id}/credit/refunds`, {
      currency: 'USD',
      amount: 600,
      date: '2026-03-07',
      moneyAccountId: checking.id,
    });
    expect(refund.status, JSON.stringify(refund.body)).toBe(201);
    const before = await snapshot();
    const res = await client.delete(`/invoices/${invoice.id}/payments/${paid.body.paymentId}`);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('credit_already_used');
    expect(await snapshot()).toEqual(before);
  });

  it('removing an unused overpayment takes its credit back', async () => {
    const c = await client.post('/customers', { name: 'Undo Ltd' });
    const invoice = await sentInvoice(1_000, c.body.id);
    const paid = await pay(invoice.id, 1_250, true);
    expect(await creditIn('USD', c.body.id)).toBe(250);
    const res = await client.delete(`/invoices/${invoice.id}/payments/${paid.body.paymentId}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.amountPaid).toBe(0);
    expect(res.body.amountDue).toBe(1_000);
    expect(await creditIn('USD', c.body.id)).toBe(0);
    expect((await balancesOn(t.database, company.id)).sum).toBe(0);
  });
});

describe('statement', () => {
  it('lists invoices, payments, credit applied, credit notes and refunds with a running balance', async () => {
    const c = await client.post('/customers', { name: 'Statement & Sons' });
    const id = c.body.id;
    const a = await sentInvoice(10_000, id); // 2026-03-01
    const b = await sentInvoice(3_000, id);
    await pay(a.id, 12_000, true); // 2026-03-05: 2,000 credit
    await client.post(`/customers/${id}/credit/applications`, {
      invoiceId: b.id,
      amount: 1_500,
      date: '2026-03-06',
    });
    await client.post(`/customers/${id}/credit/refunds`, {
      currency: 'USD',
      amount: 500,
      date: '2026-03-07',
      moneyAccountId: checking.id,
    });
    const res = await client.get(`/customers/${id}/statement`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const s = res.body;
    expect(s.lines.map((l: { kind: string }) => l.kind)).toEqual([
      'invoice',
      'invoice',
      'payment',
      'credit_applied',
      'refund',
    ]);
    expect(s.lines.map((l: { balance: number }) => l.balance)).toEqual([10_000, 13_000, 1_000, 1_000, 1_500]);
    expect(s.closingBalance).toBe(1_500);
    expect(s.openInvoices - s.creditHeld).toBe(s.closingBalance);
    expect(s.openInvoices).toBe(1_500);
    expect(s.creditHeld).toBe(0);
    const ranged = await client.get(`/customers/${id}/statement?from=2026-03-06&to=2026-03-06`);
    expect(ranged.body.openingBalance).toBe(1_000);
    expect(ranged.body.lines).toHaveLength(1);
    expect(ranged.body.closingBalance).toBe(1_000);
    const bad = await client.get(`/customers/${id}/statement?from=2026-03-09&to=2026-03-01`);
    expect(bad.status).toBe(400);
    const csv = await client.get(`/customers/${id}/statement.csv`);
    expect(csv.status).toBe(200);
    expect(String(csv.raw.headers['content-type'])).toMatch(/csv/);
    const text = csv.raw.body;
    expect(text).toMatch(/Opening balance/);
    expect(text).toMatch(/Closing balance,,,,,15\.00,USD/);
    expect(text).toMatch(/Refund/);
  });

  it('shows open invoices and credit held as of its end date, not today', async () => {
    const c = await client.post('/customers', { name: 'As Of Ltd' });
    const id = c.body.id;
    const a = await sentInvoice(10_000, id); // 2026-03-01
    const b = await sentInvoice(3_000, id);
    await pay(a.id, 12_000, true); // 2026-03-05: 2,000 credit
    // After the end date: credit applied to b and the rest refunded.
    const applied = await client.post(`/customers/${id}/credit/applications`, {
      invoiceId: b.id,
      amount: 1_500,
      date: '2026-03-06',
    });
    expect(applied.status, JSON.stringify(applied.body)).toBe(201);
    const refund = await client.post(`/customers/${id}/credit/refunds`, {
      currency: 'USD',
      amount: 500,
      date: '2026-03-07',
      moneyAccountId: checking.id,
    });
    expect(refund.status, JSON.stringify(refund.body)).toBe(201);
    const asOf = await client.get(`/customers/${id}/statement?to=2026-03-05`);
    expect(asOf.status, JSON.stringify(asOf.body)).toBe(200);
    expect(asOf.body.closingBalance).toBe(1_000);
    expect(asOf.body.openInvoices).toBe(3_000);
    expect(asOf.body.creditHeld).toBe(2_000);
    expect(asOf.body.openInvoices - asOf.body.creditHeld).toBe(asOf.body.closingBalance);
    // Before the payment: both invoices owed in full, no credit.
    const early = await client.get(`/customers/${id}/statement?to=2026-03-02`);
    expect(early.body).toMatchObject({ closingBalance: 13_000, openInvoices: 13_000, creditHeld: 0 });
    const mid = await client.get(`/customers/${id}/statement?to=2026-03-06`);
    expect(mid.body).toMatchObject({ closingBalance: 1_000, openInvoices: 1_500, creditHeld: 500 });
    const today = await client.get(`/customers/${id}/statement`);
    expect(today.body).toMatchObject({ closingBalance: 1_500, openInvoices: 1_500, creditHeld: 0 });
  });

  it('leaves out credit from a payment removed later, as it leaves out the payment', async () => {
    const c = await client.post('/customers', { name: 'Removed Later Ltd' });
    const inv = await sentInvoice(1_000, c.body.id);
    const paid = await pay(inv.id, 1_400, true);
    expect((await client.delete(`/invoices/${inv.id}/payments/${paid.body.paymentId}`)).status).toBe(200);
    const s = await client.get(`/customers/${c.body.id}/statement?to=2026-03-05`);
    expect(s.body).toMatchObject({ closingBalance: 1_000, openInvoices: 1_000, creditHeld: 0 });
  });

  it('is 404 for another company’s customer', async () => {
    const theirs = await api(t.app, other).post('/customers', { name: 'Not yours' });
    const res = await client.get(`/customers/${theirs.body.id}/statement`);
    expect(res.status).toBe(404);
  });
});
