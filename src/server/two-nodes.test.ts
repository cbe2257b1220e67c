import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from './db/client.ts';
import { createTestDatabase, withTestMigrationLock } from './testing/db.ts';
import {
  type AppNode,
  type RoundRobinProxy,
  freePort,
  startNode,
  startProxy,
  stopNode,
  waitHealthy,
} from './testing/nodes.ts';
import { CHECKING_US_MAPPING } from './testing/statements.ts';
import { statementFixture } from './testing/transactions.ts';

// Two app processes on one PostgreSQL behind one port (issue 20 §1): each node is a real
// `node --import tsx src/server/main.ts` with its own DATA_DIR (nothing shared on disk), both
// on a fresh schema of TEST_DATABASE_URL; a round-robin proxy (testing/nodes.ts) sends each request
// to the next node and says which one answered (x-two-nodes-backend). Through it: sign-up and
// sign-in (a session made on one node used on the other), a company, an attachment uploaded on
// one node and downloaded from the other, a CSV statement import and the trial balance read on
// both, and the /api rate limit met at the same total whichever node counts. PostgreSQL only:
// PGlite's data directory belongs to one process.

const DATABASE_URL = process.env.TEST_DATABASE_URL;
const ANONYMOUS_LIMIT = 8;
const SECRET = 'two-nodes-test-secret-0123456789-abcdefghij';

if (!DATABASE_URL) {
  describe('two app nodes on one PostgreSQL', () => {
    it.skip('run only with TEST_DATABASE_URL (PostgreSQL): PGlite belongs to one process', () => {});
  });
}

