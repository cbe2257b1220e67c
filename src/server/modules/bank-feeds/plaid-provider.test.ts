import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakePlaid, startFakePlaid } from '../../testing/fake-plaid.ts';
import {
  PlaidRequestError,
  createPlaidProvider,
  fetchPlaidWebhookKey,
  plaidAmountToMinor,
} from './plaid-provider.ts';
import { type BankFeedProvider, FeedItemError } from './provider.ts';

// The Plaid provider through the real SDK against the local fake Plaid (issue 18 §1, §2, §6):
// what each call sends, amounts exact to the cent with Kontor's sign, sync pages with their
// cursor, pending turning posted, and Plaid's errors as the provider's.

describe('plaidAmountToMinor', () => {
  it('reads the decimal Plaid wrote, never a float product', () => {
    expect(plaidAmountToMinor(110.1, 'USD')).toBe(11010);
    expect(plaidAmountToMinor(0.29, 'USD')).toBe(29); // 0.29 * 100 is 28.999999999999996
    expect(plaidAmountToMinor(1.005, 'BHD')).toBe(1005);
    expect(plaidAmountToMinor(-4.35, 'USD')).toBe(-435);
    expect(plaidAmountToMinor(1234, 'JPY')).toBe(1234);
    expect(plaidAmountToMinor(9_999_999_999.99, 'USD')).toBe(999_999_999_999);
    expect(Object.is(plaidAmountToMinor(-0, 'USD'), -0)).toBe(false);
  });

  it.each([
    [0.125, 'USD'],
    [12.5, 'JPY'],
    [0.1 + 0.2, 'USD'],
    [1e21, 'USD'],
    [1e-7, 'USD'],
    [10_000_000_000, 'USD'],
    [Number.NaN, 'USD'],
    [Number.POSITIVE_INFINITY, 'USD'],
    ['12.30', 'USD'],
    [null, 'USD'],
  ])('refuses %s %s as not representable', (value, currency) => {
    expect(() => plaidAmountToMinor(value, currency)).toThrow(PlaidRequestError);
    try {
      plaidAmountToMinor(value, currency);
    } catch (error) {
      expect((error as PlaidRequestError).code).toBe('bank_feed_data');
      expect((error as PlaidRequestError).status).toBe(400);
    }
  });
});

