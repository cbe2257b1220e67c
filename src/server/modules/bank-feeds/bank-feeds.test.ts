import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BankConnection, BankFeeds } from '../../../shared/bank-feeds.ts';
import { companyCalls, expectRefusal } from '../../testing/api.ts';
import { type ScriptedBank, createScriptedBank, feedLine } from '../../testing/bank-feeds.ts';
import { type TestCompany, addTestMember, createTestCompany } from '../../testing/companies.ts';
import { addTestMoneyAccount } from '../../testing/money.ts';
import { setUpTestApp } from '../../testing/per-file-app.ts';
import { ofxStatementWith } from '../../testing/statements.ts';
import {
  moneyAccountMismatches,
  reconcileTestLines,
  trialBalanceDifference,
} from '../../testing/transactions.ts';
import { createJobQueue } from '../jobs/queue.ts';
import { accessTokenOf, markConnectionErrorByItem, queueConnectionSyncByItem } from './connections.ts';
import { syncConnection } from './sync.ts';
import { loadServerConfig } from '../../config.ts';
import { KEY_FILE, bankFeedsKeyProblem, createTokenCipher, tokenCipherOf } from './token-cipher.ts';
import { registerBankFeedJobs } from './worker.ts';

// Bank feeds through the API and the sync service, on PGlite (and PostgreSQL with
// TEST_DATABASE_URL): link with the Demo Bank, map, sync by the job queue, and with a scripted
// bank the sync rules — modified, removed, pending → posted, lines an import brought, an
// interrupted sync, locked lines.

const t = setUpTestApp();
const { call, ok } = companyCalls(() => t.app);

const silent = { info: () => {}, warn: () => {}, error: () => {} };
const runJobs = async () => {
  const queue = createJobQueue({ db: t.database.db, now: t.ctx.now });
  registerBankFeedJobs(queue, t.ctx, silent);
  return queue.runDue();
};

const checkBooks = async (company: TestCompany) => {
  expect(await moneyAccountMismatches(t.database.db, company.id)).toEqual([]);
  expect(await trialBalanceDifference(t.database.db, company.id)).toBe(0);
};

