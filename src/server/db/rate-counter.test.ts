import { randomInt } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACT_RATE_LIMITED_MESSAGE } from '../../shared/contact.ts';
import { buildApp } from '../app.ts';
import { loadServerConfig } from '../config.ts';
import type { AppContext } from '../context.ts';
import { authPost } from '../testing/auth-helpers.ts';
import { createTestDatabase } from '../testing/db.ts';
import type { DatabaseHandle } from './client.ts';
import {
  type RateCounter,
  memoryRateCounter,
  postgresRateCounter,
  rateCounterOf,
  redisRateCounter,
  sweepRateLimitHits,
  setRateCounter,
} from './rate-counter.ts';

// The shared request counters (decision 0044): each kind counts a fixed window from a key's
// first request, exactly under concurrency; two apps on one database (two "nodes" in one
// process) share the /api limit and a route's own limit. Redis runs only with REDIS_TEST_URL
// (e.g. redis://127.0.0.1:6379), so CI without Redis still passes.

const REDIS_TEST_URL = process.env.REDIS_TEST_URL;

let database: DatabaseHandle;
beforeAll(async () => {
  database = await createTestDatabase();
}, 60_000);
afterAll(async () => database?.close());

/** A key no earlier run used (Redis keeps keys between runs for a window). */
const freshKey = (name: string) => `test|${name}|${Date.now().toString(36)}${randomInt(1e9).toString(36)}`;

const counterContract = (label: string, make: () => RateCounter, options: { skip?: boolean } = {}) =>
  describe.skipIf(options.skip)(`the ${label} counter`, () => {
    let counter: RateCounter;
    beforeAll(async () => {
      counter = make();
      // Redis: connected before the first hit (while it is not, a hit fails at once).
      expect(await (counter.ready?.(5000) ?? true)).toBe(true);
    });
    afterAll(async () => counter?.close());

    it('counts a window from the first request and starts a new one after it ends', async () => {
      const key = freshKey('window');
      const now = Date.now();
      const first = await counter.hit(key, 60_000, now);
      expect(first.count).toBe(1);
      expect(first.resetsAt).toBeGreaterThan(now + 59_000);
      expect(first.resetsAt).toBeLessThanOrEqual(now + 60_000);
      expect((await counter.hit(key, 60_000, now + 1_000)).count).toBe(2);
      expect((await counter.hit(key, 60_000, now + 2_000)).count).toBe(3);
      // Another key has its own window.
      expect((await counter.hit(`${key}-other`, 60_000, now)).count).toBe(1);
      if (counter.kind === 'redis') return; // Redis ends windows by its own clock (below).
      const next = await counter.hit(key, 60_000, first.resetsAt);
      expect(next).toEqual({ count: 1, resetsAt: first.resetsAt + 60_000 });
    });

    it('counts concurrent requests exactly', async () => {
      const key = freshKey('concurrent');
      const now = Date.now();
      const hits = await Promise.all(Array.from({ length: 40 }, () => counter.hit(key, 60_000, now)));
      expect(hits.map((h) => h.count).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 40 }, (_, i) => i + 1),
      );
    });

    it.runIf(label === 'Redis')('lets Redis expire a window', async () => {
      const key = freshKey('expiry');
      expect((await counter.hit(key, 150, Date.now())).count).toBe(1);
      expect((await counter.hit(key, 150, Date.now())).count).toBe(2);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await counter.hit(key, 150, Date.now())).count).toBe(1);
    });
  });

counterContract('memory', () => memoryRateCounter());
counterContract('database', () => postgresRateCounter(database.db));
counterContract('Redis', () => redisRateCounter(REDIS_TEST_URL ?? ''), { skip: !REDIS_TEST_URL });
if (!REDIS_TEST_URL) {
  describe('Redis counters', () => {
    it.skip('run only with REDIS_TEST_URL (e.g. redis://127.0.0.1:6379)', () => {});
  });
}

