import { createHash } from 'node:crypto';
import rateLimit, { type RateLimitPluginOptions } from '@fastify/rate-limit';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../shared/errors.ts';
import { sessionCookieSettings, signedCookieToken, verifiedToken } from '../auth/session-cookie.ts';
import type { AppContext } from '../context.ts';
import { type RateCounter, type RateHit, closeRateCounter, rateCounterOf } from '../db/rate-counter.ts';

// The global /api rate limit (issue 11 §10), keyed by the signed-in session for signed-in
// calls and by client address for anonymous ones.
//
// The key must cost no database round-trip and must not be something an attacker can mint:
// a made-up cookie per request would otherwise get a fresh budget per request. Better Auth
// signs its session cookie (`<token>.<HMAC-SHA256 of token, base64>`) with AUTH_SECRET, so
// the signature is checked here with the same secret; only a cookie the server itself issued
// earns a per-session key (the SHA-256 of its token, never the token). Anything else (no
// cookie, a bad signature, an unsigned bearer token) counts against the address.
//
// An API key (decision 0038) has its own bucket, `api-key:<key id>`, with the per-session
// limit (API_LIMIT_PER_MINUTE): apart from its creator's session and from the address. Only a
// key the server found (modules/api-keys/authenticate.ts, which runs first) earns it; an
// unknown, revoked or expired key counts against the address like any other stranger.

/** The session token a request carries in its cookie or bearer header, when the server signed it. */
export const signedSessionToken = async (
  ctx: AppContext,
  request: FastifyRequest,
): Promise<string | null> => {
  const authorization = request.headers.authorization;
  const cookie = request.headers.cookie;
  if (!cookie && !authorization) return null;
  let settings: { name: string; secret: string };
  try {
    settings = await sessionCookieSettings(ctx);
  } catch {
    // The limiter must never turn a request into a 500: count it against the address.
    return null;
  }
  const fromCookie = signedCookieToken(request, settings);
  if (fromCookie) return fromCookie;
  if (authorization?.toLowerCase().startsWith('bearer ')) {
    let bearer = authorization.slice(7).trim();
    try {
      bearer = decodeURIComponent(bearer);
    } catch {
      return null;
    }
    return verifiedToken(bearer, settings.secret);
  }
  return null;
};

export const rateLimitKey = async (ctx: AppContext, request: FastifyRequest) => {
  if (request.apiKey?.ok) return `api-key:${request.apiKey.id}`;
  const token = await signedSessionToken(ctx, request);
  return token
    ? `session:${createHash('sha256').update(token).digest('base64url')}`
    : `address:${request.ip}`;
};

const isApiPath = (url: string) => url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');

type StoreResult = { current: number; ttl: number };
type StoreCallback = (error: Error | null, result?: StoreResult) => void;
type Log = Pick<FastifyBaseLogger, 'warn'>;

/** Keys known to be over their limit until their window ends, per process (see sharedStore). */
const EXCEEDED_MAX_KEYS = 10_000;

/**
 * A @fastify/rate-limit store over the app's shared counter (src/server/db/rate-counter.ts):
 * every server process counts the same requests, so N requests split over two nodes meet the
 * limit at the same total as on one. Each route with its own limit (contact, promo look-up,
 * webhooks) counts under its own prefix, as the plugin's per-route stores did.
 *
 * A cheap local check that keeps counts exact: once the shared count of a key is past its
 * maximum, every further request in that window is refused whatever other nodes do (a count
 * only grows within a window), so this process answers those 429s itself until the window
 * ends, without a round trip. A flood from one address therefore costs one write per window
 * per node, not one per request. Requests still under the limit always ask the counter.
 *
 * A counter that fails (Redis away, a query error) lets the request through and logs a
 * warning (at most once a minute): the limiter must never turn a request into a 500.
 */
const sharedStore = (counter: RateCounter, warn: (error: unknown) => void) => {
  const exceeded = new Map<string, RateHit>();
  const remember = (key: string, hit: RateHit, now: number) => {
    if (exceeded.size >= EXCEEDED_MAX_KEYS) {
      for (const [k, h] of exceeded) if (h.resetsAt <= now) exceeded.delete(k);
      if (exceeded.size >= EXCEEDED_MAX_KEYS) exceeded.clear();
    }
    exceeded.set(key, hit);
  };
  return class SharedStore {
    readonly prefix: string;

    constructor(_params?: unknown, prefix = 'api') {
      this.prefix = prefix;
    }

    incr(key: string, callback: StoreCallback, timeWindow: number, max: number) {
      const fullKey = `${this.prefix}|${key}`;
      const now = Date.now();
      const known = exceeded.get(fullKey);
      if (known && known.resetsAt > now) {
        known.count += 1;
        callback(null, { current: known.count, ttl: known.resetsAt - now });
        return;
      }
      if (known) exceeded.delete(fullKey);
      counter.hit(fullKey, timeWindow, now).then(
        (hit) => {
          if (hit.count > max && counter.kind !== 'memory') remember(fullKey, { ...hit }, now);
          callback(null, { current: hit.count, ttl: Math.max(0, hit.resetsAt - now) });
        },
        (error: unknown) => {
          warn(error);
          callback(error instanceof Error ? error : new Error(String(error)));
        },
      );
    }

    // The plugin hands a route's merged limit settings, its route under `routeInfo` (typed
    // as the route itself in the plugin's declarations).
    child(routeOptions: object) {
      const route = (routeOptions as { routeInfo?: { method?: string | string[]; url?: string } }).routeInfo;
      const method = [route?.method ?? ''].flat().join(',');
      return new SharedStore(undefined, `${method} ${route?.url ?? ''}`);
    }
  };
};

/** @fastify/rate-limit options: global on /api when the environment limits requests. */
export const apiRateLimitOptions = (ctx: AppContext, log: Log): RateLimitPluginOptions => {
  const limits = ctx.config.apiRateLimit;
  // A failing counter (or Redis connection) is logged at most once a minute.
  let lastWarning = 0;
  const warn = (error: unknown) => {
    const now = Date.now();
    if (now - lastWarning < 60_000) return;
    lastWarning = now;
    log.warn(
      { err: error },
      'the rate limit counter failed; meanwhile this node counts alone (Redis) or lets requests through (database)',
    );
  };
  return {
    global: limits !== null,
    max: (_request, key) =>
      key.startsWith('session:') || key.startsWith('api-key:')
        ? (limits?.perSession ?? 1000)
        : (limits?.perAddress ?? 1000),
    timeWindow: '1 minute',
    keyGenerator: (request) => rateLimitKey(ctx, request),
    allowList: (request) => !isApiPath(request.url),
    store: sharedStore(rateCounterOf(ctx, warn), warn),
    skipOnError: true,
    errorResponseBuilder: (_request, context) =>
      new AppError(
        429,
        'rate_limited',
        `Too many requests (more than ${context.max} a minute). Please wait ${context.after} and try again.`,
      ),
  };
};

/**
 * The /api limit and every route's own limit, counted where every server process sees the
 * same counts (decision 0044); the counter's connection closes with the app.
 */
export const registerApiRateLimit = async (app: FastifyInstance, ctx: AppContext) => {
  await app.register(rateLimit, apiRateLimitOptions(ctx, app.log));
  app.addHook('onClose', () => closeRateCounter(ctx));
  // Redis: the first requests count only once connected; a server starts without it after 3 s.
  const counter = rateCounterOf(ctx);
  if (counter.ready && !(await counter.ready(3000)))
    app.log.warn('Redis (REDIS_URL) is not reachable: rate limits are not counted until it is');
};
