import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READ_ONLY_MESSAGE } from '../../../shared/billing.ts';
import { type TestApp, callCompanyRoute, expectRefusal } from '../../testing/api.ts';
import { createTestApp } from '../../testing/app.ts';
import { type TestCompany, addTestMember, createTestCompany } from '../../testing/companies.ts';
import { type TestUser, signUpTestUser, verifyTestUser } from '../../testing/users.ts';

// The read-only account (issue 16 §2): a trial that ends without a subscription keeps the data,
// refuses every change (402 account_read_only) to the companies it pays for, for every member,
// while reads, CSV exports and billing still work; subscribing again restores writes.

const DAY = 86_400_000;
let t: TestApp;
let company: TestCompany;
let member: TestUser;
let customerId: string;

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, user?: TestUser) =>
  callCompanyRoute(t.app, company, method, url, payload, user ?? company.owner);

const count = async (table: 'customers' | 'organizations' | 'suppliers', organizationId?: string) => {
  let q = t.database.db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n'));
  if (organizationId) q = q.where('organization_id' as never, '=', organizationId as never);
  return Number((await q.executeTakeFirstOrThrow()).n);
};

const createCompanyAs = (user: TestUser, name: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/orgs',
    headers: { cookie: user.cookie },
    payload: { name, baseCurrency: 'USD', fiscalYearStartMonth: 1 },
  });

beforeAll(async () => {
  t = await createTestApp();
  t.clock.set('2026-03-10T12:00:00Z');
  // The owner keeps the plain trial a real sign-up gets; the member has a grant of their own.
  company = await createTestCompany(t.app, { name: 'Trial Books Ltd', billing: 'trial' });
  await verifyTestUser(t.app, company.owner);
  member = await addTestMember(t.app, company, 'admin');
  const customer = await call('POST', '/customers', { name: 'Northwind', email: 'ap@northwind.example' });
  expect(customer.status).toBe(201);
  customerId = customer.body.id;
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('read-only account', () => {
  it('allows changes during the trial', async () => {
    const res = await call('PATCH', `/customers/${customerId}`, { name: 'Northwind Traders' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it('refuses every change once the trial is over, for the owner and members, and keeps the data', async () => {
    t.clock.advance(15 * DAY);
    const customersBefore = await count('customers', company.id);
    const companiesBefore = await count('organizations');

    const created = await call('POST', '/customers', { name: 'Contoso', email: 'ap@contoso.example' });
    expectRefusal(created, 402, 'account_read_only');
    expect(created.body.error.message).toBe(READ_ONLY_MESSAGE);
    expectRefusal(
      await call('PATCH', `/customers/${customerId}`, { name: 'Renamed' }),
      402,
      'account_read_only',
    );
    expectRefusal(await call('PATCH', '', { name: 'Renamed Ltd' }), 402, 'account_read_only');
    expectRefusal(
      await call('POST', '/invitations', { email: 'x@example.com', role: 'viewer' }),
      402,
      'account_read_only',
    );
    expectRefusal(await call('DELETE', `/members/${member.id}`), 402, 'account_read_only');
    // A member of the read-only owner's company is read-only there too.
    expectRefusal(
      await call('POST', '/customers', { name: 'By member', email: 'm@contoso.example' }, member),
      402,
      'account_read_only',
    );
    // A bad body still gets the 402: nothing would be written either way.
    expectRefusal(await call('POST', '/customers', { name: '' }), 402, 'account_read_only');
    // Creating another company is refused too.
    const another = await createCompanyAs(company.owner, 'Second Ltd');
    expect(another.statusCode).toBe(402);
    expect(another.json().error.code).toBe('account_read_only');

    expect(await count('customers', company.id)).toBe(customersBefore);
    expect(await count('organizations')).toBe(companiesBefore);
    const kept = await call('GET', `/customers/${customerId}`);
    expect(kept.body.customer.name).toBe('Northwind Traders');
  });

  it('still answers reads, CSV exports, dry runs and billing', async () => {
    expect((await call('GET', '/customers')).status).toBe(200);
    expect((await call('GET', '', undefined, member)).status).toBe(200);
    const csv = await t.app.inject({
      method: 'GET',
      url: `/api/orgs/${company.id}/customers/${customerId}/statement.csv`,
      headers: { cookie: company.owner.cookie },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    // A supplier import's dry run checks and saves nothing: allowed; the real import is not.
    const csvText = 'name,email\nAcme Supplies,ap@acme.example\n';
    const dry = await call('POST', '/suppliers/import', { csv: csvText, dryRun: true });
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body.dryRun).toBe(true);
    expectRefusal(await call('POST', '/suppliers/import', { csv: csvText }), 402, 'account_read_only');
    expect(await count('suppliers', company.id)).toBe(0);

    const billing = await t.app.inject({
      method: 'GET',
      url: '/api/billing',
      headers: { cookie: company.owner.cookie },
    });
    expect(billing.statusCode).toBe(200);
    expect(billing.json().access).toBe('read_only');
  });

  it("does not touch the member's own account: their own company takes changes", async () => {
    const own = await createCompanyAs(member, 'Member Co');
    expect(own.statusCode, own.body).toBe(201);
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/orgs/${own.json().id}/customers`,
      headers: { cookie: member.cookie },
      payload: { name: 'Fabrikam', email: 'ap@fabrikam.example' },
    });
    expect(res.statusCode, res.body).toBe(201);
  });

  it('refuses accepting an invitation into a read-only company', async () => {
    // Sent before the account turned read-only: written straight, as the invite route is blocked.
    const invitee = await signUpTestUser(t.app, { verified: true });
    await t.database.db
      .insertInto('organization_invitations')
      .values({
        organization_id: company.id,
        id: 'inv-read-only',
        email: invitee.email,
        role: 'viewer',
        invited_by: company.owner.id,
        expires_at: new Date(t.clock.now().getTime() + 7 * DAY),
      })
      .execute();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/invitations/inv-read-only/accept',
      headers: { cookie: invitee.cookie },
    });
    expect(res.statusCode, res.body).toBe(402);
    expect(res.json().error.code).toBe('account_read_only');
    const row = await t.database.db
      .selectFrom('organization_invitations')
      .select('status')
      .where('id', '=', 'inv-read-only')
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('pending');
    const joined = await t.database.db
      .selectFrom('organization_members')
      .select('user_id')
      .where('organization_id', '=', company.id)
      .where('user_id', '=', invitee.id)
      .execute();
    expect(joined).toEqual([]);
  });

  it('restores writes once the account subscribes again', async () => {
    await t.database.db
      .updateTable('billing_accounts')
      .set({
        status: 'active',
        subscription_id: 'sub_read_only_test',
        customer_id: 'cus_read_only_test',
        current_period_end: new Date(t.clock.now().getTime() + 30 * DAY),
      })
      .where('user_id', '=', company.owner.id)
      .execute();
    const created = await call('POST', '/customers', { name: 'Contoso', email: 'ap@contoso.example' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const byMember = await call('PATCH', `/customers/${created.body.id}`, { name: 'Contoso Ltd' }, member);
    expect(byMember.status, JSON.stringify(byMember.body)).toBe(200);
  });

  it('turns read-only again when the subscription ends, with its own reason', async () => {
    await t.database.db
      .updateTable('billing_accounts')
      .set({ status: 'canceled' })
      .where('user_id', '=', company.owner.id)
      .execute();
    const res = await call('POST', '/customers', { name: 'Late', email: 'late@example.com' });
    expectRefusal(res, 402, 'account_read_only');
    expect(res.body.error.message).toMatch(/subscription has ended/);
  });
});
