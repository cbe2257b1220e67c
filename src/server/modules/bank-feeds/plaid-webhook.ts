import { createHash, timingSafeEqual } from 'node:crypto';
import { decodeProtectedHeader, errors as joseErrors, importJWK, jwtVerify } from 'jose';
import { z } from 'zod';
import { AppError, badRequest, notFound } from '../../../shared/errors.ts';
import type { PlaidWebhookAnswer } from '../../../shared/plaid-webhook.ts';
import type { PlaidSettings } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import { markConnectionErrorByItem, queueConnectionSyncByItem } from './connections.ts';
import { PlaidRequestError, fetchPlaidWebhookKey } from './plaid-provider.ts';

// Plaid's webhooks (issue 18 §3; docs/bank-feeds.md "Webhook checks"). Nothing is done before
// the Plaid-Verification header is checked as Plaid documents it: a JWT whose header says
// alg ES256 and the id of Plaid's signing key; that key fetched from Plaid by its id
// (/webhook_verification_key/get; kept by id, fetched again for an id not seen before, refused
// once expired); the signature; `iat` within 5 minutes of now; and `request_body_sha256` equal
// to the SHA-256 of the exact bytes received (compared in constant time). Any failure is a
// 400/401 with its own code. Then SYNC_UPDATES_AVAILABLE queues a sync and the item errors
// mark the connection (the Wallet's reconnect banner).

/** How far `iat` may be from now, either way. */
export const MAX_WEBHOOK_AGE_SECONDS = 5 * 60;

/** Plaid's webhook verification key (a JWK with Plaid's created_at and expired_at). */
export type PlaidWebhookKey = {
  kid: string;
  kty: string;
  crv: string;
  x: string;
  y: string;
  alg?: string;
  use?: string;
  created_at?: number;
  expired_at: number | null;
};

export type VerifyPlaidWebhookInput = {
  /** The body exactly as received. */
  rawBody: Buffer;
  /** The Plaid-Verification header. */
  header: string | string[] | undefined;
  /** Plaid's key for an id, null when Plaid has none by that id. */
  getKey: (kid: string) => Promise<PlaidWebhookKey | null>;
  now: Date;
};

const refused = (code: string, message: string) => new AppError(401, code, message);

const sha256Hex = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Checks a webhook's Plaid-Verification JWT against its body; throws a 400/401 AppError when it fails. */
export const verifyPlaidWebhook = async ({ rawBody, header, getKey, now }: VerifyPlaidWebhookInput) => {
  const token = Array.isArray(header) ? (header.length === 1 ? header[0] : undefined) : header;
  if (!token)
    throw badRequest(
      'plaid_verification_missing',
      'The Plaid-Verification header is missing: only webhooks signed by Plaid are accepted.',
    );
  let kid: unknown;
  let alg: unknown;
  try {
    if (token.split('.').length !== 3) throw new Error('not a JWS');
    ({ kid, alg } = decodeProtectedHeader(token));
  } catch {
    throw badRequest('plaid_verification_malformed', 'The Plaid-Verification header is not a signed JWT.');
  }
  if (alg !== 'ES256')
    throw refused(
      'plaid_verification_algorithm',
      `The Plaid-Verification JWT is signed with ${JSON.stringify(alg ?? null)}; Plaid signs with ES256.`,
    );
  if (typeof kid !== 'string' || kid === '' || kid.length > 200)
    throw badRequest('plaid_verification_malformed', 'The Plaid-Verification JWT names no key id (kid).');

  const jwk = await getKey(kid);
  if (!jwk)
    throw refused('plaid_verification_key', 'The Plaid-Verification JWT names a key Plaid does not have.');
  if (jwk.expired_at !== null && jwk.expired_at !== undefined && jwk.expired_at * 1000 <= now.getTime())
    throw refused(
      'plaid_verification_key_expired',
      'The Plaid-Verification JWT is signed with a key Plaid has retired.',
    );

  let claims: Record<string, unknown>;
  try {
    const key = await importJWK({ kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y }, 'ES256');
    ({ payload: claims } = await jwtVerify(token, key, { algorithms: ['ES256'], currentDate: now }));
  } catch (error) {
    if (error instanceof joseErrors.JWTExpired || error instanceof joseErrors.JWTClaimValidationFailed)
      throw refused(
        'plaid_verification_stale',
        `The Plaid-Verification JWT is not valid now: ${error.message}.`,
      );
    throw refused('plaid_verification_signature', 'The Plaid-Verification signature does not verify.');
  }

  const iat = claims.iat;
  const nowSeconds = Math.floor(now.getTime() / 1000);
  if (typeof iat !== 'number' || Math.abs(nowSeconds - iat) > MAX_WEBHOOK_AGE_SECONDS)
    throw refused(
      'plaid_verification_stale',
      `The webhook was signed more than ${MAX_WEBHOOK_AGE_SECONDS / 60} minutes from now (iat); a replayed or delayed webhook is refused.`,
    );

  const claimed = claims.request_body_sha256;
  const actual = Buffer.from(sha256Hex(rawBody), 'hex');
  const expected =
    typeof claimed === 'string' && /^[0-9a-f]{64}$/i.test(claimed)
      ? Buffer.from(claimed, 'hex')
      : Buffer.alloc(32);
  if (!timingSafeEqual(actual, expected) || typeof claimed !== 'string' || !/^[0-9a-f]{64}$/i.test(claimed))
    throw refused(
      'plaid_verification_body',
      'The webhook body is not the one Plaid signed (request_body_sha256).',
    );
};

