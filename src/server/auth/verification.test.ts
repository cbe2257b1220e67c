import { describe, expect, it, vi } from 'vitest';
import { ensureLedger, setUpInvoicing } from '../testing/invoices.ts';
import { setUpTestApp } from '../testing/per-file-app.ts';
import { authPost, mailsTo } from '../testing/auth-helpers.ts';
import { createTestCompany } from '../testing/companies.ts';
import { signUpTestUser, verificationLinkFor, verifyTestUser } from '../testing/users.ts';

// Email verification is real (issue 11 §1): a link mailed at sign-up (24 hours), resend,
// `emailVerified` in the profile, and the actions that need a proven address.

describe('email verification', () => {
  const t = setUpTestApp();
  const postAs = (cookie: string, path: string, payload: object) =>
    authPost(t.app, path, payload, { cookie });

  const get = (url: string, cookie: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });
  const post = (url: string, cookie: string, payload?: object) =>
    t.app.inject({ method: 'POST', url, headers: { cookie }, ...(payload ? { payload } : {}) });
  const profileOf = async (cookie: string) => (await get('/api/me/profile', cookie)).json();

  it('mails a link at sign-up; opening it verifies the address and the profile says so', async () => {
    const user = await signUpTestUser(t.app);
    expect((await profileOf(user.cookie)).emailVerified).toBe(false);
    const link = await verificationLinkFor(t.app, user.email);
    const res = await t.app.inject({ method: 'GET', url: link });
    expect(res.statusCode).toBe(302);
    expect(String(res.headers.location)).not.toMatch(/error=/);
    expect((await profileOf(user.cookie)).emailVerified).toBe(true);
  });

  it('refuses a link after 24 hours and leaves the address unverified', async () => {
    const user = await signUpTestUser(t.app);
    const link = await verificationLinkFor(t.app, user.email);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 24 * 3_600_000 + 60_000);
      const res = await t.app.inject({ method: 'GET', url: link });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toMatch(/error=TOKEN_EXPIRED/);
    } finally {
      vi.useRealTimers();
    }
    expect((await profileOf(user.cookie)).emailVerified).toBe(false);
  });

  it('resends the link to the signed-in user, and only to their own address', async () => {
    const user = await signUpTestUser(t.app);
    const before = (await mailsTo(t.app, user.email)).length;
    const again = await postAs(user.cookie, '/send-verification-email', {
      email: user.email,
      callbackURL: '/dashboard',
    });
    expect(again.status).toBe(200);
    expect((await mailsTo(t.app, user.email)).length).toBe(before + 1);
    const other = await postAs(user.cookie, '/send-verification-email', {
      email: 'someone-else@example.com',
      callbackURL: '/dashboard',
    });
    expect(other.status).toBe(400);
    expect((await mailsTo(t.app, 'someone-else@example.com')).length).toBe(0);
    // The resent link works.
    await verifyTestUser(t.app, user);
    expect((await profileOf(user.cookie)).emailVerified).toBe(true);
  });

  it('lets an unverified user sign in and work in their own company', async () => {
    const company = await createTestCompany(t.app);
    const signIn = await authPost(t.app, '/sign-in/email', {
      email: company.owner.email,
      password: company.owner.password,
    });
    expect(signIn.status).toBe(200);
    await ensureLedger(t.database, company);
    const customer = await post(`/api/orgs/${company.id}/customers`, signIn.cookie, { name: 'Local Shop' });
    expect(customer.statusCode).toBe(201);
  });

  describe('invitations', () => {
    const invite = async (company: Awaited<ReturnType<typeof createTestCompany>>, email: string) => {
      const res = await post(`/api/orgs/${company.id}/invitations`, company.owner.cookie, {
        email,
        role: 'accountant',
      });
      expect(res.statusCode).toBe(201);
      return res.json().id as string;
    };

    it('refuses an unverified invitee with 403 saying what to do, changing nothing; verified, they join', async () => {
      const company = await createTestCompany(t.app);
      await verifyTestUser(t.app, company.owner);
      const invitee = await signUpTestUser(t.app);
      const id = await invite(company, invitee.email.toUpperCase());
      for (const answer of ['accept', 'decline']) {
        const res = await post(`/api/invitations/${id}/${answer}`, invitee.cookie);
        expect(res.statusCode).toBe(403);
        expect(res.json().error.code).toBe('email_not_verified');
        expect(res.json().error.message).toMatch(/^Confirm your email address .+ Then accept again\.$/);
      }
      const still = await get('/api/me/invitations', invitee.cookie);
      expect(still.json().invitations.map((i: { id: string; status: string }) => [i.id, i.status])).toEqual([
        [id, 'pending'],
      ]);
      expect((await get('/api/orgs', invitee.cookie)).json()).not.toContain(company.id);
      const members = await get(`/api/orgs/${company.id}/members`, company.owner.cookie);
      expect(members.json().members).toHaveLength(1);

      await verifyTestUser(t.app, invitee);
      const ok = await post(`/api/invitations/${id}/accept`, invitee.cookie);
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual({ organizationId: company.id, status: 'accepted' });
    });

    it('cannot be taken over by signing up with the invited address first', async () => {
      const company = await createTestCompany(t.app);
      await verifyTestUser(t.app, company.owner);
      const target = `target-${Date.now()}@example.com`;
      const id = await invite(company, target);
      // The attacker registers the invited address; they never see the mail sent to it.
      const attacker = await signUpTestUser(t.app, { email: target });
      const res = await post(`/api/invitations/${id}/accept`, attacker.cookie);
      expect(res.statusCode).toBe(403);
      const row = await t.database.db
        .selectFrom('organization_invitations')
        .select('status')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe('pending');
      const member = await t.database.db
        .selectFrom('organization_members')
        .select('user_id')
        .where('organization_id', '=', company.id)
        .where('user_id', '=', attacker.id)
        .executeTakeFirst();
      expect(member).toBeUndefined();
    });

    it('refuses an unverified inviter: no invitation is stored and no mail leaves', async () => {
      const company = await createTestCompany(t.app);
      const to = `invitee-${Date.now()}@example.com`;
      const res = await post(`/api/orgs/${company.id}/invitations`, company.owner.cookie, {
        email: to,
        role: 'viewer',
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('email_not_verified');
      expect(res.json().error.message).toMatch(/^Confirm your email address .+ Then try again\.$/);
      const list = await get(`/api/orgs/${company.id}/invitations`, company.owner.cookie);
      expect(list.json().invitations).toEqual([]);
      expect(await mailsTo(t.app, to)).toEqual([]);
    });
  });

  describe('invoice email', () => {
    it('refuses an unverified sender on email and send-with-email, changing nothing', async () => {
      const company = await createTestCompany(t.app, { name: 'Unverified Co' });
      const fixture = await setUpInvoicing(t.app, t.database, company);
      const base = `/api/orgs/${company.id}`;
      const draft = await post(`${base}/invoices`, company.owner.cookie, {
        customerId: fixture.customerId,
        issueDate: '2026-03-01',
        lines: [{ description: 'Fixed fee', quantity: '1', unitPrice: 1000 }],
      });
      expect(draft.statusCode).toBe(201);
      const id = draft.json().id as string;
      const mailsBefore = (await mailsTo(t.app, 'billing@northwind.example')).length;

      const sendAndMail = await post(`${base}/invoices/${id}/send`, company.owner.cookie, { email: true });
      expect(sendAndMail.statusCode).toBe(403);
      expect(sendAndMail.json().error.code).toBe('email_not_verified');
      expect((await get(`${base}/invoices/${id}`, company.owner.cookie)).json().status).toBe('draft');

      const sent = await post(`${base}/invoices/${id}/send`, company.owner.cookie, {});
      expect(sent.statusCode).toBe(200);
      const mail = await post(`${base}/invoices/${id}/email`, company.owner.cookie, {});
      expect(mail.statusCode).toBe(403);
      expect(mail.json().error.message).toMatch(/^Confirm your email address .+ Then try again\.$/);
      const after = (await get(`${base}/invoices/${id}`, company.owner.cookie)).json();
      expect(after.emailedAt ?? null).toBeNull();
      expect((await mailsTo(t.app, 'billing@northwind.example')).length).toBe(mailsBefore);

      await verifyTestUser(t.app, company.owner);
      const ok = await post(`${base}/invoices/${id}/email`, company.owner.cookie, {});
      expect(ok.statusCode).toBe(200);
      expect((await mailsTo(t.app, 'billing@northwind.example')).length).toBe(mailsBefore + 1);
    });
  });
});
