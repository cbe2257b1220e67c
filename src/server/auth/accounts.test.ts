import { describe, expect, it } from 'vitest';
import { setUpTestApp } from '../testing/per-file-app.ts';
import { createTestApp } from '../testing/app.ts';
import { authGet, authPost, freshIp, latestMail, mailsTo } from '../testing/auth-helpers.ts';
import { signUpTestUser } from '../testing/users.ts';
import { disableUser } from './accounts.ts';

// Sign-up, sign-in and sessions through the real HTTP routes, with enumeration protection
// at its default (on): unknown email and wrong password get the same answer.

describe('accounts (enumeration protection on)', () => {
  const t = setUpTestApp();
  const postAs = (cookie: string, path: string, payload: object) =>
    authPost(t.app, path, payload, { cookie });
  const signIn = (
    email: string,
    password: string,
    options?: { ip?: string; headers?: Record<string, string> },
  ) => authPost(t.app, '/sign-in/email', { email, password }, options);

  it('creates the full SPEC profile at sign-up with the payload merged in', async () => {
    const given = {
      firstName: 'Grace',
      lastName: 'Hopper',
      displayName: 'Grace Hopper',
      phone: '',
      company: '',
      role: '',
      timezone: 'America/New_York',
    };
    const user = await signUpTestUser(t.app, { email: '  Grace.Hopper@Example.COM ', profile: given });
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/me/profile',
      headers: { cookie: user.cookie },
    });
    expect(res.statusCode).toBe(200);
    const p = res.json();
    expect(p).toMatchObject({
      uid: user.id,
      email: 'grace.hopper@example.com',
      emailVerified: false,
      photoURL: '',
      isActive: true,
      ...given,
      preferences: {
        theme: 'light',
        language: 'en',
        currency: 'USD',
        dateFormat: 'MM/DD/YYYY',
        notifications: {
          email: { transactions: true, invoices: true, payments: true, security: true },
          push: { transactions: true, invoices: false, payments: true, security: true },
        },
      },
      security: { twoFactorEnabled: false, loginAlerts: true, twoFactorSetupAt: null },
    });
    for (const key of ['createdAt', 'lastLoginAt', 'updatedAt'] as const)
      expect(new Date(p[key]).toISOString()).toBe(p[key]);
    expect(new Date(p.security.lastPasswordChange).toISOString()).toBe(p.security.lastPasswordChange);
  });

  it('sends a verification email at sign-up', async () => {
    const user = await signUpTestUser(t.app);
    const mails = await mailsTo(t.app, user.email);
    expect(mails.map((m) => m.subject)).toContain('Confirm your email address for Kontor');
  });

  it('refuses bad sign-up input with the codes the catalogue maps', async () => {
    const signUp = (email: string, password: string) =>
      authPost(t.app, '/sign-up/email', { email, password, name: 'X Y' });
    for (const [email, password, code] of [
      ['not-an-email', 'secret1', 'INVALID_EMAIL'],
      ['short@example.com', '12345', 'PASSWORD_TOO_SHORT'],
    ]) {
      const refused = await signUp(email!, password!);
      expect(refused.status, email).toBe(400);
      expect(refused.body?.code, email).toBe(code);
    }

    const common = await signUp('common@example.com', 'Password1');
    expect(common.status).toBe(400);
    expect(common.body).toEqual({
      code: 'PASSWORD_TOO_COMMON',
      message: 'This password is one of the most common ones and easy to guess. Please choose another.',
    });
    // Refused: no account was created.
    const created = await t.database.db
      .selectFrom('user')
      .select('id')
      .where('email', '=', 'common@example.com')
      .executeTakeFirst();
    expect(created).toBeUndefined();
    // A taken address answers like a new one (signup-enumeration.test.ts).
  });

  it('answers unknown email and wrong password the same way', async () => {
    const user = await signUpTestUser(t.app);
    const wrong = await signIn(user.email, 'not-the-password');
    const unknown = await signIn('nobody-here@example.com', 'whatever1');
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body).toEqual({
      code: 'INVALID_EMAIL_OR_PASSWORD',
      message: 'Incorrect email or password. Please try again.',
    });
  });

  it('takes about the same time for unknown and known emails (both hash a password)', async () => {
    const user = await signUpTestUser(t.app);
    const time = async (email: string) => {
      const start = performance.now();
      await signIn(email, 'not-the-password');
      return performance.now() - start;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 4; i++) {
      known.push(await time(user.email));
      unknown.push(await time(`ghost${i}@example.com`));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    // Argon2id at OWASP cost dominates both paths; without the dummy hash for unknown
    // emails the ratio would be far beyond 3.
    const ratio = median(known) / median(unknown);
    expect(ratio).toBeGreaterThan(1 / 3);
    expect(ratio).toBeLessThan(3);
  });

  it('lowercases the email at sign-in and merges lastLoginAt', async () => {
    const user = await signUpTestUser(t.app);
    t.clock.advance(60_000);
    const ok = await signIn(user.email.toUpperCase(), user.password);
    expect(ok.status).toBe(200);
    const profile = (
      await t.app.inject({ method: 'GET', url: '/api/me/profile', headers: { cookie: ok.cookie } })
    ).json();
    expect(profile.lastLoginAt).toBe(t.clock.now().toISOString());
    expect(profile.updatedAt).toBe(t.clock.now().toISOString());
    expect(profile.lastLoginAt > profile.createdAt).toBe(true);
  });

  it('rate-limits sign-in attempts with 429 per client address and account', async () => {
    const ip = freshIp();
    const victim = await signUpTestUser(t.app);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const r = await signIn(victim.email, 'nope12', { ip });
      statuses.push(r.status);
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
    // Brute force stays limited: even the right password waits out the window from there.
    const right = await signIn(victim.email, victim.password, { ip });
    expect(right.status).toBe(429);
    expect(right.body?.message).toBeTruthy();
    // Someone else in the same office (same address) signs in as usual...
    const colleague = await signUpTestUser(t.app);
    const office = await signIn(colleague.email, colleague.password, { ip });
    expect(office.status).toBe(200);
    // ...and so does the account's owner from their own address.
    const owner = await signIn(victim.email, victim.password);
    expect(owner.status).toBe(200);
    // After the window the pair may try again.
    t.clock.advance(61_000);
    try {
      const later = await signIn(victim.email, victim.password, { ip });
      expect(later.status).toBe(200);
    } finally {
      t.clock.set(new Date());
    }
  });

  it('caps sign-in attempts from one address across many accounts', async () => {
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 101; i++) {
      const r = await signIn(`spray-${i}@example.com`, 'nope12', { ip });
      statuses.push(r.status);
    }
    expect(statuses.slice(0, 100).every((s) => s === 401)).toBe(true);
    expect(statuses[100]).toBe(429);
  });

  it('refuses a common password on change, keeping the old one', async () => {
    const user = await signUpTestUser(t.app);
    const res = await postAs(user.cookie, '/change-password', {
      currentPassword: user.password,
      newPassword: 'qwerty123',
      revokeOtherSessions: false,
    });
    expect(res.status).toBe(400);
    expect(res.body?.code).toBe('PASSWORD_TOO_COMMON');
    expect((await signIn(user.email, user.password)).status).toBe(200);
    expect((await signIn(user.email, 'qwerty123')).status).toBe(401);
  });

  it('ignores a client-sent copy of the internal client-IP header', async () => {
    const ip = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const r = await authPost(
        t.app,
        '/sign-in/email',
        { email: 'spoof@example.com', password: 'nope12' },
        { ip, headers: { 'x-kontor-client-ip': `203.0.113.${i}` } },
      );
      statuses.push(r.status);
    }
    expect(statuses.at(-1)).toBe(429);
  });

  it('refuses a disabled user and ends their sessions', async () => {
    const user = await signUpTestUser(t.app);
    expect((await authGet(t.app, '/get-session', user.cookie)).body?.user?.id).toBe(user.id);
    await disableUser(t.ctx, user.id);
    expect((await authGet(t.app, '/get-session', user.cookie)).body).toBeNull();
    const profile = await t.app.inject({
      method: 'GET',
      url: '/api/me/profile',
      headers: { cookie: user.cookie },
    });
    expect(profile.statusCode).toBe(401);
    const refused = await signIn(user.email, user.password);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      code: 'BANNED_USER',
      message: 'This account has been disabled. Please contact support.',
    });
  });

  it('sends a login alert when loginAlerts is on, and none when it is off', async () => {
    const user = await signUpTestUser(t.app);
    const alerts = async () =>
      (await mailsTo(t.app, user.email)).filter((m) => m.subject === 'New sign-in to your Kontor account')
        .length;
    expect(await alerts()).toBe(0); // sign-up itself is not an alert
    await signIn(user.email, user.password);
    expect(await alerts()).toBe(1);
    const off = await t.app.inject({
      method: 'PATCH',
      url: '/api/me/profile',
      headers: { cookie: user.cookie },
      payload: { security: { loginAlerts: false } },
    });
    expect(off.json().security.loginAlerts).toBe(false);
    await signIn(user.email, user.password);
    expect(await alerts()).toBe(1);
  });

  it('lists sessions and revokes one or all others', async () => {
    const user = await signUpTestUser(t.app);
    const second = await signIn(user.email, user.password);
    const third = await signIn(user.email, user.password);
    const list = await authGet(t.app, '/list-sessions', user.cookie);
    expect(list.body).toHaveLength(3);
    const secondToken = (await authGet(t.app, '/get-session', second.cookie)).body.session.token;
    const revoke = await postAs(user.cookie, '/revoke-session', { token: secondToken });
    expect(revoke.status).toBe(200);
    expect((await authGet(t.app, '/get-session', second.cookie)).body).toBeNull();
    expect((await authGet(t.app, '/get-session', third.cookie)).body?.user.id).toBe(user.id);
    await postAs(user.cookie, '/revoke-other-sessions', {});
    expect((await authGet(t.app, '/get-session', third.cookie)).body).toBeNull();
    expect((await authGet(t.app, '/list-sessions', user.cookie)).body).toHaveLength(1);
  });

  it('changes the password only with the current one and records the change', async () => {
    const user = await signUpTestUser(t.app);
    t.clock.advance(5_000);
    const wrong = await postAs(user.cookie, '/change-password', {
      currentPassword: 'not-it',
      newPassword: 'Brand-New-77',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body?.code).toBe('INVALID_PASSWORD');
    const ok = await postAs(user.cookie, '/change-password', {
      currentPassword: user.password,
      newPassword: 'Brand-New-77',
      revokeOtherSessions: true,
    });
    expect(ok.status).toBe(200);
    const profile = (
      await t.app.inject({ method: 'GET', url: '/api/me/profile', headers: { cookie: ok.cookie } })
    ).json();
    expect(profile.security.lastPasswordChange).toBe(t.clock.now().toISOString());
    expect((await signIn(user.email, user.password)).status).toBe(401);
    expect((await signIn(user.email, 'Brand-New-77')).status).toBe(200);
  });

  it('sets the session cookie httpOnly and SameSite=Lax', async () => {
    const res = await authPost(t.app, '/sign-up/email', {
      email: 'cookie-check@example.com',
      password: 'Quiet-River-71',
      name: 'Cookie Check',
    });
    const raw = ([] as string[])
      .concat(res.res.headers['set-cookie'] ?? [])
      .find((c) => c.includes('session_token='));
    expect(raw).toMatch(/HttpOnly/i);
    expect(raw).toMatch(/SameSite=Lax/i);
    expect(raw).not.toMatch(/Secure/); // only in production (SECURE_COOKIES)
  });
});

