import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USED_AUTH_OPERATIONS } from './auth/openapi.ts';
import { freshIp, latestMail } from './testing/auth-helpers.ts';
import { createOpenApiWalk } from './testing/openapi-walk.ts';
import { secretFromUri, totp } from './testing/totp.ts';
import { cookieFrom, signUpTestUser } from './testing/users.ts';

// The OpenAPI document is complete and true (issue 22): the document itself (every operation
// lists its errors in the one shape, a 204 has no body, no `\d` in a pattern, the sign-in
// operations the web app uses are there), the walk over every operation with valid requests
// and one bad value of each kind (src/server/testing/openapi-walk.ts, contract mode: every
// answer's status is listed, its content type documented, its JSON body valid against the
// schema), and the /api/auth operations through a real account's sign-up, sign-in, two-factor,
// sessions and reset. fuzz.test.ts runs the same checks with the whole bad-input catalogue.

type Json = Record<string, any>;

describe('the OpenAPI document matches every answer (contract)', () => {
  const walk = createOpenApiWalk();
  beforeAll(walk.setUp, 120_000);
  afterAll(walk.close);

  const operations = () =>
    Object.entries(walk.document.paths as Record<string, Record<string, Json>>).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
    );

  it('tells an answer the document does not describe from one it does', () => {
    const path = '/api/orgs/{organizationId}/customers/{customerId}';
    const json = { 'content-type': 'application/json; charset=utf-8' };
    const error = JSON.stringify({ error: { code: 'not_found', message: 'Customer not found.' } });
    expect(walk.contract.problems('GET', path, { statusCode: 404, headers: json, body: error })).toEqual([]);
    expect(walk.contract.problems('GET', path, { statusCode: 418, headers: json, body: error })).toHaveLength(
      1,
    );
    expect(
      walk.contract.problems('GET', path, { statusCode: 404, headers: json, body: '{"message":"x"}' }),
    ).toHaveLength(1);
    expect(
      walk.contract.problems('GET', path, { statusCode: 200, headers: json, body: '{"id":1}' }),
    ).toHaveLength(1);
    expect(
      walk.contract.problems('GET', path, {
        statusCode: 404,
        headers: { 'content-type': 'text/html' },
        body: error,
      }),
    ).toHaveLength(1);
    const remove = '/api/orgs/{organizationId}/transactions/{id}';
    expect(walk.contract.problems('DELETE', remove, { statusCode: 204, headers: {}, body: '' })).toEqual([]);
    expect(
      walk.contract.problems('DELETE', remove, { statusCode: 204, headers: json, body: 'null' }),
    ).toHaveLength(1);
  });

  it('lists for every operation a success, its errors in the one shape, and 500', () => {
    const doc = walk.document as Json;
    const problems: string[] = [];
    expect(doc.components.schemas.Error.properties.error.required).toEqual(['code', 'message']);
    for (const { path, method, operation } of operations()) {
      const responses = operation.responses as Record<string, Json>;
      const statuses = Object.keys(responses).map(Number);
      const where = `${method.toUpperCase()} ${path}`;
      if (!statuses.some((s) => s >= 200 && s < 400)) problems.push(`${where}: no success answer`);
      if (!statuses.includes(500)) problems.push(`${where}: no 500`);
      if (path.includes('{') && !statuses.includes(404)) problems.push(`${where}: a path parameter, no 404`);
      if (method !== 'get' && !statuses.includes(400)) problems.push(`${where}: a change, no 400`);
      if (responses['204']?.content) problems.push(`${where}: 204 with content`);
      for (const [status, response] of Object.entries(responses)) {
        // Every 4xx and the 500 carry `error: { code, message }` (health's 503 is its report).
        if (Number(status) < 400 || Number(status) > 500) continue;
        const resolved = response.$ref
          ? doc.components.responses[String(response.$ref).split('/').at(-1)!]
          : response;
        const schema = JSON.stringify(resolved?.content?.['application/json']?.schema ?? null);
        if (
          !schema.includes('#/components/schemas/Error') &&
          !schema.includes('"required":["code","message"]')
        )
          problems.push(`${where}: ${status} is not the error shape (${schema.slice(0, 80)})`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('writes patterns every regex engine reads alike: no \\d', () => {
    const text = JSON.stringify(walk.document);
    expect(text).not.toMatch(/\\\\d/);
    // The date and decimal fields say [0-9].
    expect(text).toContain('"pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"');
  });

  it('documents the /api/auth operations the web app uses', () => {
    const paths = walk.document.paths as Record<string, Record<string, Json>>;
    for (const [path, methods] of Object.entries(USED_AUTH_OPERATIONS)) {
      for (const method of methods) {
        const operation = paths[`/api/auth${path}`]?.[method];
        expect(operation, `${method} /api/auth${path}`).toBeDefined();
        expect(Object.keys(operation!.responses)).toEqual(
          expect.arrayContaining(['200', '400', '429', '500']),
        );
      }
    }
  });

  it('refuses digits of other scripts in decimal and date fields with 400', async () => {
    const { a } = walk.companies;
    const base = `/api/orgs/${a.id}`;
    for (const [url, body] of [
      [`${base}/tax-rates`, { name: 'Odd', percent: '٣෮๒' }],
      [`${base}/tax-rates`, { name: 'Odd', percent: '1.٣' }],
      [`${base}/wallet/rates`, { currency: 'EUR', date: '2026-03-01', rate: '٣' }],
      [`${base}/journal-entries`, { date: '٢٠٢٦-03-01', memo: 'x', lines: [] }],
    ] as const) {
      const res = await walk.request('POST', url, { cookie: a.owner.cookie, body });
      expect(res.statusCode, `${url} ${res.body}`).toBe(400);
      expect(walk.contract.problems('POST', url.replace(a.id, '{organizationId}'), res)).toEqual([]);
    }
  });

  it('walks every operation: each answer has a listed status, its content type and a body its schema accepts', {
    timeout: 300_000,
  }, async () => {
    expect(await walk.walk('contract')).toEqual([]);
  });

  it('answers the sign-in operations as documented, for a real account', { timeout: 60_000 }, async () => {
    const { app } = walk.t;
    const problems: string[] = [];
    const seen = new Set<string>();
    const ip = freshIp();
    const call = async (
      method: 'GET' | 'POST',
      path: string,
      options: { body?: unknown; raw?: string; cookie?: string; headers?: Record<string, string> } = {},
    ) => {
      const res = await app.inject({
        method,
        url: `/api/auth${path}`,
        headers: {
          origin: 'http://localhost:3000',
          'x-forwarded-for': ip,
          ...(options.cookie ? { cookie: options.cookie } : {}),
          ...(options.raw !== undefined || options.body !== undefined
            ? { 'content-type': 'application/json' }
            : {}),
          ...options.headers,
        },
        ...(options.raw !== undefined
          ? { payload: options.raw }
          : options.body !== undefined
            ? { payload: JSON.stringify(options.body) }
            : {}),
      });
      const documented = path.split('?')[0]!;
      seen.add(`${method} ${documented} ${res.statusCode}`);
      for (const problem of walk.contract.problems(method, `/api/auth${documented}`, res))
        problems.push(`${method} /api/auth${path} → ${problem}`);
      return res;
    };

    const email = `contract-${Date.now().toString(36)}@example.com`;
    const password = 'Contract-Horse-42';
    // Sign-up: bad input, then the account.
    await call('POST', '/sign-up/email', { body: { email: 'not-an-email', password, name: 'C' } });
    await call('POST', '/sign-up/email', { raw: '{"email":' });
    await call('POST', '/sign-up/email', { raw: 'x', headers: { 'content-type': 'text/plain' } });
    await call('POST', '/sign-up/email', {
      body: { email, password, name: 'C' },
      headers: { origin: 'https://elsewhere.example' },
    });
    await call('POST', '/sign-up/email', { body: { email, password: 'short', name: 'C' } });
    const signUp = await call('POST', '/sign-up/email', { body: { email, password, name: 'Contract' } });
    expect(signUp.statusCode).toBe(200);
    let cookie = cookieFrom(signUp.headers['set-cookie']);

    // Sessions and the signed-out answers.
    await call('GET', '/get-session', { cookie });
    await call('GET', '/get-session');
    await call('GET', '/list-sessions', { cookie });
    await call('GET', '/list-sessions');
    await call('POST', '/revoke-session', { cookie, body: { token: 'no-such-token' } });
    await call('POST', '/revoke-other-sessions', { cookie, body: {} });
    await call('POST', '/send-verification-email', { body: { email } });
    await call('GET', '/verify-email?token=not-a-token');
    const verification = await latestMail(app, email);
    const token = /token=([^&\s"]+)/.exec(verification?.text ?? '')?.[1];
    if (token) await call('GET', `/verify-email?token=${token}`);

    // Sign-in: wrong password, unknown email, malformed, then right.
    await call('POST', '/sign-in/email', { body: { email, password: 'Wrong-Horse-42' } });
    await call('POST', '/sign-in/email', { body: { email: `nobody-${email}`, password } });
    await call('POST', '/sign-in/email', { body: {} });
    const signIn = await call('POST', '/sign-in/email', { body: { email, password, rememberMe: true } });
    expect(signIn.statusCode).toBe(200);
    cookie = cookieFrom(signIn.headers['set-cookie']);

    // Password and email changes.
    await call('POST', '/change-password', {
      cookie,
      body: {
        currentPassword: 'Wrong-Horse-42',
        newPassword: 'Contract-Horse-43',
        revokeOtherSessions: false,
      },
    });
    await call('POST', '/change-email', { cookie, body: { newEmail: 'not-an-email', password } });
    await call('POST', '/change-email', {
      cookie,
      body: { newEmail: `new-${email}`, password, callbackURL: '/settings' },
    });
    await call('POST', '/request-password-reset', { body: { email, redirectTo: '/reset-password' } });
    await call('POST', '/reset-password', {
      body: { token: 'not-a-token', newPassword: 'Contract-Horse-44' },
    });

    // Two-factor: on, codes, sign-in with a code, off.
    await call('POST', '/two-factor/enable', { cookie, body: { password: 'Wrong-Horse-42' } });
    const enable = await call('POST', '/two-factor/enable', { cookie, body: { password } });
    const secret = secretFromUri((enable.json() as { totpURI: string }).totpURI);
    await call('POST', '/two-factor/verify-totp', { cookie, body: { code: '000000' } });
    await call('POST', '/two-factor/verify-totp', { cookie, body: { code: totp(secret) } });
    await call('POST', '/two-factor/generate-backup-codes', { cookie, body: { password } });
    const twoFactor = await call('POST', '/sign-in/email', { body: { email, password } });
    expect(twoFactor.json()).toMatchObject({ twoFactorRedirect: true });
    const pending = cookieFrom(twoFactor.headers['set-cookie']);
    await call('POST', '/two-factor/verify-backup-code', { cookie: pending, body: { code: 'not-a-code' } });
    await call('POST', '/two-factor/disable', { cookie, body: { password } });
    await call('POST', '/sign-out', { cookie, body: {} });
    await call('POST', '/sign-out', { body: {} });

    console.info(`auth contract: ${[...seen].sort().join(', ')}`);
    expect(problems).toEqual([]);
  });

  it('documents the answer to a body over the limit', async () => {
    const { a } = walk.companies;
    const url = `/api/orgs/${a.id}/customers`;
    const res = await walk.request('POST', url, {
      cookie: a.owner.cookie,
      rawBody: JSON.stringify({ name: 'x'.repeat(6 * 1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(walk.contract.problems('POST', '/api/orgs/{organizationId}/customers', res)).toEqual([]);
    // A user who is not a member: 404, as documented.
    const outsider = await signUpTestUser(walk.t.app);
    const hidden = await walk.request('GET', url, { cookie: outsider.cookie });
    expect(hidden.statusCode).toBe(404);
    expect(walk.contract.problems('GET', '/api/orgs/{organizationId}/customers', hidden)).toEqual([]);
  });
});
