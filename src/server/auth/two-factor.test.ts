import { describe, expect, it } from 'vitest';
import { setUpTestApp } from '../testing/per-file-app.ts';
import { authGet, authPost, mailsTo } from '../testing/auth-helpers.ts';
import { secretFromUri, totp } from '../testing/totp.ts';
import { signUpTestUser } from '../testing/users.ts';

// TOTP two-factor: turned on with the password and a first code, then asked for at every
// sign-in; backup codes work once; turning it off needs the password.

describe('two-factor authentication', () => {
  const t = setUpTestApp();
  const postAs = (cookie: string, path: string, payload: object) =>
    authPost(t.app, path, payload, { cookie });

  const profileOf = async (cookie: string) =>
    (await t.app.inject({ method: 'GET', url: '/api/me/profile', headers: { cookie } })).json();

  it('turns on with a code, then sign-in needs a TOTP or a one-time backup code', async () => {
    const user = await signUpTestUser(t.app);
    const wrongPw = await postAs(user.cookie, '/two-factor/enable', { password: 'nope-123' });
    expect(wrongPw.status).toBe(400);

    const enable = await postAs(user.cookie, '/two-factor/enable', { password: user.password });
    expect(enable.status).toBe(200);
    const secret = secretFromUri(enable.body!.totpURI);
    const backupCodes = enable.body!.backupCodes as string[];
    expect(backupCodes.length).toBeGreaterThanOrEqual(8);
    expect((await profileOf(user.cookie)).security.twoFactorEnabled).toBe(false); // not until verified

    const bad = await postAs(user.cookie, '/two-factor/verify-totp', { code: '000000' });
    expect(bad.status).toBe(401);
    const verify = await postAs(user.cookie, '/two-factor/verify-totp', { code: totp(secret) });
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
    const code = await postAs(first.cookie, '/two-factor/verify-totp', { code: totp(secret) });
    expect(code.status).toBe(200);
    expect((await authGet(t.app, '/get-session', code.cookie)).body.user.id).toBe(user.id);
    expect(await alerts()).toBe(1); // the completed two-step sign-in is

    // A backup code works once.
    const second = await authPost(t.app, '/sign-in/email', { email: user.email, password: user.password });
    const backup = await postAs(second.cookie, '/two-factor/verify-backup-code', { code: backupCodes[0] });
    expect(backup.status).toBe(200);
    const third = await authPost(t.app, '/sign-in/email', { email: user.email, password: user.password });
    const reused = await postAs(third.cookie, '/two-factor/verify-backup-code', { code: backupCodes[0] });
    expect(reused.status).toBe(401);

    // Turning it off needs the password and clears the setup time.
    const off = await postAs(code.cookie, '/two-factor/disable', { password: user.password });
    expect(off.status).toBe(200);
    const after = await profileOf(off.cookie || code.cookie);
    expect(after.security).toMatchObject({ twoFactorEnabled: false, twoFactorSetupAt: null });
    const plain = await authPost(t.app, '/sign-in/email', { email: user.email, password: user.password });
    expect(plain.body).not.toHaveProperty('twoFactorRedirect');
  });
});
