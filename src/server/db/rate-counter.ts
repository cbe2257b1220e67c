import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import { sql } from 'kysely';
import type { DatabaseHandle, Db } from './client.ts';

// Where request counters live (issue 20 §1; decision 0044), so that every server process
// behind one load balancer counts the same requests:
//   - Redis when REDIS_URL is set: one INCR (and PEXPIRE on a window's first request) per hit;
//   - PostgreSQL otherwise: one upsert into rate_limit_hits per hit (migration 20261129_2000),
//     ended windows deleted by the `rate-limit-sweep` job;
//   - memory on the embedded PGlite: its data directory belongs to one process, so a second
//     node cannot exist and a count in memory is already exact.
// Each counter is a fixed window that starts at a key's first request, as @fastify/rate-limit's
// own in-memory store counted before: `count` requests since then, the window ending at
// `resetsAt` (epoch milliseconds).

export type RateHit = { count: number; resetsAt: number };

export type RateCounterKind = 'memory' | 'postgres' | 'redis';

export type RateCounter = {
  kind: RateCounterKind;
  /** Adds a listener for the counter's own failures (Redis: its connection errors). */
  onError?: (listener: (error: Error) => void) => void;
  /** Counts one request against `key` (a new window of `windowMs` when none is running). */
  hit: (key: string, windowMs: number, nowMs: number) => Promise<RateHit>;
  /** Waits until the counter can count (Redis: connected), at most `timeoutMs`; whether it can. */
  ready?: (timeoutMs: number) => Promise<boolean>;
  close: () => Promise<void>;
};

/** Keys a memory counter keeps at most; ended windows go first, then the oldest. */
const MEMORY_MAX_KEYS = 100_000;

export const memoryRateCounter = (): RateCounter => {
  const windows = new Map<string, RateHit>();
  const prune = (nowMs: number) => {
    for (const [key, hit] of windows) if (hit.resetsAt <= nowMs) windows.delete(key);
    for (const key of windows.keys()) {
      if (windows.size <= MEMORY_MAX_KEYS) break;
      windows.delete(key);
    }
  };
  return {
    kind: 'memory',
    hit: async (key, windowMs, nowMs) => {
      let hit = windows.get(key);
      if (!hit || hit.resetsAt <= nowMs) {
        if (!hit && windows.size >= MEMORY_MAX_KEYS) prune(nowMs);
        hit = { count: 0, resetsAt: nowMs + windowMs };
        windows.set(key, hit);
      }
      hit.count += 1;
      return { ...hit };
    },
    close: async () => windows.clear(),
  };
};

/** One atomic upsert per hit: a row per key, restarted once its window has ended. */
export const postgresRateCounter = (db: Db): RateCounter => ({
  kind: 'postgres',
  hit: async (key, windowMs, nowMs) => {
    const { rows } = await sql<{ count: number; resets_at: string | number }>`
      insert into rate_limit_hits (key, count, resets_at)
      values (${key}, 1, ${nowMs + windowMs})
      on conflict (key) do update set
        count = case when rate_limit_hits.resets_at <= ${nowMs} then 1 else rate_limit_hits.count + 1 end,
        resets_at = case when rate_limit_hits.resets_at <= ${nowMs} then excluded.resets_at
                         else rate_limit_hits.resets_at end
      returning count, resets_at`.execute(db);
    const row = rows[0]!;
    return { count: Number(row.count), resetsAt: Number(row.resets_at) };
  },
  // The database is the app's; closing it is not the counter's business.
  close: async () => {},
});

/** Deletes windows that ended before `nowMs`; the number deleted. */
export const sweepRateLimitHits = async (db: Db, nowMs: number) => {
  const result = await sql`delete from rate_limit_hits where resets_at < ${nowMs}`.execute(db);
  return Number(result.numAffectedRows ?? 0);
};

/** The scheduled job that keeps rate_limit_hits small (registered by main.ts; docs/jobs.md). */
export const rateLimitSweepJob = {
  name: 'rate-limit-sweep',
  everySeconds: 300,
  run: async (ctx: { database: DatabaseHandle }) => {
    await sweepRateLimitHits(ctx.database.db, Date.now());
  },
};

