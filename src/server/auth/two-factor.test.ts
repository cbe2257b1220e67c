import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../testing/app.ts';
import { authGet, authPost, mailsTo } from '../testing/auth-helpers.ts';
import { secretFromUri, totp } from '../testing/totp.ts';
import { signUpTestUser } from '../testing/users.ts';

// TOTP two-factor: turned on with the password and a first code, then asked for at every
// sign-in; backup codes work once; turning it off needs the password.

describe('two-factor authentication', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const profileOf = async (cookie: string) =>
    (await t.app.inject({ method: 'GET', url: '/api/me/profile', headers: { cookie } })).json();

  it('turns on with a code, then sign-in needs a TOTP or a one-time backup code', async () => {
    const user = await signUpTestUser(t.app);
    const wrongPw = await authPost(
      t.app,
      '/two-factor/enable',
      { password: 'nope-123' },
      { cookie: user.cookie },
    );
    expect(wrongPw.status).toBe(400);

    const enable = await authPost(
      t.app,
      '/two-factor/enable',
      { password: user.password },
      { cookie: user.cookie },
    );
    expect(enable.status).toBe(200);
    const secret = secretFromUri(enable.body!.totpURI);
    const backupCodes = enable.body!.backupCodes as string[];
    expect(backupCodes.length).toBeGreaterThanOrEqual(8);
    expect((await profileOf(user.cookie)).security.twoFactorEnabled).toBe(false); // not until verified

    const bad = await authPost(t.app, '/two-factor/verify-totp', { code: '000000' }, { cookie: user.cookie });
    expect(bad.status).toBe(401);
    const verify = await authPost(
      t.app,
      '/two-factor/verify-totp',
      { code: totp(secret) },
      { cookie: user.cookie },
    );
    expect(verify.status).toBe(200);
    const cookie = verify.cookie || user.cookie;
    const profile = await profileOf(cookie);
    expect(profile.security.twoFactorEnabled).toBe(true);
    expect(profile.security.twoFactorSetupAt).toBe(t.clock.now().toISOString());
    const alerts = async () =>
      (await mailsTo(t.app, user.email)).filter((m) => m.subject === 'New sign-in to your Kontor account')
        .length;
    expect(await alerts()).toBe(0); // turning 2FA on is not a sign-in

    // Sign-in now stops at the second factor: no session yet.
    const first = await authPost(t.app, '/sign-in/email', { email: user.email, password: user.password });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ twoFactorRedirect: true });
    expect((await authGet(t.app, '/get-session', first.cookie)).body).toBeNull();
    const code = await authPost(
      t.app,
      '/two-factor/verify-totp',
      { code: totp(secret) },
      { cookie: first.cookie },
    );
    expect(code.status).toBe(200);
    expect((await authGet(t.app, '/get-session', code.cookie)).body.user.id).toBe(user.id);
    expect(await alerts()).toBe(1); // the completed two-step sign-in is

    // A backup code works once.
    const second = await authPost(t.app, '/sign-in/email', { email: user.email, password: user.password });
    const backup = await authPost(
      t.app,
      '/two-factor/verify-backup-code',
      { code: backupCodes[0] },
      { cookie: second.cookie },
    );
    expect(backup.status).toBe(200);
    const third = await authPost(t.app, '/sign-in/email', { email: user.email, password: user.password });
    const reused = await authPost(
      t.app,
      '/two-factor/verify-backup-code',
      { code: backupCodes[0] },
      { cookie: third.cookie },
    );
    expect(reused.status).toBe(401);

    // Turning it off needs the password and clears the setup time.
    const off = await authPost(
      t.app,
      '/two-factor/disable',
      { password: user.password },
      { cookie: code.cookie },
    );
    expect(off.status).toBe(200);
    const after = await profileOf(off.cookie || code.cookie);
    expect(after.security).toMatchObject({ twoFactorEnabled: false, twoFactorSetupAt: null });
    const plain = await authPost(t.app, '/sign-in/email', { email: user.email, password: user.password });
    expect(plain.body).not.toHaveProperty('twoFactorRedirect');
  });
});
