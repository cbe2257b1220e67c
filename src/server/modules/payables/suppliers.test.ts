import { describe, expect, it } from 'vitest';
import { addTestMember, createTestCompany } from '../../testing/companies.ts';
import { api, ensureLedger, setUpTestInvoicing } from '../../testing/invoices.ts';

// Suppliers through the HTTP API: create with defaults and checks on the default account and
// tax rate, list with search and archived, read, edit, archive and restore with audit rows,
// the currency lock once billed, roles, and another company's supplier.

const fixture = setUpTestInvoicing({ name: 'Suppliers Co' });

const accountOfType = async (type: string, subtype?: string) => {
  let q = fixture.t.database.db
    .selectFrom('accounts')
    .select(['id'])
    .where('organization_id', '=', fixture.company.id)
    .where('type', '=', type as 'expense')
    .where('archived_at', 'is', null);
  if (subtype) q = q.where('subtype', '=', subtype);
  return (await q.orderBy('code').executeTakeFirstOrThrow()).id;
};

const create = async (body: Record<string, unknown>) => {
  const res = await fixture.client.post('/suppliers', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};

const auditActions = async (entityId: string) =>
  (
    await fixture.t.database.db
      .selectFrom('audit_log')
      .select(['action'])
      .where('organization_id', '=', fixture.company.id)
      .where('entity_id', '=', entityId)
      .orderBy('created_at')
      .execute()
  ).map((r) => r.action);

describe('suppliers', () => {
  it('creates a supplier with the base currency and 30-day terms by default', async () => {
    const s = await create({ name: '  Acme Paper  ', email: 'Accounts@ACME.example' });
    expect(s).toMatchObject({
      name: 'Acme Paper',
      email: 'accounts@acme.example',
      currency: 'USD',
      paymentTermsDays: 30,
      archived: false,
      balance: 0,
      credit: 0,
      defaultAccountId: null,
      defaultTaxRateId: null,
    });
    expect(await auditActions(s.id)).toEqual(['supplier.created']);
    const read = await fixture.client.get(`/suppliers/${s.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(s);
  });

  it('keeps every field, with an expense default account and the company tax rate', async () => {
    const expense = await accountOfType('expense');
    const cogs = await accountOfType('expense', 'cost_of_sales');
    const asset = await accountOfType('asset');
    const s = await create({
      name: 'Globex Supplies',
      company: 'Globex Ltd',
      phone: '+44 20 7946 0000',
      address: '1 Main St\nLondon',
      taxNumber: 'GB123456789',
      currency: 'eur',
      paymentTermsDays: 0,
      defaultAccountId: expense,
      defaultTaxRateId: fixture.fx.taxRateId,
      bankAccountName: 'Globex Ltd',
      bankAccountNumber: 'GB29NWBK60161331926819',
      bankCode: 'NWBKGB2L',
      notes: 'Pays by transfer',
    });
    expect(s).toMatchObject({
      currency: 'EUR',
      paymentTermsDays: 0,
      defaultAccountId: expense,
      defaultTaxRateId: fixture.fx.taxRateId,
      bankAccountNumber: 'GB29NWBK60161331926819',
      address: '1 Main St\nLondon',
    });
    await create({ name: 'Cost of sales supplier', defaultAccountId: cogs });
    await create({ name: 'Asset supplier', defaultAccountId: asset });
  });

  it('refuses a default account that is not an expense or asset account, or not the company’s', async () => {
    const income = await accountOfType('income');
    const bad = await fixture.client.post('/suppliers', { name: 'Wrong account', defaultAccountId: income });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_account');
    expect(bad.body.error.message).toMatch(/expense, cost of sales or asset account/);
    const missing = await fixture.client.post('/suppliers', { name: 'Missing', defaultAccountId: 'nope' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.code).toBe('account_not_found');
    const tax = await fixture.client.post('/suppliers', { name: 'Missing tax', defaultTaxRateId: 'nope' });
    expect(tax.status).toBe(400);
    expect(tax.body.error.code).toBe('tax_rate_not_found');
    const currency = await fixture.client.post('/suppliers', { name: 'Bad currency', currency: 'XYZ' });
    expect(currency.status).toBe(400);
    const terms = await fixture.client.post('/suppliers', { name: 'Bad terms', paymentTermsDays: 400 });
    expect(terms.status).toBe(400);
    const email = await fixture.client.post('/suppliers', { name: 'Bad email', email: 'not-an-email' });
    expect(email.status).toBe(400);
    const list = await fixture.client.get('/suppliers?search=Wrong');
    expect(list.body.totalCount).toBe(0);
  });

  it('lists, searches by name, company and email, and hides archived suppliers unless asked', async () => {
    const a = await create({ name: 'Zeta Cleaning', company: 'Spotless Group', email: 'zeta@clean.example' });
    const b = await create({ name: 'Omega Cleaning' });
    expect(
      (await fixture.client.get('/suppliers?search=spotless')).body.suppliers.map(
        (s: { id: string }) => s.id,
      ),
    ).toEqual([a.id]);
    expect(
      (await fixture.client.get('/suppliers?search=clean.example')).body.suppliers.map(
        (s: { id: string }) => s.id,
      ),
    ).toEqual([a.id]);
    expect((await fixture.client.get('/suppliers?search=cleaning')).body.totalCount).toBe(2);
    // LIKE wildcards are text.
    expect((await fixture.client.get('/suppliers?search=%25')).body.totalCount).toBe(0);

    const archived = await fixture.client.patch(`/suppliers/${b.id}`, { archived: true });
    expect(archived.status).toBe(200);
    expect(archived.body.archived).toBe(true);
    expect((await fixture.client.get('/suppliers?search=cleaning')).body.totalCount).toBe(1);
    const all = await fixture.client.get('/suppliers?search=cleaning&includeArchived=true');
    expect(all.body.suppliers.map((s: { name: string }) => s.name)).toEqual([
      'Omega Cleaning',
      'Zeta Cleaning',
    ]);
    const restored = await fixture.client.patch(`/suppliers/${b.id}`, { archived: false });
    expect(restored.body.archived).toBe(false);
    const edited = await fixture.client.patch(`/suppliers/${b.id}`, {
      phone: '555-0100',
      paymentTermsDays: 14,
    });
    expect(edited.body).toMatchObject({ phone: '555-0100', paymentTermsDays: 14, name: 'Omega Cleaning' });
    expect(await auditActions(b.id)).toEqual([
      'supplier.created',
      'supplier.archived',
      'supplier.restored',
      'supplier.updated',
    ]);

    const paged = await fixture.client.get('/suppliers?pageSize=1&page=2');
    expect(paged.body.suppliers).toHaveLength(1);
    expect(paged.body.page).toBe(2);
    expect(paged.body.totalCount).toBeGreaterThan(2);
  });

  it('changes a supplier’s currency until they have a bill, then refuses saying why', async () => {
    const s = await create({ name: 'Currency Co' });
    const changed = await fixture.client.patch(`/suppliers/${s.id}`, { currency: 'GBP' });
    expect(changed.status).toBe(200);
    expect(changed.body.currency).toBe('GBP');
    // A bill row, written directly: this test is about the supplier, not how bills are made.
    const expense = await accountOfType('expense');
    await fixture.t.database.db
      .insertInto('bills')
      .values({
        organization_id: fixture.company.id,
        id: 'bill-currency-lock',
        number: 'BILL-LOCK',
        supplier_id: s.id,
        issue_date: '2026-03-01',
        due_date: '2026-03-31',
        currency: 'GBP',
        created_by: fixture.company.owner.id,
      })
      .execute();
    expect(expense).toBeTruthy();
    const locked = await fixture.client.patch(`/suppliers/${s.id}`, { currency: 'USD' });
    expect(locked.status).toBe(400);
    expect(locked.body.error.code).toBe('supplier_currency_locked');
    expect(locked.body.error.message).toMatch(/already has bills in GBP/);
    expect((await fixture.client.get(`/suppliers/${s.id}`)).body.currency).toBe('GBP');
    // Sending the same currency is not a change.
    expect((await fixture.client.patch(`/suppliers/${s.id}`, { currency: 'GBP', notes: 'ok' })).status).toBe(
      200,
    );
  });

  it('lets a viewer read but not create or edit, and a member create', async () => {
    const s = await create({ name: 'Roles Supplier' });
    const viewer = await addTestMember(fixture.t.app, fixture.company, 'viewer');
    const asViewer = api(fixture.t.app, fixture.company, viewer.cookie);
    expect((await asViewer.get('/suppliers')).status).toBe(200);
    expect((await asViewer.get(`/suppliers/${s.id}`)).status).toBe(200);
    expect((await asViewer.post('/suppliers', { name: 'Viewer made' })).status).toBe(403);
    expect((await asViewer.patch(`/suppliers/${s.id}`, { archived: true })).status).toBe(403);
    expect((await asViewer.post('/suppliers/import', { csv: 'name\nX' })).status).toBe(403);
    const member = await addTestMember(fixture.t.app, fixture.company, 'member');
    const asMember = api(fixture.t.app, fixture.company, member.cookie);
    expect((await asMember.post('/suppliers', { name: 'Member made' })).status).toBe(201);
  });

  it("answers 404 for another company's supplier and never lists it", async () => {
    const other = await createTestCompany(fixture.t.app, { name: 'Other Co' });
    await ensureLedger(fixture.t.database, other);
    const otherClient = api(fixture.t.app, other);
    const theirs = await otherClient.post('/suppliers', { name: 'Their Secret Supplier' });
    expect(theirs.status).toBe(201);
    const id = theirs.body.id;
    expect((await fixture.client.get(`/suppliers/${id}`)).status).toBe(404);
    expect((await fixture.client.patch(`/suppliers/${id}`, { name: 'Hijacked' })).status).toBe(404);
    expect((await fixture.client.get(`/suppliers/${id}/statement`)).status).toBe(404);
    expect((await fixture.client.get(`/suppliers/${id}/statement.csv`)).status).toBe(404);
    expect((await fixture.client.get('/suppliers?search=Secret')).body.totalCount).toBe(0);
    // Their supplier is untouched; and our owner cannot reach their routes at all.
    expect((await otherClient.get(`/suppliers/${id}`)).body.name).toBe('Their Secret Supplier');
    const cross = await fixture.t.app.inject({
      method: 'GET',
      url: `/api/orgs/${other.id}/suppliers/${id}`,
      headers: { cookie: fixture.company.owner.cookie },
    });
    expect([403, 404]).toContain(cross.statusCode);
    // Another company's tax rate is not a default.
    const taxRate = await otherClient.post('/tax-rates', { name: 'Their VAT', percent: '10' });
    const refused = await fixture.client.post('/suppliers', {
      name: 'Borrow tax',
      defaultTaxRateId: taxRate.body.id,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('tax_rate_not_found');
  });
});
