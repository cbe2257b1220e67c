import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { PlanId } from '../../../shared/plans.ts';
import { expectRefusal, uploadToCompanyRoute } from '../../testing/api.ts';
import { setUpTestInvoicing } from '../../testing/invoices.ts';
import { signUpTestUser } from '../../testing/users.ts';
import { accountUsage, describeBytes, utcMonthRange } from './limits.ts';

// Plan limits (issue 16 §1): each refuses at the limit with 402 plan_limit and its details,
// changes nothing, and a higher plan (granted by a code or subscribed) lifts it.

const fixture = setUpTestInvoicing({ name: 'Limits Ltd', now: '2026-03-10T12:00:00Z' });
const DAY = 86_400_000;
const GB = 1024 * 1024 * 1024;

const db = () => fixture.t.database.db;
const ownerId = () => fixture.company.owner.id;

/** The owner's account on a trial of `plan` (no grant, no subscription). */
const trialOn = (plan: PlanId) =>
  db()
    .updateTable('billing_accounts')
    .set({
      plan,
      status: 'trialing',
      granted_plan: null,
      granted_until: null,
      subscription_id: null,
      trial_ends_at: new Date(fixture.t.clock.now().getTime() + 10 * DAY),
    })
    .where('user_id', '=', ownerId())
    .execute();

const grant = (plan: PlanId) =>
  db()
    .updateTable('billing_accounts')
    .set({ granted_plan: plan, granted_until: new Date(fixture.t.clock.now().getTime() + 30 * DAY) })
    .where('user_id', '=', ownerId())
    .execute();