/** What fetches a key from Plaid: null when Plaid does not know the id. */
export type FetchPlaidKey = (kid: string) => Promise<PlaidWebhookKey | null>;

/** How long an id Plaid does not know is answered from memory (a flood of forged ids costs one fetch each). */
const UNKNOWN_KID_MS = 60_000;
const MAX_UNKNOWN_KIDS = 1000;

/**
 * Plaid's keys by id, as Plaid's docs advise: a known id is answered from memory; an id not seen
 * before is fetched, and when it is real (a rotation) the other unexpired keys are fetched
 * again so their expired_at is learned.
 */
export const createPlaidKeyCache = (fetchKey: FetchPlaidKey, now: () => Date = () => new Date()) => {
  const keys = new Map<string, PlaidWebhookKey>();
  const unknown = new Map<string, number>();
  const inFlight = new Map<string, Promise<PlaidWebhookKey | null>>();

  const load = async (kid: string) => {
    const key = await fetchKey(kid);
    if (!key || key.kid !== kid) {
      if (unknown.size >= MAX_UNKNOWN_KIDS) unknown.clear();
      unknown.set(kid, now().getTime() + UNKNOWN_KID_MS);
      return null;
    }
    const others = [...keys.values()].filter((k) => k.expired_at === null || k.expired_at === undefined);
    keys.set(kid, key);
    await Promise.all(
      others.map(async (old) => {
        const fresh = await fetchKey(old.kid).catch(() => old);
        if (fresh) keys.set(old.kid, fresh);
        else keys.set(old.kid, { ...old, expired_at: Math.floor(now().getTime() / 1000) });
      }),
    );
    return key;
  };

  return {
    getKey: async (kid: string): Promise<PlaidWebhookKey | null> => {
      const known = keys.get(kid);
      if (known) return known;
      if ((unknown.get(kid) ?? 0) > now().getTime()) return null;
      let pending = inFlight.get(kid);
      if (!pending) {
        pending = load(kid).finally(() => inFlight.delete(kid));
        inFlight.set(kid, pending);
      }
      return pending;
    },
    /** The keys held now (tests). */
    keys,
  };
};

const keyCaches = new WeakMap<PlaidSettings, ReturnType<typeof createPlaidKeyCache>>();

const keyCacheOf = (ctx: Pick<AppContext, 'config' | 'now'>, settings: PlaidSettings) => {
  let cache = keyCaches.get(settings);
  if (!cache) {
    cache = createPlaidKeyCache(async (kid) => {
      try {
        return await fetchPlaidWebhookKey(settings, kid);
      } catch (error) {
        if (error instanceof PlaidRequestError)
          throw new AppError(
            409,
            'plaid_unreachable',
            'Plaid could not be asked for the key that signed this webhook; nothing was done (Plaid sends it again).',
          );
        throw error;
      }
    }, ctx.now);
    keyCaches.set(settings, cache);
  }
  return cache;
};

// The fields Kontor reads; Plaid's webhooks carry more (environment, new_transactions, …).
const webhookBodySchema = z.looseObject({
  webhook_type: z.string().min(1).max(100),
  webhook_code: z.string().min(1).max(100),
  item_id: z.string().min(1).max(200).optional(),
  error: z
    .looseObject({
      error_code: z.string().max(100).optional(),
      error_message: z.string().max(2000).optional(),
      display_message: z.string().max(2000).nullable().optional(),
    })
    .nullable()
    .optional(),
  consent_expiration_time: z.string().max(100).nullable().optional(),
});

