import type { App } from '../app.ts';
import { type TestUser, signUpTestUser, verifyTestUser } from './users.ts';

// A signed-up owner with a fresh company, for integration tests of company routes.

export type TestCompany = { id: string; owner: TestUser; baseCurrency: string };

export const createTestCompany = async (
  app: App,
  options: { owner?: TestUser; name?: string; baseCurrency?: string; fiscalYearStartMonth?: number } = {},
): Promise<TestCompany> => {
  const owner = options.owner ?? (await signUpTestUser(app));
  const res = await app.inject({
    method: 'POST',
    url: '/api/orgs',
    headers: { cookie: owner.cookie },
    payload: {
      name: options.name ?? 'Acme Trading Ltd',
      baseCurrency: options.baseCurrency ?? 'USD',
      fiscalYearStartMonth: options.fiscalYearStartMonth ?? 1,
    },
  });
  if (res.statusCode !== 201) throw new Error(`create company failed: ${res.statusCode} ${res.body}`);
  return { id: res.json().id, owner, baseCurrency: options.baseCurrency ?? 'USD' };
};

/** Adds an existing user to a company with a role, through a real invitation. */
export const addTestMember = async (app: App, company: TestCompany, role: string, user?: TestUser) => {
  const member = user ?? (await signUpTestUser(app));
  // Inviting mails from the owner's address and accepting needs the invited one: both are
  // verified first, through the links Kontor mailed them (issue 11 §1).
  await verifyTestUser(app, company.owner);
  await verifyTestUser(app, member);
  const invite = await app.inject({
    method: 'POST',
    url: `/api/orgs/${company.id}/invitations`,
    headers: { cookie: company.owner.cookie },
    payload: { email: member.email, role },
  });
  if (invite.statusCode !== 201) throw new Error(`invite failed: ${invite.statusCode} ${invite.body}`);
  const accept = await app.inject({
    method: 'POST',
    url: `/api/invitations/${invite.json().id}/accept`,
    headers: { cookie: member.cookie },
  });
  if (accept.statusCode !== 200) throw new Error(`accept failed: ${accept.statusCode} ${accept.body}`);
  return member;
};
