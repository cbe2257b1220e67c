import { createHash, randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type CryptoKey, SignJWT, exportJWK, generateKeyPair } from 'jose';
import type { PlaidSettings } from '../config.ts';

// A local stand-in for the Plaid API (issue 18 §6: tests drive the real SDK with no network).
// It answers the calls plaid-provider.ts and the webhook check make — /link/token/create,
// /item/public_token/exchange, /item/get, /institutions/get_by_id, /accounts/get,
// /transactions/sync, /item/remove, /webhook_verification_key/get — with Plaid's JSON shapes
// (node_modules/plaid/dist/api.d.ts), checks the client id and secret on each, and keeps items
// in memory. A test plays the user's part in Link (`completeLink`, `completeUpdate`), scripts
// each item's transactions (add, modify, remove, a pending one posted), injects item errors
// (ITEM_LOGIN_REQUIRED) and one-off failures, and gets webhooks signed as Plaid signs them:
// a Plaid-Verification JWT (ES256, the key's id in `kid`, claims `iat` and
// `request_body_sha256`) whose key the fake serves at /webhook_verification_key/get.
//
// Start it with `const plaid = await startFakePlaid()`, hand `plaid.env` to createTestApp (or
// `plaid.settings` to createPlaidProvider), and `await plaid.close()` after.

export type PlaidObject = Record<string, any>;

export type FakePlaidAccount = {
  account_id: string;
  name: string;
  official_name: string | null;
  mask: string | null;
  type: string;
  subtype: string | null;
  balances: {
    available: number | null;
    current: number | null;
    limit: number | null;
    iso_currency_code: string | null;
    unofficial_currency_code: string | null;
  };
};

/** What a test gives for a transaction: Plaid's fields, Plaid's sign (positive = money out). */
export type FakeTransactionInput = {
  account_id: string;
  amount: number;
  date: string;
  name: string;
  transaction_id?: string;
  merchant_name?: string | null;
  pending?: boolean;
  pending_transaction_id?: string | null;
  iso_currency_code?: string | null;
  unofficial_currency_code?: string | null;
  authorized_date?: string | null;
  check_number?: string | null;
  counterparties?: { name: string; type: string }[];
};

export type FakePlaidItem = {
  itemId: string;
  accessToken: string;
  institution: { id: string; name: string };
  accounts: FakePlaidAccount[];
  webhook: string | null;
  /** The item's error (ITEM_LOGIN_REQUIRED …): item calls answer it until an update-mode Link. */
  error: PlaidObject | null;
  removed: boolean;
  /** Every change in order; a sync cursor is a position in this list. */
  changes: { kind: 'added' | 'modified' | 'removed'; transaction: PlaidObject }[];
  /** The transactions as they are now (removed ones gone). */
  transactions: Map<string, PlaidObject>;
};

export type RecordedPlaidRequest = { path: string; body: PlaidObject; headers: http.IncomingHttpHeaders };

export type FakePlaidFailure = {
  status?: number;
  error_type: string;
  error_code: string;
  error_message?: string;
  /** Only requests to this path fail (default: the next request, whatever it is). */
  path?: string;
};

export type SignedWebhook = { payload: string; headers: Record<string, string> };

