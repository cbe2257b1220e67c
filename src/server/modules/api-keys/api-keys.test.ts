import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_KEY_LENGTH,
  API_KEY_PREFIX,
  apiKeyFromRandom,
  isWellFormedApiKey,
} from '../../../shared/api-keys.ts';
import { type TestApp, companyCalls, expectRefusal } from '../../testing/api.ts';
import { callWithApiKey, createTestApiKey } from '../../testing/api-keys.ts';
import { createTestApp } from '../../testing/app.ts';
import { type TestCompany, addTestMember, createTestCompany } from '../../testing/companies.ts';
import { postedEntryBody, systemAccountsOf } from '../../testing/ledger.ts';
import { addTestMoneyAccount } from '../../testing/money.ts';
import { hashApiKey, newApiKeySecret } from './service.ts';

// API keys (issue 19 items 2 and 5): the key format, the owner/admin routes, and requests made
// with a key: its company only, its scopes, revoked/expired/malformed keys, the creator's role,
// last-used time, audit rows, Idempotency-Key replays, and its own rate limit.

describe('the key format', () => {
  it('makes prefixed keys with a checksum that catches a changed character', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const { secret, hash, prefix } = newApiKeySecret();
      expect(secret).toMatch(/^kontor_[0-9A-Za-z]{38}$/);
      expect(secret).toHaveLength(API_KEY_LENGTH);
      expect(isWellFormedApiKey(secret)).toBe(true);
      expect(prefix).toBe(secret.slice(0, 15));
      expect(hash).toBe(hashApiKey(secret));
      expect(hash).not.toContain(secret.slice(7));
      seen.add(secret);
      // Any one character of the random part changed: the checksum no longer fits.
      const at = 7 + (i % 32);
      const changed = `${secret.slice(0, at)}${secret[at] === 'a' ? 'b' : 'a'}${secret.slice(at + 1)}`;
      expect(isWellFormedApiKey(changed)).toBe(false);
    }
    expect(seen.size).toBe(200);
    expect(isWellFormedApiKey(apiKeyFromRandom('0'.repeat(32)))).toBe(true);
    for (const bad of [
      '',
      API_KEY_PREFIX,
      'kontor_short',
      `ktr_${'a'.repeat(38)}`,
      `kontor_${'a'.repeat(39)}`,
    ])
      expect(isWellFormedApiKey(bad), bad).toBe(false);
  });
});

