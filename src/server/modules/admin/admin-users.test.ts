import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { ADMIN_FORBIDDEN_MESSAGE } from '../../../shared/admin.ts';
import { expectRefusal } from '../../testing/api.ts';
import { authGet, authPost, mailsTo } from '../../testing/auth-helpers.ts';
import { addTestMember, createTestCompany } from '../../testing/companies.ts';
import { postedEntryBody, systemAccountsOf } from '../../testing/ledger.ts';
import { seedTestPayables } from '../../testing/payables-seed.ts';
import { setUpTestApp } from '../../testing/per-file-app.ts';
import { type TestUser, signUpTestUser } from '../../testing/users.ts';
import { grantAdmin, revokeAdmin } from './admins.ts';

// The admin console's guard and its users area (docs/admin.md): 401 / 403 on every admin
// route, search, detail, disable (told why at sign-in) / enable, reset link, export, delete
// after the typed email, and the refusals that change nothing.

const ROOT = 'root-admin@example.com';

describe('admin console: guard and users', () => {
  const t = setUpTestApp({ env: { ADMIN_EMAILS: ` ${ROOT.toUpperCase()} ` } });
  let root: TestUser;
  const as = async (user: TestUser | null, method: string, url: string, payload?: unknown) => {
    const res = await t.app.inject({
      method: method as 'GET',
      url,
      headers: user ? { cookie: user.cookie } : {},
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
    const text = res.body;
    let body: any;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    return { status: res.statusCode, body, headers: res.headers };
  };
  const actionsFor = async (targetId: string) =>
    t.database.db
      .selectFrom('admin_audit_log')
      .selectAll()
      .where('target_id', '=', targetId)
      .orderBy('id')
      .execute();

  it('admits platform admins only: 401 signed out, 403 admin_only otherwise, on every admin route', async () => {
    root = await signUpTestUser(t.app, { email: ROOT });
    const someone = await signUpTestUser(t.app);
    const routes = t.app.registeredRoutes.filter(
      (r) => r.url.startsWith('/api/admin') && r.method !== 'HEAD' && r.url !== '/api/admin/me',
    );
    expect(routes.length).toBeGreaterThanOrEqual(19);
    for (const route of routes) {
      const url = route.url.replace(/:(\w+)/g, 'SOMETHING1');
      const payload = route.method === 'GET' ? undefined : { reason: 'x', confirmEmail: 'x', code: 'BAD' };
      const out = await as(null, route.method, url, payload);
      expect(out.status, `${route.method} ${route.url} signed out`).toBe(401);
      const refused = await as(someone, route.method, url, payload);
      expect(refused.status, `${route.method} ${route.url} as a user`).toBe(403);
      expect(refused.body.error).toEqual({ code: 'admin_only', message: ADMIN_FORBIDDEN_MESSAGE });
    }
    expect((await as(null, 'GET', '/api/admin/me')).status).toBe(401);
    expect((await as(someone, 'GET', '/api/admin/me')).body).toEqual({ isAdmin: false });
    expect((await as(root, 'GET', '/api/admin/me')).body).toEqual({ isAdmin: true });
    // A grant (the CLI's) makes an admin as ADMIN_EMAILS does.
    expect(await grantAdmin(t.ctx, someone.email)).toBe(true);
    expect((await as(someone, 'GET', '/api/admin/me')).body).toEqual({ isAdmin: true });
    expect((await as(someone, 'GET', '/api/admin/system')).status).toBe(200);
    expect(await revokeAdmin(t.ctx, someone.email)).toBe(true);
    expect((await as(someone, 'GET', '/api/admin/system')).status).toBe(403);
  });

  it('refuses revoking an ADMIN_EMAILS admin and the last granted admin', async () => {
    await expect(revokeAdmin(t.ctx, ROOT)).rejects.toThrow(/ADMIN_EMAILS/);
    // Alone on a database with no ADMIN_EMAILS admin: the one granted admin cannot be revoked.
    const solo = await signUpTestUser(t.app);
    await grantAdmin(t.ctx, solo.email);
    const noEnv = { ...t.ctx, config: { ...t.ctx.config, adminEmails: [] } };
    await t.database.db.deleteFrom('platform_admins').where('user_id', '<>', solo.id).execute();
    await expect(revokeAdmin(noEnv, solo.email)).rejects.toThrow(/last platform admin/);
    expect(await t.database.db.selectFrom('platform_admins').select('user_id').execute()).toEqual([
      { user_id: solo.id },
    ]);
    await t.database.db.deleteFrom('platform_admins').execute();
  });

  it('searches users by email or name, case-insensitively, a page at a time', async () => {
    const stamp = Date.now().toString(36);
    const a = await signUpTestUser(t.app, { email: `zed-${stamp}-a@example.com`, name: 'Zed Alpha' });
    const b = await signUpTestUser(t.app, { email: `other-${stamp}@example.com`, name: `Zed ${stamp} Beta` });
    const first = await as(root, 'GET', `/api/admin/users?q=${stamp.toUpperCase()}&limit=1`);
    expect(first.status).toBe(200);
    expect(first.body.users.map((u: { id: string }) => u.id)).toEqual([b.id]);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await as(
      root,
      'GET',
      `/api/admin/users?q=${stamp}&limit=1&cursor=${encodeURIComponent(first.body.nextCursor)}`,
    );
    expect(second.body.users.map((u: { id: string }) => u.id)).toEqual([a.id]);
    expect(second.body.nextCursor).toBeNull();
    expect(second.body.users[0]).toMatchObject({
      email: a.email,
      name: 'Zed Alpha',
      disabled: false,
      isAdmin: false,
      emailVerified: false,
      twoFactorEnabled: false,
    });
    expectRefusal(await as(root, 'GET', '/api/admin/users?cursor=forged'), 400, 'invalid_cursor');
    expectRefusal(await as(root, 'GET', '/api/admin/users?limit=1000'), 400, 'validation_failed');
    // % and _ are literal, not wildcards.
    expect((await as(root, 'GET', '/api/admin/users?q=%25%25%25')).body.users).toEqual([]);
    const rootRow = (await as(root, 'GET', `/api/admin/users?q=${encodeURIComponent(ROOT)}`)).body.users[0];
    expect(rootRow).toMatchObject({ id: root.id, isAdmin: true });
  });

  it("shows a user's companies, role, members and whether deleting them deletes the company", async () => {
    const owner = await signUpTestUser(t.app);
    const own = await createTestCompany(t.app, { owner, name: 'Solo Books' });
    const shared = await createTestCompany(t.app, { name: 'Shared Books' });
    await addTestMember(t.app, shared, 'accountant', owner);
    const detail = await as(root, 'GET', `/api/admin/users/${owner.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.companies).toEqual([
      { id: shared.id, name: 'Shared Books', role: 'accountant', members: 2, soleOwner: false },
      { id: own.id, name: 'Solo Books', role: 'owner', members: 1, soleOwner: true },
    ]);
    expect(detail.body.sessions).toBeGreaterThanOrEqual(1);
    expect(detail.body.lastLoginAt).toEqual(expect.any(String));
    expect(detail.body.disabledReason).toBeNull();
    expectRefusal(await as(root, 'GET', '/api/admin/users/nobody'), 404, 'not_found');
  });

  it('disables a user with a reason: sessions end, sign-in says why; enabling lets them back', async () => {
    const user = await signUpTestUser(t.app);
    // No reason, or a blank one: 400 and nothing changes.
    for (const body of [{}, { reason: '  ' }]) {
      expectRefusal(
        await as(root, 'POST', `/api/admin/users/${user.id}/disable`, body),
        400,
        'validation_failed',
      );
    }
    expect((await authGet(t.app, '/get-session', user.cookie)).body?.user?.id).toBe(user.id);
    const done = await as(root, 'POST', `/api/admin/users/${user.id}/disable`, {
      reason: 'Chargeback fraud.',
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ disabled: true, disabledReason: 'Chargeback fraud.', sessions: 0 });
    expect((await authGet(t.app, '/get-session', user.cookie)).body).toBeNull();
    const signIn = await authPost(t.app, '/sign-in/email', { email: user.email, password: user.password });
    expect(signIn.status).toBe(403);
    expect(signIn.body).toMatchObject({
      code: 'BANNED_USER',
      message: 'This account has been disabled: Chargeback fraud. Please contact support.',
    });
    const listed = await as(root, 'GET', '/api/admin/users?status=disabled&limit=100');
    expect(listed.body.users.map((u: { id: string }) => u.id)).toContain(user.id);
    const enabled = await as(root, 'POST', `/api/admin/users/${user.id}/enable`);
    expect(enabled.body).toMatchObject({ disabled: false, disabledReason: null });
    expect(
      (await authPost(t.app, '/sign-in/email', { email: user.email, password: user.password })).status,
    ).toBe(200);
    const actions = await actionsFor(user.id);
    expect(actions.map((a) => [a.action, a.admin_user_id, a.admin_email])).toEqual([
      ['user.disabled', root.id, ROOT],
      ['user.enabled', root.id, ROOT],
    ]);
    expect(actions[0]!.details).toMatchObject({ reason: 'Chargeback fraud.' });
  });

  it('refuses disabling or deleting yourself, changing nothing', async () => {
    expectRefusal(
      await as(root, 'POST', `/api/admin/users/${root.id}/disable`, { reason: 'Testing myself' }),
      409,
      'admin_self',
    );
    expectRefusal(
      await as(root, 'POST', `/api/admin/users/${root.id}/delete`, { confirmEmail: ROOT }),
      409,
      'admin_self',
    );
    const me = await as(root, 'GET', `/api/admin/users/${root.id}`);
    expect(me.body).toMatchObject({ disabled: false });
    expect(await actionsFor(root.id)).toEqual([]);
  });

  it('mails a password reset link and exports a user as a JSON download', async () => {
    const user = await signUpTestUser(t.app);
    const company = await createTestCompany(t.app, { owner: user, name: 'Export Co' });
    const sent = await as(root, 'POST', `/api/admin/users/${user.id}/reset-link`);
    expect(sent).toMatchObject({ status: 200, body: { sent: true } });
    const subjects = (await mailsTo(t.app, user.email)).map((m) => m.subject);
    expect(subjects).toContain('Reset your Kontor password');
    const exported = await as(root, 'GET', `/api/admin/users/${user.id}/export`);
    expect(exported.status).toBe(200);
    expect(exported.headers['content-disposition']).toMatch(/^attachment; filename="kontor-user-/);
    expect(exported.body.user).toMatchObject({ id: user.id, email: user.email });
    expect(exported.body.companies).toEqual([
      expect.objectContaining({ id: company.id, name: 'Export Co', role: 'owner', soleOwner: true }),
    ]);
    expect(exported.body.companies[0].counts.accounts).toBeGreaterThan(0);
    expect((await actionsFor(user.id)).map((a) => a.action)).toEqual([
      'user.reset_link_sent',
      'user.exported',
    ]);
  });

  it('deletes a user after the typed email: their own company (books included) goes, shared ones stay', async () => {
    const user = await signUpTestUser(t.app);
    const solo = await createTestCompany(t.app, { owner: user, name: 'Solo With Books' });
    const accounts = await systemAccountsOf(t.app, solo);
    const entry = await t.app.inject({
      method: 'POST',
      url: `/api/orgs/${solo.id}/journal-entries`,
      headers: { cookie: user.cookie },
      payload: postedEntryBody('2026-01-15', 'Opening sale', accounts.bank, accounts.services, 12_345),
    });
    expect(entry.statusCode, entry.body).toBe(201);
    // Bills, payments, batches, credits, refunds, schedules, attachments, bank lines.
    await seedTestPayables(t.app, t.database, solo);
    // A company someone else owns, where the user is a member: it stays, without them.
    const shared = await createTestCompany(t.app, { name: 'Someone Elses' });
    await addTestMember(t.app, shared, 'member', user);
    // A company the user owns with an admin and no other owner: the admin becomes its owner.
    const handed = await createTestCompany(t.app, { owner: user, name: 'Handed Over' });
    const heir = await addTestMember(t.app, handed, 'admin');

    const wrong = await as(root, 'POST', `/api/admin/users/${user.id}/delete`, {
      confirmEmail: 'not-them@example.com',
    });
    expectRefusal(wrong, 400, 'confirm_email_mismatch');
    expect((await as(root, 'GET', `/api/admin/users/${user.id}`)).status).toBe(200);
    expect(
      await t.database.db.selectFrom('organizations').select('id').where('id', '=', solo.id).execute(),
    ).toHaveLength(1);

    const done = await as(root, 'POST', `/api/admin/users/${user.id}/delete`, {
      confirmEmail: user.email.toUpperCase(),
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toEqual({
      deleted: true,
      companiesDeleted: [{ id: solo.id, name: 'Solo With Books' }],
    });
    expectRefusal(await as(root, 'GET', `/api/admin/users/${user.id}`), 404, 'not_found');
    const db = t.database.db;
    expect(await db.selectFrom('organizations').select('id').where('id', '=', solo.id).execute()).toEqual([]);
    // No company table keeps a row of it (its audit_log rows stay, as the record of what happened).
    const { rows: tables } = await sql<{ table_name: string }>`
      select table_name from information_schema.columns
       where table_schema = current_schema() and column_name = 'organization_id'`.execute(db);
    for (const { table_name } of tables.filter((r) => r.table_name !== 'audit_log')) {
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from ${sql.table(table_name)} where organization_id = ${solo.id}`.execute(
        db,
      );
      expect(rows[0]!.n, table_name).toBe(0);
    }
    expect(
      await db
        .selectFrom('organization_members')
        .select(['organization_id', 'role'])
        .where('user_id', '=', user.id)
        .execute(),
    ).toEqual([]);
    expect(
      await db
        .selectFrom('organization_members')
        .select('role')
        .where('organization_id', '=', handed.id)
        .where('user_id', '=', heir.id)
        .executeTakeFirst(),
    ).toEqual({ role: 'owner' });
    expect(
      await db.selectFrom('organizations').select('id').where('id', '=', shared.id).execute(),
    ).toHaveLength(1);
    const signIn = await authPost(t.app, '/sign-in/email', { email: user.email, password: user.password });
    expect(signIn.status).toBe(401);
    const actions = await db
      .selectFrom('admin_audit_log')
      .select(['action', 'target_id', 'admin_user_id'])
      .where('target_id', 'in', [user.id, solo.id, handed.id])
      .orderBy('id')
      .execute();
    expect(actions).toEqual([
      { action: 'company.owner_promoted', target_id: handed.id, admin_user_id: root.id },
      { action: 'company.deleted', target_id: solo.id, admin_user_id: root.id },
      { action: 'user.deleted', target_id: user.id, admin_user_id: root.id },
    ]);
    // The ledger still refuses deleting posted entries outside an erasure.
    const other = await createTestCompany(t.app);
    const otherAccounts = await systemAccountsOf(t.app, other);
    await t.app.inject({
      method: 'POST',
      url: `/api/orgs/${other.id}/journal-entries`,
      headers: { cookie: other.owner.cookie },
      payload: postedEntryBody('2026-01-15', 'Kept', otherAccounts.bank, otherAccounts.services, 100),
    });
    await expect(db.deleteFrom('organizations').where('id', '=', other.id).execute()).rejects.toThrow(
      /cannot be deleted/,
    );
  });
});