export type FakePlaid = {
  url: string;
  clientId: string;
  secret: string;
  /** PLAID_* variables for createTestApp's env. */
  env: Record<string, string>;
  /** Settings for createPlaidProvider. */
  settings: PlaidSettings;
  requests: RecordedPlaidRequest[];
  requestsTo: (path: string) => RecordedPlaidRequest[];
  items: Map<string, FakePlaidItem>;
  linkTokens: Map<string, { request: PlaidObject; itemId: string | null; used: boolean }>;
  /** Switches: `omitInstitutionName` answers /item/get as older items do (institution_id only). */
  behaviour: { omitInstitutionName: boolean };
  /** The user finishing Link for a new item: answers the public token the page would get. */
  completeLink: (
    linkToken: string,
    options?: { institution?: { id: string; name: string }; accounts?: Partial<FakePlaidAccount>[] },
  ) => { publicToken: string; itemId: string };
  /** The user finishing Link in update mode: the item's error is cleared. */
  completeUpdate: (linkToken: string) => { itemId: string };
  item: (itemId: string) => FakePlaidItem;
  addTransactions: (itemId: string, transactions: FakeTransactionInput[]) => PlaidObject[];
  modifyTransaction: (
    itemId: string,
    transactionId: string,
    patch: Partial<FakeTransactionInput>,
  ) => PlaidObject;
  removeTransaction: (itemId: string, transactionId: string) => void;
  /** A pending transaction posts as Plaid does: the pending one removed, a posted one added naming it. */
  postPending: (itemId: string, pendingId: string, patch?: Partial<FakeTransactionInput>) => PlaidObject;
  /** Sets (or with null clears) the item's error; item calls answer it as Plaid does. */
  setItemError: (itemId: string, errorCode: string | null, message?: string) => void;
  /** The next `times` requests (to `failure.path` if given) answer this error. */
  failNext: (failure: FakePlaidFailure, times?: number) => void;
  /** A webhook body as Plaid sends it: webhook_type, webhook_code, item_id, environment, extras. */
  webhookBody: (type: string, code: string, itemId: string, extra?: PlaidObject) => PlaidObject;
  /**
   * The body as Plaid writes it (JSON indented by two spaces) and the headers to post it with,
   * Plaid-Verification signed by the current key. Options forge it: another `iat` (seconds), a
   * `kid`, a key Plaid never published (`foreignKey`), or `bodyHash` for another body.
   */
  signedWebhook: (
    body: PlaidObject | string,
    options?: { iat?: number; kid?: string; foreignKey?: boolean; bodyHash?: string },
  ) => Promise<SignedWebhook>;
  /** A new signing key; the old one gets expired_at now (Plaid's rotation). Answers the new kid. */
  rotateWebhookKey: () => Promise<string>;
  currentKeyId: () => string;
  close: () => Promise<void>;
};

type SigningKey = { kid: string; privateKey: CryptoKey; jwk: PlaidObject };

const newSigningKey = async (createdAt: number): Promise<SigningKey> => {
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  const kid = randomUUID();
  const { kty, crv, x, y } = await exportJWK(publicKey);
  return {
    kid,
    privateKey,
    jwk: { alg: 'ES256', crv, kid, kty, use: 'sig', x, y, created_at: createdAt, expired_at: null },
  };
};

const DEFAULT_ACCOUNTS: Omit<FakePlaidAccount, 'account_id'>[] = [
  {
    name: 'Plaid Checking',
    official_name: 'Plaid Gold Standard 0% Interest Checking',
    mask: '0000',
    type: 'depository',
    subtype: 'checking',
    balances: {
      available: 100,
      current: 110.1,
      limit: null,
      iso_currency_code: 'USD',
      unofficial_currency_code: null,
    },
  },
  {
    name: 'Plaid Saving',
    official_name: 'Plaid Silver Standard 0.1% Interest Saving',
    mask: '1111',
    type: 'depository',
    subtype: 'savings',
    balances: {
      available: 200,
      current: 210.23,
      limit: null,
      iso_currency_code: 'USD',
      unofficial_currency_code: null,
    },
  },
  {
    name: 'Plaid Credit Card',
    official_name: 'Plaid Diamond 12.5% APR Interest Credit Card',
    mask: '3333',
    type: 'credit',
    subtype: 'credit card',
    balances: {
      available: null,
      current: 410,
      limit: 2000,
      iso_currency_code: 'USD',
      unofficial_currency_code: null,
    },
  },
];

const clone = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

class PlaidApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly code: string,
    message: string,
    readonly displayMessage: string | null = null,
  ) {
    super(message);
  }
}

const invalidField = (message: string) => new PlaidApiError(400, 'INVALID_REQUEST', 'INVALID_FIELD', message);
const missingFields = (fields: string[]) =>
  new PlaidApiError(
    400,
    'INVALID_REQUEST',
    'MISSING_FIELDS',
    `the following required fields are missing: ${fields.join(', ')}`,
  );

const ITEM_ERROR_MESSAGES: Record<string, [message: string, display: string | null]> = {
  ITEM_LOGIN_REQUIRED: [
    "the login details of this item have changed (credentials, MFA, or required user action) and a user login is required to update this information. use Link's update mode to restore the item to a good state",
    null,
  ],
  ITEM_LOCKED: [
    "the account is locked. prompt the user to visit the institution's site and unlock their account",
    'The given credentials belong to a locked account.',
  ],
};

