import type { AccountBase, CountryCode, JWKPublicKey, PlaidApi, PlaidError, Transaction } from 'plaid';
import { AppError } from '../../../shared/errors.ts';
import {
  MoneyParseError,
  currencyExponent,
  isCurrencyCode,
  parseDecimalToMinor,
} from '../../../shared/money.ts';
import type { PlaidSettings } from '../../config.ts';
import {
  type BankFeedProvider,
  type ExchangedItem,
  type FeedAccount,
  FeedItemError,
  type FeedTransaction,
  type LinkStart,
  type LinkTokenRequest,
  type SyncPage,
} from './provider.ts';

// Plaid through its official SDK (issue 18 §1; docs/bank-feeds.md "Going live with Plaid"):
// Link tokens (new and update mode), the public token exchange, accounts, /transactions/sync
// and /item/remove, each turned into the provider interface's shapes. Amounts become integer
// minor units through their decimal text (Plaid sends JSON numbers such as 110.1; never a
// float multiplied), with Kontor's sign (Plaid's positive amount is money out). Errors never
// carry the SDK's request (its body holds the access token, its headers the secret): an item
// error the user must fix is a FeedItemError, anything else a PlaidRequestError. Retries are
// the job queue's; this file makes one call per method.

/** How the provider is configured: PlaidSettings from config.ts, or the same fields by hand. */
export type PlaidProviderSettings = Pick<PlaidSettings, 'clientId' | 'secret' | 'env'> & {
  basePath?: string | null;
  countryCodes?: string[];
  /** The name Link shows ("Kontor wants to access…"); Plaid allows 30 characters. */
  clientName?: string;
};

/** Days of history asked for when an item is linked (Plaid's maximum, 24 months). */
export const HISTORY_DAYS = 730;
/** Transactions per /transactions/sync page (Plaid's maximum). */
export const SYNC_PAGE_SIZE = 500;
/** How long one call to Plaid may take before it counts as unreachable. */
const REQUEST_TIMEOUT_MS = 30_000;

/** A Plaid failure that is not the user's item: a refused request, bad data, Plaid unreachable. */
export class PlaidRequestError extends AppError {
  override name = 'PlaidRequestError';
  constructor(
    status: number,
    code: string,
    message: string,
    /** Plaid's error_code (e.g. TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION), null when Plaid did not answer. */
    readonly plaidCode: string | null = null,
    /** True when trying again later may work (Plaid or the bank down, rate limited, no answer). */
    readonly retryable = false,
  ) {
    super(status, code, message);
  }
}

const unavailable = (detail: string, plaidCode: string | null = null) =>
  new PlaidRequestError(
    409,
    'bank_feed_unavailable',
    `The bank feed provider could not be reached (${detail}). Nothing was changed; try again in a few minutes.`,
    plaidCode,
    true,
  );

/** Plaid's error body from the SDK's (axios) error, or null when Plaid did not answer one. */
const plaidErrorOf = (error: unknown): Partial<PlaidError> | null => {
  const data = (error as { response?: { data?: unknown } } | null)?.response?.data;
  return data && typeof data === 'object' && typeof (data as PlaidError).error_code === 'string'
    ? (data as PlaidError)
    : null;
};

/** Item errors the user fixes by reconnecting (Link in update mode) or linking again. */
const ITEM_CODES_BEYOND_ITEM_ERROR = new Set(['INVALID_ACCESS_TOKEN']);
/** ITEM_ERROR codes that are not the user's to fix: wait and sync again. */
const TRANSIENT_ITEM_CODES = new Set(['PRODUCT_NOT_READY']);

/**
 * The SDK's error as the provider's: FeedItemError when the user must act, else a
 * PlaidRequestError without the request (which holds the access token and the secret).
 */
export const plaidFailure = (error: unknown, call: string): Error => {
  if (error instanceof FeedItemError || error instanceof PlaidRequestError) return error;
  const plaid = plaidErrorOf(error);
  if (!plaid) {
    const status = (error as { response?: { status?: number } } | null)?.response?.status;
    return unavailable(status ? `${call} answered HTTP ${status}` : `${call} did not answer`);
  }
  const code = plaid.error_code ?? 'UNKNOWN';
  const said = plaid.display_message || plaid.error_message || code;
  if (
    (plaid.error_type === 'ITEM_ERROR' && !TRANSIENT_ITEM_CODES.has(code)) ||
    ITEM_CODES_BEYOND_ITEM_ERROR.has(code)
  )
    return new FeedItemError(code, said);
  switch (plaid.error_type) {
    case 'INVALID_INPUT':
    case 'INVALID_REQUEST':
    case 'INVALID_RESULT':
      if (code === 'INVALID_API_KEYS' || code === 'UNAUTHORIZED_ENVIRONMENT' || code === 'INVALID_PRODUCT')
        return unavailable(`Plaid refused the server's keys or environment: ${code}`, code);
      if (code === 'INVALID_PUBLIC_TOKEN')
        return new PlaidRequestError(
          400,
          'invalid_public_token',
          'The bank link has expired or was already used. Please link the bank again.',
          code,
        );
      return new PlaidRequestError(
        400,
        'bank_feed_request',
        `Plaid refused ${call} (${code}): ${plaid.error_message ?? said}`,
        code,
      );
    case 'TRANSACTIONS_ERROR':
      // TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION: start the update again from its first cursor.
      return new PlaidRequestError(
        409,
        'bank_feed_sync_restart',
        `Plaid asks to sync again (${code}).`,
        code,
        true,
      );
    default:
      // RATE_LIMIT_EXCEEDED, API_ERROR, INSTITUTION_ERROR (the bank is down), PRODUCT_NOT_READY.
      return unavailable(`${code}: ${said}`, code);
  }
};

