import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../testing/app.ts';
import { addTestMember, createTestCompany } from '../../testing/companies.ts';
import { signUpTestUser, verifyTestUser } from '../../testing/users.ts';

describe('companies, members and invitations', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const as = (cookie: string) => ({ cookie });
  // Inviting needs a verified sender (issue 11 §1): the owner opens their confirmation link.
  const verifiedCompany = async () => {
    const company = await createTestCompany(t.app);
    await verifyTestUser(t.app, company.owner);
    return company;
  };
  /** The signed-in user of `cookie` accepts or declines invitation `id`. */
  const answerInvitation = (id: string, answer: 'accept' | 'decline', cookie: string) =>
    t.app.inject({ method: 'POST', url: `/api/invitations/${id}/${answer}`, headers: as(cookie) });

  it('creates a company whose creator is the owner, and lists it', async () => {
    const owner = await signUpTestUser(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/orgs',
      headers: as(owner.cookie),
      payload: {
        name: '  Blue Fern Studio ',
        baseCurrency: 'eur',
        fiscalYearStartMonth: 4,
        country: 'de',
        timeZone: 'Europe/Berlin',
      },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      name: 'Blue Fern Studio',
      baseCurrency: 'EUR',
      fiscalYearStartMonth: 4,
      country: 'DE',
      timeZone: 'Europe/Berlin',
      role: 'owner',
    });
    const list = await t.app.inject({ method: 'GET', url: '/api/orgs', headers: as(owner.cookie) });
    expect(list.json().companies.map((c: { name: string }) => c.name)).toEqual(['Blue Fern Studio']);
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['action', 'actor_user_id'])
      .where('organization_id', '=', res.json().id)
      .execute();
    expect(audit).toContainEqual({ action: 'company.create', actor_user_id: owner.id });
  });

  it('refuses bad input with clear messages and creates nothing', async () => {
    const owner = await signUpTestUser(t.app);
    for (const [payload, message] of [
      [{ name: 'A', baseCurrency: 'USD' }, 'Company name must be at least 2 characters.'],
      [{ name: 'Acme', baseCurrency: 'XXY' }, 'Choose a valid currency'],
      [
        { name: 'Acme', baseCurrency: 'USD', fiscalYearStartMonth: 13 },
        'Fiscal year start must be a month from 1 to 12.',
      ],
      [{ name: 'Acme', baseCurrency: 'USD', timeZone: 'Mars/Olympus' }, 'Choose a valid time zone'],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/orgs',
        headers: as(owner.cookie),
        payload,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toContain(message);
    }
    const list = await t.app.inject({ method: 'GET', url: '/api/orgs', headers: as(owner.cookie) });
    expect(list.json().companies).toEqual([]);
  });

  it('needs a signed-in user', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/orgs' })).statusCode).toBe(401);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/orgs',
          payload: { name: 'X Co', baseCurrency: 'USD' },
        })
      ).statusCode,
    ).toBe(401);
  });

  it('hides a company from non-members (404) and enforces roles (403)', async () => {
    const company = await createTestCompany(t.app);
    const stranger = await signUpTestUser(t.app);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/orgs/${company.id}`, headers: as(stranger.cookie) }))
        .statusCode,
    ).toBe(404);
    const viewer = await addTestMember(t.app, company, 'viewer');
    expect(
      (
        await t.app.inject({ method: 'GET', url: `/api/orgs/${company.id}`, headers: as(viewer.cookie) })
      ).json().role,
    ).toBe('viewer');
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/api/orgs/${company.id}`,
      headers: as(viewer.cookie),
      payload: { name: 'Hijacked' },
    });
    expect(patch.statusCode).toBe(403);
    expect(patch.json().error.message).toContain('Your role (viewer) cannot do this');
    const after = await t.app.inject({
      method: 'GET',
      url: `/api/orgs/${company.id}`,
      headers: as(company.owner.cookie),
    });
    expect(after.json().name).toBe('Acme Trading Ltd');
  });

  it('invites by email; only the invited address can accept, once', async () => {
    const company = await verifiedCompany();
    const invitee = await signUpTestUser(t.app, { verified: true });
    const other = await signUpTestUser(t.app, { verified: true });
    const invite = await t.app.inject({
      method: 'POST',
      url: `/api/orgs/${company.id}/invitations`,
      headers: as(company.owner.cookie),
      payload: { email: invitee.email.toUpperCase(), role: 'accountant' },
    });
    expect(invite.statusCode).toBe(201);
    const id = invite.json().id;
    const mail = await t.app.inject({
      method: 'GET',
      url: `/api/dev/mailbox?to=${encodeURIComponent(invitee.email)}`,
    });
    expect(mail.statusCode).toBe(200);
    expect(JSON.stringify(mail.json())).toContain('invited to Acme Trading Ltd');
    const mine = await t.app.inject({
      method: 'GET',
      url: '/api/me/invitations',
      headers: as(invitee.cookie),
    });
    expect(mine.json().invitations.map((i: { id: string }) => i.id)).toEqual([id]);
    expect((await answerInvitation(id, 'accept', other.cookie)).statusCode).toBe(404);
    expect((await answerInvitation(id, 'accept', invitee.cookie)).statusCode).toBe(200);
    const again = await answerInvitation(id, 'decline', invitee.cookie);
    expect(again.statusCode).toBe(409);
    const members = await t.app.inject({
      method: 'GET',
      url: `/api/orgs/${company.id}/members`,
      headers: as(invitee.cookie),
    });
    expect(
      members
        .json()
        .members.map((m: { role: string }) => m.role)
        .sort(),
    ).toEqual(['accountant', 'owner']);
  });

  it('refuses an expired invitation', async () => {
    const company = await verifiedCompany();
    const invitee = await signUpTestUser(t.app, { verified: true });
    const invite = await t.app.inject({
      method: 'POST',
      url: `/api/orgs/${company.id}/invitations`,
      headers: as(company.owner.cookie),
      payload: { email: invitee.email, role: 'viewer' },
    });
    t.clock.advance(8 * 86_400_000);
    const res = await answerInvitation(invite.json().id, 'accept', invitee.cookie);
    t.clock.set(new Date());
    expect(res.statusCode).toBe(410);
    expect(res.json().error.message).toBe('This invitation has expired. Ask for a new one.');
  });

  it('refuses to invite an existing member or with an unknown role', async () => {
    const company = await verifiedCompany();
    const dup = await t.app.inject({
      method: 'POST',
      url: `/api/orgs/${company.id}/invitations`,
      headers: as(company.owner.cookie),
      payload: { email: company.owner.email, role: 'viewer' },
    });
    expect(dup.statusCode).toBe(409);
    const bad = await t.app.inject({
      method: 'POST',
      url: `/api/orgs/${company.id}/invitations`,
      headers: as(company.owner.cookie),
      payload: { email: 'x@example.com', role: 'owner' },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('changes roles and removes members, but never the last owner', async () => {
    const company = await createTestCompany(t.app);
    const admin = await addTestMember(t.app, company, 'admin');
    const member = await addTestMember(t.app, company, 'member');
    const promote = await t.app.inject({
      method: 'PATCH',
      url: `/api/orgs/${company.id}/members/${member.id}`,
      headers: as(admin.cookie),
      payload: { role: 'accountant' },
    });
    expect(promote.json()).toEqual({ userId: member.id, role: 'accountant' });
    const adminMakesOwner = await t.app.inject({
      method: 'PATCH',
      url: `/api/orgs/${company.id}/members/${member.id}`,
      headers: as(admin.cookie),
      payload: { role: 'owner' },
    });
    expect(adminMakesOwner.statusCode).toBe(403);
    const demoteLastOwner = await t.app.inject({
      method: 'PATCH',
      url: `/api/orgs/${company.id}/members/${company.owner.id}`,
      headers: as(company.owner.cookie),
      payload: { role: 'admin' },
    });
    expect(demoteLastOwner.statusCode).toBe(409);
    expect(demoteLastOwner.json().error.code).toBe('last_owner');
    const leave = await t.app.inject({
      method: 'POST',
      url: `/api/orgs/${company.id}/leave`,
      headers: as(company.owner.cookie),
    });
    expect(leave.statusCode).toBe(409);
    const remove = await t.app.inject({
      method: 'DELETE',
      url: `/api/orgs/${company.id}/members/${member.id}`,
      headers: as(admin.cookie),
    });
    expect(remove.statusCode).toBe(204);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/orgs/${company.id}`, headers: as(member.cookie) }))
        .statusCode,
    ).toBe(404);
  });
});
