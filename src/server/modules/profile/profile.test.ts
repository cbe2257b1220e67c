import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { setUpTestApp } from '../../testing/per-file-app.ts';
import { signUpTestUser } from '../../testing/users.ts';

// GET/PATCH /api/me/profile: own profile only, validated, unknown themes ignored, and a
// missing profile comes back as the minimal fallback.

describe('user profile API', () => {
  const t = setUpTestApp();

  const get = (cookie?: string) =>
    t.app.inject({ method: 'GET', url: '/api/me/profile', headers: cookie ? { cookie } : {} });
  const patch = (cookie: string, payload: unknown) =>
    t.app.inject({
      method: 'PATCH',
      url: '/api/me/profile',
      headers: { cookie },
      payload: payload as object,
    });

  it('needs a signed-in user', async () => {
    expect((await get()).statusCode).toBe(401);
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/me/profile',
      payload: { phone: '+1 555 0100' },
    });
    expect(res.statusCode).toBe(401);
  });

  it('accepts a bearer token as well as the cookie', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: { origin: 'http://localhost:3000', 'x-forwarded-for': '198.51.100.5' },
      payload: { email: 'bearer@example.com', password: 'Quiet-River-71', name: 'Bearer User' },
    });
    const token = res.headers['set-auth-token'] as string;
    expect(token).toBeTruthy();
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/me/profile',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe('bearer@example.com');
  });

  it('only ever shows and changes the signed-in user’s own profile', async () => {
    const alice = await signUpTestUser(t.app, { profile: { firstName: 'Alice', lastName: 'Ames' } });
    const bob = await signUpTestUser(t.app, { profile: { firstName: 'Bob', lastName: 'Burr' } });
    expect((await get(alice.cookie)).json().uid).toBe(alice.id);
    expect((await get(bob.cookie)).json().uid).toBe(bob.id);
    // No id in the path; an id in the body is refused, not obeyed.
    const sneaky = await patch(bob.cookie, { uid: alice.id, firstName: 'Mallory' });
    expect(sneaky.statusCode).toBe(400);
    expect((await get(alice.cookie)).json().firstName).toBe('Alice');
    const byPath = await t.app.inject({
      method: 'GET',
      url: `/api/me/profile/${alice.id}`,
      headers: { cookie: bob.cookie },
    });
    expect(byPath.statusCode).toBe(404);
    const users = await t.app.inject({
      method: 'GET',
      url: `/api/users/${alice.id}/profile`,
      headers: { cookie: bob.cookie },
    });
    expect(users.statusCode).toBe(404);
  });

  it('updates fields and preferences, merging the notification matrix', async () => {
    const user = await signUpTestUser(t.app);
    t.clock.advance(1000);
    const res = await patch(user.cookie, {
      phone: '+1 555 0100',
      company: 'Acme',
      preferences: { currency: 'EUR', dateFormat: 'DD/MM/YYYY', notifications: { push: { invoices: true } } },
    });
    expect(res.statusCode).toBe(200);
    const p = res.json();
    expect(p.phone).toBe('+1 555 0100');
    expect(p.company).toBe('Acme');
    expect(p.preferences.currency).toBe('EUR');
    expect(p.preferences.language).toBe('en');
    expect(p.preferences.notifications.push).toEqual({
      transactions: true,
      invoices: true,
      payments: true,
      security: true,
    });
    expect(p.preferences.notifications.email.invoices).toBe(true);
    expect(p.updatedAt).toBe(t.clock.now().toISOString());
  });

  it('ignores unknown theme values and keeps valid ones', async () => {
    const user = await signUpTestUser(t.app);
    expect((await patch(user.cookie, { preferences: { theme: 'dark' } })).json().preferences.theme).toBe(
      'dark',
    );
    const ignored = await patch(user.cookie, { preferences: { theme: 'neon' } });
    expect(ignored.statusCode).toBe(200);
    expect(ignored.json().preferences.theme).toBe('dark');
  });

  it('refuses invalid values with a clear 400 and changes nothing', async () => {
    const user = await signUpTestUser(t.app);
    const before = (await get(user.cookie)).json();
    for (const body of [
      { preferences: { currency: 'dollars' } },
      { preferences: { language: 'English' } },
      { preferences: { dateFormat: 'YY/MM' } },
      { preferences: { language: 'fr' } },
      { preferences: { currency: 'XYZ' } },
      { timezone: 'Mars/Olympus_Mons' },
      { timezone: '' },
      { photoURL: 'not a url' },
      { phone: 'x'.repeat(41) },
      { security: { twoFactorEnabled: true } },
      { emailVerified: true },
    ]) {
      const res = await patch(user.cookie, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
    }
    expect((await get(user.cookie)).json()).toEqual(before);
  });

  it('creates the minimal fallback profile when none exists, then reads it', async () => {
    const user = await signUpTestUser(t.app, { email: 'fallback.person@example.com', name: '' });
    await sql`delete from user_profiles where user_id = ${user.id}`.execute(t.database.db);
    const p = (await get(user.cookie)).json();
    expect(p.uid).toBe(user.id);
    expect(p.email).toBe('fallback.person@example.com');
    expect(p.displayName).toBe('fallback.person');
    expect(p.preferences.theme).toBe('light');
    const rows = await sql<{
      n: number;
    }>`select count(*)::int as n from user_profiles where user_id = ${user.id}`.execute(t.database.db);
    expect(rows.rows[0]!.n).toBe(1);
  });

  it('saves a known time zone and refuses an unknown one with its name in the field message', async () => {
    const user = await signUpTestUser(t.app);
    const ok = await patch(user.cookie, {
      timezone: 'Europe/Berlin',
      preferences: { dateFormat: 'DD.MM.YYYY' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().timezone).toBe('Europe/Berlin');
    expect(ok.json().preferences.dateFormat).toBe('DD.MM.YYYY');
    const before = (await get(user.cookie)).json();
    const bad = await patch(user.cookie, {
      timezone: 'Europe/Atlantis',
      preferences: { dateFormat: 'YYYY-MM-DD' },
    });
    expect(bad.statusCode).toBe(400);
    const body = bad.json();
    expect(JSON.stringify(body)).toContain('Unknown time zone \\"Europe/Atlantis\\"');
    expect(body.error.details).toEqual(
      expect.arrayContaining([expect.objectContaining({ field: expect.stringContaining('timezone') })]),
    );
    // Nothing of the refused patch was kept, not even its valid date format.
    expect((await get(user.cookie)).json()).toEqual(before);
  });

  it('keeps the display currency, language and date format it is given when they are valid', async () => {
    const user = await signUpTestUser(t.app);
    const res = await patch(user.cookie, {
      preferences: { currency: 'JPY', language: 'en', dateFormat: 'YYYY-MM-DD', theme: 'system' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().preferences).toMatchObject({
      currency: 'JPY',
      language: 'en',
      dateFormat: 'YYYY-MM-DD',
      theme: 'system',
    });
  });
});