const linkDemo = async (company: TestCompany, institution = 'demo-us') => {
  const res = await call(company, 'POST', '/bank-feeds/connections', {
    publicToken: `demo-public:${institution}:${randomBytes(6).toString('hex')}`,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as BankConnection;
};

const bankLines = (company: TestCompany, moneyAccountId: string) =>
  t.database.db
    .selectFrom('bank_transactions')
    .select(['id', 'date', 'amount', 'description', 'status'])
    .where('organization_id', '=', company.id)
    .where('money_account_id', '=', moneyAccountId)
    .orderBy('date')
    .orderBy('amount')
    .execute();

/** The checking account, then the card. */
const accountsOf = (c: BankConnection) => [
  c.accounts.find((a) => a.type === 'depository')!,
  c.accounts.find((a) => a.type === 'credit')!,
];

const connectionRow = (company: TestCompany, id: string) =>
  t.database.db
    .selectFrom('bank_feed_connections')
    .selectAll()
    .where('organization_id', '=', company.id)
    .where('id', '=', id)
    .executeTakeFirstOrThrow();

describe('token encryption', () => {
  it('seals with the current key, opens with old keys after a rotation, refuses a forged one', () => {
    const oldKey = randomBytes(32);
    const newKey = randomBytes(32);
    const before = createTokenCipher(oldKey);
    const sealed = before.seal('access-sandbox-123');
    expect(sealed.ciphertext).not.toContain('access-sandbox-123');
    const after = createTokenCipher(newKey, [oldKey]);
    expect(after.open(sealed)).toBe('access-sandbox-123');
    expect(after.keyId).not.toBe(sealed.keyId);
    expect(() => createTokenCipher(newKey).open(sealed)).toThrow(/neither BANK_FEEDS_KEY/);
    const [v, iv, tag, body] = sealed.ciphertext.split('.');
    const flipped = `${v}.${iv}.${tag}.${Buffer.from(body!, 'base64')
      .map((b, i) => (i === 0 ? b ^ 1 : b))
      .toString()}`;
    expect(() => after.open({ ...sealed, ciphertext: flipped })).toThrow();
  });
});

describe('token keys', () => {
  const secret = 'a-long-enough-auth-secret-for-production-use-0123456789';
  it('refuses a malformed key, and a production start without one', () => {
    expect(() => loadServerConfig({ APP_ENV: 'test', BANK_FEEDS_KEY: 'short' })).toThrow(
      /BANK_FEEDS_KEY must be 32 random bytes/,
    );
    const bare = loadServerConfig({ APP_ENV: 'production', AUTH_SECRET: secret });
    expect(bankFeedsKeyProblem(bare)).toMatch(/BANK_FEEDS_KEY must be set in production/);
    expect(() => tokenCipherOf(bare)).toThrow(/BANK_FEEDS_KEY/);
    const keyed = loadServerConfig({
      APP_ENV: 'production',
      AUTH_SECRET: secret,
      BANK_FEEDS_KEY: randomBytes(32).toString('base64'),
    });
    expect(bankFeedsKeyProblem(keyed)).toBeNull();
  });

  it('development without a key: generates one once into DATA_DIR and says so', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kontor-feedkey-'));
    try {
      const said: string[] = [];
      const first = tokenCipherOf(loadServerConfig({ APP_ENV: 'development', DATA_DIR: dir }), (m) =>
        said.push(m),
      );
      expect(said).toHaveLength(1);
      expect(said[0]).toContain(KEY_FILE);
      expect((fs.statSync(path.join(dir, KEY_FILE)).mode & 0o777).toString(8)).toBe('600');
      const again = tokenCipherOf(loadServerConfig({ APP_ENV: 'development', DATA_DIR: dir }), (m) =>
        said.push(m),
      );
      expect(said).toHaveLength(1);
      expect(again.keyId).toBe(first.keyId);
      expect(again.open(first.seal('tok'))).toBe('tok');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the Demo Bank through the API', () => {
  let company: TestCompany;
  let connection: BankConnection;

  beforeAll(async () => {
    t.clock.set('2026-11-20T12:00:00Z');
    company = await createTestCompany(t.app);
  });

  it('links, lists the accounts and never answers the token', async () => {
    const link = await ok(company, 'POST', '/bank-feeds/link-token', {});
    expect(link.provider).toBe('demo');
    expect(link.institutions.length).toBeGreaterThan(0);
    connection = await linkDemo(company);
    expect(connection.accounts.map((a) => [a.type, a.currency, a.moneyAccountId]).sort()).toEqual([
      ['credit', 'USD', null],
      ['depository', 'USD', null],
    ]);
    expect(connection.syncing).toBe(true);
    const row = await connectionRow(company, connection.id);
    const token = accessTokenOf(t.ctx, row);
    expect(token).toMatch(/^demo-access:/);
    expect(row.access_token_ciphertext).not.toContain(token);
    const list = await call(company, 'GET', '/bank-feeds');
    expect(JSON.stringify(list.body)).not.toContain(token);
    expect(JSON.stringify(connection)).not.toContain(token);
    // Nor in the audit trail or the queued job.
    const audit = await t.database.db
      .selectFrom('audit_log')
      .select(['before', 'after'])
      .where('organization_id', '=', company.id)
      .execute();
    expect(JSON.stringify(audit)).not.toContain(token);
    const jobs = await sql<{ data: unknown }>`select data from jobs`.execute(t.database.db);
    expect(JSON.stringify(jobs.rows)).not.toContain(token);
  });

  it('runs the first sync as a job; lines wait until their account is mapped', async () => {
    expect(await runJobs()).toBeGreaterThanOrEqual(1);
    const feeds = await ok<BankFeeds>(company, 'GET', '/bank-feeds');
    const c = feeds.connections[0]!;
    expect(c.firstSync.done).toBe(true);
    expect(c.firstSync.pages).toBeGreaterThan(1);
    expect(c.firstSync.oldestDate! < '2026-06-01').toBe(true);
    expect(c.lastSyncedAt).not.toBeNull();
    expect(accountsOf(c)[0]!.waitingCount).toBeGreaterThan(10);
    // Pending lines depend on the random item's last days (covered by the scripted bank below).
    expect(c.pending.length).toBe(Math.min(c.pendingCount, 20));
  });

  it('refuses a mapping of another currency, another kind, or another company (and changes nothing)', async () => {
    const eur = await addTestMoneyAccount(t.app, company, {
      name: 'Euro account',
      currency: 'EUR',
      openingDate: '2026-01-01',
    });
    const usdBank = await addTestMoneyAccount(t.app, company, {
      name: 'Spare bank',
      openingDate: '2026-01-01',
    });
    const [checking, card] = accountsOf(connection);
    const url = (id: string) => `/bank-feeds/connections/${connection.id}/accounts/${id}`;
    expectRefusal(
      await call(company, 'PUT', url(checking!.id), { target: 'existing', moneyAccountId: eur.id }),
      400,
      'currency_mismatch',
    );
    expectRefusal(
      await call(company, 'PUT', url(card!.id), { target: 'existing', moneyAccountId: usdBank.id }),
      400,
      'account_kind_mismatch',
    );
    const other = await createTestCompany(t.app);
    const theirs = await addTestMoneyAccount(t.app, other, { name: 'Theirs', openingDate: '2026-01-01' });
    expectRefusal(
      await call(company, 'PUT', url(checking!.id), { target: 'existing', moneyAccountId: theirs.id }),
      404,
      'not_found',
    );
    // Another company cannot see or act on this connection.
    expectRefusal(await call(other, 'PUT', url(checking!.id), { target: 'none' }), 404, 'not_found');
    const after = await ok<BankFeeds>(company, 'GET', '/bank-feeds');
    expect(after.connections[0]!.accounts.every((a) => a.moneyAccountId === null)).toBe(true);
  });

  it('maps to new accounts: the waiting lines are posted and the books balance', async () => {
    const [checking, card] = accountsOf(connection);
    const mapped = await ok<BankConnection>(
      company,
      'PUT',
      `/bank-feeds/connections/${connection.id}/accounts/${checking!.id}`,
      {
        target: 'new',
        name: 'Demo checking',
      },
    );
    const moneyId = accountsOf(mapped)[0]!.moneyAccountId!;
    expect(accountsOf(mapped)[0]!.waitingCount).toBe(0);
    const lines = await bankLines(company, moneyId);
    expect(lines.length).toBeGreaterThan(10);
    expect(lines.every((l) => l.status === 'uncategorized')).toBe(true);
    await ok(company, 'PUT', `/bank-feeds/connections/${connection.id}/accounts/${card!.id}`, {
      target: 'new',
    });
    await checkBooks(company);
  });

  it('members see the connections; only admins act', async () => {
    const member = await addTestMember(t.app, company, 'member');
    expect((await call(company, 'GET', '/bank-feeds', undefined, member)).status).toBe(200);
    expect(
      (await call(company, 'POST', `/bank-feeds/connections/${connection.id}/sync`, undefined, member))
        .status,
    ).toBe(403);
    expect(
      (await call(company, 'DELETE', `/bank-feeds/connections/${connection.id}`, undefined, member)).status,
    ).toBe(403);
  });

  it('days later, sync now brings new lines; pending ones post without duplicates', async () => {
    const before = await ok<BankFeeds>(company, 'GET', '/bank-feeds');
    const moneyId = accountsOf(before.connections[0]!)[1]!.moneyAccountId!;
    const pendingBefore = before.connections[0]!.pending.filter(
      (p) => p.feedAccountId === accountsOf(before.connections[0]!)[1]!.id,
    );
    t.clock.set('2026-11-27T12:00:00Z');
    const res = await call(company, 'POST', `/bank-feeds/connections/${connection.id}/sync`);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ queued: true });
    await runJobs();
    const lines = await bankLines(company, moneyId);
    // The bank's posted set for the card, as the Demo Bank says today, is exactly the register.
    const posted = await t.database.db
      .selectFrom('bank_feed_transactions')
      .select(['bank_transaction_id'])
      .where('organization_id', '=', company.id)
      .where('state', '=', 'posted')
      .execute();
    const ids = new Set(posted.map((p) => p.bank_transaction_id));
    expect(lines.every((l) => ids.has(l.id))).toBe(true);
    for (const p of pendingBefore) expect(lines.some((l) => l.date === p.date)).toBe(true);
    await checkBooks(company);
  });

  it('webhook hooks: an unknown item is false; an item error shows, then reconnect makes it active', async () => {
    const row = await connectionRow(company, connection.id);
    expect(await queueConnectionSyncByItem(t.database.db, 'no-such-item', 'webhook')).toBe(false);
    expect(await queueConnectionSyncByItem(t.database.db, row.item_id, 'webhook', { now: t.ctx.now() })).toBe(
      true,
    );
    // An endpoint subscribed to every event hears of the error; the members are told.
    await ok(company, 'POST', '/webhooks/endpoints', { url: 'http://127.0.0.1:9/bank-feed-errors' });
    expect(
      await markConnectionErrorByItem(t.database.db, row.item_id, 'ITEM_LOGIN_REQUIRED', 'Sign in again', {
        now: t.ctx.now(),
        ctx: t.ctx,
      }),
    ).toBe(true);
    const feeds = await ok<BankFeeds>(company, 'GET', '/bank-feeds');
    expect(feeds.connections[0]).toMatchObject({ status: 'error', errorCode: 'ITEM_LOGIN_REQUIRED' });
    const events = await t.database.db
      .selectFrom('webhook_events' as never)
      .select(['type' as never, 'payload' as never])
      .where('organization_id' as never, '=', company.id as never)
      .where('type' as never, '=', 'bank_feed.error' as never)
      .execute();
    expect(events).toHaveLength(1);
    expect(JSON.stringify(events[0])).toContain('ITEM_LOGIN_REQUIRED');
    expect(JSON.stringify(events[0])).toContain(connection.id);
    const told = await t.database.db
      .selectFrom('notifications')
      .select('title')
      .where('organization_id', '=', company.id)
      .where('kind', '=', 'bank_feed_error')
      .execute();
    expect(told.length).toBeGreaterThan(0);
    expect(told[0]!.title).toMatch(/^Bank connection to .+ needs attention$/);
    expectRefusal(
      await call(company, 'POST', `/bank-feeds/connections/${connection.id}/sync`),
      409,
      'bank_feed_item_error',
    );
    const update = await ok(company, 'POST', '/bank-feeds/link-token', { connectionId: connection.id });
    expect(update.provider).toBe('demo');
    const back = await ok<BankConnection>(
      company,
      'POST',
      `/bank-feeds/connections/${connection.id}/reconnected`,
      {},
    );
    expect(back).toMatchObject({ status: 'active', errorCode: null });
  });

  it('disconnects: the token and connection go, the lines stay', async () => {
    const count = async () =>
      (
        await t.database.db
          .selectFrom('bank_transactions')
          .select('id')
          .where('organization_id', '=', company.id)
          .execute()
      ).length;
    const lines = await count();
    const res = await call(company, 'DELETE', `/bank-feeds/connections/${connection.id}`);
    expect(res.status).toBe(204);
    expect(await count()).toBe(lines);
    const left = await t.database.db
      .selectFrom('bank_feed_connections')
      .select('id')
      .where('organization_id', '=', company.id)
      .execute();
    expect(left).toEqual([]);
    expect((await ok<BankFeeds>(company, 'GET', '/bank-feeds')).connections).toEqual([]);
    await checkBooks(company);
  });

  it('refuses a public token the provider did not issue, with nothing stored', async () => {
    expectRefusal(
      await call(company, 'POST', '/bank-feeds/connections', { publicToken: 'forged' }),
      400,
      'invalid_public_token',
    );
    expectRefusal(await call(company, 'POST', `/bank-feeds/connections/nope/sync`), 404, 'not_found');
  });
});

describe('sync rules with a scripted bank', () => {
  let company: TestCompany;
  let bank: ScriptedBank;
  let connection: BankConnection;
  let checking: string;
  let moneyId: string;
  const sync = (options: Parameters<typeof syncConnection>[2] = {}) =>
    syncConnection(
      t.ctx,
      { organizationId: company.id, connectionId: connection.id },
      { provider: bank, ...options },
    );

  beforeAll(async () => {
    t.clock.set('2026-11-20T12:00:00Z');
    company = await createTestCompany(t.app);
    bank = createScriptedBank(t.ctx.now);
    connection = await linkDemo(company);
    checking = (await connectionRow(company, connection.id)).item_id + '-checking';
    const money = await addTestMoneyAccount(t.app, company, { name: 'Operating', openingDate: '2026-01-01' });
    moneyId = money.id;
    await ok(
      company,
      'PUT',
      `/bank-feeds/connections/${connection.id}/accounts/${accountsOf(connection)[0]!.id}`,
      {
        target: 'existing',
        moneyAccountId: moneyId,
      },
    );
  });

  it('first sync: posts the added lines, keeps pending ones out of the books, recognises an imported line', async () => {
    // A line recorded earlier (as a statement import would bring it): same date, amount, description.
    await ok(company, 'POST', '/transactions', {
      moneyAccountId: moneyId,
      date: '2026-11-02',
      amount: -4500,
      description: 'FIGMA',
    });
    bank.push({
      added: [
        feedLine(checking, 't1', '2026-11-01', -240000, 'RENT'),
        feedLine(checking, 't2', '2026-11-02', -4500, 'Figma'),
        feedLine(checking, 'p3', '2026-11-18', 150000, 'ACH CREDIT ACME', { pending: true }),
      ],
      hasMore: true,
    });
    bank.push({ added: [feedLine(checking, 't4', '2026-11-15', -800000, 'PAYROLL')] });
    const result = await sync();
    expect(result).toMatchObject({ pages: 2, posted: 2, linked: 1, done: true });
    const lines = await bankLines(company, moneyId);
    expect(lines.map((l) => [l.date, l.amount])).toEqual([
      ['2026-11-01', -240000],
      ['2026-11-02', -4500],
      ['2026-11-15', -800000],
    ]);
    const row = await connectionRow(company, connection.id);
    expect(row).toMatchObject({ first_sync_pages: 2, first_sync_lines: 4, sync_cursor: 'c2' });
    const feeds = await ok<BankFeeds>(company, 'GET', '/bank-feeds');
    expect(feeds.connections[0]!.pendingCount).toBe(1);
    await checkBooks(company);
  });

  it('pending → posted (naming the pending id) adds the line once; modified and removed follow the bank', async () => {
    bank.push({
      added: [feedLine(checking, 't3', '2026-11-18', 150000, 'ACH CREDIT ACME', { pendingId: 'p3' })],
      modified: [feedLine(checking, 't1', '2026-11-01', -250000, 'RENT NOVEMBER')],
      removed: [
        { id: 'p3', accountId: checking },
        { id: 't4', accountId: checking },
      ],
    });
    await sync();
    const lines = await bankLines(company, moneyId);
    expect(lines.map((l) => [l.date, l.amount, l.description])).toEqual([
      ['2026-11-01', -250000, 'RENT NOVEMBER'],
      ['2026-11-02', -4500, 'FIGMA'],
      ['2026-11-18', 150000, 'ACH CREDIT ACME'],
    ]);
    const feeds = await ok<BankFeeds>(company, 'GET', '/bank-feeds');
    expect(feeds.connections[0]!.pendingCount).toBe(0);
    await checkBooks(company);
  });

  it('an interrupted sync keeps no partial page and resumes from the last cursor', async () => {
    bank.push({ added: [feedLine(checking, 't5', '2026-11-19', -1000, 'COFFEE')], hasMore: true });
    bank.push({
      added: [
        feedLine(checking, 't6', '2026-11-19', -2000, 'LUNCH'),
        feedLine(checking, 't7', '2026-11-19', -3000, 'TAXI'),
      ],
    });
    await expect(
      sync({
        afterPageApplied: (n) => {
          if (n === 2) throw new Error('crash in the middle of page 2');
        },
      }),
    ).rejects.toThrow(/crash/);
    let lines = await bankLines(company, moneyId);
    expect(lines.map((l) => l.description)).toContain('COFFEE');
    expect(lines.map((l) => l.description)).not.toContain('LUNCH');
    expect(lines.map((l) => l.description)).not.toContain('TAXI');
    expect((await connectionRow(company, connection.id)).sync_cursor).toBe('c4');
    await checkBooks(company);
    const resumed = await sync();
    expect(resumed).toMatchObject({ pages: 1, posted: 2 });
    lines = await bankLines(company, moneyId);
    expect(lines.filter((l) => ['COFFEE', 'LUNCH', 'TAXI'].includes(l.description))).toHaveLength(3);
    await checkBooks(company);
  });

  it('a reconciled line the bank changes or removes is kept and flagged, not rewritten', async () => {
    const lines = await bankLines(company, moneyId);
    const rent = lines.find((l) => l.description === 'RENT NOVEMBER')!;
    const client = {
      post: (url: string, body?: unknown) => call(company, 'POST', url, body),
    };
    const balance = -250000;
    await reconcileTestLines(
      client,
      { moneyAccountId: moneyId, statementDate: '2026-11-01', statementBalance: balance },
      [rent.id],
    );
    bank.push({
      modified: [feedLine(checking, 't2', '2026-11-02', -4600, 'Figma')],
      removed: [{ id: 't1', accountId: checking }],
    });
    await sync();
    const after = await bankLines(company, moneyId);
    expect(after.find((l) => l.id === rent.id)).toMatchObject({ amount: -250000, status: 'reconciled' });
    const feeds = await ok<BankFeeds>(company, 'GET', '/bank-feeds');
    const attention = feeds.connections[0]!.attention;
    expect(attention.map((a) => [a.id, a.state])).toEqual([['t1', 'conflict']]);
    expect(attention[0]!.reason).toMatch(/reconciled/);
    // The linked (imported) line is the statement's: the bank's change of it touches only the feed.
    expect(after.find((l) => l.description === 'FIGMA')!.amount).toBe(-4500);
    await checkBooks(company);
  });

  it('lines a statement import brought in are recognised (by reference or description), not added twice', async () => {
    const content = ofxStatementWith(2, (i) => ({
      amount: ['1234.00', '99.00'][i]!,
      fitId: ['FIT-A', 'FIT-B'][i]!,
      name: ['INVOICE 42 NORTHWIND', 'Consulting fee'][i]!,
    }));
    const imported = await ok(company, 'POST', '/statement-imports', {
      moneyAccountId: moneyId,
      fileName: 'november.ofx',
      content,
    });
    expect(imported.imported).toBe(2);
    const before = (await bankLines(company, moneyId)).length;
    bank.push({
      added: [
        // Another description, but the bank's reference is the statement's FITID.
        feedLine(checking, 't9', '2026-11-05', 123400, 'NORTHWIND TRADERS PAYMENT', { reference: 'FIT-A' }),
        // No reference, the same description.
        feedLine(checking, 't10', '2026-11-05', 9900, 'CONSULTING FEE'),
        // The same day and amount as an imported line but nothing else in common: a new line.
        feedLine(checking, 't11', '2026-11-05', 9900, 'REFUND FROM SUPPLIER'),
      ],
    });
    const result = await sync();
    expect(result).toMatchObject({ linked: 2, posted: 1 });
    expect((await bankLines(company, moneyId)).length).toBe(before + 1);
    await checkBooks(company);
  });

  it('a line before the opening date is skipped with the reason', async () => {
    bank.push({ added: [feedLine(checking, 't8', '2025-12-15', -700, 'OLD FEE')] });
    await sync();
    const feeds = await ok<BankFeeds>(company, 'GET', '/bank-feeds');
    expect(feeds.connections[0]!.attention.find((a) => a.id === 't8')).toMatchObject({ state: 'skipped' });
    expect((await bankLines(company, moneyId)).some((l) => l.description === 'OLD FEE')).toBe(false);
  });
});