describe('API keys', () => {
  let t: TestApp;
  let a: TestCompany;
  let b: TestCompany;
  const { call, ok } = companyCalls(() => t.app);
  const withKey = (
    secret: string,
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT',
    url: string,
    payload?: unknown,
    headers?: Record<string, string>,
  ) => callWithApiKey(t.app, secret, method, url, payload, headers);

  beforeAll(async () => {
    t = await createTestApp();
    a = await createTestCompany(t.app, { name: 'Key Company A' });
    b = await createTestCompany(t.app, { name: 'Key Company B' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('creates a key shown once, lists it without the secret, and stores only its hash', async () => {
    const created = await createTestApiKey(t.app, a, ['read', 'invoices:write'], { name: 'Shop sync' });
    expect(created.secret).toMatch(/^kontor_/);
    expect(created.key).toMatchObject({
      name: 'Shop sync',
      prefix: created.secret.slice(0, 15),
      scopes: ['invoices:write', 'read'],
      status: 'active',
      expiresAt: null,
      lastUsedAt: null,
      revokedAt: null,
      createdBy: { id: a.owner.id, email: a.owner.email },
    });
    const list = await ok(a, 'GET', '/api-keys');
    expect(list.keys.map((k: { id: string }) => k.id)).toContain(created.key.id);
    expect(JSON.stringify(list)).not.toContain(created.secret);
    const row = await t.database.db
      .selectFrom('api_keys')
      .selectAll()
      .where('id', '=', created.key.id)
      .executeTakeFirstOrThrow();
    expect(row.hash).toBe(hashApiKey(created.secret));
    expect(JSON.stringify(row)).not.toContain(created.secret);
    const audit = await t.database.db
      .selectFrom('audit_log')
      .selectAll()
      .where('entity_id', '=', created.key.id)
      .execute();
    expect(audit.map((r) => r.action)).toEqual(['api_key.created']);
    expect(JSON.stringify(audit)).not.toContain(created.secret);
  });

  it('refuses bad input with a 400 that changes nothing, and non-admins with a 403', async () => {
    const before = (await ok(a, 'GET', '/api-keys')).keys.length;
    for (const body of [
      {},
      { name: '', scopes: ['read'] },
      { name: 'x', scopes: [] },
      { name: 'x', scopes: ['admin'] },
      { name: 'x', scopes: ['read', 'read'] },
      { name: 'x', scopes: ['read'], expiresOn: '2020-01-01' },
      { name: 'x', scopes: ['read'], expiresOn: '2199-01-01' },
      { name: 'x', scopes: ['read'], expiresOn: 'soon' },
    ]) {
      const res = await call(a, 'POST', '/api-keys', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const accountant = await addTestMember(t.app, a, 'accountant');
    expectRefusal(await call(a, 'GET', '/api-keys', undefined, accountant), 403, 'forbidden');
    expectRefusal(
      await call(a, 'POST', '/api-keys', { name: 'x', scopes: ['read'] }, accountant),
      403,
      'forbidden',
    );
    expect((await ok(a, 'GET', '/api-keys')).keys.length).toBe(before);
  });

  it("opens its own company's routes and nothing else", async () => {
    const { secret } = await createTestApiKey(t.app, a, ['read', 'write']);
    const accounts = await withKey(secret, 'GET', `/api/orgs/${a.id}/accounts`);
    expect(accounts.status).toBe(200);
    expect(accounts.body.accounts.length).toBeGreaterThan(0);
    // Another company: as for a non-member, its existence is not revealed.
    expectRefusal(await withKey(secret, 'GET', `/api/orgs/${b.id}/accounts`), 404, 'not_found');
    expectRefusal(
      await withKey(secret, 'POST', `/api/orgs/${b.id}/customers`, { name: 'Intruder' }),
      404,
      'not_found',
    );
    // Routes of a signed-in person: the profile, the company list, the admin console, sign-in.
    for (const [method, url] of [
      ['GET', '/api/me/profile'],
      ['GET', '/api/orgs'],
      ['GET', '/api/admin/users'],
      ['GET', '/api/billing'],
      ['GET', '/api/auth/get-session'],
      ['POST', '/api/auth/sign-out'],
    ] as const) {
      const res = await withKey(secret, method, url, method === 'POST' ? {} : undefined);
      expect(res.status, `${method} ${url} ${JSON.stringify(res.body)}`).toBe(401);
      expect(res.body.error.code).toBe('api_key_not_accepted');
    }
  });

  it('enforces scopes: read only reads, an area scope changes only its area, 403 names the scope', async () => {
    const readOnly = await createTestApiKey(t.app, a, ['read']);
    const customers = await withKey(readOnly.secret, 'GET', `/api/orgs/${a.id}/customers`);
    expect(customers.status).toBe(200);
    const refused = await withKey(readOnly.secret, 'POST', `/api/orgs/${a.id}/customers`, { name: 'Nope' });
    expectRefusal(refused, 403, 'api_key_scope');
    expect(refused.body.error.message).toContain('`invoices:write`');
    expect(refused.body.error.message).toContain('`write`');

    const invoicing = await createTestApiKey(t.app, a, ['invoices:write']);
    const made = await withKey(invoicing.secret, 'POST', `/api/orgs/${a.id}/customers`, {
      name: 'Northwind',
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const wallet = await withKey(invoicing.secret, 'POST', `/api/orgs/${a.id}/wallet/accounts`, {
      name: 'Side account',
      kind: 'bank',
      currency: 'USD',
    });
    expectRefusal(wallet, 403, 'api_key_scope');
    expect(wallet.body.error.message).toContain('`banking:write`');
    // Without `read`, even its own area's lists are closed.
    expectRefusal(
      await withKey(invoicing.secret, 'GET', `/api/orgs/${a.id}/customers`),
      403,
      'api_key_scope',
    );
  });

  it('never manages members, invitations, company settings or keys, whatever its scopes', async () => {
    const { secret } = await createTestApiKey(t.app, a, ['read', 'write']);
    for (const [method, url, body] of [
      ['GET', '/api-keys'],
      ['POST', '/api-keys', { name: 'Escalate', scopes: ['write'] }],
      ['GET', '/invitations'],
      ['POST', '/invitations', { email: 'new@example.com', role: 'admin' }],
      ['PATCH', '', { name: 'Renamed by a key' }],
      ['POST', '/leave', {}],
    ] as const) {
      const res = await withKey(secret, method, `/api/orgs/${a.id}${url}`, body);
      expectRefusal(res, 403, 'api_key_not_allowed');
    }
    // Reading the company itself is fine.
    expect((await withKey(secret, 'GET', `/api/orgs/${a.id}`)).status).toBe(200);
  });

  it('answers 401 with a clear reason for malformed, unknown, revoked and expired keys', async () => {
    const url = `/api/orgs/${a.id}/accounts`;
    const malformed = await withKey('kontor_not-a-key', 'GET', url);
    expectRefusal(malformed, 401, 'api_key_invalid');
    expect(malformed.body.error.message).toContain('malformed');
    expectRefusal(await withKey(newApiKeySecret().secret, 'GET', url), 401, 'api_key_invalid');

    const revoked = await createTestApiKey(t.app, a, ['read']);
    expect((await withKey(revoked.secret, 'GET', url)).status).toBe(200);
    const answer = await ok(a, 'POST', `/api-keys/${revoked.key.id}/revoke`);
    expect(answer.status).toBe('revoked');
    const after = await withKey(revoked.secret, 'GET', url);
    expectRefusal(after, 401, 'api_key_revoked');
    expect(after.body.error.message).toContain(revoked.key.prefix);
    expectRefusal(await call(a, 'POST', `/api-keys/${revoked.key.id}/revoke`), 409, 'api_key_revoked');
    expectRefusal(await call(b, 'POST', `/api-keys/${revoked.key.id}/revoke`), 404, 'not_found');

    const today = t.clock.now().toISOString().slice(0, 10);
    const expiring = await createTestApiKey(t.app, a, ['read'], { expiresOn: today });
    expect(expiring.key.expiresAt).not.toBeNull();
    expect((await withKey(expiring.secret, 'GET', url)).status).toBe(200);
    const clock = t.clock.now();
    t.clock.set(new Date(expiring.key.expiresAt!));
    try {
      expectRefusal(await withKey(expiring.secret, 'GET', url), 401, 'api_key_expired');
      const listed = await ok(a, 'GET', '/api-keys');
      expect(listed.keys.find((k: { id: string }) => k.id === expiring.key.id).status).toBe('expired');
    } finally {
      t.clock.set(clock);
    }
  });

  it("acts with its creator's current role, and stops when the creator leaves", async () => {
    const admin = await addTestMember(t.app, a, 'admin');
    const { secret } = await createTestApiKey(t.app, a, ['read', 'write'], { cookie: admin.cookie });
    const customer = { name: 'Made by the admin key' };
    expect((await withKey(secret, 'POST', `/api/orgs/${a.id}/customers`, customer)).status).toBe(201);
    await ok(a, 'PATCH', `/members/${admin.id}`, { role: 'viewer' });
    const demoted = await withKey(secret, 'POST', `/api/orgs/${a.id}/customers`, customer);
    expectRefusal(demoted, 403, 'forbidden');
    expect(demoted.body.error.message).toContain('viewer');
    expect((await withKey(secret, 'GET', `/api/orgs/${a.id}/customers`)).status).toBe(200);
    expect((await call(a, 'DELETE', `/members/${admin.id}`)).status).toBe(204);
    const gone = await withKey(secret, 'GET', `/api/orgs/${a.id}/customers`);
    expectRefusal(gone, 401, 'api_key_invalid');
    expect(gone.body.error.message).toContain('left the company');
    const listed = (await ok(a, 'GET', '/api-keys')).keys as {
      createdBy: { id: string } | null;
      status: string;
    }[];
    expect(listed.filter((k) => k.createdBy?.id === admin.id).map((k) => k.status)).toEqual(['disabled']);
  });

  it('records the last use at most once a minute, and names the key in the audit rows of its changes', async () => {
    const created = await createTestApiKey(t.app, a, ['read', 'write']);
    const lastUsed = async () =>
      (await ok(a, 'GET', '/api-keys')).keys.find((k: { id: string }) => k.id === created.key.id).lastUsedAt;
    expect(await lastUsed()).toBeNull();
    const first = t.clock.now().toISOString();
    await withKey(created.secret, 'GET', `/api/orgs/${a.id}/customers`);
    expect(await lastUsed()).toBe(first);
    t.clock.advance(30_000);
    await withKey(created.secret, 'GET', `/api/orgs/${a.id}/customers`);
    expect(await lastUsed()).toBe(first);
    t.clock.advance(31_000);
    await withKey(created.secret, 'GET', `/api/orgs/${a.id}/customers`);
    expect(await lastUsed()).toBe(t.clock.now().toISOString());

    const made = await withKey(created.secret, 'POST', `/api/orgs/${a.id}/customers`, { name: 'Audited' });
    expect(made.status).toBe(201);
    const row = await t.database.db
      .selectFrom('audit_log')
      .select(['actor_user_id', 'api_key_id', 'action'])
      .where('organization_id', '=', a.id)
      .where('entity_id', '=', made.body.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      actor_user_id: a.owner.id,
      api_key_id: created.key.id,
      action: 'customer.created',
    });
    // The web app's own changes name no key.
    const byHand = await ok(a, 'POST', '/customers', { name: 'By hand' });
    const handRow = await t.database.db
      .selectFrom('audit_log')
      .select('api_key_id')
      .where('entity_id', '=', byHand.id)
      .executeTakeFirstOrThrow();
    expect(handRow.api_key_id).toBeNull();
  });

  it('replays an Idempotency-Key for a key client as for the browser: one journal entry, one transfer', async () => {
    const { secret } = await createTestApiKey(t.app, a, ['read', 'write']);
    const accounts = await systemAccountsOf(t.app, a);
    const body = postedEntryBody('2026-01-15', 'Key sale', accounts.bank, accounts.services, 12_345);
    const url = `/api/orgs/${a.id}/journal-entries`;
    const headers = { 'idempotency-key': 'key-entry-1' };
    const first = await withKey(secret, 'POST', url, body, headers);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const again = await t.app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${secret}`, ...headers },
      payload: body,
    });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().id).toBe(first.body.id);
    const entries = await t.database.db
      .selectFrom('journal_entries')
      .select('id')
      .where('organization_id', '=', a.id)
      .where('memo', '=', 'Key sale')
      .execute();
    expect(entries).toHaveLength(1);
    expectRefusal(
      await withKey(secret, 'POST', url, { ...body, memo: 'Another sale' }, headers),
      409,
      'idempotency_key_reused',
    );

    const from = await addTestMoneyAccount(t.app, a, {
      name: 'Key checking',
      openingDate: '2026-01-01',
      openingBalance: 100_000,
    });
    const to = await addTestMoneyAccount(t.app, a, { name: 'Key savings', openingDate: '2026-01-01' });
    const transfer = { fromAccountId: from.id, toAccountId: to.id, date: '2026-01-20', amount: 2_500 };
    const transferHeaders = { 'idempotency-key': 'key-transfer-1' };
    const t1 = await withKey(secret, 'POST', `/api/orgs/${a.id}/wallet/transfers`, transfer, transferHeaders);
    const t2 = await withKey(secret, 'POST', `/api/orgs/${a.id}/wallet/transfers`, transfer, transferHeaders);
    expect(t1.status, JSON.stringify(t1.body)).toBe(201);
    expect(t2.body).toEqual(t1.body);
    const transfers = await t.database.db
      .selectFrom('transfers')
      .select('id')
      .where('organization_id', '=', a.id)
      .where('date', '=', '2026-01-20')
      .execute();
    expect(transfers).toHaveLength(1);
  });

  it('works from a server-side client (no Origin) and is refused from an untrusted page like a cookie', async () => {
    const { secret } = await createTestApiKey(t.app, a, ['read', 'write']);
    const url = `/api/orgs/${a.id}/customers`;
    expect((await withKey(secret, 'POST', url, { name: 'Server side' })).status).toBe(201);
    expectRefusal(
      await withKey(secret, 'POST', url, { name: 'From a page' }, { origin: 'https://evil.example' }),
      403,
      'untrusted_origin',
    );
  });
});

describe('the rate limit of a key', () => {
  let t: TestApp;
  let a: TestCompany;
  beforeAll(async () => {
    t = await createTestApp({ env: { API_LIMIT_PER_MINUTE: '4', API_ANONYMOUS_LIMIT_PER_MINUTE: '4' } });
    a = await createTestCompany(t.app);
  });
  afterAll(async () => {
    await t.close();
  });

  it('gives each key its own bucket, apart from its creator and from other keys', async () => {
    const one = await createTestApiKey(t.app, a, ['read']);
    const two = await createTestApiKey(t.app, a, ['read']);
    const ip = { 'x-forwarded-for': '10.77.0.1' };
    const url = `/api/orgs/${a.id}/accounts`;
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await callWithApiKey(t.app, one.secret, 'GET', url, undefined, ip)).status);
    expect(statuses.slice(0, 4)).toEqual([200, 200, 200, 200]);
    expect(statuses.slice(4)).toEqual([429, 429]);
    const limited = await callWithApiKey(t.app, one.secret, 'GET', url, undefined, ip);
    expectRefusal(limited, 429, 'rate_limited');
    // Another key from the same address, and the creator's session, still have their own.
    expect((await callWithApiKey(t.app, two.secret, 'GET', url, undefined, ip)).status).toBe(200);
    const session = await t.app.inject({ method: 'GET', url, headers: { cookie: a.owner.cookie, ...ip } });
    expect(session.statusCode).toBe(200);
  });
});
