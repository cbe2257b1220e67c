import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BankConnection, BankFeeds } from '../../../shared/bank-feeds.ts';
import { companyCalls, expectRefusal } from '../../testing/api.ts';
import { createTestApp } from '../../testing/app.ts';
import { type TestCompany, createTestCompany } from '../../testing/companies.ts';
import { type FakePlaid, type SignedWebhook, startFakePlaid } from '../../testing/fake-plaid.ts';
import { moneyAccountMismatches, trialBalanceDifference } from '../../testing/transactions.ts';
import { createJobQueue } from '../jobs/queue.ts';
import { accessTokenOf } from './connections.ts';
import { registerBankFeedJobs } from './worker.ts';

// Bank feeds with Plaid end to end (issue 18 "How it's checked"): the app configured for Plaid,
// the real SDK talking to the local fake Plaid. A company links a bank through Link, the first
// sync runs as a job, a signed SYNC_UPDATES_AVAILABLE webhook queues the next one which brings
// a new line, a modified and a removed one and a pending one posted; forged, stale and unsigned
// webhooks are refused and queue nothing; ITEM_LOGIN_REQUIRED (by webhook, or found by a sync)
// marks the connection until Link in update mode and "reconnected"; disconnecting removes the
// item at Plaid and keeps the lines.

