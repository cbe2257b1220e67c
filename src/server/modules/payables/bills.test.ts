import { describe, expect, it } from 'vitest';
import { addTestMember, createTestCompany } from '../../testing/companies.ts';
import { api, balancesOn, ensureLedger } from '../../testing/invoices.ts';
import {
  addTestSupplier,
  createOpenTestBill,
  createTestBill,
  payablesAgreement,
  setUpTestPayables,
  testBillBody,
} from '../../testing/payables.ts';

// Bills over the HTTP API: recording (numbers, due dates from terms, supplier defaults,
// currency and the day's rate), the refusals (bad input, accounts, suppliers, duplicates),
// editing and deleting, posting on submit with the ledger checked (Dr expense and input tax,
// Cr payable; AP = open bills; trial balance zero), voiding, the list and totals, attachments,
// a locked period, and company isolation.

const fixture = setUpTestPayables({ name: 'Bills Co' });

const agreement = async () => {
  const a = await payablesAgreement(fixture.t.database, fixture.company.id, fixture.fx.payableId);
  expect(a.trialBalance).toBe(0);
  expect(a.ledger).toBe(a.bills);
  return a;
};

const countOf = async (table: 'bills' | 'journal_entries' | 'bill_lines' | 'audit_log') =>
  Number(
    (
      await fixture.t.database.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .where('organization_id', '=', fixture.company.id)
        .executeTakeFirstOrThrow()
    ).n,
  );

const counts = async () => ({
  bills: await countOf('bills'),
  entries: await countOf('journal_entries'),
  lines: await countOf('bill_lines'),
});

const entryLines = async (entryId: string) =>
  fixture.t.database.db
    .selectFrom('journal_lines')
    .select(['account_id', 'debit', 'credit', 'currency', 'amount', 'contact_id'])
    .where('organization_id', '=', fixture.company.id)
    .where('entry_id', '=', entryId)
    .orderBy('line_no')
    .execute();

