import { mkdtempSync, rmSync } from 'node:fs';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startServer, waitForHealth } from '../build-web.ts';

// Webhook speed (issue 19; docs/performance.md "Webhooks"), against the real server process
// (src/server/main.ts on embedded PGlite, its webhook worker running as in production):
//
// 1. Latency on an idle system: one endpoint; an invoice is created through the API, and the
//    time from the API's answer (the change has committed) to the receiver getting the signed
//    POST is measured, `--runs` times (default 20), one at a time.
// 2. Fan-out: ten endpoints take every event; `--events` invoices (default 1,000) are created
//    through the API (8 at a time), 10 deliveries each. While the deliveries drain, another
//    client reads the API (the invoice list and the endpoint list, one after the other); its
//    latencies are compared with the same reads on the idle system. The drain time runs from
//    the first event's commit to the last delivery's receipt.
//
// node --import tsx scripts/bench/webhooks.ts [--runs 20] [--events 1000] [--endpoints 10]
// (BENCH_DATABASE_URL=postgres://… for PostgreSQL instead of embedded PGlite)

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const RUNS = arg('runs', 20);
const EVENTS = arg('events', 1000);
const ENDPOINTS = arg('endpoints', 10);
const PORT = arg('port', 3987);

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};
const ms = (n: number) => `${n.toFixed(0)} ms`;
const summary = (values: number[]) =>
  `median ${ms(pct(values, 50))}, p95 ${ms(pct(values, 95))}, max ${ms(Math.max(...values))} (n=${values.length})`;

// --- The receiver: answers 200 at once and notes when each delivery arrived -----------------
const arrivals: { at: number; type: string; path: string }[] = [];
let onArrival: (() => void) | null = null;
const receiver: Server = createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => {
    body += c.toString('utf8');
  });
  req.on('end', () => {
    arrivals.push({ at: performance.now(), type: String(JSON.parse(body).type), path: req.url ?? '' });
    res.writeHead(200).end('ok');
    onArrival?.();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverBase = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;

const waitForArrivals = (count: number, seconds: number) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`only ${arrivals.length} of ${count} deliveries arrived within ${seconds} s`)),
      seconds * 1000,
    );
    const check = () => {
      if (arrivals.length >= count) {
        clearTimeout(timer);
        onArrival = null;
        resolve();
      }
    };
    onArrival = check;
    check();
  });

// --- The server ------------------------------------------------------------------------------
const dataDir = mkdtempSync(path.join(tmpdir(), 'kontor-bench-webhooks-'));
const baseUrl = `http://127.0.0.1:${PORT}`;
const server = startServer({
  port: PORT,
  dataDir,
  webDir: '/nonexistent',
  env: {
    APP_ENV: 'test',
    API_LIMIT_PER_MINUTE: '1000000',
    // BENCH_DATABASE_URL=postgres://… runs the server on PostgreSQL (an empty database).
    ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
  },
});
const stop = () => {
  server.kill('SIGTERM');
  receiver.close();
  rmSync(dataDir, { recursive: true, force: true });
};

try {
  await waitForHealth(baseUrl, server);
  let cookie = '';
  const call = async (method: string, url: string, body?: unknown): Promise<any> => {
    const res = await fetch(`${baseUrl}${url}`, {
      method,
      headers: {
        origin: baseUrl,
        ...(cookie ? { cookie } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${text.slice(0, 300)}`);
    if (!cookie) {
      const set = res.headers.getSetCookie().map((c) => c.split(';')[0]!);
      if (set.length) cookie = set.join('; ');
    }
    return text ? JSON.parse(text) : null;
  };
  await call('POST', '/api/auth/sign-up/email', {
    email: `bench-hooks-${Date.now()}@example.com`,
    password: 'Correct-Horse-9',
    name: 'Bench Hooks',
  });
  const company = await call('POST', '/api/orgs', {
    name: 'Bench Hooks Ltd',
    baseCurrency: 'USD',
    fiscalYearStartMonth: 1,
  });
  const o = `/api/orgs/${company.id}`;
  const customer = await call('POST', `${o}/customers`, { name: 'Northwind', email: 'n@example.com' });
  const newInvoice = () =>
    call('POST', `${o}/invoices`, {
      customerId: customer.id,
      issueDate: '2026-11-02',
      lines: [{ description: 'Design work', quantity: '1', unitPrice: 25_000 }],
    });
  const reads = [`${o}/invoices?limit=25`, `${o}/webhooks/endpoints`];
  const timedRead = async (url: string) => {
    const t0 = performance.now();
    await call('GET', url);
    return performance.now() - t0;
  };

  // Warm up (first requests compile and load).
  for (let i = 0; i < 5; i += 1) {
    await newInvoice();
    for (const url of reads) await timedRead(url);
  }

  // --- 1. Idle latency, one endpoint -----------------------------------------------------------
  const first = await call('POST', `${o}/webhooks/endpoints`, {
    url: `${receiverBase}/e0`,
    eventTypes: ['invoice.created'],
  });
  const latencies: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const expected = arrivals.length + 1;
    await newInvoice();
    const committed = performance.now();
    await waitForArrivals(expected, 30);
    latencies.push(arrivals[expected - 1]!.at - committed);
    await new Promise((r) => setTimeout(r, 200));
  }
  console.log(`Idle: API answer (committed) → signed POST received: ${summary(latencies)}`);

  // Idle read latency, the baseline for the fan-out.
  const idleReads: number[] = [];
  for (let i = 0; i < 100; i += 1) idleReads.push(await timedRead(reads[i % reads.length]!));
  console.log(`Idle reads (invoice list, endpoint list): ${summary(idleReads)}`);

  // --- 2. Fan-out: EVENTS events × ENDPOINTS endpoints ---------------------------------------------
  await call('POST', `${o}/webhooks/endpoints/${first.id}/disable`);
  for (let i = 1; i <= ENDPOINTS; i += 1)
    await call('POST', `${o}/webhooks/endpoints`, { url: `${receiverBase}/e${i}` });
  arrivals.length = 0;
  const target = EVENTS * ENDPOINTS;
  const busyReads: number[] = [];
  let draining = true;
  const reader = (async () => {
    let i = 0;
    while (draining) {
      busyReads.push(await timedRead(reads[i % reads.length]!));
      i += 1;
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  const start = performance.now();
  let firstCommit = 0;
  let made = 0;
  const creators = Array.from({ length: 8 }, async () => {
    while (made < EVENTS) {
      made += 1;
      await newInvoice();
      if (!firstCommit) firstCommit = performance.now();
    }
  });
  await Promise.all(creators);
  const created = performance.now();
  const readsWhileCreating = busyReads.length;
  await waitForArrivals(target, 1800);
  const drained = performance.now();
  draining = false;
  await reader;
  console.log(
    `Fan-out: ${EVENTS} events × ${ENDPOINTS} endpoints = ${target} deliveries; created in ${ms(created - start)}; ` +
      `drained ${ms(drained - firstCommit)} after the first commit (${ms(drained - created)} after the last); ` +
      `${(target / ((drained - firstCommit) / 1000)).toFixed(0)} deliveries/s`,
  );
  const perEndpoint = new Map<string, number>();
  for (const a of arrivals) perEndpoint.set(a.path, (perEndpoint.get(a.path) ?? 0) + 1);
  console.log(`Per endpoint: ${[...perEndpoint.values()].join(', ')}`);
  console.log(`Reads while creating and draining: ${summary(busyReads)}`);
  console.log(`Reads while only draining: ${summary(busyReads.slice(readsWhileCreating))}`);
} finally {
  stop();
}
process.exit(0);
