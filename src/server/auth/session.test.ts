import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { AppContext } from '../context.ts';
import { callCompanyRoute } from '../testing/api.ts';
import { createTestCompany } from '../testing/companies.ts';
import { countingQueries } from '../testing/db.ts';
import { setUpTestApp } from '../testing/per-file-app.ts';
import { signUpTestUser } from '../testing/users.ts';
import { getSession } from './session.ts';

// The session look-up of every API request (decision 0049): the signed cookie checked in
// process, the session, its user and the caller's membership of the route's company read in one
// statement, nothing kept between requests — and Better Auth's own path for what writes
// (an expired session is deleted, one a day old is extended).

const DAY = 86_400_000;

describe('the session of a request', () => {
  const t = setUpTestApp();

  /** The app's context with every query counted. */
  const counted = () => {
    const { db, count } = countingQueries(t.ctx.database.db);
    const ctx: AppContext = { ...t.ctx, database: { ...t.ctx.database, db } };
    return { ctx, count };
  };

  const requestTo = (cookie: string, organizationId?: string) =>
    ({
      headers: { cookie },
      routeOptions: { url: organizationId ? '/api/orgs/:organizationId/accounts' : '/api/me/profile' },
      params: organizationId ? { organizationId } : {},
    }) as unknown as FastifyRequest;

  const sessionRow = (userId: string) =>
    t.database.db
      .selectFrom('session')
      .select(['id', 'expiresAt'])
      .where('userId', '=', userId)
      .executeTakeFirst();

  it('reads the session, its user and the membership of the route company in one query', async () => {
    const company = await createTestCompany(t.app);
    const { ctx, count } = counted();
    const request = requestTo(company.owner.cookie, company.id);
    const session = await getSession(ctx, request);
    expect(session?.user).toMatchObject({ id: company.owner.id, email: company.owner.email });
    expect(request.prefetchedMembership).toEqual({
      organizationId: company.id,
      userId: company.owner.id,
      role: 'owner',
    });
    expect(count.queries).toBe(1);
    // Another company: the session, and no membership.
    const other = await createTestCompany(t.app);
    const outsider = requestTo(company.owner.cookie, other.id);
    expect((await getSession(ctx, outsider))?.user.id).toBe(company.owner.id);
    expect(outsider.prefetchedMembership?.role).toBeNull();
    // Outside a company: no membership asked.
    const plain = requestTo(company.owner.cookie);
    expect((await getSession(ctx, plain))?.user.id).toBe(company.owner.id);
    expect(plain.prefetchedMembership).toBeUndefined();
    expect(count.queries).toBe(3);
  });

  it('answers the same user as Better Auth', async () => {
    const user = await signUpTestUser(t.app, { name: 'Grace Hopper', verified: true });
    const ours = await getSession(t.ctx, requestTo(user.cookie));
    const theirs = await t.app.inject({
      method: 'GET',
      url: '/api/auth/get-session',
      headers: { cookie: user.cookie },
    });
    const { id, email, name, emailVerified } = theirs.json().user;
    expect(ours).toEqual({ user: { id, email, name, emailVerified }, sessionId: theirs.json().session.id });
    expect(emailVerified).toBe(true);
  });

  it('refuses a session at once after sign-out, and a cookie with a wrong signature', async () => {
    const company = await createTestCompany(t.app);
    expect((await callCompanyRoute(t.app, company, 'GET', '/accounts')).status).toBe(200);
    const [name, signed] = company.owner.cookie.split('=') as [string, string];
    const token = decodeURIComponent(signed).split('.')[0]!;
    const forged = `${name}=${encodeURIComponent(`${token}.${'A'.repeat(43)}=`)}`;
    const withForged = await t.app.inject({
      method: 'GET',
      url: `/api/orgs/${company.id}/accounts`,
      headers: { cookie: forged },
    });
    expect(withForged.statusCode).toBe(401);
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-out',
      headers: { cookie: company.owner.cookie, origin: 'http://localhost:3000' },
      payload: {},
    });
    expect(out.statusCode).toBe(200);
    expect((await callCompanyRoute(t.app, company, 'GET', '/accounts')).status).toBe(401);
    expect((await getSession(t.ctx, requestTo(company.owner.cookie, company.id))) ?? null).toBeNull();
  });

  it('sees a changed role or a removed membership on the next request', async () => {
    const company = await createTestCompany(t.app);
    // Deleting a draft needs `record`: an owner hears that there is no such entry, a viewer 403.
    const remove = () => callCompanyRoute(t.app, company, 'DELETE', '/journal-entries/no-such-entry');
    expect((await remove()).status).toBe(404);
    await t.database.db
      .updateTable('organization_members')
      .set({ role: 'viewer' })
      .where('organization_id', '=', company.id)
      .where('user_id', '=', company.owner.id)
      .execute();
    expect((await remove()).status).toBe(403);
    await t.database.db
      .deleteFrom('organization_members')
      .where('organization_id', '=', company.id)
      .where('user_id', '=', company.owner.id)
      .execute();
    expect((await callCompanyRoute(t.app, company, 'GET', '/accounts')).status).toBe(404);
  });

  it('lets Better Auth delete an expired session, and extend one a day old', async () => {
    const expired = await signUpTestUser(t.app);
    await t.database.db
      .updateTable('session')
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where('userId', '=', expired.id)
      .execute();
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/me/profile', headers: { cookie: expired.cookie } }))
        .statusCode,
    ).toBe(401);
    expect(await sessionRow(expired.id)).toBeUndefined();

    // Signed in 29 days and a minute ago (30-day sessions, extended once a day of use).
    const old = await signUpTestUser(t.app);
    const oldExpiry = new Date(Date.now() + DAY - 60_000);
    await t.database.db
      .updateTable('session')
      .set({ expiresAt: oldExpiry })
      .where('userId', '=', old.id)
      .execute();
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/me/profile',
      headers: { cookie: old.cookie },
    });
    expect(res.statusCode).toBe(200);
    const extended = new Date((await sessionRow(old.id))!.expiresAt).getTime();
    expect(extended).toBeGreaterThan(Date.now() + 29 * DAY);

    // A session used within its first day is left as it is.
    const fresh = await signUpTestUser(t.app);
    const before = new Date((await sessionRow(fresh.id))!.expiresAt).getTime();
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/me/profile', headers: { cookie: fresh.cookie } }))
        .statusCode,
    ).toBe(200);
    expect(new Date((await sessionRow(fresh.id))!.expiresAt).getTime()).toBe(before);
  });
});