/** A JSON number from Plaid as minor units, exactly: 110.1 USD → 11010; refused when not representable. */
export const plaidAmountToMinor = (value: unknown, currency: string): number => {
  // String() gives the shortest text that reads back as the same double, i.e. the decimal
  // Plaid wrote (110.1, not 110.09999999999999); exponent forms (1e-7, 1e+21) are refused.
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : '';
  if (!/^-?\d+(\.\d+)?$/.test(text))
    throw new PlaidRequestError(
      400,
      'bank_feed_data',
      `Plaid reported an amount that is not a number: ${String(value)}.`,
    );
  try {
    return parseDecimalToMinor(text, currencyExponent(currency), { allowNegative: true });
  } catch (error) {
    if (!(error instanceof MoneyParseError)) throw error;
    throw new PlaidRequestError(
      400,
      'bank_feed_data',
      `Plaid reported ${text} ${currency}, which is not a whole number of minor units or is beyond the amount limit: ${error.message}`,
    );
  }
};

const negate = (minor: number) => (minor === 0 ? 0 : -minor);

const isoCurrency = (code: string | null | undefined) => (code && isCurrencyCode(code) ? code : null);

const OWED_TYPES = new Set(['credit', 'loan']);

export const toFeedAccount = (account: AccountBase): FeedAccount => {
  const currency = isoCurrency(account.balances.iso_currency_code);
  const current = account.balances.current;
  const balance =
    currency !== null && current !== null && current !== undefined
      ? plaidAmountToMinor(current, currency)
      : null;
  return {
    id: account.account_id,
    name: account.name || account.official_name || 'Account',
    mask: account.mask ?? null,
    type: String(account.type),
    subtype: account.subtype === null || account.subtype === undefined ? null : String(account.subtype),
    currency,
    // Kontor's sign: Plaid's current balance of a credit card or a loan is what is owed.
    currentBalance:
      balance === null ? null : OWED_TYPES.has(String(account.type)) ? negate(balance) : balance,
  };
};

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * One Plaid transaction in the provider's shape, or null when it is in a currency that is not
 * ISO 4217 (Plaid's unofficial_currency_code, e.g. crypto): its account cannot be mapped to a
 * money account, so there is nothing to book it in.
 */
export const toFeedTransaction = (
  t: Transaction,
  accountCurrency: ReadonlyMap<string, string | null> = new Map(),
): FeedTransaction | null => {
  const currency =
    isoCurrency(t.iso_currency_code) ??
    (t.unofficial_currency_code ? null : (accountCurrency.get(t.account_id) ?? null));
  if (currency === null) return null;
  if (!ISO_DATE.test(t.date))
    throw new PlaidRequestError(400, 'bank_feed_data', `Plaid reported a transaction dated "${t.date}".`);
  const counterparty = t.merchant_name || t.counterparties?.find((c) => c.name)?.name || null;
  return {
    id: t.transaction_id,
    accountId: t.account_id,
    // The posted date (for a pending one, the day it was made); authorized_date is the card's.
    date: t.date,
    amount: negate(plaidAmountToMinor(t.amount, currency)),
    currency,
    description: t.name || t.merchant_name || t.original_description || 'Bank transaction',
    counterparty,
    reference: t.check_number || t.payment_meta?.reference_number || null,
    pending: t.pending,
    pendingId: t.pending_transaction_id ?? null,
  };
};

let sdk: Promise<typeof import('plaid')> | null = null;

/**
 * Plaid's SDK, imported when first used: loading it takes about 0.3 s of CPU and 90 MB, and a
 * server without Plaid keys never calls it (issue 20 §6, docs/performance.md).
 */
const plaidSdk = () => {
  sdk ??= import('plaid');
  return sdk;
};

const clients = new WeakMap<object, PlaidApi>();

/** The SDK client for these settings (one per settings object). */
export const plaidApi = async (settings: PlaidProviderSettings): Promise<PlaidApi> => {
  const { Configuration, PlaidApi, PlaidEnvironments } = await plaidSdk();
  let client = clients.get(settings);
  if (!client) {
    client = new PlaidApi(
      new Configuration({
        basePath: settings.basePath ?? PlaidEnvironments[settings.env],
        baseOptions: {
          headers: { 'PLAID-CLIENT-ID': settings.clientId, 'PLAID-SECRET': settings.secret },
          timeout: REQUEST_TIMEOUT_MS,
        },
      }),
    );
    clients.set(settings, client);
  }
  return client;
};

const call = async <T>(name: string, run: () => Promise<{ data: T }>): Promise<T> => {
  try {
    return (await run()).data;
  } catch (error) {
    throw plaidFailure(error, name);
  }
};

/**
 * Plaid's webhook verification key by its id (POST /webhook_verification_key/get), or null when
 * Plaid does not know the id. Plaid unreachable is a PlaidRequestError (retryable).
 */
export const fetchPlaidWebhookKey = async (
  settings: PlaidProviderSettings,
  keyId: string,
): Promise<JWKPublicKey | null> => {
  const api = await plaidApi(settings);
  try {
    return (await api.webhookVerificationKeyGet({ key_id: keyId })).data.key;
  } catch (error) {
    const plaid = plaidErrorOf(error);
    if (plaid && (plaid.error_type === 'INVALID_INPUT' || plaid.error_type === 'INVALID_REQUEST')) {
      if (plaid.error_code === 'INVALID_API_KEYS') throw plaidFailure(error, '/webhook_verification_key/get');
      return null;
    }
    throw plaidFailure(error, '/webhook_verification_key/get');
  }
};

export const createPlaidProvider = (settings: PlaidProviderSettings): BankFeedProvider => {
  const client = () => plaidApi(settings);
  const countryCodes = (settings.countryCodes?.length ? settings.countryCodes : ['US']) as CountryCode[];
  const clientName = (settings.clientName ?? 'Kontor').slice(0, 30);

  const institutionName = async (accessToken: string): Promise<string | null> => {
    // A name is only shown; the exchanged token must not be lost when this look-up fails.
    const api = await client();
    try {
      const { item } = await call('/item/get', () => api.itemGet({ access_token: accessToken }));
      if (item.institution_name) return item.institution_name;
      if (!item.institution_id) return null;
      const { institution } = await call('/institutions/get_by_id', () =>
        api.institutionsGetById({ institution_id: item.institution_id!, country_codes: countryCodes }),
      );
      return institution.name || null;
    } catch {
      return null;
    }
  };

  return {
    name: 'plaid',

    async createLinkToken(request: LinkTokenRequest): Promise<LinkStart> {
      const update = request.accessToken !== undefined;
      const [api, { Products }] = await Promise.all([client(), plaidSdk()]);
      const data = await call('/link/token/create', () =>
        api.linkTokenCreate({
          client_name: clientName,
          language: 'en',
          country_codes: countryCodes,
          user: { client_user_id: request.clientUserId },
          ...(request.webhookUrl && { webhook: request.webhookUrl }),
          // Update mode (after an item error) re-authenticates the item the token names; the
          // products and history were fixed when it was first linked.
          ...(update
            ? { access_token: request.accessToken }
            : { products: [Products.Transactions], transactions: { days_requested: HISTORY_DAYS } }),
        }),
      );
      return { provider: 'plaid', linkToken: data.link_token, expiresAt: data.expiration };
    },

    async exchangePublicToken(publicToken: string): Promise<ExchangedItem> {
      const api = await client();
      const data = await call('/item/public_token/exchange', () =>
        api.itemPublicTokenExchange({ public_token: publicToken }),
      );
      return {
        itemId: data.item_id,
        accessToken: data.access_token,
        institutionName: await institutionName(data.access_token),
      };
    },

    async listAccounts(accessToken: string): Promise<FeedAccount[]> {
      const api = await client();
      const data = await call('/accounts/get', () => api.accountsGet({ access_token: accessToken }));
      return data.accounts.map(toFeedAccount);
    },

    async syncTransactions(accessToken: string, cursor: string | null): Promise<SyncPage> {
      const api = await client();
      const data = await call('/transactions/sync', () =>
        api.transactionsSync({
          access_token: accessToken,
          ...(cursor !== null && cursor !== '' && { cursor }),
          count: SYNC_PAGE_SIZE,
        }),
      );
      const accountCurrency = new Map(
        (data.accounts ?? []).map((a) => [a.account_id, isoCurrency(a.balances.iso_currency_code)] as const),
      );
      const feed = (list: Transaction[]) =>
        list
          .map((t) => toFeedTransaction(t, accountCurrency))
          .filter((t): t is FeedTransaction => t !== null);
      return {
        added: feed(data.added),
        modified: feed(data.modified),
        removed: data.removed.map((r) => ({ id: r.transaction_id, accountId: r.account_id ?? null })),
        nextCursor: data.next_cursor,
        hasMore: data.has_more,
      };
    },

    async removeItem(accessToken: string): Promise<void> {
      const api = await client();
      try {
        await call('/item/remove', () => api.itemRemove({ access_token: accessToken }));
      } catch (error) {
        // Already gone at Plaid (removed there, or by an earlier attempt): what was asked holds.
        if (
          error instanceof FeedItemError &&
          (error.code === 'ITEM_NOT_FOUND' || error.code === 'INVALID_ACCESS_TOKEN')
        )
          return;
        throw error;
      }
    },
  };
};
