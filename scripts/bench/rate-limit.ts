import { performance } from 'node:perf_hooks';
import { buildApp } from '../../src/server/app.ts';
import { loadServerConfig } from '../../src/server/config.ts';
import type { AppContext } from '../../src/server/context.ts';
import type { DatabaseHandle } from '../../src/server/db/client.ts';
import {
  type RateCounter,
  memoryRateCounter,
  postgresRateCounter,
  redisRateCounter,
  setRateCounter,
} from '../../src/server/db/rate-counter.ts';
import { signUpTestUser } from '../../src/server/testing/users.ts';
import { flagArg, numberArg, openBenchDatabase } from './setup.ts';

// What counting the /api limit in the database costs a request (issue 20 §1; decision 0044;
// docs/performance.md "Shared rate limits"). Three apps on one database differ only in their
// rate counter: memory (the old per-process count), PostgreSQL (one upsert per request) and,
// with BENCH_REDIS_URL, Redis. Each answers the same anonymous GET /api/me/profile (401 before
// any database query, so the counter is the only database work) from 1,000 addresses.
//
// 1. Sequential latency, paired: `--rounds` rounds (default 15), each running `--requests`
//    requests (default 200) one at a time on every app in turn (the order rotates), so a busy
//    machine slows all of them alike. Reports p50/p90/p99 per counter and the median of the
//    per-round p50 differences against memory, plus the process CPU time per request.
// 2. Throughput: 16 requests in flight for `--seconds` (default 3) per app.
//
// `--signed-in`: the same with one signed-in user's session cookie (a 200 that reads the
// session and the profile: a typical cheap request; one key, so concurrent hits queue on its row).
//
// BENCH_DATABASE_URL=postgres://… [BENCH_REDIS_URL=redis://127.0.0.1:6379] \
//   node --import tsx scripts/bench/rate-limit.ts [--rounds 15] [--requests 200] [--seconds 3]

const ROUNDS = numberArg('rounds', 15);
const REQUESTS = numberArg('requests', 200);
const SECONDS = numberArg('seconds', 3);

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
const median = (values: number[]) => pct(values, 50);
const f = (n: number) => n.toFixed(3);

const buildNode = async (database: DatabaseHandle, counter: RateCounter) => {
  const config = loadServerConfig({
    APP_ENV: 'test',
    LOG_LEVEL: 'silent',
    TRUST_PROXY: 'true',
    API_LIMIT_PER_MINUTE: '1000000',
    API_ANONYMOUS_LIMIT_PER_MINUTE: '1000000',
  });
  const ctx: AppContext = { config, database, now: () => new Date() };
  setRateCounter(ctx, counter);
  const app = await buildApp(ctx, { webDir: '/nonexistent' });
  await app.ready();
  return app;
};

const main = async () => {
  const database = await openBenchDatabase('ratelimit', {
    pglite: 'memory',
    postgresUrl: process.env.BENCH_DATABASE_URL ?? null,
  });
  const redisUrl = process.env.BENCH_REDIS_URL;
  const counters: [string, RateCounter][] = [
    ['memory', memoryRateCounter()],
    [database.kind === 'postgres' ? 'PostgreSQL' : 'PGlite table', postgresRateCounter(database.db)],
    ...(redisUrl ? ([['Redis', redisRateCounter(redisUrl)]] as [string, RateCounter][]) : []),
  ];
  const nodes = await Promise.all(
    counters.map(async ([label, counter]) => ({ label, app: await buildNode(database, counter) })),
  );
  const signedIn = flagArg('signed-in');
  const cookie = signedIn ? (await signUpTestUser(nodes[0]!.app)).cookie : null;
  const expected = signedIn ? 200 : 401;
  let n = 0;
  const request = (app: (typeof nodes)[number]['app']) => {
    n += 1;
    return app.inject({
      method: 'GET',
      url: '/api/me/profile',
      headers: { 'x-forwarded-for': `10.9.${(n >> 8) & 3}.${n & 255}`, ...(cookie ? { cookie } : {}) },
    });
  };
  // Warm-up: compiled routes, pool connections, table pages.
  for (const { app } of nodes) for (let i = 0; i < 300; i++) await request(app);

  const latencies = new Map(nodes.map((node) => [node.label, [] as number[]]));
  const roundMedians = new Map(nodes.map((node) => [node.label, [] as number[]]));
  const cpu = new Map(nodes.map((node) => [node.label, 0]));
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < nodes.length; k++) {
      const { label, app } = nodes[(round + k) % nodes.length]!;
      const times: number[] = [];
      const cpuBefore = process.cpuUsage();
      for (let i = 0; i < REQUESTS; i++) {
        const start = performance.now();
        const res = await request(app);
        times.push(performance.now() - start);
        if (res.statusCode !== expected) throw new Error(`${label}: unexpected ${res.statusCode}`);
      }
      const used = process.cpuUsage(cpuBefore);
      cpu.set(label, cpu.get(label)! + (used.user + used.system) / 1000);
      latencies.get(label)!.push(...times);
      roundMedians.get(label)!.push(median(times));
    }
  }
  console.log(
    `database: ${database.kind}; ${signedIn ? 'signed in (200)' : 'anonymous (401)'}; ${ROUNDS} rounds × ${REQUESTS} sequential requests per counter`,
  );
  const base = roundMedians.get('memory')!;
  for (const { label } of nodes) {
    const all = latencies.get(label)!;
    const added = roundMedians.get(label)!.map((m, i) => m - base[i]!);
    console.log(
      `${label.padEnd(13)} p50 ${f(pct(all, 50))} ms  p90 ${f(pct(all, 90))} ms  p99 ${f(pct(all, 99))} ms  ` +
        `added p50 (median of paired rounds) ${f(median(added))} ms  ` +
        `node CPU ${f(cpu.get(label)! / (ROUNDS * REQUESTS))} ms/request`,
    );
  }

  for (const { label, app } of nodes) {
    let done = 0;
    const until = performance.now() + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: 16 }, async () => {
        while (performance.now() < until) {
          await request(app);
          done += 1;
        }
      }),
    );
    console.log(`${label.padEnd(13)} 16 in flight: ${Math.round(done / SECONDS)} requests/s`);
  }

  for (const { app } of nodes) await app.close();
  for (const [, counter] of counters) await counter.close();
  await database.close();
};

await main();