const countRows = async (table: 'organizations' | 'organization_invitations' | 'journal_attachments') =>
  Number(
    (
      await db()
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

const createCompany = (name: string) =>
  fixture.t.app.inject({
    method: 'POST',
    url: '/api/orgs',
    headers: { cookie: fixture.company.owner.cookie },
    payload: { name, baseCurrency: 'USD', fiscalYearStartMonth: 1 },
  });

const draftInvoice = async () => {
  const res = await fixture.client.post('/invoices', {
    customerId: fixture.fx.customerId,
    issueDate: '2026-03-10',
    lines: [{ itemId: fixture.fx.itemId, quantity: '1', unitPrice: 12_500 }],
  });
  if (res.status !== 201) throw new Error(`draft: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as string;
};

describe('plan limits', () => {
  it('refuses a company past the plan, naming the plan that lifts it, and a grant lifts it', async () => {
    await trialOn('personal');
    const before = await countRows('organizations');
    const refused = await createCompany('Second Ltd');
    expect(refused.statusCode, refused.body).toBe(402);
    const error = refused.json().error;
    expect(error.code).toBe('plan_limit');
    expect(error.message).toBe(
      'Your Personal plan allows 1 company. Upgrade to Business in Billing to add more companies.',
    );
    expect(error.details).toEqual({
      limit: 'companies',
      used: 1,
      allowed: 1,
      plan: 'personal',
      upgradeTo: 'business',
    });
    expect(await countRows('organizations')).toBe(before);

    await grant('business');
    const created = await createCompany('Second Ltd');
    expect(created.statusCode, created.body).toBe(201);
  });

  it('counts members and pending invitations; refuses an invitation and an accept past the plan', async () => {
    await trialOn('personal');
    const invitee = await signUpTestUser(fixture.t.app, { verified: true });
    const before = await countRows('organization_invitations');
    const refused = await fixture.client.post('/invitations', { email: invitee.email, role: 'accountant' });
    expectRefusal(refused, 402, 'plan_limit');
    expect(refused.body.error.details).toEqual({
      limit: 'members',
      used: 1,
      allowed: 1,
      plan: 'personal',
      upgradeTo: 'business',
    });
    expect(refused.body.error.message).toMatch(/^Your Personal plan allows 1 member in a company/);
    expect(await countRows('organization_invitations')).toBe(before);

    // Business (a subscription now) lets the invitation go out…
    await db()
      .updateTable('billing_accounts')
      .set({ plan: 'business', status: 'active', subscription_id: 'sub_limits_test' })
      .where('user_id', '=', ownerId())
      .execute();
    const invited = await fixture.client.post('/invitations', { email: invitee.email, role: 'accountant' });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);

    // …but after a move back to Personal it cannot be accepted: the invitation stays pending.
    await trialOn('personal');
    const accept = () =>
      fixture.t.app.inject({
        method: 'POST',
        url: `/api/invitations/${invited.body.id}/accept`,
        headers: { cookie: invitee.cookie },
      });
    const refusedAccept = await accept();
    expect(refusedAccept.statusCode, refusedAccept.body).toBe(402);
    expect(refusedAccept.json().error.details.limit).toBe('members');
    const members = () =>
      db()
        .selectFrom('organization_members')
        .select('user_id')
        .where('organization_id', '=', fixture.company.id)
        .execute();
    expect(await members()).toHaveLength(1);

    await grant('business');
    const accepted = await accept();
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(await members()).toHaveLength(2);
  });

  it('refuses issuing the invoice past the month, keeps drafts, and counts again next month', async () => {
    await trialOn('personal');
    const first = await draftInvoice();
    expect((await fixture.client.post(`/invoices/${first}/send`, {})).status).toBe(200);
    // 49 more issued this month: copies of the sent one (the count reads when it was issued).
    const { rows: columns } = await sql<{ column_name: string }>`
      select column_name from information_schema.columns
      where table_schema = current_schema() and table_name = 'invoices' and is_generated = 'NEVER'
        and generation_expression is null`.execute(db());
    const list = sql.join(columns.map((c) => sql.ref(c.column_name)));
    await sql`create temp table limit_clone as select * from invoices where organization_id = ${fixture.company.id} and id = ${first}`.execute(
      db(),
    );
    for (let i = 1; i < 50; i += 1) {
      await sql`update limit_clone set id = ${randomUUID()}, number = ${`CLONE-${i}`}`.execute(db());
      await sql`insert into invoices (${list}) select ${list} from limit_clone`.execute(db());
    }
    const draft = await draftInvoice();
    const refused = await fixture.client.post(`/invoices/${draft}/send`, {});
    expectRefusal(refused, 402, 'plan_limit');
    expect(refused.body.error.details).toEqual({
      limit: 'invoicesPerMonth',
      used: 50,
      allowed: 50,
      plan: 'personal',
      upgradeTo: 'business',
    });
    expect(refused.body.error.message).toMatch(/allows 50 invoices a month, and this company has issued 50/);
    const still = await fixture.client.get(`/invoices/${draft}`);
    expect(still.body.status).toBe('draft');
    expect(still.body.number).toBeNull();

    // Drafting is not limited.
    expect(await draftInvoice()).toBeTruthy();

    // Next calendar month (UTC) the count starts again.
    fixture.t.clock.set('2026-04-01T00:00:01Z');
    await trialOn('personal');
    const sent = await fixture.client.post(`/invoices/${draft}/send`, {});
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    fixture.t.clock.set('2026-03-31T23:59:00Z');
  });

  it('refuses an attachment past the storage and lifts it on a higher plan', async () => {
    await trialOn('personal');
    const entry = await db()
      .selectFrom('journal_entries')
      .select('id')
      .where('organization_id', '=', fixture.company.id)
      .limit(1)
      .executeTakeFirstOrThrow();
    // Nearly 1 GB stored already (the bytes themselves are not needed to count them).
    await db()
      .insertInto('journal_attachments')
      .values({
        organization_id: fixture.company.id,
        id: randomUUID(),
        entry_id: entry.id,
        file_name: 'archive.pdf',
        content_type: 'application/pdf',
        size_bytes: GB - 100,
        sha256: '0'.repeat(64),
        data: Buffer.from('x'),
        created_by: ownerId(),
      })
      .execute();
    const before = await countRows('journal_attachments');
    const upload = () =>
      uploadToCompanyRoute(
        fixture.t.app,
        fixture.company,
        `/journal-entries/${entry.id}/attachments`,
        {},
        { name: 'receipt.txt', bytes: new TextEncoder().encode('Coffee 4.50\n'.repeat(20)) },
      );
    const refused = await upload();
    expectRefusal(refused, 402, 'plan_limit');
    expect(refused.body.error.details).toEqual({
      limit: 'storageBytes',
      used: GB - 100,
      allowed: GB,
      plan: 'personal',
      upgradeTo: 'business',
    });
    expect(refused.body.error.message).toMatch(/allows 1 GB of attachments/);
    expect(await countRows('journal_attachments')).toBe(before);

    await grant('business');
    const stored = await upload();
    expect(stored.status, JSON.stringify(stored.body)).toBe(201);
  });

  it("reports the account's usage against each limit", async () => {
    await trialOn('personal');
    const usage = await accountUsage(db(), ownerId(), 'personal', fixture.t.clock.now());
    const byKey = Object.fromEntries(usage.map((u) => [u.key, u]));
    expect(usage.map((u) => u.key)).toEqual([
      'companies',
      'members',
      'invoicesPerMonth',
      'bankFeeds',
      'storageBytes',
    ]);
    expect(byKey.companies).toMatchObject({ used: 2, limit: 1, label: 'Companies' });
    expect(byKey.members).toMatchObject({ used: 2, limit: 1 });
    // March (the clock is back in it): the 50 issued then.
    expect(byKey.invoicesPerMonth).toMatchObject({ used: 50, limit: 50 });
    expect(byKey.bankFeeds).toMatchObject({ used: 0, limit: 2 });
    expect(byKey.storageBytes?.used).toBeGreaterThan(GB - 100);
    // Nothing was deleted when limits were hit, and an over-limit account keeps all of it.
    expect((await fixture.client.get('/invoices')).status).toBe(200);
  });
});

describe('limit helpers', () => {
  it('describes bytes and bounds the UTC month', () => {
    expect(describeBytes(GB)).toBe('1 GB');
    expect(describeBytes(1.5 * 1024 * 1024)).toBe('1.5 MB');
    expect(describeBytes(12)).toBe('12 B');
    const { from, to } = utcMonthRange(new Date('2026-12-31T23:59:59Z'));
    expect(from.toISOString()).toBe('2026-12-01T00:00:00.000Z');
    expect(to.toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });
});