describe('email verification', () => {
  const t = setUpTestApp();

  it('confirms the address through the emailed link and reflects it in the profile', async () => {
    const user = await signUpTestUser(t.app);
    const mail = await latestMail(t.app, user.email);
    const link = /(http:\/\/localhost:3000\/api\/auth\/verify-email\?[^\s]+)/.exec(mail!.text)?.[1];
    expect(link).toBeTruthy();
    const url = new URL(link!);
    const res = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
    expect([200, 302]).toContain(res.statusCode);
    const profile = await t.app.inject({
      method: 'GET',
      url: '/api/me/profile',
      headers: { cookie: user.cookie },
    });
    expect(profile.json().emailVerified).toBe(true);
  });
});

describe('cookies in production', () => {
  it('marks the session cookie Secure (and __Secure- prefixed) when SECURE_COOKIES is on', async () => {
    const t = await createTestApp({ env: { APP_ENV: 'production', AUTH_SECRET: 'z'.repeat(48) } });
    try {
      const res = await authPost(t.app, '/sign-up/email', {
        email: 'secure-cookie@example.com',
        password: 'Quiet-River-71',
        name: 'Secure Cookie',
      });
      expect(res.status).toBe(200);
      const raw = ([] as string[])
        .concat(res.res.headers['set-cookie'] ?? [])
        .find((c) => c.includes('session_token='));
      expect(raw).toMatch(/^__Secure-/);
      expect(raw).toMatch(/;\s*Secure/i);
      expect(raw).toMatch(/HttpOnly/i);
      expect(raw).toMatch(/SameSite=Lax/i);
    } finally {
      await t.close();
    }
  });
});