describe('the rate-limit sweep', () => {
  it('deletes ended windows and keeps running ones', async () => {
    const counter = postgresRateCounter(database.db);
    const now = Date.now();
    const ended = freshKey('ended');
    const running = freshKey('running');
    await counter.hit(ended, 1_000, now - 5_000);
    await counter.hit(running, 60_000, now);
    await sweepRateLimitHits(database.db, now);
    const { rows } = await sql<{ key: string }>`
      select key from rate_limit_hits where key in (${ended}, ${running})`.execute(database.db);
    expect(rows.map((r) => r.key)).toEqual([running]);
  });
});

describe('which counter an app gets', () => {
  it('is Redis with REDIS_URL, else the database on PostgreSQL, else memory (PGlite is one process)', async () => {
    const config = loadServerConfig({ APP_ENV: 'test', LOG_LEVEL: 'silent' });
    const plain = { config, database, now: () => new Date() };
    expect(rateCounterOf(plain).kind).toBe(database.kind === 'postgres' ? 'postgres' : 'memory');
    const withRedis = {
      config: loadServerConfig({ APP_ENV: 'test', REDIS_URL: 'redis://127.0.0.1:1' }),
      database,
      now: () => new Date(),
    };
    const redis = rateCounterOf(withRedis);
    expect(redis.kind).toBe('redis');
    await redis.close();
  });

  it('refuses a REDIS_URL that is not a redis:// URL', () => {
    expect(() => loadServerConfig({ REDIS_URL: 'http://127.0.0.1:6379' })).toThrow(
      /REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/,
    );
  });
});

/** An app on `db` as main.ts builds one, with the counter `counter` makes for it. */
const buildNode = async (
  db: DatabaseHandle,
  env: Record<string, string>,
  counter?: (ctx: AppContext) => RateCounter,
) => {
  const config = loadServerConfig({ APP_ENV: 'test', LOG_LEVEL: 'silent', TRUST_PROXY: 'true', ...env });
  const ctx: AppContext = { config, database: db, now: () => new Date() };
  if (counter) setRateCounter(ctx, counter(ctx));
  const app = await buildApp(ctx, { webDir: '/nonexistent' });
  await app.ready();
  return app;
};

const sharedLimits = (
  label: string,
  env: Record<string, string>,
  counter?: (ctx: AppContext) => RateCounter,
) =>
  describe(`two apps on one ${label}`, () => {
    let nodes: Awaited<ReturnType<typeof buildNode>>[] = [];
    beforeAll(async () => {
      nodes = [
        await buildNode(database, { API_ANONYMOUS_LIMIT_PER_MINUTE: '6', ...env }, counter),
        await buildNode(database, { API_ANONYMOUS_LIMIT_PER_MINUTE: '6', ...env }, counter),
      ];
    }, 60_000);
    afterAll(async () => {
      for (const node of nodes) await node.close();
    });
    // A random address per run: Redis keeps a window between runs.
    const address = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

    it('meet the /api limit at the same total, whichever app answers', async () => {
      const ip = address();
      const statuses: number[] = [];
      for (let i = 0; i < 9; i++) {
        const res = await nodes[i % 2]!.inject({
          method: 'GET',
          url: '/api/me/profile',
          headers: { 'x-forwarded-for': ip },
        });
        statuses.push(res.statusCode);
        if (res.statusCode === 429) {
          expect(res.json().error).toMatchObject({ code: 'rate_limited' });
          expect(res.json().error.message).toMatch(/Too many requests \(more than 6 a minute\)/);
          expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
        }
      }
      expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 429, 429, 429]);
      // Concurrent requests from another address: exactly six get through.
      const other = address();
      const answers = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          nodes[i % 2]!.inject({
            method: 'GET',
            url: '/api/me/profile',
            headers: { 'x-forwarded-for': other },
          }),
        ),
      );
      expect(answers.filter((r) => r.statusCode === 401)).toHaveLength(6);
      expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(6);
    });

    it("share a route's own limit (the contact form: five per address), apart from the /api limit", async () => {
      const ip = address();
      const message = { name: 'Rate Test', email: 'rate@example.com', message: 'Testing the shared limit.' };
      const statuses: number[] = [];
      for (let i = 0; i < 7; i++) {
        const res = await nodes[i % 2]!.inject({
          method: 'POST',
          url: '/api/contact',
          headers: { 'x-forwarded-for': ip },
          payload: message,
        });
        statuses.push(res.statusCode);
        if (res.statusCode === 429)
          expect(res.json()).toEqual({
            error: { code: 'rate_limited', message: CONTACT_RATE_LIMITED_MESSAGE },
          });
      }
      expect(statuses).toEqual([201, 201, 201, 201, 201, 429, 429]);
    });

    it("share the sign-in limit per address and account, and Better Auth's per-address limits", async () => {
      const ip = address();
      const email = `nobody-${Date.now().toString(36)}${randomInt(1e9)}@example.com`;
      const statuses: number[] = [];
      for (let i = 0; i < 12; i++) {
        const { status } = await authPost(
          nodes[i % 2]!,
          '/sign-in/email',
          { email, password: 'nope12' },
          { ip },
        );
        statuses.push(status);
      }
      expect(statuses).toEqual([...Array(10).fill(401), 429, 429]);
      // Reset requests: five a minute per address (auth.ts), counted across both apps.
      const resets: number[] = [];
      for (let i = 0; i < 7; i++) {
        const { status } = await authPost(
          nodes[i % 2]!,
          '/request-password-reset',
          { email, redirectTo: '/reset-password' },
          { ip },
        );
        resets.push(status);
      }
      expect(resets).toEqual([200, 200, 200, 200, 200, 429, 429]);
    });
  });