export const startFakePlaid = async (options: { now?: () => Date } = {}): Promise<FakePlaid> => {
  const now = () => options.now?.() ?? new Date();
  const seconds = () => Math.floor(now().getTime() / 1000);
  const clientId = `client_${randomBytes(8).toString('hex')}`;
  const secret = `secret_${randomBytes(15).toString('hex')}`;
  const items = new Map<string, FakePlaidItem>();
  const byToken = new Map<string, FakePlaidItem>();
  const linkTokens: FakePlaid['linkTokens'] = new Map();
  const publicTokens = new Map<string, string>();
  const requests: RecordedPlaidRequest[] = [];
  const failures: FakePlaidFailure[] = [];
  const keys = new Map<string, SigningKey>();
  let current = await newSigningKey(seconds());
  keys.set(current.kid, current);
  const foreign = await newSigningKey(seconds());

  const behaviour = { omitInstitutionName: false };
  const requestId = () => randomBytes(8).toString('hex');
  const item = (itemId: string) => {
    const found = items.get(itemId);
    if (!found) throw new Error(`fake Plaid: no item ${itemId}`);
    return found;
  };

  const itemOfToken = (body: PlaidObject, { failOnError = true } = {}) => {
    if (typeof body.access_token !== 'string' || body.access_token === '')
      throw missingFields(['access_token']);
    const found = byToken.get(body.access_token);
    if (!found || found.removed)
      throw new PlaidApiError(
        400,
        'INVALID_INPUT',
        'INVALID_ACCESS_TOKEN',
        'provided access token is in an invalid format. expected format: access-<environment>-<identifier>',
      );
    if (failOnError && found.error)
      throw new PlaidApiError(
        400,
        found.error.error_type,
        found.error.error_code,
        found.error.error_message,
        found.error.display_message,
      );
    return found;
  };

  const itemView = (it: FakePlaidItem, withName = true) => ({
    item_id: it.itemId,
    institution_id: it.institution.id,
    ...(withName && { institution_name: it.institution.name }),
    webhook: it.webhook,
    error: it.error,
    available_products: ['balance'],
    billed_products: ['transactions'],
    products: ['transactions'],
    consented_products: ['transactions'],
    consent_expiration_time: null,
    update_type: 'background',
  });

  const transactionOf = (it: FakePlaidItem, input: FakeTransactionInput): PlaidObject => {
    const account = it.accounts.find((a) => a.account_id === input.account_id);
    if (!account) throw new Error(`fake Plaid: item ${it.itemId} has no account ${input.account_id}`);
    return {
      account_id: input.account_id,
      account_owner: null,
      amount: input.amount,
      iso_currency_code:
        input.iso_currency_code !== undefined ? input.iso_currency_code : account.balances.iso_currency_code,
      unofficial_currency_code: input.unofficial_currency_code ?? null,
      authorized_date: input.authorized_date ?? input.date,
      authorized_datetime: null,
      category: null,
      category_id: null,
      check_number: input.check_number ?? null,
      counterparties: input.counterparties ?? [],
      date: input.date,
      datetime: null,
      location: {
        address: null,
        city: null,
        region: null,
        postal_code: null,
        country: null,
        lat: null,
        lon: null,
        store_number: null,
      },
      logo_url: null,
      merchant_entity_id: null,
      merchant_name: input.merchant_name ?? null,
      name: input.name,
      payment_channel: 'other',
      payment_meta: {
        by_order_of: null,
        payee: null,
        payer: null,
        payment_method: null,
        payment_processor: null,
        ppd_id: null,
        reason: null,
        reference_number: null,
      },
      pending: input.pending ?? false,
      pending_transaction_id: input.pending_transaction_id ?? null,
      personal_finance_category: null,
      transaction_code: null,
      transaction_id: input.transaction_id ?? `txn_${randomBytes(10).toString('hex')}`,
      transaction_type: 'special',
      website: null,
    };
  };

  const record = (it: FakePlaidItem, kind: 'added' | 'modified' | 'removed', transaction: PlaidObject) => {
    if (kind === 'removed') it.transactions.delete(transaction.transaction_id);
    else it.transactions.set(transaction.transaction_id, transaction);
    it.changes.push({ kind, transaction: clone(transaction) });
  };

  const encodeCursor = (it: FakePlaidItem, position: number) =>
    Buffer.from(JSON.stringify({ i: it.itemId, p: position })).toString('base64url');
  const decodeCursor = (it: FakePlaidItem, cursor: unknown): number => {
    if (cursor === undefined || cursor === null || cursor === '') return 0;
    try {
      const parsed = JSON.parse(Buffer.from(String(cursor), 'base64url').toString('utf8'));
      if (
        parsed.i === it.itemId &&
        Number.isInteger(parsed.p) &&
        parsed.p >= 0 &&
        parsed.p <= it.changes.length
      )
        return parsed.p;
    } catch {}
    throw invalidField('cursor is not valid for this item');
  };

  const handlers: Record<string, (body: PlaidObject) => PlaidObject> = {
    '/link/token/create': (body) => {
      const missing = ['client_name', 'language', 'country_codes', 'user'].filter(
        (f) => body[f] === undefined,
      );
      if (missing.length) throw missingFields(missing);
      if (typeof body.user?.client_user_id !== 'string' || body.user.client_user_id === '')
        throw missingFields(['user.client_user_id']);
      if (!Array.isArray(body.country_codes) || body.country_codes.length === 0)
        throw invalidField('country_codes must be a non-empty list');
      let itemId: string | null = null;
      if (body.access_token !== undefined && body.access_token !== null) {
        itemId = itemOfToken(body, { failOnError: false }).itemId;
      } else if (!Array.isArray(body.products) || body.products.length === 0) {
        throw invalidField('products must be a non-empty list when no access_token is given');
      }
      const linkToken = `link-sandbox-${randomUUID()}`;
      linkTokens.set(linkToken, { request: clone(body), itemId, used: false });
      return {
        link_token: linkToken,
        expiration: new Date(now().getTime() + 4 * 3600_000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      };
    },
    '/item/public_token/exchange': (body) => {
      if (typeof body.public_token !== 'string') throw missingFields(['public_token']);
      const itemId = publicTokens.get(body.public_token);
      if (!itemId)
        throw new PlaidApiError(
          400,
          'INVALID_INPUT',
          'INVALID_PUBLIC_TOKEN',
          'provided public token is expired. Public tokens expire 30 minutes after creation at which point they can no longer be exchanged',
        );
      publicTokens.delete(body.public_token);
      const it = item(itemId);
      return { access_token: it.accessToken, item_id: it.itemId };
    },
    '/item/get': (body) => {
      const it = itemOfToken(body, { failOnError: false });
      return { item: itemView(it, !behaviour.omitInstitutionName), status: null };
    },
    '/institutions/get_by_id': (body) => {
      if (typeof body.institution_id !== 'string') throw missingFields(['institution_id']);
      const it = [...items.values()].find((i) => i.institution.id === body.institution_id);
      if (!it)
        throw new PlaidApiError(
          400,
          'INVALID_INPUT',
          'INVALID_INSTITUTION',
          'invalid institution_id provided',
        );
      return {
        institution: {
          institution_id: it.institution.id,
          name: it.institution.name,
          country_codes: ['US'],
          products: ['transactions'],
          routing_numbers: [],
          oauth: false,
        },
      };
    },
    '/accounts/get': (body) => {
      const it = itemOfToken(body);
      return { accounts: clone(it.accounts), item: itemView(it) };
    },
    '/transactions/sync': (body) => {
      const it = itemOfToken(body);
      const count = body.count ?? 100;
      if (!Number.isInteger(count) || count < 1 || count > 500)
        throw invalidField('count must be an integer from 1 to 500');
      const from = decodeCursor(it, body.cursor);
      const page = it.changes.slice(from, from + count);
      const to = from + page.length;
      const of = (kind: string) => page.filter((c) => c.kind === kind).map((c) => clone(c.transaction));
      return {
        accounts: clone(it.accounts),
        added: of('added'),
        modified: of('modified'),
        removed: page
          .filter((c) => c.kind === 'removed')
          .map((c) => ({
            transaction_id: c.transaction.transaction_id,
            account_id: c.transaction.account_id,
          })),
        next_cursor: encodeCursor(it, to),
        has_more: to < it.changes.length,
        transactions_update_status: 'HISTORICAL_UPDATE_COMPLETE',
      };
    },
    '/item/remove': (body) => {
      const it = itemOfToken(body, { failOnError: false });
      it.removed = true;
      return {};
    },
    '/webhook_verification_key/get': (body) => {
      if (typeof body.key_id !== 'string') throw missingFields(['key_id']);
      const key = keys.get(body.key_id);
      if (!key)
        throw new PlaidApiError(
          400,
          'INVALID_INPUT',
          'INVALID_WEBHOOK_VERIFICATION_KEY_ID',
          'invalid key_id provided',
        );
      return { key: clone(key.jwk) };
    },
  };

  const answer = (res: http.ServerResponse, status: number, body: PlaidObject) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ...body, request_id: requestId() }));
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      let body: PlaidObject = {};
      try {
        body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
      } catch {
        return answer(res, 400, plaidError(invalidField('the request body is not valid JSON')));
      }
      requests.push({ path, body: clone(body), headers: req.headers });
      try {
        if (req.method !== 'POST')
          throw new PlaidApiError(405, 'INVALID_REQUEST', 'INVALID_HTTP_METHOD', 'use POST');
        const given = {
          clientId: req.headers['plaid-client-id'] ?? body.client_id,
          secret: req.headers['plaid-secret'] ?? body.secret,
        };
        if (!given.clientId || !given.secret)
          throw missingFields([
            ...(given.clientId ? [] : ['client_id']),
            ...(given.secret ? [] : ['secret']),
          ]);
        if (given.clientId !== clientId || given.secret !== secret)
          throw new PlaidApiError(
            400,
            'INVALID_INPUT',
            'INVALID_API_KEYS',
            'invalid client_id or secret provided',
          );
        const failure = failures.findIndex((f) => f.path === undefined || f.path === path);
        if (failure >= 0) {
          const [f] = failures.splice(failure, 1);
          throw new PlaidApiError(
            f!.status ?? 400,
            f!.error_type,
            f!.error_code,
            f!.error_message ?? f!.error_code,
          );
        }
        const handler = handlers[path];
        if (!handler)
          throw new PlaidApiError(404, 'INVALID_REQUEST', 'UNKNOWN_ENDPOINT', `no endpoint ${path}`);
        return answer(res, 200, handler(body));
      } catch (error) {
        if (!(error instanceof PlaidApiError)) {
          res.writeHead(500, { 'content-type': 'application/json' });
          return res.end(
            JSON.stringify({
              error_type: 'API_ERROR',
              error_code: 'INTERNAL_SERVER_ERROR',
              error_message: String(error),
            }),
          );
        }
        return answer(res, error.status, plaidError(error));
      }
    });
  });

  const plaidError = (error: PlaidApiError) => ({
    display_message: error.displayMessage,
    documentation_url: `https://plaid.com/docs/errors/#${error.code.toLowerCase()}`,
    error_code: error.code,
    error_message: error.message,
    error_type: error.type,
    suggested_action: null,
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const settings: PlaidSettings = {
    clientId,
    secret,
    env: 'sandbox',
    basePath: url,
    countryCodes: ['US'],
    warning: null,
  };

  const sign = async (key: SigningKey, claims: PlaidObject, iat: number, kid: string) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
      .setIssuedAt(iat)
      .sign(key.privateKey);

  const fake: FakePlaid = {
    url,
    clientId,
    secret,
    env: { PLAID_CLIENT_ID: clientId, PLAID_SECRET: secret, PLAID_ENV: 'sandbox', PLAID_BASE_URL: url },
    settings,
    requests,
    requestsTo: (path) => requests.filter((r) => r.path === path),
    items,
    linkTokens,
    behaviour,
    completeLink: (linkToken, opts = {}) => {
      const link = linkTokens.get(linkToken);
      if (!link) throw new Error(`fake Plaid: no link token ${linkToken}`);
      if (link.itemId) throw new Error('fake Plaid: an update-mode link token; use completeUpdate');
      if (link.used) throw new Error('fake Plaid: this link token was used already');
      link.used = true;
      const itemId = randomBytes(16).toString('hex');
      const accounts = (opts.accounts ?? (DEFAULT_ACCOUNTS as Partial<FakePlaidAccount>[])).map((a, i) => {
        const base = DEFAULT_ACCOUNTS[i % DEFAULT_ACCOUNTS.length]!;
        return {
          ...base,
          ...a,
          account_id: a.account_id ?? randomBytes(16).toString('hex'),
          balances: { ...base.balances, ...a.balances },
        } as FakePlaidAccount;
      });
      const it: FakePlaidItem = {
        itemId,
        accessToken: `access-sandbox-${randomUUID()}`,
        institution: opts.institution ?? { id: 'ins_109508', name: 'First Platypus Bank' },
        accounts,
        webhook: link.request.webhook ?? null,
        error: null,
        removed: false,
        changes: [],
        transactions: new Map(),
      };
      items.set(itemId, it);
      byToken.set(it.accessToken, it);
      const publicToken = `public-sandbox-${randomUUID()}`;
      publicTokens.set(publicToken, itemId);
      return { publicToken, itemId };
    },
    completeUpdate: (linkToken) => {
      const link = linkTokens.get(linkToken);
      if (!link?.itemId) throw new Error(`fake Plaid: ${linkToken} is not an update-mode link token`);
      link.used = true;
      item(link.itemId).error = null;
      return { itemId: link.itemId };
    },
    item,
    addTransactions: (itemId, transactions) => {
      const it = item(itemId);
      return transactions.map((input) => {
        const t = transactionOf(it, input);
        record(it, 'added', t);
        return clone(t);
      });
    },
    modifyTransaction: (itemId, transactionId, patch) => {
      const it = item(itemId);
      const before = it.transactions.get(transactionId);
      if (!before) throw new Error(`fake Plaid: no transaction ${transactionId}`);
      const t = { ...before, ...patch, transaction_id: transactionId };
      record(it, 'modified', t);
      return clone(t);
    },
    removeTransaction: (itemId, transactionId) => {
      const it = item(itemId);
      const before = it.transactions.get(transactionId);
      if (!before) throw new Error(`fake Plaid: no transaction ${transactionId}`);
      record(it, 'removed', before);
    },
    postPending: (itemId, pendingId, patch = {}) => {
      const it = item(itemId);
      const pending = it.transactions.get(pendingId);
      if (!pending?.pending) throw new Error(`fake Plaid: ${pendingId} is not a pending transaction`);
      record(it, 'removed', pending);
      const posted = transactionOf(it, {
        account_id: pending.account_id,
        amount: pending.amount,
        date: pending.date,
        name: pending.name,
        merchant_name: pending.merchant_name,
        ...patch,
        pending: false,
        pending_transaction_id: pendingId,
      });
      record(it, 'added', posted);
      return clone(posted);
    },
    setItemError: (itemId, errorCode, message) => {
      const it = item(itemId);
      if (errorCode === null) {
        it.error = null;
        return;
      }
      const [text, display] = ITEM_ERROR_MESSAGES[errorCode] ?? [message ?? errorCode.toLowerCase(), null];
      it.error = {
        error_type: 'ITEM_ERROR',
        error_code: errorCode,
        error_message: message ?? text,
        display_message: display,
        status: 400,
      };
    },
    failNext: (failure, times = 1) => {
      for (let i = 0; i < times; i++) failures.push(failure);
    },
    webhookBody: (type, code, itemId, extra = {}) => ({
      environment: 'sandbox',
      item_id: itemId,
      webhook_code: code,
      webhook_type: type,
      ...extra,
    }),
    signedWebhook: async (body, opts = {}) => {
      const payload = typeof body === 'string' ? body : JSON.stringify(body, null, 2);
      const hash = opts.bodyHash ?? createHash('sha256').update(payload, 'utf8').digest('hex');
      const key = opts.foreignKey ? foreign : current;
      const jwt = await sign(
        key,
        { request_body_sha256: hash },
        opts.iat ?? seconds(),
        opts.kid ?? current.kid,
      );
      return { payload, headers: { 'content-type': 'application/json', 'plaid-verification': jwt } };
    },
    rotateWebhookKey: async () => {
      current.jwk.expired_at = seconds();
      current = await newSigningKey(seconds());
      keys.set(current.kid, current);
      return current.kid;
    },
    currentKeyId: () => current.kid,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
  return fake;
};