describe('recording a bill', () => {
  it('numbers it, takes the due date from the terms and the account from the supplier', async () => {
    const bill = await createTestBill(fixture.client, fixture.fx, {
      reference: 'INV-100',
      lines: [
        { description: 'Paper', quantity: '2', unitPrice: 1_250, taxRateIds: [fixture.fx.taxRateId] },
        { description: 'Rent', quantity: '1', unitPrice: 50_000, accountId: fixture.fx.rentAccountId },
      ],
    });
    expect(bill.number).toMatch(/^BILL-\d{4}$/);
    expect(bill.status).toBe('draft');
    expect(bill.dueDate).toBe('2026-03-31');
    expect(bill.currency).toBe('USD');
    expect(bill.exchangeRate).toBe('1');
    expect(bill.subtotal).toBe(52_500);
    expect(bill.taxTotal).toBe(500);
    expect(bill.total).toBe(53_000);
    expect(bill.amountDue).toBe(53_000);
    expect(bill.lines.map((l: { accountId: string }) => l.accountId)).toEqual([
      fixture.fx.expenseAccountId,
      fixture.fx.rentAccountId,
    ]);
    expect(bill.taxes).toEqual([
      { taxRateId: fixture.fx.taxRateId, name: 'VAT 20%', percent: '20', taxable: 2_500, amount: 500 },
    ]);
    expect(bill.history.map((h: { message: string }) => h.message)).toEqual(['Draft recorded']);
    expect(bill.history[0].actorName).toBeTruthy();
    expect(bill.needsApproval).toBe(false);
    expect(bill.supplier.name).toBe('Paper Supply Co');
    const read = await fixture.client.get(`/bills/${bill.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(bill);
  });

  it("takes the supplier's default tax when a line names none, and no tax for an empty list", async () => {
    const supplierId = await addTestSupplier(fixture.t.database, fixture.company, {
      name: 'Taxed Supplier',
      paymentTermsDays: 7,
      defaultTaxRateId: fixture.fx.taxRateId,
    });
    const bill = await createTestBill(fixture.client, fixture.fx, {
      supplierId,
      lines: [
        { description: 'Taxed', quantity: '1', unitPrice: 1_000 },
        { description: 'Untaxed', quantity: '1', unitPrice: 1_000, taxRateIds: [] },
      ],
    });
    expect(bill.dueDate).toBe('2026-03-08');
    expect(bill.lines[0].taxRateIds).toEqual([fixture.fx.taxRateId]);
    expect(bill.lines[1].taxRateIds).toEqual([]);
    expect(bill.total).toBe(2_200);
  });

  it("keeps a line's item and names the line after it when the description is empty", async () => {
    const bill = await createTestBill(fixture.client, fixture.fx, {
      reference: 'ITEM-1',
      lines: [{ itemId: fixture.fx.itemId, quantity: '2', unitPrice: 4_000, taxRateIds: [] }],
    });
    expect(bill.lines[0]).toMatchObject({
      itemId: fixture.fx.itemId,
      description: 'Consulting hour',
      net: 8_000,
    });
    expect(bill.lines[0].accountId).toBe(fixture.fx.expenseAccountId);
    const res = await fixture.client.post('/bills', {
      ...testBillBody(fixture.fx, { reference: 'ITEM-2' }),
      lines: [{ itemId: 'no-such-item', quantity: '1', unitPrice: 100 }],
    });
    expect(res.status).toBe(400);
  });

  it('refuses bad input with a 4xx and writes nothing', async () => {
    const before = await counts();
    const otherCompanySupplier = await (async () => {
      const other = await createTestCompany(fixture.t.app, { name: 'Elsewhere Ltd' });
      await ensureLedger(fixture.t.database, other);
      return addTestSupplier(fixture.t.database, other);
    })();
    const archived = await addTestSupplier(fixture.t.database, fixture.company, {
      name: 'Gone Ltd',
      archived: true,
    });
    const noDefault = await addTestSupplier(fixture.t.database, fixture.company, {
      name: 'No Default Ltd',
      defaultAccountId: null,
    });
    const cases: [Record<string, unknown>, number, string][] = [
      [{ lines: [] }, 400, 'validation_failed'],
      [{ lines: [{ description: 'x', quantity: '0', unitPrice: 1 }] }, 400, 'validation_failed'],
      [{ lines: [{ description: 'x', quantity: '1', unitPrice: 1.5 }] }, 400, 'validation_failed'],
      [{ supplierId: 'nope' }, 404, 'not_found'],
      [{ supplierId: otherCompanySupplier }, 404, 'not_found'],
      [{ supplierId: archived }, 400, 'supplier_archived'],
      [{ supplierId: noDefault }, 400, 'account_required'],
      [{ dueDate: '2026-02-01' }, 400, 'invalid_due_date'],
      [
        { lines: [{ description: 'x', quantity: '1', unitPrice: 1, accountId: fixture.fx.bankId }] },
        400,
        'invalid_account',
      ],
      [
        { lines: [{ description: 'x', quantity: '1', unitPrice: 1, accountId: fixture.fx.payableId }] },
        400,
        'invalid_account',
      ],
      [
        { lines: [{ description: 'x', quantity: '1', unitPrice: 1, accountId: 'nope' }] },
        400,
        'account_not_found',
      ],
      [
        { lines: [{ description: 'x', quantity: '1', unitPrice: 1, taxRateIds: ['nope'] }] },
        400,
        'tax_rate_not_found',
      ],
      [{ lines: [{ quantity: '1', unitPrice: 1 }] }, 400, 'line_description_required'],
      [{ currency: 'EUR' }, 400, 'exchange_rate_required'],
      [{ currency: 'XYZ', exchangeRate: '1.1' }, 400, 'invalid_currency'],
      [{ issueDate: '2026-02-30' }, 400, 'validation_failed'],
      [{ lines: [{ description: 'x', quantity: '1', unitPrice: '12' }] }, 400, 'validation_failed'],
      [
        { lines: [{ description: 'x', quantity: '99999999999999999999', unitPrice: 999_999_999_999 }] },
        400,
        '',
      ],
      [
        { lines: [{ description: 'x', quantity: '1', unitPrice: 1, taxRateIds: ['a', 'b', 'c', 'd'] }] },
        400,
        'validation_failed',
      ],
      [{ reference: 'bad\u0000ref' }, 400, ''],
      [{ currency: 'EUR', exchangeRate: '-1' }, 400, 'validation_failed'],
    ];
    for (const [overrides, status, code] of cases) {
      const res = await fixture.client.post('/bills', testBillBody(fixture.fx, overrides));
      expect(res.status, `${JSON.stringify(overrides)} → ${JSON.stringify(res.body)}`).toBe(status);
      if (code) expect(res.body.error.code, JSON.stringify(overrides)).toBe(code);
      expect(res.body.error.message.length).toBeGreaterThan(10);
    }
    expect(await counts()).toEqual(before);
  });

  it('refuses a duplicate supplier reference (any case) while the first bill is live, naming it', async () => {
    const first = await createTestBill(fixture.client, fixture.fx, { reference: 'DUP-1' });
    const before = await counts();
    const again = await fixture.client.post('/bills', testBillBody(fixture.fx, { reference: 'dup-1' }));
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('duplicate_bill');
    expect(again.body.error.details).toEqual({ billId: first.id, number: first.number });
    expect(again.body.error.message).toContain(first.number);
    expect(again.body.error.message).toContain('Paper Supply Co');
    expect(again.body.error.message).toContain('DUP-1');
    expect(await counts()).toEqual(before);
    // Editing another bill onto the reference is refused the same way.
    const other = await createTestBill(fixture.client, fixture.fx, { reference: 'DUP-2' });
    const edit = await fixture.client.patch(`/bills/${other.id}`, { reference: 'Dup-1' });
    expect(edit.status).toBe(409);
    expect(edit.body.error.code).toBe('duplicate_bill');
    // Another supplier may use the same reference; once the first is void, so may this one.
    const supplierId = await addTestSupplier(fixture.t.database, fixture.company, {
      name: 'Second Supplier',
    });
    await createTestBill(fixture.client, fixture.fx, { supplierId, reference: 'DUP-1' });
    expect((await fixture.client.post(`/bills/${first.id}/submit`)).status).toBe(200);
    expect((await fixture.client.post(`/bills/${first.id}/void`, { reason: 'entered twice' })).status).toBe(
      200,
    );
    await createTestBill(fixture.client, fixture.fx, { reference: 'DUP-1' });
    await agreement();
  });

  it('answers a race on the same reference with the 409, never a 500', async () => {
    const body = testBillBody(fixture.fx, { reference: 'RACE-1' });
    const answers = await Promise.all([
      fixture.client.post('/bills', body),
      fixture.client.post('/bills', body),
    ]);
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, 409]);
    const refused = answers.find((a) => a.status === 409)!;
    expect(refused.body.error.code).toBe('duplicate_bill');
  });
});

describe('foreign currency', () => {
  it("uses the day's rate from the wallet, or the rate given, and posts at it", async () => {
    const supplierId = await addTestSupplier(fixture.t.database, fixture.company, {
      name: 'Euro GmbH',
      currency: 'EUR',
    });
    const missing = await fixture.client.post('/bills', testBillBody(fixture.fx, { supplierId }));
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('exchange_rate_required');
    expect(missing.body.error.message).toContain('EUR');
    const rate = await fixture.client.post('/wallet/rates', {
      currency: 'EUR',
      date: '2026-02-27',
      rate: '1.1',
    });
    expect(rate.status, JSON.stringify(rate.body)).toBe(200);
    const bill = await createTestBill(fixture.client, fixture.fx, {
      supplierId,
      lines: [{ description: 'Parts', quantity: '3', unitPrice: 3_333, taxRateIds: [fixture.fx.taxRateId] }],
    });
    expect(bill.currency).toBe('EUR');
    expect(bill.exchangeRate).toBe('1.1');
    expect(bill.total).toBe(11_999); // 99.99 + 20.00 tax
    const given = await createTestBill(fixture.client, fixture.fx, { supplierId, exchangeRate: '1.25' });
    expect(given.exchangeRate).toBe('1.25');

    const open = await fixture.client.post(`/bills/${bill.id}/submit`);
    expect(open.status, JSON.stringify(open.body)).toBe(200);
    expect(open.body.totalBase).toBe(13_199); // 119.99 × 1.1 = 131.989
    expect(open.body.balanceBase).toBe(13_199);
    const lines = await entryLines(open.body.journalEntryId);
    const payable = lines.find((l) => l.account_id === fixture.fx.payableId)!;
    expect(payable.credit).toBe(13_199);
    expect(payable.currency?.trim()).toBe('EUR');
    expect(payable.amount).toBe(11_999);
    expect(lines.reduce((s, l) => s + l.debit - l.credit, 0)).toBe(0);
    expect(lines.every((l) => l.contact_id === supplierId)).toBe(true);
    await agreement();
  });
});

describe('posting and void', () => {
  it('posts Dr expense and input tax, Cr payable, with tax rows; void reverses it', async () => {
    const balances = await balancesOn(fixture.t.database, fixture.company.id);
    const bill = await createOpenTestBill(fixture.client, fixture.fx, {
      lines: [
        { description: 'Paper', quantity: '1', unitPrice: 10_000, taxRateIds: [fixture.fx.taxRateId] },
        { description: 'Rent', quantity: '1', unitPrice: 40_000, accountId: fixture.fx.rentAccountId },
      ],
    });
    expect(bill.status).toBe('open');
    expect(bill.totalBase).toBe(52_000);
    expect(bill.history.map((h: { kind: string }) => h.kind)).toEqual(['created', 'posted', 'submitted']);
    const after = await balancesOn(fixture.t.database, fixture.company.id);
    const moved = (id: string) => (after.byId.get(id) ?? 0) - (balances.byId.get(id) ?? 0);
    expect(moved(fixture.fx.expenseAccountId)).toBe(10_000);
    expect(moved(fixture.fx.rentAccountId)).toBe(40_000);
    expect(moved(fixture.fx.taxPayableId)).toBe(2_000);
    expect(moved(fixture.fx.payableId)).toBe(-52_000);
    const taxRows = await fixture.t.database.db
      .selectFrom('bill_tax_postings')
      .selectAll()
      .where('organization_id', '=', fixture.company.id)
      .where('document_id', '=', bill.id)
      .execute();
    expect(taxRows.map((r) => [r.taxable_base, r.tax_base])).toEqual([[10_000, 2_000]]);
    await agreement();

    // Posted bills cannot be edited or deleted.
    expect((await fixture.client.patch(`/bills/${bill.id}`, { notes: 'x' })).body.error.code).toBe(
      'invalid_transition',
    );
    expect((await fixture.client.delete(`/bills/${bill.id}`)).status).toBe(409);
    expect((await fixture.client.post(`/bills/${bill.id}/submit`)).status).toBe(409);

    const voided = await fixture.client.post(`/bills/${bill.id}/void`, { reason: 'wrong supplier' });
    expect(voided.status).toBe(200);
    expect(voided.body.status).toBe('void');
    expect(voided.body.balanceBase).toBe(0);
    expect(voided.body.amountDue).toBe(0);
    expect(voided.body.voidEntryId).toBeTruthy();
    const back = await balancesOn(fixture.t.database, fixture.company.id);
    expect([...back.byId].filter(([, v]) => v !== 0)).toEqual([...balances.byId].filter(([, v]) => v !== 0));
    expect(
      await fixture.t.database.db
        .selectFrom('bill_tax_postings')
        .selectAll()
        .where('organization_id', '=', fixture.company.id)
        .where('document_id', '=', bill.id)
        .execute(),
    ).toEqual([]);
    expect((await fixture.client.post(`/bills/${bill.id}/void`)).status).toBe(409);
    await agreement();
  });

  it('refuses voiding a draft or a bill with payments, saying what to do', async () => {
    const draft = await createTestBill(fixture.client, fixture.fx);
    const res = await fixture.client.post(`/bills/${draft.id}/void`);
    expect(res.status).toBe(409);
    expect(res.body.error.message).toContain('delete it instead');
    const open = await createOpenTestBill(fixture.client, fixture.fx);
    // A payment as the payments module records it (its amount on the bill).
    await fixture.t.database.db
      .updateTable('bills')
      .set({ amount_paid: 1_000, status: 'partially_paid' })
      .where('organization_id', '=', fixture.company.id)
      .where('id', '=', open.id)
      .execute();
    const paid = await fixture.client.post(`/bills/${open.id}/void`);
    expect(paid.status).toBe(409);
    expect(paid.body.error.message).toContain('remove them first');
    await fixture.t.database.db
      .updateTable('bills')
      .set({ amount_paid: 0, status: 'open' })
      .where('organization_id', '=', fixture.company.id)
      .where('id', '=', open.id)
      .execute();
  });

  it('refuses a zero bill at submit', async () => {
    const zero = await createTestBill(fixture.client, fixture.fx, {
      lines: [{ description: 'Free sample', quantity: '1', unitPrice: 0 }],
    });
    const res = await fixture.client.post(`/bills/${zero.id}/submit`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('bill_total_zero');
    expect((await fixture.client.get(`/bills/${zero.id}`)).body.status).toBe('draft');
  });

  it('a bill dated in a locked period is refused with a 409 and stays a draft', async () => {
    const bill = await createTestBill(fixture.client, fixture.fx, { issueDate: '2026-01-15' });
    const lock = await fixture.client.patch('/ledger/settings', { lockDate: '2026-01-31' });
    expect(lock.status, JSON.stringify(lock.body)).toBe(200);
    const before = await counts();
    const res = await fixture.client.post(`/bills/${bill.id}/submit`);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('period_locked');
    expect(res.body.error.message).toContain('locked through 2026-01-31');
    const read = await fixture.client.get(`/bills/${bill.id}`);
    expect(read.body.storedStatus).toBe('draft');
    expect(read.body.history).toHaveLength(1);
    expect(await counts()).toEqual(before);
    // Moved to an open date it posts.
    expect((await fixture.client.patch(`/bills/${bill.id}`, { issueDate: '2026-02-02' })).status).toBe(200);
    expect((await fixture.client.post(`/bills/${bill.id}/submit`)).status).toBe(200);
    expect((await fixture.client.patch('/ledger/settings', { lockDate: null })).status).toBe(200);
    await agreement();
  });
});

describe('editing and deleting', () => {
  it('edits a draft (lines, dates, supplier) and deletes it with no ledger effect', async () => {
    const before = await counts();
    const bill = await createTestBill(fixture.client, fixture.fx, { reference: 'KEEP-1', notes: 'Kept' });
    const edited = await fixture.client.patch(`/bills/${bill.id}`, {
      issueDate: '2026-03-05',
      lines: [{ description: 'Toner', quantity: '1.5', unitPrice: 1_001 }],
    });
    expect(edited.status).toBe(200);
    expect(edited.body.total).toBe(1_502);
    expect(edited.body.dueDate).toBe('2026-04-04');
    expect(edited.body.history.at(-1).message).toBe('Draft edited');
    // What was not sent stays as it was.
    expect(edited.body.reference).toBe('KEEP-1');
    expect(edited.body.notes).toBe('Kept');
    expect((await fixture.client.delete(`/bills/${bill.id}`)).status).toBe(204);
    expect((await fixture.client.get(`/bills/${bill.id}`)).status).toBe(404);
    expect(await counts()).toEqual(before);
  });
});

describe('list and totals', () => {
  it('pages newest first, filters by status, supplier, text and due date', async () => {
    const supplierId = await addTestSupplier(fixture.t.database, fixture.company, { name: 'Listed & Co_' });
    const made = [];
    for (const [i, date] of ['2026-01-05', '2026-02-05', '2026-02-20'].entries()) {
      made.push(
        await createOpenTestBill(fixture.client, fixture.fx, {
          supplierId,
          issueDate: date,
          reference: `L-${i}`,
        }),
      );
    }
    const draft = await createTestBill(fixture.client, fixture.fx, { supplierId, issueDate: '2026-03-02' });
    const all: { id: string }[] = [];
    let cursor: string | null = null;
    do {
      const res = await fixture.client.get(
        `/bills?supplierId=${supplierId}&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(res.status).toBe(200);
      all.push(...res.body.bills);
      cursor = res.body.nextCursor;
    } while (cursor);
    expect(all.map((b) => b.id)).toEqual([draft.id, made[2].id, made[1].id, made[0].id]);

    // Today is 2026-03-10: the January bill (due Feb 4) and the Feb 5 one (due Mar 7) are overdue.
    const overdue = await fixture.client.get(`/bills?supplierId=${supplierId}&status=overdue`);
    expect(overdue.body.bills.map((b: { id: string }) => b.id)).toEqual([made[1].id, made[0].id]);
    expect(overdue.body.bills[0].status).toBe('overdue');
    expect(overdue.body.bills[0].storedStatus).toBe('open');
    const open = await fixture.client.get(`/bills?supplierId=${supplierId}&status=open`);
    expect(open.body.bills.map((b: { id: string }) => b.id)).toEqual([made[2].id]);
    const drafts = await fixture.client.get(`/bills?supplierId=${supplierId}&status=draft`);
    expect(drafts.body.bills.map((b: { id: string }) => b.id)).toEqual([draft.id]);
    const dueBy = await fixture.client.get(`/bills?supplierId=${supplierId}&dueBy=2026-03-10`);
    expect(dueBy.body.bills.map((b: { id: string }) => b.id)).toEqual([made[0].id, made[1].id]);
    const byName = await fixture.client.get('/bills?search=listed%20%26%20co_');
    expect(byName.body.bills).toHaveLength(4);
    const wildcard = await fixture.client.get('/bills?search=%25');
    expect(wildcard.body.bills).toHaveLength(0);
    const byReference = await fixture.client.get('/bills?search=l-1');
    expect(byReference.body.bills.map((b: { id: string }) => b.id)).toEqual([made[1].id]);
    const byNumber = await fixture.client.get(`/bills?search=${made[2].number}`);
    expect(byNumber.body.bills.map((b: { id: string }) => b.id)).toEqual([made[2].id]);
    expect((await fixture.client.get('/bills?cursor=forged')).status).toBe(400);
    expect((await fixture.client.get('/bills?status=nonsense')).status).toBe(400);

    const totals = await fixture.client.get('/bills/totals');
    expect(totals.status).toBe(200);
    expect(totals.body.baseCurrency).toBe('USD');
    const openBills = await fixture.t.database.db
      .selectFrom('bills')
      .select(['balance_base'])
      .where('organization_id', '=', fixture.company.id)
      .where('status', 'in', ['open', 'partially_paid'])
      .execute();
    expect(totals.body.totals.all.amountDue).toBe(openBills.reduce((s, r) => s + r.balance_base, 0));
    expect(totals.body.totals.overdue.count).toBeGreaterThanOrEqual(2);
    const allCount = await countOf('bills');
    expect(totals.body.totals.all.count).toBe(allCount);
  });
});