/** TRANSACTIONS codes that mean new data to fetch with /transactions/sync. */
const SYNC_CODES = new Set([
  'SYNC_UPDATES_AVAILABLE',
  'DEFAULT_UPDATE',
  'INITIAL_UPDATE',
  'HISTORICAL_UPDATE',
  'TRANSACTIONS_REMOVED',
]);

/** ITEM codes that need the user (the reconnect banner), with what the banner says. */
const ITEM_MESSAGES: Record<string, string> = {
  ITEM_LOGIN_REQUIRED: 'The bank asks you to sign in again. Reconnect to keep transactions coming.',
  PENDING_EXPIRATION: 'Your consent at the bank ends soon. Reconnect to keep transactions coming.',
  PENDING_DISCONNECT: 'The bank will disconnect this feed soon. Reconnect to keep transactions coming.',
  USER_PERMISSION_REVOKED: 'Access to this bank was revoked. Reconnect to resume the feed.',
  USER_ACCOUNT_REVOKED: 'Access to an account at this bank was revoked. Reconnect to resume the feed.',
};

type Body = z.infer<typeof webhookBodySchema>;

/** What the webhook asks of Kontor: a sync, a mark on the connection, or nothing. */
const actionOf = (body: Body): { kind: 'sync' } | { kind: 'mark'; code: string; message: string } | null => {
  const { webhook_type: type, webhook_code: code } = body;
  if (type === 'TRANSACTIONS' && SYNC_CODES.has(code)) return { kind: 'sync' };
  if (type !== 'ITEM') return null;
  // The user fixed the login elsewhere: a sync proves it and clears the banner.
  if (code === 'LOGIN_REPAIRED') return { kind: 'sync' };
  if (code === 'ERROR') {
    const errorCode = body.error?.error_code || 'ITEM_ERROR';
    return {
      kind: 'mark',
      code: errorCode,
      message:
        ITEM_MESSAGES[errorCode] ??
        body.error?.display_message ??
        `The bank connection reported ${errorCode}. Reconnect to resume the feed.`,
    };
  }
  const message = ITEM_MESSAGES[code];
  if (!message) return null;
  const ends =
    code === 'PENDING_EXPIRATION' && body.consent_expiration_time
      ? ` (on ${body.consent_expiration_time.slice(0, 10)})`
      : '';
  return { kind: 'mark', code, message: ends ? message.replace('ends soon', `ends soon${ends}`) : message };
};

/**
 * POST /api/plaid/webhook: verified first, then acted on in one transaction. A verified webhook
 * about an item no connection has answers 404 and changes nothing (docs/bank-feeds.md).
 */
export const receivePlaidWebhook = async (
  ctx: AppContext,
  rawBody: unknown,
  headers: Record<string, string | string[] | undefined>,
): Promise<PlaidWebhookAnswer> => {
  const settings = ctx.config.plaid;
  if (!settings) throw notFound('Plaid is not configured on this server: bank feeds use the Demo Bank.');
  if (!Buffer.isBuffer(rawBody) || rawBody.length === 0)
    throw badRequest('webhook_body', 'A Plaid webhook has a JSON body.');
  await verifyPlaidWebhook({
    rawBody,
    header: headers['plaid-verification'],
    getKey: keyCacheOf(ctx, settings).getKey,
    now: ctx.now(),
  });
  let json: unknown;
  try {
    json = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw badRequest('webhook_body', 'The webhook body is not JSON.');
  }
  const parsed = webhookBodySchema.safeParse(json);
  if (!parsed.success)
    throw badRequest(
      'webhook_body',
      'The webhook body has no webhook_type and webhook_code as Plaid sends them.',
    );
  const body = parsed.data;
  const action = actionOf(body);
  if (!action) return { received: true, action: 'ignored' };
  const itemId = body.item_id;
  if (!itemId)
    throw badRequest('webhook_body', `A ${body.webhook_type} ${body.webhook_code} webhook names an item_id.`);
  const now = ctx.now();
  const done = await inTransaction(ctx.database.db, (trx) =>
    action.kind === 'sync'
      ? queueConnectionSyncByItem(trx, itemId, `plaid:${body.webhook_type}.${body.webhook_code}`, { now })
      : markConnectionErrorByItem(trx, itemId, action.code, action.message, { now, ctx }),
  );
  if (!done) throw new AppError(404, 'plaid_item_unknown', 'No bank connection here has this Plaid item.');
  return { received: true, action: action.kind === 'sync' ? 'sync_queued' : 'connection_marked' };
};