describe('with REDIS_URL and Redis unreachable', () => {
  it('counts in the process meanwhile (no 5xx, the limits still hold): the /api limit, a route limit, sign-in', async () => {
    const node = await buildNode(database, {
      REDIS_URL: 'redis://127.0.0.1:1',
      API_ANONYMOUS_LIMIT_PER_MINUTE: '2',
    });
    try {
      const started = performance.now();
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++)
        statuses.push(
          (
            await node.inject({
              method: 'GET',
              url: '/api/me/profile',
              headers: { 'x-forwarded-for': '10.1.2.3' },
            })
          ).statusCode,
        );
      const contact = await node.inject({
        method: 'POST',
        url: '/api/contact',
        headers: { 'x-forwarded-for': '10.1.2.4' },
        payload: { name: 'Rate Test', email: 'rate@example.com', message: 'Redis is away today.' },
      });
      statuses.push(contact.statusCode);
      const signIn = await authPost(node, '/sign-in/email', {
        email: 'away@example.com',
        password: 'nope12',
      });
      statuses.push(signIn.status);
      // The anonymous /api limit of 2 is met on this node although its shared counter is away.
      expect(statuses).toEqual([401, 401, 429, 429, 201, 401]);
      // Without waiting on Redis (a 1 s command timeout each would be 6 s): a hit fails at once.
      expect(performance.now() - started).toBeLessThan(5000);
      // So is the sign-in limit per address and account (10 a minute): the 11th try is refused.
      const tries: number[] = [];
      for (let i = 0; i < 11; i++)
        tries.push(
          (
            await authPost(
              node,
              '/sign-in/email',
              { email: 'away@example.com', password: 'nope12' },
              { ip: '10.1.2.5' },
            )
          ).status,
        );
      expect(tries.slice(0, 10).every((s) => s === 401)).toBe(true);
      expect(tries[10]).toBe(429);
    } finally {
      await node.close();
    }
  }, 30_000);
});

sharedLimits('database (its own counter)', {}, (ctx) => postgresRateCounter(ctx.database.db));
describe.skipIf(!REDIS_TEST_URL)('with REDIS_URL', () => {
  sharedLimits('Redis', { REDIS_URL: REDIS_TEST_URL ?? '' });
});
