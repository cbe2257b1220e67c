import { describe, expect, it } from 'vitest';
import { authGet, authPost, latestMail, mailsTo } from '../testing/auth-helpers.ts';
import { setUpTestApp } from '../testing/per-file-app.ts';
import { secretFromUri, totp } from '../testing/totp.ts';
import { signUpTestUser } from '../testing/users.ts';

// Changing the sign-in email (issue 17): the current password, a link to the new address,
// the change only when the link is opened; then the profile follows, the new address is
// confirmed, sign-in works with it (and no longer with the old one), and the old one is told.
// Also regenerating the two-factor backup codes (Settings > Security).

const CHANGE_SUBJECT = 'Confirm your new email address for Kontor';

describe('email change', () => {
  const t = setUpTestApp();
  const postAs = (cookie: string, path: string, payload: object) =>
    authPost(t.app, path, payload, { cookie });
  const profileOf = async (cookie: string) =>
    (await t.app.inject({ method: 'GET', url: '/api/me/profile', headers: { cookie } })).json();
  const emailOfAccount = async (id: string) =>
    (await t.database.db
      .selectFrom('user')
      .select(['email', 'emailVerified'])
      .where('id', '=', id)
      .executeTakeFirst())!;
  const linkIn = (text: string) => {
    const match = /https?:\/\/\S+\/api\/auth\/verify-email\?\S+/.exec(text);
    if (!match) throw new Error(`no link in: ${text}`);
    const url = new URL(match[0]);
    return `${url.pathname}${url.search}`;
  };
  const fresh = (name: string) => `${name}-${Date.now().toString(36)}@example.com`;

  it('mails a link to the new address and changes it only when the link is opened', async () => {
    const user = await signUpTestUser(t.app, { verified: true });
    const newEmail = fresh('moved');
    const asked = await postAs(user.cookie, '/change-email', {
      newEmail: newEmail.toUpperCase(),
      password: user.password,
      callbackURL: '/settings?tab=profile&emailChanged=1',
    });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);

    // Nothing has changed yet.
    expect((await emailOfAccount(user.id)).email).toBe(user.email);
    expect((await profileOf(user.cookie)).email).toBe(user.email);
    const mail = await latestMail(t.app, newEmail);
    expect(mail?.subject).toBe(CHANGE_SUBJECT);
    expect(mail!.text).toContain(`from ${user.email} to this one`);

    const opened = await t.app.inject({ method: 'GET', url: linkIn(mail!.text) });
    expect(opened.statusCode).toBe(302);
    expect(String(opened.headers.location)).toBe('/settings?tab=profile&emailChanged=1');

    expect(await emailOfAccount(user.id)).toEqual({ email: newEmail, emailVerified: true });
    const profile = await profileOf(user.cookie);
    expect(profile.email).toBe(newEmail);
    expect(profile.emailVerified).toBe(true);
    // The old address is told.
    const notice = await latestMail(t.app, user.email);
    expect(notice?.subject).toBe('Your Kontor email address was changed');
    expect(notice!.text).toContain(newEmail);

    // Sign-in: the new address works, the old one no longer does.
    expect(
      (await authPost(t.app, '/sign-in/email', { email: newEmail, password: user.password })).status,
    ).toBe(200);
    expect(
      (await authPost(t.app, '/sign-in/email', { email: user.email, password: user.password })).status,
    ).toBe(401);
    // The link works once.
    const again = await t.app.inject({ method: 'GET', url: linkIn(mail!.text) });
    expect(String(again.headers.location)).toMatch(/error=/);
  });

  it('lets an unconfirmed account move too, and opening the link confirms the new address', async () => {
    const user = await signUpTestUser(t.app);
    const newEmail = fresh('typo-fixed');
    expect((await postAs(user.cookie, '/change-email', { newEmail, password: user.password })).status).toBe(
      200,
    );
    expect((await emailOfAccount(user.id)).email).toBe(user.email);
    const mail = await latestMail(t.app, newEmail);
    expect(mail?.subject).toBe(CHANGE_SUBJECT);
    await t.app.inject({ method: 'GET', url: linkIn(mail!.text) });
    expect(await emailOfAccount(user.id)).toEqual({ email: newEmail, emailVerified: true });
    expect((await profileOf(user.cookie)).emailVerified).toBe(true);
  });

  it('needs the current password, sends nothing and changes nothing without it', async () => {
    const user = await signUpTestUser(t.app, { verified: true });
    const newEmail = fresh('stolen-session');
    const none = await postAs(user.cookie, '/change-email', { newEmail });
    expect(none.status).toBe(400);
    expect(none.body).toMatchObject({ code: 'PASSWORD_REQUIRED' });
    const wrong = await postAs(user.cookie, '/change-email', { newEmail, password: 'Not-The-Password-1' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: 'INVALID_PASSWORD' });
    const bad = await postAs(user.cookie, '/change-email', {
      newEmail: 'not an email',
      password: user.password,
    });
    expect(bad.status).toBe(400);
    const same = await postAs(user.cookie, '/change-email', {
      newEmail: user.email,
      password: user.password,
    });
    expect(same.status).toBe(400);
    const signedOut = await authPost(t.app, '/change-email', { newEmail, password: user.password });
    expect(signedOut.status).toBe(401);
    expect(await mailsTo(t.app, newEmail)).toEqual([]);
    expect((await emailOfAccount(user.id)).email).toBe(user.email);
  });

  it('does not reveal or take an address another account has', async () => {
    const taken = await signUpTestUser(t.app);
    const user = await signUpTestUser(t.app, { verified: true });
    const before = (await mailsTo(t.app, taken.email)).length;
    const res = await postAs(user.cookie, '/change-email', {
      newEmail: taken.email,
      password: user.password,
    });
    expect(res.status).toBe(200); // same answer as for a free address
    expect((await mailsTo(t.app, taken.email)).length).toBe(before);
    expect((await emailOfAccount(user.id)).email).toBe(user.email);
  });

  it('refuses a change link opened while another user is signed in', async () => {
    const user = await signUpTestUser(t.app, { verified: true });
    const other = await signUpTestUser(t.app);
    const newEmail = fresh('hijack');
    await postAs(user.cookie, '/change-email', { newEmail, password: user.password });
    const mail = await latestMail(t.app, newEmail);
    const res = await t.app.inject({
      method: 'GET',
      url: linkIn(mail!.text),
      headers: { cookie: other.cookie },
    });
    expect(String(res.headers.location ?? res.body)).toMatch(/INVALID_USER|error/);
    expect((await emailOfAccount(user.id)).email).toBe(user.email);
  });
});

