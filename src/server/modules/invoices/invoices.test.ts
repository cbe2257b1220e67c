import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { addTestMember, createTestCompany } from '../../testing/companies.ts';
import { testDatabaseKind } from '../../testing/db.ts';
import { runDueRecurringInvoices } from './recurring.ts';
import { api, balancesOn, ensureLedger, extractPdfText, setUpTestInvoicing } from '../../testing/invoices.ts';

// Invoices end to end through the HTTP API: drafts, every status transition (allowed and
// refused), rounding, payments with Idempotency-Key, credit notes, voids, recurring catch-up,
// PDF and email, aging and the tax report against the ledger, and company isolation.

const fixture = setUpTestInvoicing({ name: 'Invoicing Co' });

const draft = async (overrides: Record<string, unknown> = {}) => {
  const res = await fixture.client.post('/invoices', {
    customerId: fixture.fx.customerId,
    issueDate: '2026-03-01',
    lines: [
      { itemId: fixture.fx.itemId, quantity: '2', unitPrice: 12_500, taxRateIds: [fixture.fx.taxRateId] },
      { description: 'Travel', quantity: '1', unitPrice: 3_333, discountPercent: '10' },
    ],
    ...overrides,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};

const sent = async (overrides: Record<string, unknown> = {}) => {
  const d = await draft(overrides);
  const res = await fixture.client.post(`/invoices/${d.id}/send`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};

const pay = (
  id: string,
  amount: number,
  extra: Record<string, unknown> = {},
  headers?: Record<string, string>,
) =>
  fixture.client.post(
    `/invoices/${id}/payments`,
    { date: '2026-03-05', amount, depositAccountId: fixture.fx.bankId, ...extra },
    headers,
  );

/** Rows a payment writes, to check that a replay or a refusal writes nothing. */
const rowCounts = async () => {
  const count = async (table: 'invoice_payments' | 'journal_entries' | 'audit_log' | 'idempotency_keys') =>
    Number(
      (
        await fixture.t.database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .where('organization_id', '=', fixture.company.id)
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    payments: await count('invoice_payments'),
    entries: await count('journal_entries'),
    audit: await count('audit_log'),
    keys: await count('idempotency_keys'),
  };
};

const openBalanceSum = async () => {
  const rows = await fixture.t.database.db
    .selectFrom('invoices')
    .select(['balance_base'])
    .where('organization_id', '=', fixture.company.id)
    .where('status', 'in', ['sent', 'partially_paid'])
    .execute();
  return rows.reduce((s, r) => s + r.balance_base, 0);
};

describe('drafts', () => {
  it('computes totals with per-line rounding and the due date from payment terms', async () => {
    const d = await draft();
    // 2 x 125.00 = 250.00 + 20% = 50.00; travel 33.33 - 10% (3.333 → 3.33) = 30.00
    expect(d.subtotal).toBe(25_000 + 3_000);
    expect(d.discountTotal).toBe(333);
    expect(d.taxTotal).toBe(5_000);
    expect(d.total).toBe(33_000);
    expect(d.dueDate).toBe('2026-03-15');
    expect(d.status).toBe('draft');
    expect(d.number).toBeNull();
    expect(d.lines[0].description).toBe('Consulting hour');
    expect(d.taxes).toEqual([
      { taxRateId: fixture.fx.taxRateId, name: 'VAT 20%', percent: '20', taxable: 25_000, amount: 5_000 },
    ]);
  });

  it('edits and deletes a draft with no ledger effect', async () => {
    const before = await balancesOn(fixture.t.database, fixture.company.id);
    const d = await draft();
    const edited = await fixture.client.patch(`/invoices/${d.id}`, {
      lines: [{ description: 'Fixed fee', quantity: '1.5', unitPrice: 1001 }],
    });
    expect(edited.status).toBe(200);
    expect(edited.body.total).toBe(1502); // 1501.5 → 1502
    // An edit changes only what it sends: the reference, notes and terms set before stay.
    const texts = { reference: 'PO-77', notes: 'Thank you', terms: 'Net 15' };
    expect((await fixture.client.patch(`/invoices/${d.id}`, texts)).status).toBe(200);
    const kept = await fixture.client.patch(`/invoices/${d.id}`, { dueDate: '2026-04-30' });
    expect(kept.status).toBe(200);
    expect({ reference: kept.body.reference, notes: kept.body.notes, terms: kept.body.terms }).toEqual(texts);
    expect((await fixture.client.delete(`/invoices/${d.id}`)).status).toBe(204);
    expect((await fixture.client.get(`/invoices/${d.id}`)).status).toBe(404);
    const after = await balancesOn(fixture.t.database, fixture.company.id);
    expect([...after.byId]).toEqual([...before.byId]);
  });

  it('refuses bad input with a clear 400 and writes nothing', async () => {
    const count = async () =>
      (
        await fixture.t.database.db
          .selectFrom('invoices')
          .select(fixture.t.database.db.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n;
    const n = await count();
    const cases = [
      { customerId: fixture.fx.customerId, issueDate: '2026-03-01', lines: [] },
      {
        customerId: fixture.fx.customerId,
        issueDate: '2026-03-01',
        lines: [{ description: 'x', quantity: '0', unitPrice: 1 }],
      },
      {
        customerId: fixture.fx.customerId,
        issueDate: '2026-03-01',
        lines: [{ description: 'x', quantity: '1', unitPrice: 1.5 }],
      },
      {
        customerId: 'nope',
        issueDate: '2026-03-01',
        lines: [{ description: 'x', quantity: '1', unitPrice: 1 }],
      },
      {
        customerId: fixture.fx.customerId,
        issueDate: '2026-03-01',
        dueDate: '2026-02-01',
        lines: [{ description: 'x', quantity: '1', unitPrice: 1 }],
      },
      {
        customerId: fixture.fx.customerId,
        issueDate: '2026-03-01',
        lines: [{ description: 'x', quantity: '1', unitPrice: 1, taxRateIds: ['missing'] }],
      },
      {
        customerId: fixture.fx.customerId,
        issueDate: '2026-03-01',
        currency: 'EUR',
        lines: [{ description: 'x', quantity: '1', unitPrice: 1 }],
      },
    ];
    for (const body of cases) {
      const res = await fixture.client.post('/invoices', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toBeTruthy();
    }
    expect(await count()).toBe(n);
  });
});

describe('status transitions', () => {
  it('sends: numbers the invoice and posts receivable, income and tax in balance', async () => {
    const before = await balancesOn(fixture.t.database, fixture.company.id);
    const inv = await sent();
    expect(inv.status).toBe('sent');
    expect(inv.number).toMatch(/^INV-\d{4}$/);
    expect(inv.journalEntryId).toBeTruthy();
    const after = await balancesOn(fixture.t.database, fixture.company.id);
    expect(
      (after.byId.get(fixture.fx.receivableId) ?? 0) - (before.byId.get(fixture.fx.receivableId) ?? 0),
    ).toBe(33_000);
    expect(
      (after.byId.get(fixture.fx.taxPayableId) ?? 0) - (before.byId.get(fixture.fx.taxPayableId) ?? 0),
    ).toBe(-5_000);
    expect(after.sum).toBe(0);
    const entry = await fixture.t.database.db
      .selectFrom('journal_entries')
      .selectAll()
      .where('organization_id', '=', fixture.company.id)
      .where('id', '=', inv.journalEntryId)
      .executeTakeFirstOrThrow();
    expect(entry.source).toBe('invoice');
    expect(entry.reference).toBe(inv.number);
    const audit = await fixture.t.database.db
      .selectFrom('audit_log')
      .select('action')
      .where('organization_id', '=', fixture.company.id)
      .where('entity_id', '=', inv.id)
      .execute();
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['invoice.created', 'invoice.sent']));
  });

  it('numbers are sequential and gap-free across deleted drafts', async () => {
    const a = await sent();
    const d = await draft();
    await fixture.client.delete(`/invoices/${d.id}`);
    const b = await sent();
    expect(Number(b.number.slice(4))).toBe(Number(a.number.slice(4)) + 1);
  });

  it('refuses impossible transitions with a clear 409', async () => {
    const inv = await sent();
    const again = await fixture.client.post(`/invoices/${inv.id}/send`);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('invalid_transition');
    expect((await fixture.client.patch(`/invoices/${inv.id}`, { notes: 'x' })).status).toBe(409);
    expect((await fixture.client.delete(`/invoices/${inv.id}`)).status).toBe(409);
    const d = await draft();
    expect((await pay(d.id, 100)).status).toBe(409);
    expect((await fixture.client.post(`/invoices/${d.id}/void`)).status).toBe(409);
    expect(
      (
        await fixture.client.post(`/invoices/${d.id}/credit-notes`, {
          date: '2026-03-02',
          lines: [{ description: 'x', quantity: '1', unitPrice: 1 }],
        })
      ).status,
    ).toBe(409);
    expect((await fixture.client.post(`/invoices/${d.id}/email`)).status).toBe(409);
  });

  it('sent → partially paid → paid, refusing overpayment; overdue is derived from the clock', async () => {
    const inv = await sent();
    expect((await pay(inv.id, 33_001)).status).toBe(400);
    fixture.t.clock.set('2026-03-20T12:00:00Z');
    expect((await fixture.client.get(`/invoices/${inv.id}`)).body.status).toBe('overdue');
    const partial = await pay(inv.id, 10_000);
    expect(partial.status).toBe(201);
    expect(partial.body.storedStatus).toBe('partially_paid');
    expect(partial.body.status).toBe('overdue');
    expect(partial.body.amountDue).toBe(23_000);
    fixture.t.clock.set('2026-03-10T12:00:00Z');
    expect((await fixture.client.get(`/invoices/${inv.id}`)).body.status).toBe('partially_paid');
    const final = await pay(inv.id, 23_000);
    expect(final.body.status).toBe('paid');
    expect(final.body.amountDue).toBe(0);
    expect((await pay(inv.id, 1)).status).toBe(409);
    const v = await fixture.client.post(`/invoices/${inv.id}/void`);
    expect(v.status).toBe(409);
    expect(v.body.error.message).toMatch(/payments/);
    expect(await openBalanceSum()).toBe(
      (await balancesOn(fixture.t.database, fixture.company.id)).byId.get(fixture.fx.receivableId),
    );
  });

  it('removing a payment reverses it and reopens the invoice', async () => {
    const inv = await sent();
    const p = await pay(inv.id, 33_000);
    expect(p.body.status).toBe('paid');
    const removed = await fixture.client.delete(`/invoices/${inv.id}/payments/${p.body.paymentId}`);
    expect(removed.status).toBe(200);
    expect(removed.body.status).toBe('sent');
    expect(removed.body.payments[0].reversed).toBe(true);
    expect((await fixture.client.delete(`/invoices/${inv.id}/payments/${p.body.paymentId}`)).status).toBe(
      400,
    );
    expect(await openBalanceSum()).toBe(
      (await balancesOn(fixture.t.database, fixture.company.id)).byId.get(fixture.fx.receivableId),
    );
  });

  it('voids a sent invoice by reversing its posting', async () => {
    const before = await balancesOn(fixture.t.database, fixture.company.id);
    const inv = await sent();
    const v = await fixture.client.post(`/invoices/${inv.id}/void`, { reason: 'Wrong customer' });
    expect(v.status).toBe(200);
    expect(v.body.status).toBe('void');
    expect(v.body.voidEntryId).toBeTruthy();
    expect((await fixture.client.post(`/invoices/${inv.id}/void`)).status).toBe(409);
    expect((await pay(inv.id, 1)).status).toBe(409);
    const after = await balancesOn(fixture.t.database, fixture.company.id);
    expect(after.byId.get(fixture.fx.receivableId) ?? 0).toBe(before.byId.get(fixture.fx.receivableId) ?? 0);
    expect(v.body.history.map((h: { kind: string }) => h.kind)).toEqual(['created', 'sent', 'voided']);
  });

  it('credit notes reduce the balance, are numbered, and can be voided', async () => {
    const inv = await sent();
    const over = await fixture.client.post(`/invoices/${inv.id}/credit-notes`, {
      date: '2026-03-03',
      lines: [{ description: 'Too much', quantity: '1', unitPrice: 40_000 }],
    });
    expect(over.status).toBe(400);
    const cn = await fixture.client.post(`/invoices/${inv.id}/credit-notes`, {
      date: '2026-03-03',
      reason: 'One hour not worked',
      lines: [
        { itemId: fixture.fx.itemId, quantity: '1', unitPrice: 12_500, taxRateIds: [fixture.fx.taxRateId] },
      ],
    });
    expect(cn.status, JSON.stringify(cn.body)).toBe(201);
    expect(cn.body.amountCredited).toBe(15_000);
    expect(cn.body.amountDue).toBe(18_000);
    expect(cn.body.status).toBe('partially_paid');
    expect(cn.body.creditNotes[0].number).toMatch(/^CN-\d{4}$/);
    const paid = await pay(inv.id, 18_000);
    expect(paid.body.status).toBe('paid');
    const v = await fixture.client.post(`/invoices/${inv.id}/credit-notes/${cn.body.creditNotes[0].id}/void`);
    expect(v.status).toBe(200);
    expect(v.body.status).toBe('partially_paid');
    expect(v.body.amountDue).toBe(15_000);
    expect(await openBalanceSum()).toBe(
      (await balancesOn(fixture.t.database, fixture.company.id)).byId.get(fixture.fx.receivableId),
    );
  });
});

describe('payments', () => {
  it('accepts an Idempotency-Key: a repeat returns the first result and writes nothing', async () => {
    const inv = await sent();
    const key = { 'idempotency-key': `pay-${inv.id}` };
    const first = await pay(inv.id, 5_000, {}, key);
    expect(first.status).toBe(201);
    const written = await rowCounts();
    const second = await pay(inv.id, 5_000, {}, key);
    expect(second.status).toBe(200);
    expect(second.raw.headers['idempotent-replayed']).toBe('true');
    expect(second.body.paymentId).toBe(first.body.paymentId);
    expect(second.body.payments).toHaveLength(1);
    expect(second.body.amountPaid).toBe(5_000);
    expect(await rowCounts()).toEqual(written);
    const different = await pay(inv.id, 6_000, {}, key);
    expect(different.status).toBe(409);
    expect(different.body.error).toEqual({
      code: 'idempotency_key_reused',
      message:
        'This Idempotency-Key was already used for a different request. Use a new key for a new payment.',
    });
    // The same key on another invoice is another request too.
    const other = await sent();
    const withOther = await rowCounts();
    const elsewhere = await pay(other.id, 5_000, {}, key);
    expect(elsewhere.status).toBe(409);
    expect(elsewhere.body.error.code).toBe('idempotency_key_reused');
    expect(await rowCounts()).toEqual(withOther);
  });

  it('takes any visible ASCII Idempotency-Key and refuses others with a 400', async () => {
    const inv = await sent();
    const ok = await pay(inv.id, 1_000, {}, { 'idempotency-key': `a/b+c=${inv.id}` });
    expect(ok.status).toBe(201);
    const before = await rowCounts();
    for (const bad of ['has space', 'x'.repeat(201)]) {
      const res = await pay(inv.id, 1_000, {}, { 'idempotency-key': bad });
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual({
        code: 'invalid_idempotency_key',
        message: 'The Idempotency-Key header must be 1-200 visible ASCII characters.',
      });
    }
    expect(await rowCounts()).toEqual(before);
  });

  it('replays a key stored before invoices shared the idempotency module (body-only hash)', async () => {
    const inv = await sent();
    const key = `legacy-${inv.id}`;
    const first = await pay(inv.id, 4_000, {}, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    // The old invoices copy stored sha256 of the parsed body alone, beside the scope.
    const parsed = {
      date: '2026-03-05',
      amount: 4_000,
      depositAccountId: fixture.fx.bankId,
      method: 'bank_transfer',
      reference: '',
    };
    await fixture.t.database.db
      .updateTable('idempotency_keys')
      .set({ request_hash: createHash('sha256').update(JSON.stringify(parsed)).digest('hex') })
      .where('organization_id', '=', fixture.company.id)
      .where('key', '=', key)
      .execute();
    const written = await rowCounts();
    const again = await pay(inv.id, 4_000, {}, { 'idempotency-key': key });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.paymentId).toBe(first.body.paymentId);
    expect(again.body.amountPaid).toBe(4_000);
    const changed = await pay(inv.id, 4_001, {}, { 'idempotency-key': key });
    expect(changed.status).toBe(409);
    expect(await rowCounts()).toEqual(written);
  });

  it('two requests racing with one Idempotency-Key record one payment', async () => {
    const inv = await sent();
    const key = { 'idempotency-key': `race-${inv.id}` };
    // Truly concurrent on PostgreSQL (the twin waits on the key row); one after the other on PGlite.
    const results =
      testDatabaseKind() === 'postgres'
        ? await Promise.all([pay(inv.id, 7_000, {}, key), pay(inv.id, 7_000, {}, key)])
        : [await pay(inv.id, 7_000, {}, key), await pay(inv.id, 7_000, {}, key)];
    expect(results.map((r) => r.status).sort()).toEqual([200, 201]);
    const after = await fixture.client.get(`/invoices/${inv.id}`);
    expect(after.body.payments).toHaveLength(1);
    expect(after.body.amountPaid).toBe(7_000);
  });

  it('only takes bank or cash accounts for the deposit', async () => {
    const inv = await sent();
    const res = await pay(inv.id, 100, { depositAccountId: fixture.fx.taxPayableId });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_deposit_account');
  });

  it('foreign-currency invoice: posts at its rate, books the exchange difference on payment', async () => {
    const eurCustomer = await fixture.client.post('/customers', { name: 'Berlin GmbH', currency: 'EUR' });
    const inv = await sent({
      customerId: eurCustomer.body.id,
      exchangeRate: '1.1',
      lines: [{ description: 'Design', quantity: '1', unitPrice: 10_000 }],
    });
    expect(inv.currency).toBe('EUR');
    expect(inv.totalBase).toBe(11_000);
    const p = await pay(inv.id, 10_000, { exchangeRate: '1.2' });
    expect(p.status, JSON.stringify(p.body)).toBe(201);
    expect(p.body.status).toBe('paid');
    expect(p.body.balanceBase).toBe(0);
    const b = await balancesOn(fixture.t.database, fixture.company.id);
    expect(b.sum).toBe(0);
    expect(await openBalanceSum()).toBe(b.byId.get(fixture.fx.receivableId));
  });
});

describe('recurring invoices', () => {
  it('catches up after downtime without creating duplicates', async () => {
    const res = await fixture.client.post('/recurring-invoices', {
      customerId: fixture.fx.customerId,
      frequency: 'monthly',
      startDate: '2026-01-31',
      count: 6,
      autoSend: true,
      lines: [
        { description: 'Retainer', quantity: '1', unitPrice: 50_000, taxRateIds: [fixture.fx.taxRateId] },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const scheduleId = res.body.id;
    fixture.t.clock.set('2026-04-15T12:00:00Z');
    // On PostgreSQL two runners race for real (the schedule's row lock and the runs key keep
    // them apart); PGlite is one connection, so there they run one after the other.
    const [first, second] =
      testDatabaseKind() === 'postgres'
        ? await Promise.all([
            runDueRecurringInvoices(fixture.t.ctx, fixture.t.clock.now()),
            runDueRecurringInvoices(fixture.t.ctx, fixture.t.clock.now()),
          ])
        : [
            await runDueRecurringInvoices(fixture.t.ctx, fixture.t.clock.now()),
            await runDueRecurringInvoices(fixture.t.ctx, fixture.t.clock.now()),
          ];
    expect([...first.failed, ...second.failed]).toEqual([]);
    const again = await runDueRecurringInvoices(fixture.t.ctx, fixture.t.clock.now());
    expect(again.created).toHaveLength(0);
    const invoices = await fixture.t.database.db
      .selectFrom('invoices')
      .select(['issue_date', 'status'])
      .where('organization_id', '=', fixture.company.id)
      .where('recurring_schedule_id', '=', scheduleId)
      .orderBy('issue_date')
      .execute();
    // Jan 31, Feb 28, Mar 31: months never drift; Apr 30 is not due yet.
    expect(invoices.map((i) => i.issue_date)).toEqual(['2026-01-31', '2026-02-28', '2026-03-31']);
    expect(invoices.every((i) => i.status === 'sent')).toBe(true);
    expect(first.created.length + second.created.length).toBe(3);
    const list = await fixture.client.get('/recurring-invoices');
    const schedule = list.body.schedules.find((s: { id: string }) => s.id === scheduleId);
    expect(schedule.createdCount).toBe(3);
    expect(schedule.nextDate).toBe('2026-04-30');
    // Emailed with the PDF: the customer has an address.
    const mail = await fixture.t.app.inject({
      method: 'GET',
      url: '/api/dev/mailbox?to=billing@northwind.example',
    });
    expect(mail.json().messages.length).toBeGreaterThanOrEqual(3);
    // Ends after its count.
    fixture.t.clock.set('2027-06-01T12:00:00Z');
    await runDueRecurringInvoices(fixture.t.ctx, fixture.t.clock.now());
    const ended = (await fixture.client.get('/recurring-invoices')).body.schedules.find(
      (s: { id: string }) => s.id === scheduleId,
    );
    expect(ended.createdCount).toBe(6);
    expect(ended.status).toBe('ended');
    fixture.t.clock.set('2026-03-10T12:00:00Z');
  });
});

describe('PDF and email', () => {
  it('renders a PDF with the company details and totals, and emails it as an attachment', async () => {
    await fixture.client.patch('/invoice-settings', {
      address: '1 Harbour Street, Bristol',
      taxNumber: 'GB123456789',
    });
    const inv = await sent();
    const pdf = await fixture.t.app.inject({
      method: 'GET',
      url: `/api/orgs/${fixture.company.id}/invoices/${inv.id}/pdf`,
      headers: { cookie: fixture.company.owner.cookie },
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const text = extractPdfText(pdf.rawPayload);
    expect(text).toContain('Invoicing Co');
    expect(text).toContain('GB123456789');
    expect(text).toContain(inv.number);
    expect(text).toContain('$330.00');
    const res = await fixture.client.post(`/invoices/${inv.id}/email`, {});
    expect(res.status).toBe(200);
    expect(res.body.emailedAt).toBeTruthy();
    const list = await fixture.t.app.inject({
      method: 'GET',
      url: '/api/dev/mailbox?to=billing@northwind.example',
    });
    const latest = list.json().messages[0];
    expect(latest.subject).toContain(inv.number);
    const message = (
      await fixture.t.app.inject({ method: 'GET', url: `/api/dev/mailbox/${latest.id}` })
    ).json();
    expect(message.attachments[0]).toMatchObject({
      filename: `${inv.number}.pdf`,
      contentType: 'application/pdf',
    });
  });
});

describe('reports', () => {
  it('aging matches the receivable balance and the tax report matches the tax account', async () => {
    const aging = await fixture.client.get('/reports/receivables-aging?asOf=2026-12-31');
    expect(aging.status).toBe(200);
    expect(aging.body.totals.total).toBe(aging.body.ledgerBalance);
    expect(aging.body.totals.over90).toBeGreaterThan(0);
    const tax = await fixture.client.get('/reports/sales-tax?from=2000-01-01&to=2199-12-31');
    const b = await balancesOn(fixture.t.database, fixture.company.id);
    expect(tax.body.totals.tax).toBe(-(b.byId.get(fixture.fx.taxPayableId) ?? 0));
  });

  it('lists with status totals, search, sort, paging and CSV export', async () => {
    const list = await fixture.client.get('/invoices?status=all&pageSize=5&sort=total&order=asc');
    expect(list.status).toBe(200);
    expect(list.body.items.length).toBeLessThanOrEqual(5);
    expect(list.body.totalsByStatus.all.count).toBe(list.body.totalCount);
    const totals = list.body.totalsByStatus;
    expect(
      totals.draft.count +
        totals.sent.count +
        totals.partially_paid.count +
        totals.paid.count +
        totals.overdue.count +
        totals.void.count,
    ).toBe(totals.all.count);
    const paid = await fixture.client.get('/invoices?status=paid');
    expect(paid.body.items.every((i: { status: string }) => i.status === 'paid')).toBe(true);
    const search = await fixture.client.get('/invoices?search=Berlin');
    expect(search.body.items.every((i: { customerName: string }) => i.customerName === 'Berlin GmbH')).toBe(
      true,
    );
    expect(search.body.items.length).toBeGreaterThan(0);
    const csv = await fixture.t.app.inject({
      method: 'GET',
      url: `/api/orgs/${fixture.company.id}/invoices/export.csv?status=paid`,
      headers: { cookie: fixture.company.owner.cookie },
    });
    expect(csv.headers['content-type']).toContain('text/csv');
    const rows = csv.body.trim().split('\r\n');
    expect(rows[0]).toBe('Number,Customer,Issue date,Due date,Status,Currency,Total,Amount due');
    expect(rows.length - 1).toBe(paid.body.totalCount);
  });
});

describe('customers, items, tax rates', () => {
  it('shows a customer with invoices, payments and balance; archives them', async () => {
    const res = await fixture.client.get(`/customers/${fixture.fx.customerId}`);
    expect(res.status).toBe(200);
    expect(res.body.invoices.length).toBeGreaterThan(0);
    expect(res.body.payments.length).toBeGreaterThan(0);
    const due = res.body.invoices
      .filter((i: { storedStatus: string }) => ['sent', 'partially_paid'].includes(i.storedStatus))
      .reduce((s: number, i: { amountDue: number }) => s + i.amountDue, 0);
    expect(res.body.customer.balance).toBe(due);
    const c = await fixture.client.post('/customers', { name: 'Short-lived Ltd' });
    const archived = await fixture.client.patch(`/customers/${c.body.id}`, { archived: true });
    expect(archived.body.archived).toBe(true);
    const search = await fixture.client.get('/customers?search=Short-lived');
    expect(search.body.customers).toHaveLength(0);
    const withArchived = await fixture.client.get('/customers?search=Short-lived&includeArchived=true');
    expect(withArchived.body.customers).toHaveLength(1);
    expect((await fixture.client.post('/customers', { name: '' })).status).toBe(400);
    expect((await fixture.client.post('/customers', { name: 'X', email: 'not-an-email' })).status).toBe(400);
  });

  it('keeps tax percentages exact and refuses non-liability tax accounts', async () => {
    const r = await fixture.client.post('/tax-rates', { name: 'QST', percent: '9.9750', compound: true });
    expect(r.body.percent).toBe('9.975');
    expect((await fixture.client.post('/tax-rates', { name: 'Bad', percent: '101' })).status).toBe(400);
    expect(
      (await fixture.client.post('/tax-rates', { name: 'Bad', percent: '5', accountId: fixture.fx.bankId }))
        .status,
    ).toBe(400);
    expect(
      (
        await fixture.client.post('/items', {
          name: 'Bad',
          unitPrice: 100,
          incomeAccountId: fixture.fx.bankId,
        })
      ).status,
    ).toBe(400);
  });

  it('new lines refuse archived items and tax rates', async () => {
    const rate = await fixture.client.post('/tax-rates', { name: 'Old rate', percent: '7' });
    const item = await fixture.client.post('/items', { name: 'Old item', unitPrice: 100 });
    await fixture.client.patch(`/tax-rates/${rate.body.id}`, { archived: true });
    await fixture.client.patch(`/items/${item.body.id}`, { archived: true });
    const withRate = await fixture.client.post('/invoices', {
      customerId: fixture.fx.customerId,
      issueDate: '2026-03-01',
      lines: [{ description: 'x', quantity: '1', unitPrice: 100, taxRateIds: [rate.body.id] }],
    });
    expect(withRate.status).toBe(400);
    expect(withRate.body.error.code).toBe('tax_rate_archived');
    const withItem = await fixture.client.post('/invoices', {
      customerId: fixture.fx.customerId,
      issueDate: '2026-03-01',
      lines: [{ itemId: item.body.id, quantity: '1', unitPrice: 100 }],
    });
    expect(withItem.body.error.code).toBe('item_archived');
  });

  it('roles: a viewer reads but cannot create or post', async () => {
    const viewer = await addTestMember(fixture.t.app, fixture.company, 'viewer');
    const v = api(fixture.t.app, fixture.company, viewer.cookie);
    expect((await v.get('/invoices')).status).toBe(200);
    expect((await v.post('/customers', { name: 'Nope' })).status).toBe(403);
    const d = await draft();
    expect((await v.post(`/invoices/${d.id}/send`)).status).toBe(403);
  });
});

describe('company isolation', () => {
  it('another company cannot see or touch these invoices through any route', async () => {
    const other = await createTestCompany(fixture.t.app, { name: 'Other Co' });
    await ensureLedger(fixture.t.database, other);
    const inv = await sent();
    const asOther = api(fixture.t.app, other);
    for (const path of [
      `/invoices/${inv.id}`,
      `/invoices/${inv.id}/pdf`,
      `/customers/${fixture.fx.customerId}`,
    ]) {
      expect((await asOther.get(path)).status).toBe(404);
    }
    expect((await asOther.post(`/invoices/${inv.id}/send`)).status).toBe(404);
    expect((await asOther.post(`/invoices/${inv.id}/void`)).status).toBe(404);
    expect(
      (
        await asOther.post(`/invoices/${inv.id}/payments`, {
          date: '2026-03-05',
          amount: 1,
          depositAccountId: fixture.fx.bankId,
        })
      ).status,
    ).toBe(404);
    expect((await asOther.get('/invoices')).body.totalCount).toBe(0);
    // Using company A's id without membership: 404 before anything is read.
    const stranger = api(fixture.t.app, fixture.company, other.owner.cookie);
    expect((await stranger.get('/invoices')).status).toBe(404);
    expect((await stranger.get(`/invoices/${inv.id}`)).status).toBe(404);
    // Lines may not reference another company's customer, item or tax rate.
    const crossed = await asOther.post('/invoices', {
      customerId: fixture.fx.customerId,
      issueDate: '2026-03-01',
      lines: [{ description: 'x', quantity: '1', unitPrice: 1 }],
    });
    expect(crossed.status).toBe(400);
  });
});
