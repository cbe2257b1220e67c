import { describe, expect, it } from 'vitest';
import { expectRefusal } from '../../testing/api.ts';
import { createTestCompany } from '../../testing/companies.ts';
import { expenseAccountBody } from '../../testing/ledger.ts';
import { setUpTestApp } from '../../testing/per-file-app.ts';
import { type TestUser, signUpTestUser } from '../../testing/users.ts';
import { ensureBillingAccount } from '../billing/account.ts';

// The admin console's other areas (docs/admin.md): promo codes, contact messages,
// subscriptions, the audit log across companies (and CSV), admin actions and system status.
// Every change writes admin_audit_log; bad input is a 4xx that changes nothing.

const ROOT = 'console-admin@example.com';
const DAY = 24 * 60 * 60 * 1000;

describe('admin console: promo codes, inbox, subscriptions, audit, system', () => {
  const t = setUpTestApp({ env: { ADMIN_EMAILS: ROOT } });
  let root: TestUser;
  const call = async (method: string, url: string, payload?: unknown, user: TestUser = root) => {
    const res = await t.app.inject({
      method: method as 'GET',
      url,
      headers: { cookie: user.cookie },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
    const isJson = String(res.headers['content-type'] ?? '').includes('json');
    return { status: res.statusCode, body: isJson ? res.json() : res.body, headers: res.headers };
  };
  const actionRows = () => t.database.db.selectFrom('admin_audit_log').selectAll().orderBy('id').execute();
  const promoRows = () => t.database.db.selectFrom('promo_codes').selectAll().execute();

  it('creates promo codes of each kind, refusing bad input with nothing written', async () => {
    root = await signUpTestUser(t.app, { email: ROOT });
    const bad = [
      { code: 'AB', kind: 'plan_access', planAccess: 'business' },
      { code: 'GOOD-CODE-1', kind: 'discount', planAccess: 'business' },
      { code: 'GOOD-CODE-2', kind: 'trial_extension', planAccess: 'business' },
      { code: 'GOOD-CODE-3', kind: 'discount', planAccess: 'business', percentOff: 150 },
      { code: 'GOOD-CODE-4', kind: 'plan_access', planAccess: 'gold' },
      { code: 'GOOD-CODE-5', kind: 'bogus', planAccess: 'business' },
      { code: 'GOOD-CODE-6', kind: 'plan_access', planAccess: 'business', expiresOn: '2026-02-30' },
    ];
    for (const body of bad) {
      const res = await call('POST', '/api/admin/promo-codes', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect(await promoRows()).toEqual([]);
    expect(await actionRows()).toEqual([]);

    const created = await call('POST', '/api/admin/promo-codes', {
      code: 'spring-50',
      kind: 'discount',
      planAccess: 'business',
      percentOff: 50,
      trialDays: 30,
      description: 'Half off',
      expiresOn: '2099-04-30',
      maxRedemptions: 2,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({
      code: 'SPRING-50',
      kind: 'discount',
      percentOff: 50,
      trialDays: null,
      accessDays: null,
      expiresAt: '2099-04-30T23:59:59.999Z',
      maxRedemptions: 2,
      redemptionCount: 0,
      state: 'active',
    });
    const trial = await call('POST', '/api/admin/promo-codes', {
      code: 'LONGTRIAL',
      kind: 'trial_extension',
      planAccess: 'personal',
      trialDays: 30,
    });
    expect(trial.body).toMatchObject({ kind: 'trial_extension', trialDays: 30 });
    expectRefusal(
      await call('POST', '/api/admin/promo-codes', {
        code: 'longtrial',
        kind: 'plan_access',
        planAccess: 'business',
      }),
      409,
      'promo_exists',
    );
    const list = await call('GET', '/api/admin/promo-codes');
    expect(list.body.promoCodes.map((p: { code: string }) => p.code).sort()).toEqual([
      'LONGTRIAL',
      'SPRING-50',
    ]);
    const actions = await actionRows();
    expect(actions.map((a) => [a.action, a.target_id, a.admin_user_id])).toEqual([
      ['promo.created', 'SPRING-50', root.id],
      ['promo.created', 'LONGTRIAL', root.id],
    ]);
  });

  it('edits, expires and lists the redemptions of a code', async () => {
    expectRefusal(
      await call('PATCH', '/api/admin/promo-codes/NOPE-NOPE', { description: 'x' }),
      404,
      'not_found',
    );
    // Changing the kind to a discount without a percent: 400, unchanged.
    expectRefusal(
      await call('PATCH', '/api/admin/promo-codes/longtrial', { kind: 'discount' }),
      400,
      'promo_percent_off',
    );
    expect((await promoRows()).find((p) => p.code === 'LONGTRIAL')).toMatchObject({
      kind: 'trial_extension',
    });
    const edited = await call('PATCH', '/api/admin/promo-codes/longtrial', {
      kind: 'plan_access',
      planAccess: 'enterprise',
      accessDays: 90,
      description: 'Enterprise for a quarter',
      expiresOn: null,
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body).toMatchObject({
      code: 'LONGTRIAL',
      kind: 'plan_access',
      planAccess: 'enterprise',
      accessDays: 90,
      trialDays: null,
      expiresAt: null,
    });
    const user = await signUpTestUser(t.app);
    const redeemed = await t.app.inject({
      method: 'POST',
      url: '/api/promo-codes/redeem',
      headers: { cookie: user.cookie },
      payload: { code: 'LONGTRIAL' },
    });
    expect(redeemed.statusCode, redeemed.body).toBe(200);
    const redemptions = await call('GET', '/api/admin/promo-codes/longtrial/redemptions');
    expect(redemptions.body.redemptions).toEqual([
      { userId: user.id, email: user.email, kind: expect.any(String), redeemedAt: expect.any(String) },
    ]);
    const expired = await call('POST', '/api/admin/promo-codes/LONGTRIAL/expire');
    expect(expired.body).toMatchObject({ state: 'expired', redemptionCount: 1 });
    const validate = await t.app.inject({
      method: 'POST',
      url: '/api/promo-codes/validate',
      payload: { code: 'LONGTRIAL' },
    });
    expect(validate.json().valid).toBe(false);
    const actions = (await actionRows()).filter((a) => a.target_id === 'LONGTRIAL').map((a) => a.action);
    expect(actions).toEqual(['promo.created', 'promo.updated', 'promo.expired']);
  });

  it('keeps the contact inbox: unread count, read and replied state', async () => {
    const send = (n: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/contact',
        headers: { 'x-forwarded-for': `198.51.100.${n}` },
        payload: {
          name: `Sender ${n}`,
          email: `sender${n}@example.com`,
          message: `Hello, question number ${n}.`,
        },
      });
    for (const n of [1, 2, 3]) expect((await send(n)).statusCode).toBe(201);
    const inbox = await call('GET', '/api/admin/contact-messages?limit=2');
    expect(inbox.body.unread).toBe(3);
    expect(inbox.body.messages.map((m: { name: string }) => m.name)).toEqual(['Sender 3', 'Sender 2']);
    const rest = await call('GET', `/api/admin/contact-messages?limit=2&cursor=${inbox.body.nextCursor}`);
    expect(rest.body.messages.map((m: { name: string }) => m.name)).toEqual(['Sender 1']);
    const id = inbox.body.messages[0].id;
    const replied = await call('PATCH', `/api/admin/contact-messages/${id}`, { replied: true });
    expect(replied.body).toMatchObject({ readAt: expect.any(String), repliedAt: expect.any(String) });
    const unread = await call('GET', '/api/admin/contact-messages?status=unread');
    expect(unread.body.unread).toBe(2);
    expect(unread.body.messages.map((m: { id: string }) => m.id)).not.toContain(id);
    const back = await call('PATCH', `/api/admin/contact-messages/${id}`, { read: false, replied: false });
    expect(back.body).toMatchObject({ readAt: null, repliedAt: null });
    expectRefusal(
      await call('PATCH', '/api/admin/contact-messages/not-a-uuid', { read: true }),
      404,
      'not_found',
    );
    expectRefusal(
      await call('PATCH', '/api/admin/contact-messages/00000000-0000-0000-0000-000000000000', { read: true }),
      404,
      'not_found',
    );
    expectRefusal(
      await call('PATCH', `/api/admin/contact-messages/${id}`, { read: 'yes' }),
      400,
      'validation_failed',
    );
    expect((await actionRows()).filter((a) => a.action === 'contact.updated')).toHaveLength(2);
  });

  it('lists subscriptions with MRR and sums them up: statuses, read-only, trials ending, churn', async () => {
    const db = t.database.db;
    await db.deleteFrom('billing_accounts').execute();
    const now = t.clock.now();
    const account = async (
      plan: 'personal' | 'business' | 'enterprise',
      interval: 'monthly' | 'yearly',
      set: Record<string, unknown>,
      created = now,
    ) => {
      const user = await signUpTestUser(t.app);
      await db.deleteFrom('billing_accounts').where('user_id', '=', user.id).execute();
      await ensureBillingAccount(db, user.id, created, { plan, interval });
      await db
        .updateTable('billing_accounts')
        .set({ ...set, created_at: created })
        .where('user_id', '=', user.id)
        .execute();
      return user;
    };
    const old = new Date(now.getTime() - 60 * DAY);
    const active = await account('business', 'monthly', { status: 'active', subscription_id: 'sub_1' }, old);
    await account('enterprise', 'yearly', { status: 'past_due', subscription_id: 'sub_2' }, old);
    await account(
      'personal',
      'monthly',
      {
        status: 'canceled',
        subscription_id: 'sub_3',
        canceled_at: new Date(now.getTime() - 3 * DAY),
      },
      old,
    );
    const ending = await account('personal', 'yearly', { trial_ends_at: new Date(now.getTime() + 3 * DAY) });
    await account('business', 'yearly', { trial_ends_at: new Date(now.getTime() - DAY) });

    const list = await call('GET', '/api/admin/subscriptions?limit=100');
    expect(list.status).toBe(200);
    const byUser = new Map(list.body.subscriptions.map((s: { userId: string }) => [s.userId, s]));
    expect(byUser.get(active.id)).toMatchObject({ plan: 'business', status: 'active', mrr: 4900 });
    expect(
      list.body.subscriptions.map((s: { mrr: number }) => s.mrr).sort((a: number, b: number) => a - b),
    ).toEqual([0, 0, 0, 4900, 12416]);
    const readOnly = await call('GET', '/api/admin/subscriptions?status=read_only');
    // The lapsed trial and the canceled subscription.
    expect(readOnly.body.subscriptions).toHaveLength(2);
    expectRefusal(await call('GET', '/api/admin/subscriptions?status=gold'), 400, 'validation_failed');

    const summary = await call('GET', '/api/admin/subscriptions/summary');
    expect(summary.body).toMatchObject({
      currency: 'USD',
      mrr: 4900 + 12416,
      byStatus: { active: 1, past_due: 1, canceled: 1, trialing: 2, read_only: 2 },
      churn30Days: { canceled: 1, activeAtStart: 3, rate: 33.3 },
    });
    expect(summary.body.trialsEndingThisWeek).toEqual([
      { userId: ending.id, email: ending.email, plan: 'personal', trialEndsAt: expect.any(String) },
    ]);
  });

  it('searches the audit log across companies and exports it as CSV', async () => {
    const a = await createTestCompany(t.app, { name: '=Formula Co' });
    const b = await createTestCompany(t.app, { name: 'Other Co' });
    const account = await t.app.inject({
      method: 'POST',
      url: `/api/orgs/${a.id}/accounts`,
      headers: { cookie: a.owner.cookie },
      payload: expenseAccountBody('6123', 'Snacks'),
    });
    expect(account.statusCode, account.body).toBe(201);
    const all = await call('GET', '/api/admin/audit?limit=200');
    expect(all.status).toBe(200);
    const orgs = new Set(all.body.entries.map((e: { organizationId: string }) => e.organizationId));
    expect(orgs.has(a.id) && orgs.has(b.id)).toBe(true);
    const onlyA = await call('GET', `/api/admin/audit?organizationId=${a.id}`);
    expect(onlyA.body.entries.length).toBeGreaterThan(0);
    for (const e of onlyA.body.entries) {
      expect(e).toMatchObject({ organizationId: a.id, organizationName: '=Formula Co' });
    }
    const action = onlyA.body.entries[0].action as string;
    const byAction = await call('GET', `/api/admin/audit?action=${action}&userId=${a.owner.id}`);
    expect(byAction.body.entries.length).toBeGreaterThan(0);
    for (const e of byAction.body.entries)
      expect(e).toMatchObject({ action, actorUserId: a.owner.id, actorEmail: a.owner.email });
    const prefix = `${action.split('.')[0]}.`;
    expect(
      (await call('GET', `/api/admin/audit?action=${prefix}`)).body.entries.length,
    ).toBeGreaterThanOrEqual(byAction.body.entries.length);
    const paged = await call('GET', '/api/admin/audit?limit=1');
    const next = await call('GET', `/api/admin/audit?limit=1&cursor=${paged.body.nextCursor}`);
    expect(Number(next.body.entries[0].id)).toBeLessThan(Number(paged.body.entries[0].id));
    const day = t.clock.now().toISOString().slice(0, 10);
    expect((await call('GET', `/api/admin/audit?from=2000-01-01&to=2000-12-31`)).body.entries).toEqual([]);
    expect((await call('GET', `/api/admin/audit?from=${day}&to=${day}`)).body.entries.length).toBeGreaterThan(
      0,
    );
    expectRefusal(await call('GET', '/api/admin/audit?from=2026-13-01'), 400, 'validation_failed');
    expectRefusal(await call('GET', '/api/admin/audit?cursor=abc'), 400, 'invalid_cursor');

    const csv = await call('GET', `/api/admin/audit.csv?organizationId=${a.id}`);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="kontor-audit-log-/);
    const lines = (csv.body as string).trim().split('\r\n');
    expect(lines[0]).toBe('Time,Company,Company id,User,User id,Action,Entity type,Entity id');
    expect(lines).toHaveLength(onlyA.body.entries.length + 1);
    // The company's name starts with "=": written as text, never a formula.
    expect(lines[1]).toContain(`"'=Formula Co",${a.id}`);
  });

  it('lists what admins did, newest first, and reports the system', async () => {
    const actions = await call('GET', '/api/admin/actions?limit=2');
    expect(actions.body.actions).toHaveLength(2);
    expect(actions.body.actions[0]).toMatchObject({ adminUserId: root.id, adminEmail: ROOT });
    expect(Number(actions.body.actions[0].id)).toBeGreaterThan(Number(actions.body.actions[1].id));
    const system = await call('GET', '/api/admin/system');
    expect(system.status).toBe(200);
    expect(system.body).toMatchObject({
      environment: 'test',
      database: { ok: true, migrations: expect.any(Number) },
      mail: { transport: 'outbox', ok: true },
      billing: { provider: 'local', webhookSecretSet: false, pricesConfigured: 0 },
      counts: { admins: 1 },
    });
    expect(system.body.database.migrations).toBeGreaterThan(20);
    expect(system.body.database.latestMigration).toMatch(/^2026/);
    expect(system.body.counts.users).toBeGreaterThan(5);
  });
});
