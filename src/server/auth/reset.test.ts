import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { setUpTestApp } from '../testing/per-file-app.ts';
import { authPost, latestMail, mailsTo, resetTokenFrom } from '../testing/auth-helpers.ts';
import { signUpTestUser } from '../testing/users.ts';

// Password reset links: emailed, open our /reset-password page, work once, expire after
// 24 hours, and the request answers the same for known and unknown emails.

describe('password reset', () => {
  const t = setUpTestApp();

  const requestLink = async (email: string) => {
    const r = await authPost(t.app, '/request-password-reset', { email, redirectTo: '/reset-password' });
    expect(r.status).toBe(200);
    const mail = await latestMail(t.app, email);
    expect(mail?.subject).toBe('Reset your Kontor password');
    return resetTokenFrom(mail!.text);
  };

  it('emails a link to /reset-password that sets a new password once; the old one fails', async () => {
    const user = await signUpTestUser(t.app);
    const token = await requestLink(user.email);
    const mail = await latestMail(t.app, user.email);
    expect(mail!.text).toContain(`http://localhost:3000/reset-password?token=${token}`);
    expect(mail!.text).toContain('expires in 24 hours');

    const reset = await authPost(t.app, '/reset-password', { token, newPassword: 'Fresh-Start-12' });
    expect(reset.status).toBe(200);
    const again = await authPost(t.app, '/reset-password', { token, newPassword: 'Second-Try-34' });
    expect(again.status).toBe(400);
    expect(again.body?.code).toBe('INVALID_TOKEN');

    expect(
      (await authPost(t.app, '/sign-in/email', { email: user.email, password: user.password })).status,
    ).toBe(401);
    expect(
      (await authPost(t.app, '/sign-in/email', { email: user.email, password: 'Fresh-Start-12' })).status,
    ).toBe(200);
    expect(
      (await authPost(t.app, '/sign-in/email', { email: user.email, password: 'Second-Try-34' })).status,
    ).toBe(401);
  });

  it('ends existing sessions when the password is reset', async () => {
    const user = await signUpTestUser(t.app);
    const token = await requestLink(user.email);
    await authPost(t.app, '/reset-password', { token, newPassword: 'Fresh-Start-12' });
    const session = await t.app.inject({
      method: 'GET',
      url: '/api/auth/get-session',
      headers: { cookie: user.cookie },
    });
    expect(session.json()).toBeNull();
  });

  it('applies the new-password rules to the reset', async () => {
    const user = await signUpTestUser(t.app);
    const token = await requestLink(user.email);
    const short = await authPost(t.app, '/reset-password', { token, newPassword: '12345' });
    expect(short.status).toBe(400);
    expect(short.body?.code).toBe('PASSWORD_TOO_SHORT');
    const common = await authPost(t.app, '/reset-password', { token, newPassword: 'iloveyou' });
    expect(common.status).toBe(400);
    expect(common.body?.code).toBe('PASSWORD_TOO_COMMON');
    expect(common.body?.message).toBe(
      'This password is one of the most common ones and easy to guess. Please choose another.',
    );
    // The refused attempts changed nothing and did not use the link up.
    expect(
      (await authPost(t.app, '/sign-in/email', { email: user.email, password: user.password })).status,
    ).toBe(200);
    expect((await authPost(t.app, '/reset-password', { token, newPassword: 'Six-ch' })).status).toBe(200);
  });

  it('a new link invalidates older ones', async () => {
    const user = await signUpTestUser(t.app);
    const first = await requestLink(user.email);
    const second = await requestLink(user.email);
    expect(second).not.toBe(first);
    const old = await authPost(t.app, '/reset-password', { token: first, newPassword: 'Fresh-Start-12' });
    expect(old.status).toBe(400);
    expect(old.body?.code).toBe('INVALID_TOKEN');
    // The refused old link changed nothing.
    expect(
      (await authPost(t.app, '/sign-in/email', { email: user.email, password: user.password })).status,
    ).toBe(200);
    const fresh = await authPost(t.app, '/reset-password', { token: second, newPassword: 'Second-Try-34' });
    expect(fresh.status).toBe(200);
    // Another user's links are untouched by this user's requests.
    const other = await signUpTestUser(t.app);
    const otherToken = await requestLink(other.email);
    await requestLink(user.email);
    expect(
      (await authPost(t.app, '/reset-password', { token: otherToken, newPassword: 'Other-Reset-56' })).status,
    ).toBe(200);
  });

  it('stores the link for 24 hours and refuses it once that has passed', async () => {
    const user = await signUpTestUser(t.app);
    const before = Date.now();
    const token = await requestLink(user.email);
    const identifier = `reset-password:${token}`;
    const row = await t.database.db
      .selectFrom('verification')
      .select(['expiresAt', 'createdAt'])
      .where('identifier', '=', identifier)
      .executeTakeFirstOrThrow();
    const lifetime = new Date(row.expiresAt).getTime() - before;
    expect(lifetime).toBeGreaterThan(24 * 3600_000 - 5_000);
    expect(lifetime).toBeLessThanOrEqual(24 * 3600_000 + 5_000);

    // Age the links (the library checks expiresAt against the real clock): 24 h after
    // issue minus a minute, a link still works...
    const token2 = await requestLink(user.email);
    const setAge = async (tok: string, ageMs: number) =>
      sql`update "verification" set "expiresAt" = ${new Date(Date.now() - ageMs + 24 * 3600_000)} where "identifier" = ${`reset-password:${tok}`}`.execute(
        t.database.db,
      );
    await setAge(token2, 24 * 3600_000 - 60_000);
    expect(
      (await authPost(t.app, '/reset-password', { token: token2, newPassword: 'Within-Day-1' })).status,
    ).toBe(200);
    // ...and a minute past 24 h it does not.
    await setAge(token, 24 * 3600_000 + 60_000);
    const late = await authPost(t.app, '/reset-password', { token, newPassword: 'Too-Late-22' });
    expect(late.status).toBe(400);
    expect(late.body?.code).toBe('INVALID_TOKEN');
  });

  it('answers an unknown email exactly like a known one and sends nothing', async () => {
    const user = await signUpTestUser(t.app);
    const known = await authPost(t.app, '/request-password-reset', { email: user.email });
    const unknown = await authPost(t.app, '/request-password-reset', { email: 'nobody-at-all@example.com' });
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    expect(await mailsTo(t.app, 'nobody-at-all@example.com')).toHaveLength(0);
  });

  it('takes about the same time for known and unknown emails', async () => {
    const user = await signUpTestUser(t.app);
    const time = async (email: string) => {
      const start = performance.now();
      await authPost(t.app, '/request-password-reset', { email });
      return performance.now() - start;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i++) {
      known.push(await time(user.email));
      unknown.push(await time(`ghost-reset-${i}@example.com`));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    // Both are a few database round trips; allow generous noise but not an order of magnitude.
    expect(Math.abs(median(known) - median(unknown))).toBeLessThan(Math.max(25, median(unknown) * 2));
  });

  it('refuses a malformed email with the catalogue message', async () => {
    const r = await authPost(t.app, '/request-password-reset', { email: 'no at sign' });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ code: 'INVALID_EMAIL', message: 'Please enter a valid email address.' });
  });

  it('rate-limits reset requests from one address', async () => {
    const ip = '198.51.100.77';
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      statuses.push(
        (await authPost(t.app, '/request-password-reset', { email: `r${i}@example.com` }, { ip })).status,
      );
    }
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses.slice(5)).toEqual([429, 429]);
  });
});

describe('password reset and sign-in with AUTH_REVEAL_UNKNOWN_EMAIL=true', () => {
  const t = setUpTestApp({ env: { AUTH_REVEAL_UNKNOWN_EMAIL: 'true' } });

  it("answers SPEC's user-not-found for an unknown email on reset", async () => {
    const r = await authPost(t.app, '/request-password-reset', { email: 'nobody@example.com' });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ code: 'USER_NOT_FOUND', message: 'No account found with this email address.' });
    const user = await signUpTestUser(t.app);
    expect((await authPost(t.app, '/request-password-reset', { email: user.email })).status).toBe(200);
  });

  it("tells unknown email and wrong password apart on sign-in with SPEC's messages", async () => {
    const user = await signUpTestUser(t.app);
    const wrong = await authPost(t.app, '/sign-in/email', { email: user.email, password: 'not-it-123' });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ code: 'WRONG_PASSWORD', message: 'Incorrect password. Please try again.' });
    const unknown = await authPost(t.app, '/sign-in/email', {
      email: 'ghost@example.com',
      password: 'not-it-123',
    });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual({
      code: 'USER_NOT_FOUND',
      message: 'No account found with this email address.',
    });
  });
});