describe('bank feeds through Plaid (the fake Plaid server) and its webhooks', () => {
  let plaid: FakePlaid;
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let company: TestCompany;
  let connection: BankConnection;
  let itemId: string;
  let checkingMoneyId: string;
  const ids: Record<string, string> = {};
  const { call, ok } = companyCalls(() => t.app);

  beforeAll(async () => {
    plaid = await startFakePlaid({ now: () => (t ? t.clock.now() : new Date()) });
    t = await createTestApp({ env: plaid.env });
    t.clock.set('2026-11-20T12:00:00Z');
    company = await createTestCompany(t.app);
  });
  afterAll(async () => {
    await t?.close();
    await plaid?.close();
  });

  const silent = { info: () => {}, warn: () => {}, error: () => {} };
  const runJobs = async () => {
    const queue = createJobQueue({ db: t.database.db, now: t.ctx.now });
    registerBankFeedJobs(queue, t.ctx, silent);
    return queue.runDue();
  };
  const waitingSyncs = async () =>
    (
      await sql<{ reason: string }>`select data->>'reason' as reason from jobs
        where queue = 'bank-feeds.sync' and state in ('created', 'retry')`.execute(t.database.db)
    ).rows.map((r) => r.reason);

  const post = (hook: SignedWebhook) =>
    t.app.inject({ method: 'POST', url: '/api/plaid/webhook', headers: hook.headers, payload: hook.payload });
  const send = async (type: string, code: string, extra?: Record<string, unknown>, item = itemId) =>
    post(await plaid.signedWebhook(plaid.webhookBody(type, code, item, extra)));

  const lines = async () =>
    (
      await t.database.db
        .selectFrom('bank_transactions')
        .select(['date', 'amount', 'description'])
        .where('organization_id', '=', company.id)
        .where('money_account_id', '=', checkingMoneyId)
        .orderBy('date')
        .orderBy('amount')
        .execute()
    ).map((l) => [l.date, Number(l.amount), l.description]);

  const feeds = async () => (await ok<BankFeeds>(company, 'GET', '/bank-feeds')).connections[0]!;

  const checkBooks = async () => {
    expect(await moneyAccountMismatches(t.database.db, company.id)).toEqual([]);
    expect(await trialBalanceDifference(t.database.db, company.id)).toBe(0);
  };

  it('links through Plaid Link: the link token, the exchange, the accounts with exact balances', async () => {
    const link = await ok(company, 'POST', '/bank-feeds/link-token', {});
    expect(link).toMatchObject({ provider: 'plaid', linkToken: expect.stringMatching(/^link-sandbox-/) });
    expect(plaid.requestsTo('/link/token/create').at(-1)!.body).toMatchObject({ products: ['transactions'] });
    const done = plaid.completeLink(link.linkToken);
    itemId = done.itemId;
    const checking = plaid.item(itemId).accounts[0]!.account_id;
    const [rent, client, coffee, hotel] = plaid.addTransactions(itemId, [
      { account_id: checking, amount: 2500, date: '2026-11-02', name: 'RENT NOVEMBER' },
      { account_id: checking, amount: -1200.5, date: '2026-11-05', name: 'CLIENT PAYMENT INV-7' },
      {
        account_id: checking,
        amount: 4.35,
        date: '2026-11-06',
        name: 'Blue Bottle',
        merchant_name: 'Blue Bottle',
      },
      { account_id: checking, amount: 310, date: '2026-11-18', name: 'HOTEL HOLD', pending: true },
    ]);
    Object.assign(ids, {
      rent: rent!.transaction_id,
      client: client!.transaction_id,
      coffee: coffee!.transaction_id,
      hotel: hotel!.transaction_id,
    });
    const res = await call(company, 'POST', '/bank-feeds/connections', { publicToken: done.publicToken });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    connection = res.body;
    expect(connection).toMatchObject({
      provider: 'plaid',
      institutionName: 'First Platypus Bank',
      status: 'active',
    });
    expect(connection.accounts.map((a) => [a.name, a.currency, a.currentBalance]).sort()).toEqual([
      ['Plaid Checking', 'USD', 11010],
      ['Plaid Credit Card', 'USD', -41000],
      ['Plaid Saving', 'USD', 21023],
    ]);
    const row = await t.database.db
      .selectFrom('bank_feed_connections')
      .selectAll()
      .where('id', '=', connection.id)
      .executeTakeFirstOrThrow();
    expect(row.item_id).toBe(itemId);
    const token = accessTokenOf(t.ctx, row);
    expect(token).toBe(plaid.item(itemId).accessToken);
    expect(row.access_token_ciphertext).not.toContain(token);
    expect(JSON.stringify(connection)).not.toContain(token);
  });

  it('runs the first sync as a job; mapped, the posted lines are in the books to the cent, the pending one is not', async () => {
    await runJobs();
    expect(plaid.requestsTo('/transactions/sync').length).toBeGreaterThanOrEqual(1);
    const checking = connection.accounts.find((a) => a.name === 'Plaid Checking')!;
    const mapped = await ok<BankConnection>(
      company,
      'PUT',
      `/bank-feeds/connections/${connection.id}/accounts/${checking.id}`,
      { target: 'new', name: 'Operating (Plaid)' },
    );
    checkingMoneyId = mapped.accounts.find((a) => a.id === checking.id)!.moneyAccountId!;
    expect(await lines()).toEqual([
      ['2026-11-02', -250000, 'RENT NOVEMBER'],
      ['2026-11-05', 120050, 'CLIENT PAYMENT INV-7'],
      ['2026-11-06', -435, 'Blue Bottle'],
    ]);
    expect((await feeds()).pendingCount).toBe(1);
    await checkBooks();
  });

  it('a signed SYNC_UPDATES_AVAILABLE queues a sync, which brings new, modified, removed and posted lines', async () => {
    t.clock.set('2026-11-22T09:00:00Z');
    const checking = plaid.item(itemId).accounts[0]!.account_id;
    plaid.addTransactions(itemId, [
      { account_id: checking, amount: 89.99, date: '2026-11-21', name: 'OFFICE SUPPLIES' },
    ]);
    plaid.modifyTransaction(itemId, ids.coffee!, { amount: 4.85 });
    plaid.removeTransaction(itemId, ids.client!);
    plaid.postPending(itemId, ids.hotel!, { amount: 287.44, date: '2026-11-20' });
    expect(await waitingSyncs()).toEqual([]);

    const res = await send('TRANSACTIONS', 'SYNC_UPDATES_AVAILABLE', {
      initial_update_complete: true,
      historical_update_complete: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ received: true, action: 'sync_queued' });
    expect(await waitingSyncs()).toEqual(['plaid:TRANSACTIONS.SYNC_UPDATES_AVAILABLE']);

    await runJobs();
    expect(await lines()).toEqual([
      ['2026-11-02', -250000, 'RENT NOVEMBER'],
      ['2026-11-06', -485, 'Blue Bottle'],
      ['2026-11-20', -28744, 'HOTEL HOLD'],
      ['2026-11-21', -8999, 'OFFICE SUPPLIES'],
    ]);
    expect((await feeds()).pendingCount).toBe(0);
    await checkBooks();
  });

  it('refuses forged, stale, altered and unsigned webhooks with a 4xx, and queues nothing', async () => {
    const body = plaid.webhookBody('TRANSACTIONS', 'SYNC_UPDATES_AVAILABLE', itemId);
    const now = Math.floor(t.clock.now().getTime() / 1000);
    const genuine = await plaid.signedWebhook(body);
    const cases: [SignedWebhook, number, string][] = [
      [await plaid.signedWebhook(body, { foreignKey: true }), 401, 'plaid_verification_signature'],
      [await plaid.signedWebhook(body, { kid: 'forged-key-id' }), 401, 'plaid_verification_key'],
      [await plaid.signedWebhook(body, { iat: now - 6 * 60 }), 401, 'plaid_verification_stale'],
      [
        { ...genuine, payload: genuine.payload.replace('SYNC_UPDATES', 'DEFAULT_UPDATE') },
        401,
        'plaid_verification_body',
      ],
      [
        { payload: genuine.payload, headers: { 'content-type': 'application/json' } },
        400,
        'plaid_verification_missing',
      ],
    ];
    for (const [hook, status, code] of cases) {
      const res = await post(hook);
      expect(res.statusCode, `${code}: ${res.body}`).toBe(status);
      expect(res.json().error.code).toBe(code);
    }
    expect(await waitingSyncs()).toEqual([]);
    // The same webhook replayed ten minutes later is stale.
    t.clock.advance(10 * 60_000);
    const replay = await post(genuine);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().error.code).toBe('plaid_verification_stale');
    expect(await waitingSyncs()).toEqual([]);
  });

  it('answers bad input with a 4xx, never a 5xx, and queues nothing', async () => {
    const genuine = await plaid.signedWebhook(
      plaid.webhookBody('TRANSACTIONS', 'SYNC_UPDATES_AVAILABLE', itemId),
    );
    const jwt = genuine.headers['plaid-verification']!;
    const attempts: { headers: Record<string, string>; payload?: string | Buffer }[] = [
      { headers: {} },
      { headers: { 'plaid-verification': jwt } },
      { headers: { 'plaid-verification': jwt, 'content-type': 'text/plain' }, payload: 'hello' },
      {
        headers: { 'plaid-verification': 'x'.repeat(8000), 'content-type': 'application/json' },
        payload: '{}',
      },
      {
        headers: { 'plaid-verification': `${jwt}.extra`, 'content-type': 'application/json' },
        payload: genuine.payload,
      },
      { headers: { 'plaid-verification': '..', 'content-type': 'application/json' }, payload: '{}' },
      {
        headers: { 'plaid-verification': jwt, 'content-type': 'application/json' },
        payload: Buffer.alloc(70 * 1024, 32),
      },
      {
        headers: { 'plaid-verification': jwt, 'content-type': 'multipart/form-data; boundary=x' },
        payload: '--x--',
      },
    ];
    for (const attempt of attempts) {
      const res = await t.app.inject({ method: 'POST', url: '/api/plaid/webhook', ...attempt });
      expect(
        res.statusCode,
        `${JSON.stringify(attempt.headers).slice(0, 80)}: ${res.body}`,
      ).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(res.json().error.code).toEqual(expect.any(String));
    }
    expect(await waitingSyncs()).toEqual([]);
  });

  it('answers 404 for a verified webhook about an unknown item, 200 "ignored" for codes it does not act on', async () => {
    const unknown = await send('TRANSACTIONS', 'SYNC_UPDATES_AVAILABLE', {}, 'no-such-item');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('plaid_item_unknown');
    expect(
      (await send('ITEM', 'WEBHOOK_UPDATE_ACKNOWLEDGED', { new_webhook_url: 'https://x' })).json(),
    ).toEqual({
      received: true,
      action: 'ignored',
    });
    expect((await send('HOLDINGS', 'DEFAULT_UPDATE')).json()).toEqual({ received: true, action: 'ignored' });
    const notJson = await plaid.signedWebhook('not json');
    expect((await post(notJson)).json().error.code).toBe('webhook_body');
    expect(await waitingSyncs()).toEqual([]);
  });

  it('ITEM_LOGIN_REQUIRED by webhook: the reconnect banner, no syncs, then Link in update mode and reconnected resume it', async () => {
    plaid.setItemError(itemId, 'ITEM_LOGIN_REQUIRED');
    const res = await send('ITEM', 'ERROR', {
      error: {
        error_type: 'ITEM_ERROR',
        error_code: 'ITEM_LOGIN_REQUIRED',
        error_message: 'the login details of this item have changed',
        display_message: null,
        status: 400,
      },
    });
    expect(res.json()).toEqual({ received: true, action: 'connection_marked' });
    expect(await feeds()).toMatchObject({
      status: 'error',
      errorCode: 'ITEM_LOGIN_REQUIRED',
      errorMessage: expect.stringContaining('sign in again'),
    });
    expectRefusal(
      await call(company, 'POST', `/bank-feeds/connections/${connection.id}/sync`),
      409,
      'bank_feed_item_error',
    );

    const update = await ok(company, 'POST', '/bank-feeds/link-token', { connectionId: connection.id });
    const sent = plaid.requestsTo('/link/token/create').at(-1)!.body;
    expect(sent.access_token).toBe(plaid.item(itemId).accessToken);
    expect(sent.products).toBeUndefined();
    plaid.completeUpdate(update.linkToken);
    const back = await ok<BankConnection>(
      company,
      'POST',
      `/bank-feeds/connections/${connection.id}/reconnected`,
      {},
    );
    expect(back).toMatchObject({ status: 'active', errorCode: null });
    const checking = plaid.item(itemId).accounts[0]!.account_id;
    plaid.addTransactions(itemId, [
      { account_id: checking, amount: 12, date: '2026-11-22', name: 'PARKING' },
    ]);
    await runJobs();
    expect((await lines()).at(-1)).toEqual(['2026-11-22', -1200, 'PARKING']);
    await checkBooks();
  });

  it('a sync that meets ITEM_LOGIN_REQUIRED (a missed webhook) marks the connection too', async () => {
    plaid.setItemError(itemId, 'ITEM_LOGIN_REQUIRED');
    expect((await call(company, 'POST', `/bank-feeds/connections/${connection.id}/sync`)).status).toBe(202);
    await runJobs();
    expect(await feeds()).toMatchObject({ status: 'error', errorCode: 'ITEM_LOGIN_REQUIRED' });
    plaid.setItemError(itemId, null);
    await ok(company, 'POST', `/bank-feeds/connections/${connection.id}/reconnected`, {});
    await runJobs();
    expect(await feeds()).toMatchObject({ status: 'active', errorCode: null });
  });

  it('PENDING_EXPIRATION shows the banner while syncing goes on; USER_PERMISSION_REVOKED stops it', async () => {
    const expiring = await send('ITEM', 'PENDING_EXPIRATION', {
      consent_expiration_time: '2026-12-05T00:00:00Z',
    });
    expect(expiring.json()).toEqual({ received: true, action: 'connection_marked' });
    expect(await feeds()).toMatchObject({
      status: 'active',
      errorCode: 'PENDING_EXPIRATION',
      errorMessage: expect.stringContaining('2026-12-05'),
    });
    const revoked = await send('ITEM', 'USER_PERMISSION_REVOKED', {
      error: { error_type: 'ITEM_ERROR', error_code: 'USER_PERMISSION_REVOKED', error_message: 'revoked' },
    });
    expect(revoked.json()).toEqual({ received: true, action: 'connection_marked' });
    expect(await feeds()).toMatchObject({ status: 'error', errorCode: 'USER_PERMISSION_REVOKED' });
  });

  it('disconnecting removes the item at Plaid and keeps the lines; its webhooks then find no item', async () => {
    const before = await lines();
    expect((await call(company, 'DELETE', `/bank-feeds/connections/${connection.id}`)).status).toBe(204);
    expect(plaid.item(itemId).removed).toBe(true);
    expect(plaid.requestsTo('/item/remove').at(-1)!.body.access_token).toBe(plaid.item(itemId).accessToken);
    expect(await lines()).toEqual(before);
    expect((await send('TRANSACTIONS', 'SYNC_UPDATES_AVAILABLE')).statusCode).toBe(404);
    await checkBooks();
  });
});

describe('the Plaid webhook on a server without Plaid keys', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let plaid: FakePlaid;
  beforeAll(async () => {
    plaid = await startFakePlaid();
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
    await plaid?.close();
  });

  it('answers 404: the Demo Bank has no webhooks, so nothing is verified or done', async () => {
    const hook = await plaid.signedWebhook(
      plaid.webhookBody('TRANSACTIONS', 'SYNC_UPDATES_AVAILABLE', 'item'),
    );
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/plaid/webhook',
      headers: hook.headers,
      payload: hook.payload,
    });
    expect(res.statusCode).toBe(404);
    expect(plaid.requestsTo('/webhook_verification_key/get')).toEqual([]);
  });
});
