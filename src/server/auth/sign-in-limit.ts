import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/client.ts';
import { type RateCounter, rateCounterOf } from '../db/rate-counter.ts';

// Sign-in attempts counted per client address AND account (issue 11 §10d). Better Auth's own
// limiter keys on address and path only, so one person's typos behind an office's shared
// address would lock everybody there out. Here each (address, email) pair has its own
// window; Better Auth's per-address rule stays as a looser cap on one address trying many
// accounts. Counts live in Better Auth's "rateLimit" table (one atomic upsert, so it holds
// across several server copies), or in Redis when REDIS_URL is set (decision 0044); the email
// is stored only as a hash.

export const SIGN_IN_PER_ACCOUNT = { windowSeconds: 60, max: 10 } as const;

export const signInLimitKey = (ip: string, email: string) =>
  `sign-in|${ip}|${createHash('sha256').update(email.trim().toLowerCase()).digest('hex')}`;

/** Counts one attempt; `allowed` false (with seconds to wait) once the window's maximum is used. */
export const consumeSignInAttempt = async (
  db: Db,
  key: string,
  nowMs: number,
  rule: { windowSeconds: number; max: number } = SIGN_IN_PER_ACCOUNT,
  /** The Redis counter, when REDIS_URL is set; else the database counts. */
  redis?: RateCounter,
) => {
  if (redis) {
    // Redis away: the attempt goes through (the connection's errors are logged), never a 500.
    const hit = await redis.hit(key, rule.windowSeconds * 1000, nowMs).catch(() => null);
    const allowed = !hit || hit.count <= rule.max;
    return {
      allowed,
      retryAfter: allowed || !hit ? 0 : Math.max(1, Math.ceil((hit.resetsAt - nowMs) / 1000)),
    };
  }
  const windowStart = nowMs - rule.windowSeconds * 1000;
  const { rows } = await sql<{ count: number; lastRequest: string | number }>`
    insert into "rateLimit" ("id", "key", "count", "lastRequest")
    values (${randomUUID()}, ${key}, 1, ${nowMs})
    on conflict ("key") do update set
      "count" = case when "rateLimit"."lastRequest" <= ${windowStart} then 1 else "rateLimit"."count" + 1 end,
      "lastRequest" = case when "rateLimit"."lastRequest" <= ${windowStart} then ${nowMs} else "rateLimit"."lastRequest" end
    returning "count", "lastRequest"`.execute(db);
  const row = rows[0]!;
  const allowed = Number(row.count) <= rule.max;
  const retryAfter = allowed
    ? 0
    : Math.max(1, Math.ceil((Number(row.lastRequest) + rule.windowSeconds * 1000 - nowMs) / 1000));
  return { allowed, retryAfter };
};

/**
 * Better Auth's own per-address limits (auth.ts `rateLimit`) in Redis when REDIS_URL is set:
 * one atomic count per request, the same windows and maximums as in its "rateLimit" table.
 */
export const redisAuthLimits = (ctx: Parameters<typeof rateCounterOf>[0]) => ({
  consume: async (key: string, rule: { window: number; max: number }) => {
    const now = Date.now();
    // Redis away: let the request through (the connection's errors are logged), never a 500.
    const hit = await rateCounterOf(ctx)
      .hit(`auth|${key}`, rule.window * 1000, now)
      .catch(() => null);
    return !hit || hit.count <= rule.max
      ? { allowed: true, retryAfter: null }
      : { allowed: false, retryAfter: Math.max(1, Math.ceil((hit.resetsAt - now) / 1000)) };
  },
});