describe('the Plaid provider against the fake Plaid server', () => {
  let plaid: FakePlaid;
  let provider: BankFeedProvider;

  beforeAll(async () => {
    plaid = await startFakePlaid();
    provider = createPlaidProvider(plaid.settings);
  });
  afterAll(async () => {
    await plaid?.close();
  });

  /** Links a new item as the page would: a link token, the user in Link, the exchange. */
  const link = async (options?: Parameters<FakePlaid['completeLink']>[1]) => {
    const start = await provider.createLinkToken({ clientUserId: 'user-1', companyName: 'Acme Ltd' });
    const { publicToken, itemId } = plaid.completeLink(start.linkToken, options);
    const exchanged = await provider.exchangePublicToken(publicToken);
    return { ...exchanged, fakeItemId: itemId };
  };

  it('creates a Link token for transactions over 24 months, with the webhook and the keys in headers', async () => {
    const start = await provider.createLinkToken({
      clientUserId: 'user-42',
      companyName: 'Acme Ltd',
      webhookUrl: 'https://kontor.example/api/plaid/webhook',
    });
    expect(start).toEqual({
      provider: 'plaid',
      linkToken: expect.stringMatching(/^link-sandbox-/),
      expiresAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    const sent = plaid.requestsTo('/link/token/create').at(-1)!;
    expect(sent.body).toMatchObject({
      client_name: 'Kontor',
      language: 'en',
      country_codes: ['US'],
      user: { client_user_id: 'user-42' },
      products: ['transactions'],
      transactions: { days_requested: 730 },
      webhook: 'https://kontor.example/api/plaid/webhook',
    });
    expect(sent.body.access_token).toBeUndefined();
    expect(sent.headers['plaid-client-id']).toBe(plaid.clientId);
    expect(sent.headers['plaid-secret']).toBe(plaid.secret);
    expect(sent.headers['plaid-version']).toBe('2020-09-14');
  });

  it('exchanges a public token once for the item, its access token and the bank name', async () => {
    const linked = await link({ institution: { id: 'ins_3', name: 'Chase' } });
    expect(linked).toMatchObject({
      itemId: linked.fakeItemId,
      accessToken: expect.stringMatching(/^access-sandbox-/),
      institutionName: 'Chase',
    });
    const start = await provider.createLinkToken({ clientUserId: 'u', companyName: 'c' });
    const { publicToken } = plaid.completeLink(start.linkToken);
    await provider.exchangePublicToken(publicToken);
    await expect(provider.exchangePublicToken(publicToken)).rejects.toMatchObject({
      status: 400,
      code: 'invalid_public_token',
    });
  });

  it("looks the bank's name up by institution id when /item/get has none, and never fails the exchange over it", async () => {
    plaid.behaviour.omitInstitutionName = true;
    try {
      expect((await link({ institution: { id: 'ins_77', name: 'Tartan Bank' } })).institutionName).toBe(
        'Tartan Bank',
      );
      plaid.failNext({
        error_type: 'API_ERROR',
        error_code: 'INTERNAL_SERVER_ERROR',
        status: 500,
        path: '/item/get',
      });
      const linked = await link();
      expect(linked.institutionName).toBeNull();
      expect(linked.accessToken).toMatch(/^access-sandbox-/);
    } finally {
      plaid.behaviour.omitInstitutionName = false;
    }
  });

  it('opens Link in update mode for an item: its access token, no products', async () => {
    const linked = await link();
    await provider.createLinkToken({ clientUserId: 'u', companyName: 'c', accessToken: linked.accessToken });
    const sent = plaid.requestsTo('/link/token/create').at(-1)!;
    expect(sent.body.access_token).toBe(linked.accessToken);
    expect(sent.body.products).toBeUndefined();
  });

  it('lists accounts with ISO currency and exact balances in minor units (owed amounts negative)', async () => {
    const linked = await link({
      accounts: [
        {},
        {},
        {},
        {
          name: 'Crypto',
          type: 'investment',
          subtype: 'crypto exchange',
          mask: null,
          balances: {
            available: null,
            current: 0.12345678,
            limit: null,
            iso_currency_code: null,
            unofficial_currency_code: 'BTC',
          },
        },
      ],
    });
    const accounts = await provider.listAccounts(linked.accessToken);
    expect(accounts.map(({ id: _, ...a }) => a)).toEqual([
      {
        name: 'Plaid Checking',
        mask: '0000',
        type: 'depository',
        subtype: 'checking',
        currency: 'USD',
        currentBalance: 11010,
      },
      {
        name: 'Plaid Saving',
        mask: '1111',
        type: 'depository',
        subtype: 'savings',
        currency: 'USD',
        currentBalance: 21023,
      },
      {
        name: 'Plaid Credit Card',
        mask: '3333',
        type: 'credit',
        subtype: 'credit card',
        currency: 'USD',
        currentBalance: -41000,
      },
      {
        name: 'Crypto',
        mask: null,
        type: 'investment',
        subtype: 'crypto exchange',
        currency: null,
        currentBalance: null,
      },
    ]);
    expect(accounts.map((a) => a.id)).toEqual(plaid.item(linked.itemId).accounts.map((a) => a.account_id));
  });

  it('syncs from the start in pages of 500 with the cursor, amounts inverted to money in positive', async () => {
    const linked = await link();
    const [checking] = plaid.item(linked.itemId).accounts;
    plaid.addTransactions(linked.itemId, [
      {
        account_id: checking!.account_id,
        amount: 89.4,
        date: '2026-10-02',
        name: 'KEEPON UNITED #123',
        merchant_name: 'Keepon United',
      },
      {
        account_id: checking!.account_id,
        amount: -2500.01,
        date: '2026-10-03',
        name: 'ACME CORP PAYROLL',
        counterparties: [{ name: 'Acme Corp', type: 'merchant' }],
      },
      {
        account_id: checking!.account_id,
        amount: 0.29,
        date: '2026-10-04',
        name: 'CHECK 1041',
        check_number: '1041',
      },
    ]);
    plaid.addTransactions(
      linked.itemId,
      Array.from({ length: 1000 }, (_, i) => ({
        account_id: checking!.account_id,
        amount: (i % 97) + 0.07,
        date: '2026-09-01',
        name: `Card purchase ${i}`,
      })),
    );
    const first = await provider.syncTransactions(linked.accessToken, null);
    expect(plaid.requestsTo('/transactions/sync').at(-1)!.body).toEqual({
      access_token: linked.accessToken,
      count: 500,
    });
    expect(first.hasMore).toBe(true);
    expect(first.added).toHaveLength(500);
    expect(first.added.slice(0, 3).map(({ id: _, accountId: __, ...t }) => t)).toEqual([
      {
        date: '2026-10-02',
        amount: -8940,
        currency: 'USD',
        description: 'KEEPON UNITED #123',
        counterparty: 'Keepon United',
        reference: null,
        pending: false,
        pendingId: null,
      },
      {
        date: '2026-10-03',
        amount: 250001,
        currency: 'USD',
        description: 'ACME CORP PAYROLL',
        counterparty: 'Acme Corp',
        reference: null,
        pending: false,
        pendingId: null,
      },
      {
        date: '2026-10-04',
        amount: -29,
        currency: 'USD',
        description: 'CHECK 1041',
        counterparty: null,
        reference: '1041',
        pending: false,
        pendingId: null,
      },
    ]);
    const second = await provider.syncTransactions(linked.accessToken, first.nextCursor);
    expect(plaid.requestsTo('/transactions/sync').at(-1)!.body.cursor).toBe(first.nextCursor);
    expect(second).toMatchObject({ hasMore: true });
    const third = await provider.syncTransactions(linked.accessToken, second.nextCursor);
    expect(third.hasMore).toBe(false);
    expect(first.added.length + second.added.length + third.added.length).toBe(1003);
    const ids = new Set([...first.added, ...second.added, ...third.added].map((t) => t.id));
    expect(ids.size).toBe(1003);
    // Nothing new: an empty page with a cursor to keep.
    const quiet = await provider.syncTransactions(linked.accessToken, third.nextCursor);
    expect(quiet).toEqual({
      added: [],
      modified: [],
      removed: [],
      nextCursor: third.nextCursor,
      hasMore: false,
    });
  });

  it('reports modified and removed transactions, and a pending one posting under a new id that names it', async () => {
    const linked = await link();
    const account = plaid.item(linked.itemId).accounts[0]!.account_id;
    const [coffee, taxi, hotel] = plaid.addTransactions(linked.itemId, [
      { account_id: account, amount: 4.5, date: '2026-11-01', name: 'Blue Bottle' },
      { account_id: account, amount: 23.1, date: '2026-11-02', name: 'Taxi' },
      { account_id: account, amount: 310, date: '2026-11-03', name: 'Hotel hold', pending: true },
    ]);
    const start = await provider.syncTransactions(linked.accessToken, null);
    expect(start.added.find((t) => t.id === hotel!.transaction_id)).toMatchObject({
      pending: true,
      amount: -31000,
    });

    plaid.modifyTransaction(linked.itemId, coffee!.transaction_id, {
      amount: 5.25,
      name: 'Blue Bottle Coffee',
    });
    plaid.removeTransaction(linked.itemId, taxi!.transaction_id);
    const posted = plaid.postPending(linked.itemId, hotel!.transaction_id, {
      amount: 287.44,
      date: '2026-11-05',
    });
    const page = await provider.syncTransactions(linked.accessToken, start.nextCursor);
    expect(page.modified).toEqual([
      expect.objectContaining({
        id: coffee!.transaction_id,
        amount: -525,
        description: 'Blue Bottle Coffee',
      }),
    ]);
    expect(page.removed).toEqual([
      { id: taxi!.transaction_id, accountId: account },
      { id: hotel!.transaction_id, accountId: account },
    ]);
    expect(page.added).toEqual([
      expect.objectContaining({
        id: posted.transaction_id,
        amount: -28744,
        date: '2026-11-05',
        pending: false,
        pendingId: hotel!.transaction_id,
      }),
    ]);
  });

  it('books a transaction without a currency of its own in its account currency, and skips one in an unofficial currency', async () => {
    const linked = await link();
    const account = plaid.item(linked.itemId).accounts[0]!.account_id;
    plaid.addTransactions(linked.itemId, [
      { account_id: account, amount: 10, date: '2026-11-01', name: 'No code', iso_currency_code: null },
      {
        account_id: account,
        amount: 0.001,
        date: '2026-11-01',
        name: 'Coin',
        iso_currency_code: null,
        unofficial_currency_code: 'BTC',
      },
    ]);
    const page = await provider.syncTransactions(linked.accessToken, null);
    expect(page.added.map((t) => [t.description, t.currency, t.amount])).toEqual([['No code', 'USD', -1000]]);
  });

  it('refuses a page holding an amount it cannot book exactly, so its cursor is not kept', async () => {
    const linked = await link();
    const account = plaid.item(linked.itemId).accounts[0]!.account_id;
    plaid.addTransactions(linked.itemId, [
      { account_id: account, amount: 0.125, date: '2026-11-01', name: 'Odd' },
    ]);
    await expect(provider.syncTransactions(linked.accessToken, null)).rejects.toMatchObject({
      code: 'bank_feed_data',
      message: expect.stringContaining('0.125 USD'),
    });
  });

  it('turns ITEM_LOGIN_REQUIRED into a FeedItemError until the user goes through Link in update mode', async () => {
    const linked = await link();
    plaid.setItemError(linked.itemId, 'ITEM_LOGIN_REQUIRED');
    const failure = await provider.syncTransactions(linked.accessToken, null).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(FeedItemError);
    expect(failure).toMatchObject({ code: 'ITEM_LOGIN_REQUIRED' });
    await expect(provider.listAccounts(linked.accessToken)).rejects.toBeInstanceOf(FeedItemError);
    const update = await provider.createLinkToken({
      clientUserId: 'u',
      companyName: 'c',
      accessToken: linked.accessToken,
    });
    plaid.completeUpdate(update.linkToken);
    await expect(provider.syncTransactions(linked.accessToken, null)).resolves.toMatchObject({
      hasMore: false,
    });
  });

  it('says Plaid is unavailable (retryable, 4xx) for its outages and refused keys, without the token or the secret', async () => {
    const linked = await link();
    plaid.failNext({ status: 500, error_type: 'API_ERROR', error_code: 'INTERNAL_SERVER_ERROR' });
    const outage = (await provider
      .syncTransactions(linked.accessToken, null)
      .catch((e: unknown) => e)) as PlaidRequestError;
    expect(outage).toBeInstanceOf(PlaidRequestError);
    expect(outage).toMatchObject({
      status: 409,
      code: 'bank_feed_unavailable',
      plaidCode: 'INTERNAL_SERVER_ERROR',
      retryable: true,
    });
    plaid.failNext({ status: 400, error_type: 'INSTITUTION_ERROR', error_code: 'INSTITUTION_DOWN' });
    await expect(provider.listAccounts(linked.accessToken)).rejects.toMatchObject({
      code: 'bank_feed_unavailable',
      retryable: true,
    });
    plaid.failNext({
      status: 400,
      error_type: 'TRANSACTIONS_ERROR',
      error_code: 'TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION',
    });
    await expect(provider.syncTransactions(linked.accessToken, null)).rejects.toMatchObject({
      code: 'bank_feed_sync_restart',
      plaidCode: 'TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION',
    });

    const wrongKeys = createPlaidProvider({ ...plaid.settings, secret: 'not-the-secret' });
    const refused = (await wrongKeys
      .syncTransactions(linked.accessToken, null)
      .catch((e: unknown) => e)) as Error;
    expect(refused).toMatchObject({ code: 'bank_feed_unavailable', plaidCode: 'INVALID_API_KEYS' });
    for (const error of [outage, refused]) {
      const everything = `${JSON.stringify(error)} ${error.message} ${error.stack}`;
      expect(everything).not.toContain(linked.accessToken);
      expect(everything).not.toContain(plaid.secret);
    }

    const closed = await startFakePlaid();
    await closed.close();
    const unreachable = createPlaidProvider({ ...plaid.settings, basePath: closed.url });
    await expect(unreachable.listAccounts(linked.accessToken)).rejects.toMatchObject({
      code: 'bank_feed_unavailable',
      message: expect.stringContaining('did not answer'),
    });
  });

  it('removes the item at Plaid; a second removal is no error, and the token no longer works', async () => {
    const linked = await link();
    await provider.removeItem(linked.accessToken);
    expect(plaid.item(linked.itemId).removed).toBe(true);
    await provider.removeItem(linked.accessToken);
    await expect(provider.listAccounts(linked.accessToken)).rejects.toMatchObject({
      code: 'INVALID_ACCESS_TOKEN',
    });
  });

  it("fetches the webhook verification key by id, null for an id Plaid doesn't know", async () => {
    const key = await fetchPlaidWebhookKey(plaid.settings, plaid.currentKeyId());
    expect(key).toMatchObject({
      alg: 'ES256',
      kty: 'EC',
      crv: 'P-256',
      kid: plaid.currentKeyId(),
      expired_at: null,
    });
    expect(await fetchPlaidWebhookKey(plaid.settings, 'no-such-key')).toBeNull();
  });
});