describe('attachments', () => {
  it("attaches the supplier's PDF, lists it on the bill, downloads and removes it", async () => {
    const bill = await createTestBill(fixture.client, fixture.fx);
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
    const added = await fixture.client.post(`/bills/${bill.id}/attachments`, {
      fileName: 'supplier-invoice.pdf',
      dataBase64: pdf.toString('base64'),
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.contentType).toBe('application/pdf');
    const listed = await fixture.client.get(`/bills/${bill.id}/attachments`);
    expect(listed.body.attachments.map((a: { id: string }) => a.id)).toEqual([added.body.id]);
    expect((await fixture.client.get(`/bills/${bill.id}`)).body.attachments[0].fileName).toBe(
      'supplier-invoice.pdf',
    );
    const download = await fixture.client.get(`/bills/${bill.id}/attachments/${added.body.id}`);
    expect(download.status).toBe(200);
    expect(download.raw.rawPayload.equals(pdf)).toBe(true);
    expect((await fixture.client.delete(`/bills/${bill.id}/attachments/${added.body.id}`)).status).toBe(204);
    expect((await fixture.client.get(`/bills/${bill.id}/attachments`)).body.attachments).toEqual([]);
    expect((await fixture.client.get('/bills/nope/attachments')).status).toBe(404);
  });
});

describe('roles and isolation', () => {
  it('viewers read only; members record but cannot approve or void', async () => {
    const viewer = await addTestMember(fixture.t.app, fixture.company, 'viewer');
    const member = await addTestMember(fixture.t.app, fixture.company, 'member');
    const asViewer = api(fixture.t.app, fixture.company, viewer.cookie);
    const asMember = api(fixture.t.app, fixture.company, member.cookie);
    const open = await createOpenTestBill(fixture.client, fixture.fx);
    expect((await asViewer.get(`/bills/${open.id}`)).status).toBe(200);
    expect((await asViewer.get('/bills')).status).toBe(200);
    expect((await asViewer.get('/payables/settings')).status).toBe(200);
    const before = await counts();
    expect((await asViewer.post('/bills', testBillBody(fixture.fx))).status).toBe(403);
    expect((await asViewer.post(`/bills/${open.id}/void`)).status).toBe(403);
    expect((await asViewer.patch('/payables/settings', { approvalThreshold: 1 })).status).toBe(403);
    expect((await asMember.post(`/bills/${open.id}/void`)).status).toBe(403);
    expect((await asMember.patch('/payables/settings', { approvalThreshold: 1 })).status).toBe(403);
    expect(await counts()).toEqual(before);
    const drafted = await asMember.post('/bills', testBillBody(fixture.fx));
    expect(drafted.status).toBe(201);
    expect((await asViewer.delete(`/bills/${drafted.body.id}`)).status).toBe(403);
    expect((await asMember.delete(`/bills/${drafted.body.id}`)).status).toBe(204);
  });

  it("another company's bills are 404 on every route", async () => {
    const other = await createTestCompany(fixture.t.app, { name: 'Other Books Ltd' });
    const bill = await createTestBill(fixture.client, fixture.fx);
    const asOther = api(fixture.t.app, other);
    // Their own URL with our bill's id: not found.
    expect((await asOther.get(`/bills/${bill.id}`)).status).toBe(404);
    expect((await asOther.patch(`/bills/${bill.id}`, { notes: 'x' })).status).toBe(404);
    expect((await asOther.post(`/bills/${bill.id}/submit`)).status).toBe(404);
    expect((await asOther.delete(`/bills/${bill.id}`)).status).toBe(404);
    expect((await asOther.get(`/bills/${bill.id}/attachments`)).status).toBe(404);
    expect((await asOther.get('/bills')).body.bills).toEqual([]);
    // Our URL with their cookie: not a member.
    const intruder = await fixture.t.app.inject({
      method: 'GET',
      url: `/api/orgs/${fixture.company.id}/bills/${bill.id}`,
      headers: { cookie: other.owner.cookie },
    });
    expect([403, 404]).toContain(intruder.statusCode);
  });
});
