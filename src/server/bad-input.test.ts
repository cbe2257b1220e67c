import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isApiErrorBody } from '../shared/errors.ts';
import { databaseRefusal } from './http/input.ts';
import { api, setUpInvoicing } from './testing/invoices.ts';
import { createTestApp } from './testing/app.ts';
import { type TestCompany, createTestCompany } from './testing/companies.ts';

// Focused regressions for the bad input the OpenAPI fuzz test (fuzz.test.ts) found answering
// 500 or outside the error shape (issue 11 §6, decision 0014). Each refusal is a 4xx in the
// standard shape and leaves the data unchanged.

describe('bad input is refused with a 4xx naming the problem', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let a: TestCompany;
  let b: TestCompany;
  let client: ReturnType<typeof api>;
  let fixture: Awaited<ReturnType<typeof setUpInvoicing>>;
  let checking: string;
  let savings: string;
  let foreignAccount: string;

  const moneyAccount = async (c: ReturnType<typeof api>, name: string) => {
    const res = await c.post('/wallet/accounts', {
      name,
      kind: 'bank',
      currency: 'USD',
      openingDate: '2026-01-01',
      openingBalance: 100_000,
    });
    expect(res.status).toBe(201);
    return res.body.id as string;
  };

  beforeAll(async () => {
    t = await createTestApp();
    a = await createTestCompany(t.app, { name: 'Careful Ltd' });
    b = await createTestCompany(t.app, { name: 'Other Ltd' });
    client = api(t.app, a);
    fixture = await setUpInvoicing(t.app, t.database, a);
    checking = await moneyAccount(client, 'Checking');
    savings = await moneyAccount(client, 'Savings');
    foreignAccount = await moneyAccount(api(t.app, b), 'Theirs');
  }, 60_000);
  afterAll(async () => {
    await t.close();
  });

  const expectRefusal = (res: { status: number; body: unknown }, status: number, pattern?: RegExp) => {
    expect(res.status).toBe(status);
    expect(isApiErrorBody(res.body)).toBe(true);
    if (pattern) expect((res.body as { error: { message: string } }).error.message).toMatch(pattern);
  };

  it('refuses a NUL character in any body field with 400 naming the field', async () => {
    const before = await client.get('/customers');
    const res = await client.post('/customers', { name: 'Nul\u0000Corp', email: 'n@example.com' });
    expectRefusal(res, 400, /name: contains a NUL character/);
    expect(res.body.error.details).toEqual([{ field: 'name', message: expect.stringMatching(/NUL/) }]);
    const nested = await client.post('/invoices', {
      customerId: fixture.customerId,
      issueDate: '2026-03-01',
      lines: [{ description: 'a\u0000b', quantity: '1', unitPrice: 100 }],
    });
    expectRefusal(nested, 400, /lines\.0\.description: contains a NUL character/);
    expect((await client.get('/customers')).body).toEqual(before.body);
  });

  it('refuses a NUL character in the query and in a path parameter', async () => {
    expectRefusal(await client.get('/transactions?search=a%00b'), 400, /query: search: contains a NUL/);
    expectRefusal(await client.get('/customers/a%00b'), 400, /path: customerId: contains a NUL/);
  });

  it('refuses lone UTF-16 surrogates but keeps real emoji', async () => {
    const lone = await t.app.inject({
      method: 'POST',
      url: `/api/orgs/${a.id}/customers`,
      headers: { cookie: a.owner.cookie, 'content-type': 'application/json' },
      payload: '{"name":"Half \\ud83d here"}',
    });
    expect(lone.statusCode).toBe(400);
    expect(lone.json().error.message).toMatch(/name: contains a lone UTF-16 surrogate/);
    const emoji = await client.post('/customers', { name: 'Cash 💸 Co' });
    expect(emoji.status).toBe(201);
    expect(emoji.body.name).toBe('Cash 💸 Co');
  });

  it('answers malformed percent-encoding with 400 and over-long path parameters with 404, in the error shape', async () => {
    const bad = await t.app.inject({
      method: 'GET',
      url: `/api/orgs/${a.id}/customers/%E0%A4%A`,
      headers: { cookie: a.owner.cookie },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: { code: 'bad_url' } });
    const long = await t.app.inject({
      method: 'GET',
      url: `/api/orgs/${a.id}/customers/${'a'.repeat(5000)}`,
      headers: { cookie: a.owner.cookie },
    });
    expect(long.statusCode).toBe(404);
    expect(isApiErrorBody(long.json())).toBe(true);
    expect(long.body.length).toBeLessThan(1000);
  });

  it('refuses dates outside 1900-01-01..2199-12-31 in bodies and queries', async () => {
    const far = await client.post('/transactions', {
      moneyAccountId: checking,
      date: '9999-12-31',
      description: 'Far future',
      amount: -100,
    });
    expectRefusal(far, 400, /between 1900-01-01 and 2199-12-31/);
    expectRefusal(await client.get('/reports/trial-balance?to=0000-01-01'), 400, /between 1900-01-01/);
    expectRefusal(await client.get('/transactions?from=0000-01-01'), 400, /between 1900-01-01/);
    expectRefusal(await client.get('/reports/trial-balance?to=2026-02-30'), 400, /not a real calendar date/);
    expect((await client.get('/reports/trial-balance?to=2199-12-31')).status).toBe(200);
  });

  it('refuses non-decimal text in decimal fields with 400, not a parser crash', async () => {
    for (const quantity of ['abc', '', '1e5', '1.2.3', '-1', 'NaN']) {
      const res = await client.post('/invoices', {
        customerId: fixture.customerId,
        issueDate: '2026-03-01',
        lines: [{ description: 'Work', quantity, unitPrice: 100 }],
      });
      expectRefusal(res, 400, /Quantity must be a number/);
    }
    expectRefusal(await client.post('/tax-rates', { name: 'Odd', percent: 'twenty' }), 400, /Tax rate/);
    const rate = await client.post('/invoices', {
      customerId: fixture.customerId,
      issueDate: '2026-03-01',
      exchangeRate: 'x',
      lines: [{ description: 'Work', quantity: '1', unitPrice: 100 }],
    });
    expectRefusal(rate, 400, /exchange rate/);
  });

  it('refuses a tax-rate PATCH that changes nothing', async () => {
    const res = await client.patch(`/tax-rates/${fixture.taxRateId}`, {});
    expectRefusal(res, 400, /new name or archived/);
    expect((await client.patch(`/tax-rates/${fixture.taxRateId}`, { name: 'VAT standard' })).status).toBe(
      200,
    );
  });

  it('refuses an empty parentId instead of storing it', async () => {
    const accounts = (await client.get('/accounts')).body;
    const list = (Array.isArray(accounts) ? accounts : accounts.accounts) as { id: string; type: string }[];
    const expense = list.find((x) => x.type === 'expense')!;
    expectRefusal(await client.patch(`/accounts/${expense.id}`, { parentId: '' }), 400, /parent account/);
    expectRefusal(
      await client.post('/accounts', { code: '6990', name: 'Sundries', type: 'expense', parentId: '' }),
      400,
      /parent account/,
    );
  });

  it("refuses transfers naming an unknown or another company's money account", async () => {
    const transfer = (fromAccountId: string, toAccountId: string) =>
      client.post('/wallet/transfers', { fromAccountId, toAccountId, date: '2026-03-02', amount: 500 });
    const before = (await client.get('/wallet')).body;
    expectRefusal(await transfer(checking, randomUUID()), 404, /Money account not found/);
    expectRefusal(await transfer(randomUUID(), savings), 404, /Money account not found/);
    expectRefusal(await transfer(checking, foreignAccount), 404, /Money account not found/);
    expectRefusal(await transfer(foreignAccount, savings), 404, /Money account not found/);
    expectRefusal(await transfer(checking, 'not-an-id'), 404);
    expect((await client.get('/wallet')).body).toEqual(before);
    expect((await transfer(checking, savings)).status).toBe(201);
  });

  it('answers a promo redemption without a code in the standard error shape', async () => {
    for (const payload of [{}, { code: null }, { code: 5 }]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/promo-codes/redeem',
        headers: { cookie: a.owner.cookie },
        payload,
      });
      expect(res.statusCode).toBe(400);
      expect(isApiErrorBody(res.json())).toBe(true);
    }
  });

  it('answers a broken multipart upload with 400, not a parser crash', async () => {
    const accounts = (await client.get('/accounts')).body;
    const list = (Array.isArray(accounts) ? accounts : accounts.accounts) as { id: string; type: string }[];
    const entry = await client.post('/journal-entries', {
      date: '2026-03-03',
      lines: [
        { accountId: list.find((x) => x.type === 'expense')!.id, debit: 100 },
        { accountId: list.find((x) => x.type === 'income')!.id, credit: 100 },
      ],
    });
    expect(entry.status).toBe(201);
    const upload = (payload: string, type: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/orgs/${a.id}/journal-entries/${entry.body.id}/attachments`,
        headers: { cookie: a.owner.cookie, 'content-type': type },
        payload,
      });
    const cut = await upload(
      '--b0undary\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n',
      'multipart/form-data; boundary=b0undary',
    );
    expect(cut.statusCode).toBe(400);
    expect(cut.json()).toMatchObject({ error: { code: 'multipart_invalid' } });
    const noBoundary = await upload('x', 'multipart/form-data');
    expect(noBoundary.statusCode).toBe(400);
    expect(isApiErrorBody(noBoundary.json())).toBe(true);
  });

  it('answers what the HTTP parser refuses (a 20 KB address, a broken request line) in the error shape', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const raw = (text: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => socket.write(text));
        let answer = '';
        socket.on('data', (chunk) => {
          answer += chunk.toString();
        });
        socket.on('close', () => resolve(answer));
        socket.on('error', reject);
      });
    const long = await raw(`GET /api/health?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    expect(long).toMatch(/^HTTP\/1\.1 431 /);
    expect(isApiErrorBody(JSON.parse(long.slice(long.indexOf('\r\n\r\n') + 4)))).toBe(true);
    const broken = await raw('NOT HTTP AT ALL\r\n\r\n');
    expect(broken).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(broken.slice(broken.indexOf('\r\n\r\n') + 4))).toMatchObject({
      error: { code: 'bad_request' },
    });
  });

  it('maps a value the database refuses to 4xx as a safety net', async () => {
    const refused = async (sql: string) => {
      try {
        await t.database.db.executeQuery({ sql, parameters: [], query: { kind: 'RawNode' } } as never);
      } catch (error) {
        return databaseRefusal(error);
      }
      throw new Error(`${sql} did not fail`);
    };
    expect(await refused(`select 'not-a-uuid'::uuid`)).toMatchObject({ status: 400, code: 'invalid_value' });
    expect(await refused(`select '0000-01-01'::date`)).toMatchObject({ status: 400, code: 'invalid_value' });
    expect(await refused('select 9223372036854775807::bigint + 1')).toMatchObject({ status: 400 });
    expect(databaseRefusal(new Error('plain'))).toBeUndefined();
  });
});