describe('backup codes', () => {
  const t = setUpTestApp();

  it('regenerates ten one-time codes with the password; the old ones stop working', async () => {
    const user = await signUpTestUser(t.app);
    const enable = await authPost(
      t.app,
      '/two-factor/enable',
      { password: user.password },
      { cookie: user.cookie },
    );
    const secret = secretFromUri(enable.body!.totpURI);
    const verify = await authPost(
      t.app,
      '/two-factor/verify-totp',
      { code: totp(secret) },
      { cookie: user.cookie },
    );
    const cookie = verify.cookie || user.cookie;
    const oldCodes = enable.body!.backupCodes as string[];

    const refused = await authPost(
      t.app,
      '/two-factor/generate-backup-codes',
      { password: 'wrong-pass-1' },
      { cookie },
    );
    expect(refused.status).toBe(400);
    const missing = await authPost(t.app, '/two-factor/generate-backup-codes', {}, { cookie });
    expect(missing.status).toBe(400);

    const fresh = await authPost(
      t.app,
      '/two-factor/generate-backup-codes',
      { password: user.password },
      { cookie },
    );
    expect(fresh.status).toBe(200);
    const codes = fresh.body!.backupCodes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    expect(codes.some((c) => oldCodes.includes(c))).toBe(false);

    const signIn = async () =>
      authPost(t.app, '/sign-in/email', { email: user.email, password: user.password });
    const first = await signIn();
    const old = await authPost(
      t.app,
      '/two-factor/verify-backup-code',
      { code: oldCodes[0] },
      { cookie: first.cookie },
    );
    expect(old.status).toBe(401);
    const second = await signIn();
    const ok = await authPost(
      t.app,
      '/two-factor/verify-backup-code',
      { code: codes[0] },
      { cookie: second.cookie },
    );
    expect(ok.status).toBe(200);
    expect((await authGet(t.app, '/get-session', ok.cookie)).body.user.id).toBe(user.id);
  });
});