describe.skipIf(!DATABASE_URL)('two app nodes on one PostgreSQL behind one port', () => {
  let database: DatabaseHandle;
  let nodes: AppNode[] = [];
  let proxy: RoundRobinProxy;
  let base: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db);
    const url = new URL(DATABASE_URL!);
    url.searchParams.set('options', `-c search_path=${rows[0]!.schema}`);
    const ports = [await freePort(), await freePort()];
    proxy = await startProxy(ports);
    base = `http://127.0.0.1:${proxy.port}`;
    const env = {
      APP_ENV: 'test',
      HOST: '127.0.0.1',
      DATABASE_URL: url.toString(),
      PUBLIC_URL: base,
      LOG_LEVEL: 'warn',
      TRUST_PROXY: 'true',
      AUTH_SECRET: SECRET,
      // The bank-feed token key is the one other secret nodes must share (else each keeps one in its DATA_DIR).
      BANK_FEEDS_KEY: Buffer.alloc(32, 7).toString('base64'),
      API_ANONYMOUS_LIMIT_PER_MINUTE: String(ANONYMOUS_LIMIT),
      API_LIMIT_PER_MINUTE: '1000',
      WEB_DIR: path.join(os.tmpdir(), 'kontor-two-nodes-no-web'),
      REDIS_URL: '',
      OTEL_EXPORTER_OTLP_ENDPOINT: '',
    };
    // Kysely's migrator (each node runs it at start) lists every schema: no test schema may
    // be dropped meanwhile (src/server/testing/db.ts).
    await withTestMigrationLock(async () => {
      nodes = ports.map((port) => startNode(port, env));
      // tsx compiles the server at start: 10–35 s each on a busy 2-core machine.
      const deadline = Date.now() + 75_000;
      await Promise.all(nodes.map((node) => waitHealthy(node, deadline)));
    });
  }, 90_000);

  afterAll(async () => {
    await Promise.all(nodes.map(stopNode));
    await new Promise((resolve) => proxy?.server.close(resolve));
    await database?.close();
  }, 30_000);

  /** One request through the proxy: its status, body, cookies and the node that answered. */
  const call = async (
    method: string,
    url: string,
    options: { cookie?: string; body?: unknown; ip?: string } = {},
  ) => {
    const res = await fetch(`${base}${url}`, {
      method,
      redirect: 'manual',
      headers: {
        origin: base,
        'x-forwarded-for': options.ip ?? '10.20.0.1',
        ...(options.cookie ? { cookie: options.cookie } : {}),
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    const type = res.headers.get('content-type') ?? '';
    return {
      status: res.status,
      node: Number(res.headers.get('x-two-nodes-backend')),
      headers: res.headers,
      bytes,
      body: type.includes('json') ? JSON.parse(bytes.toString('utf8')) : null,
      cookie: res.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; '),
    };
  };

  /** Two calls in a row: the proxy sends them to different nodes. */
  const onBothNodes = async (method: string, url: string, options: Parameters<typeof call>[2] = {}) => {
    const first = await call(method, url, options);
    const second = await call(method, url, options);
    expect(second.node).not.toBe(first.node);
    return [first, second] as const;
  };

  const email = `two-nodes-${Date.now().toString(36)}@example.com`;
  const password = 'Quiet-River-71';
  let cookie = '';
  let companyId = '';
  let accountId = '';

  it('signs up on one node and signs in on the other; each session works on both', async () => {
    const signUp = await call('POST', '/api/auth/sign-up/email', {
      body: { email, password, name: 'Two Nodes' },
      ip: '10.20.0.2',
    });
    expect(signUp.status, JSON.stringify(signUp.body)).toBe(200);
    const signIn = await call('POST', '/api/auth/sign-in/email', {
      body: { email, password },
      ip: '10.20.0.2',
    });
    expect(signIn.status, JSON.stringify(signIn.body)).toBe(200);
    expect(signIn.node).not.toBe(signUp.node);
    for (const session of [signUp.cookie, signIn.cookie]) {
      const answers = await onBothNodes('GET', '/api/auth/get-session', { cookie: session });
      for (const answer of answers) expect(answer.body?.user?.email).toBe(email);
    }
    cookie = signIn.cookie;
    // Signing out on one node ends the session on both.
    const out = await call('POST', '/api/auth/sign-out', { cookie: signUp.cookie, body: {} });
    expect(out.status).toBe(200);
    for (const answer of await onBothNodes('GET', '/api/me/profile', { cookie: signUp.cookie }))
      expect(answer.status).toBe(401);
  });

  it('creates a company on one node that the other lists', async () => {
    const created = await call('POST', '/api/orgs', {
      cookie,
      body: { name: 'Two Nodes Ltd', baseCurrency: 'USD', fiscalYearStartMonth: 1 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    companyId = created.body.id;
    const listed = await call('GET', '/api/orgs', { cookie });
    expect(listed.node).not.toBe(created.node);
    expect(JSON.stringify(listed.body)).toContain(companyId);
  });

  it('downloads from one node an attachment uploaded on the other', async () => {
    const org = `/api/orgs/${companyId}`;
    const account = await call('POST', `${org}/wallet/accounts`, {
      cookie,
      body: {
        name: 'Checking',
        kind: 'bank',
        currency: 'USD',
        openingDate: '2026-10-31',
        openingBalance: 500_000,
      },
    });
    expect(account.status, JSON.stringify(account.body)).toBe(201);
    accountId = account.body.id;
    const tx = await call('POST', `${org}/transactions`, {
      cookie,
      body: { moneyAccountId: accountId, date: '2026-11-03', description: 'Lunch', amount: -2_350 },
    });
    expect(tx.status, JSON.stringify(tx.body)).toBe(201);
    const pdf = Buffer.from(`%PDF-1.4\n% receipt ${Date.now()}\ntrailer <<>>\n%%EOF\n`);
    const uploaded = await call('POST', `${org}/transactions/${tx.body.id}/attachments`, {
      cookie,
      body: { fileName: 'receipt.pdf', contentType: 'application/pdf', dataBase64: pdf.toString('base64') },
    });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    const downloads = await onBothNodes(
      'GET',
      `${org}/transactions/${tx.body.id}/attachments/${uploaded.body.id}`,
      {
        cookie,
      },
    );
    expect(downloads.map((d) => d.node)).toContain(1 - uploaded.node);
    for (const download of downloads) {
      expect(download.status).toBe(200);
      expect(download.bytes.equals(pdf)).toBe(true);
    }
  });

  it('imports a CSV statement across the nodes and reads the same trial balance on both', async () => {
    const org = `/api/orgs/${companyId}`;
    const content = statementFixture('checking-us.csv');
    const input = {
      moneyAccountId: accountId,
      fileName: 'checking-us.csv',
      content,
      mapping: CHECKING_US_MAPPING,
    };
    const sniff = await call('POST', `${org}/statement-imports/sniff`, {
      cookie,
      body: { moneyAccountId: accountId, content },
    });
    expect(sniff.status, JSON.stringify(sniff.body)).toBe(200);
    const preview = await call('POST', `${org}/statement-imports/preview`, { cookie, body: input });
    expect(preview.body).toMatchObject({ totalRows: 10, newRows: 10, duplicateRows: 0 });
    const imported = await call('POST', `${org}/statement-imports`, { cookie, body: input });
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    expect(imported.body).toMatchObject({ imported: 10, duplicates: 0 });
    // The same file again, on the other node: all ten are duplicates.
    const again = await call('POST', `${org}/statement-imports`, { cookie, body: input });
    expect(again.node).not.toBe(imported.node);
    expect(again.body).toMatchObject({ imported: 0, duplicates: 10 });

    const wallet = await onBothNodes('GET', `${org}/wallet/accounts/${accountId}`, { cookie });
    for (const answer of wallet)
      expect(answer.body).toMatchObject({
        balance: 500_000 - 2_350 + 662_000 - 126_885,
        uncategorizedCount: 11,
      });
    const [a, b] = await onBothNodes('GET', `${org}/reports/trial-balance?to=2026-12-31`, { cookie });
    expect(a.status, JSON.stringify(a.body)).toBe(200);
    expect(b.body).toEqual(a.body);
    expect(a.body.totals.debit).toBe(a.body.totals.credit);
    const bank = a.body.rows.find(
      (r: { accountId: string }) => r.accountId === wallet[0].body.ledgerAccountId,
    );
    expect(bank?.closingBalance).toBe(500_000 - 2_350 + 662_000 - 126_885);
  });

  it('meets the /api limit at the same total whichever node counts', async () => {
    const ip = `10.21.${Date.now() % 250}.${Math.floor(Math.random() * 250) + 1}`;
    const answers = [];
    for (let i = 0; i < ANONYMOUS_LIMIT + 4; i++) answers.push(await call('GET', '/api/me/profile', { ip }));
    expect(answers.map((a) => a.status)).toEqual([...Array(ANONYMOUS_LIMIT).fill(401), 429, 429, 429, 429]);
    // Both nodes counted and both refused: the count is one, not one per node.
    expect(new Set(answers.slice(0, ANONYMOUS_LIMIT).map((a) => a.node))).toEqual(new Set([0, 1]));
    expect(new Set(answers.slice(ANONYMOUS_LIMIT).map((a) => a.node))).toEqual(new Set([0, 1]));
    const limited = answers.at(-1)!;
    expect(limited.body.error).toMatchObject({ code: 'rate_limited' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // One row counts the address for both nodes. Past the limit each node asked the counter
    // once more (9th and 10th request), then answered its 429s itself until the window ends.
    const { rows } = await sql<{ count: number }>`
      select count from rate_limit_hits where key = ${`api|address:${ip}`}`.execute(database.db);
    expect(rows.map((r) => Number(r.count))).toEqual([ANONYMOUS_LIMIT + 2]);
    // The nodes scheduled the sweep of ended windows on the job queue.
    const sweep = await sql<{ name: string }>`
      select name from job_schedules where name = 'rate-limit-sweep'`.execute(database.db);
    expect(sweep.rows).toHaveLength(1);
    // The signed-in user has a budget of their own.
    expect((await call('GET', '/api/me/profile', { ip, cookie })).status).toBe(200);
  });
});