const REDIS_KEY_PREFIX = 'kontor:rate:';

// INCR, and on a window's first request (or a key that somehow lost its expiry) PEXPIRE: one
// round trip, atomic on the server. Answers the count and the milliseconds left.
const REDIS_HIT = `
local count = redis.call('INCR', KEYS[1])
local ttl = -1
if count > 1 then ttl = redis.call('PTTL', KEYS[1]) end
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}`;

type RedisWithHit = Redis & {
  kontorRateHit: (key: string, windowMs: number) => Promise<[number, number]>;
};

export const redisRateCounter = (
  url: string,
  onError: (error: Error) => void = () => {},
): RateCounter & { redis: Redis } => {
  // ioredis is loaded only when REDIS_URL is set (synchronously: it is CommonJS), not at every
  // start (issue 20 §6).
  const { Redis } = createRequire(import.meta.url)('ioredis') as typeof import('ioredis');
  const redis = new Redis(url, {
    // While Redis is away a hit fails at once (and is counted in memory, below) instead of
    // waiting in a queue for the reconnection; a slow answer waits at most 1 s.
    enableOfflineQueue: false,
    commandTimeout: 1000,
    maxRetriesPerRequest: 1,
    // Hits of concurrent requests share one write to the socket.
    enableAutoPipelining: true,
  }) as RedisWithHit;
  const listeners = new Set([onError]);
  const failed = (error: unknown) => {
    for (const listener of listeners) listener(error instanceof Error ? error : new Error(String(error)));
  };
  redis.on('error', failed);
  redis.defineCommand('kontorRateHit', { numberOfKeys: 1, lua: REDIS_HIT });
  // While Redis is away this process counts on its own, so the limits (sign-in and reset
  // among them) still hold on each node instead of lapsing; every hit asks Redis first, so
  // the shared count takes over again as soon as it is back.
  const whileAway = memoryRateCounter();
  return {
    kind: 'redis',
    redis,
    onError: (listener) => listeners.add(listener),
    hit: async (key, windowMs, nowMs) => {
      try {
        const [count, ttl] = await redis.kontorRateHit(REDIS_KEY_PREFIX + key, windowMs);
        return { count: Number(count), resetsAt: nowMs + Number(ttl) };
      } catch (error) {
        failed(error);
        return whileAway.hit(key, windowMs, nowMs);
      }
    },
    ready: (timeoutMs) =>
      new Promise<boolean>((resolve) => {
        if (redis.status === 'ready') return resolve(true);
        const done = () => {
          clearTimeout(timer);
          redis.off('ready', done);
          resolve(redis.status === 'ready');
        };
        const timer = setTimeout(done, timeoutMs);
        redis.once('ready', done);
      }),
    close: async () => {
      redis.disconnect();
      await whileAway.close();
    },
  };
};

type CounterContext = { config: { redisUrl: string | null }; database: DatabaseHandle };

const counters = new WeakMap<object, RateCounter>();

/**
 * The counter for an app context: Redis with REDIS_URL, else PostgreSQL, else (PGlite) memory.
 * `onError` hears a Redis connection's errors (every caller's).
 */
export const rateCounterOf = (ctx: CounterContext, onError?: (error: Error) => void): RateCounter => {
  let counter = counters.get(ctx);
  if (!counter) {
    counter = ctx.config.redisUrl
      ? redisRateCounter(ctx.config.redisUrl, onError)
      : ctx.database.kind === 'postgres'
        ? postgresRateCounter(ctx.database.db)
        : memoryRateCounter();
    counters.set(ctx, counter);
  } else if (onError) counter.onError?.(onError);
  return counter;
};

/** Gives an app context a counter of one's choosing (tests: the PostgreSQL counter on PGlite). */
export const setRateCounter = (ctx: CounterContext, counter: RateCounter) => counters.set(ctx, counter);

/** Closes the context's counter (its Redis connection) when the app closes. */
export const closeRateCounter = async (ctx: CounterContext) => {
  const counter = counters.get(ctx);
  counters.delete(ctx);
  await counter?.close();
};
