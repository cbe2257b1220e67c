import { randomUUID } from 'node:crypto';
import type { App } from '../app.ts';
import type { Executor } from '../db/transaction.ts';
import { initializeLedger } from '../modules/ledger/accounts.ts';
import { type TestBilling, type TestUser, signUpTestUser, verifyTestUser } from './users.ts';

// Test companies, two ways: `createTestCompany` signs an owner up and creates the company
// through the API (integration tests of company routes); `createTestCompanyInDatabase` writes
// the company row and sets its ledger up straight in the database, with no HTTP and no user
// (property tests, service-level tests and the benches). Such a company has no owner, so no
// payer: plan limits and the read-only guard (issue 16) do not apply to it.

export type TestCompany = { id: string; owner: TestUser; baseCurrency: string };

export const createTestCompany = async (
  app: App,
  options: {
    owner?: TestUser;
    name?: string;
    baseCurrency?: string;
    fiscalYearStartMonth?: number;
    /** The new owner's billing (signUpTestUser): an Enterprise grant unless 'trial'. */
    billing?: TestBilling;
  } = {},
): Promise<TestCompany> => {
  const owner = options.owner ?? (await signUpTestUser(app, { billing: options.billing }));
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

export type TestCompanyInDatabase = {
  id: string;
  baseCurrency: string;
  /** Account ids by system key (`bank`, `receivables`, …). */
  accounts: Record<string, string>;
  /** Account ids by chart code. */
  accountsByCode: Record<string, string>;
};

export const createTestCompanyInDatabase = async (
  db: Executor,
  options: { baseCurrency?: string; fiscalYearStartMonth?: number; name?: string } = {},
): Promise<TestCompanyInDatabase> => {
  const id = randomUUID();
  const baseCurrency = options.baseCurrency ?? 'USD';
  const fiscalYearStartMonth = options.fiscalYearStartMonth ?? 1;
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('organizations')
      .values({
        id,
        name: options.name ?? `Test company ${id.slice(0, 6)}`,
        base_currency: baseCurrency,
        fiscal_year_start_month: fiscalYearStartMonth,
        created_by: 'test-user',
      })
      .execute();
    await initializeLedger(trx, {
      organizationId: id,
      baseCurrency,
      fiscalYearStartMonth,
      actorUserId: 'test-user',
    });
  });
  const accounts = await db
    .selectFrom('accounts')
    .select(['id', 'system_key', 'code'])
    .where('organization_id', '=', id)
    .execute();
  return {
    id,
    baseCurrency,
    accounts: Object.fromEntries(accounts.filter((a) => a.system_key).map((a) => [a.system_key!, a.id])),
    accountsByCode: Object.fromEntries(accounts.map((a) => [a.code, a.id])),
  };
};
