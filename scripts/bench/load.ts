import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import autocannon, { type Request } from 'autocannon';
import pg from 'pg';
import {
  type AppNode,
  type RoundRobinProxy,
  freePort,
  startNode,
  startProxy,
  stopNode,
  waitHealthy,
} from '../../src/server/testing/nodes.ts';
import { CHECKING_US_MAPPING } from '../../src/server/testing/statements.ts';
import { buildServer, serverIsStale } from '../build-server.mjs';

// Mixed load on two nodes (issue 20 §5; docs/performance.md "Load (issue 20 §5)"): a fresh
// PostgreSQL database (created on the server of --database-url, dropped after), two compiled
// server processes (dist/server/main.js, rebuilt when older than its sources) on it behind a
// round-robin proxy on one port, --companies companies seeded through the API (a user each,
// signed in with a session cookie; a bank account; a few posted entries), then autocannon for
// --duration seconds at --rate requests/s overall over --connections connections, cycling
// through a mix of list reads (journal entries, transactions, invoices), reports (trial
// balance, income statement), the dashboard, posted journal entries (a unique memo each) and
// small CSV statement imports (three new rows each). A --warmup of a few seconds runs first;
// its figures are not reported, its writes are checked like the others.
//
// Reported: requests/s achieved, non-2xx answers and socket errors/timeouts by kind, latency
// p50/p90/p99/max overall and per kind, CPU seconds of the two nodes, PostgreSQL and this
// process, and "nothing lost": every entry and import acknowledged with a 2xx is in the
// database afterwards (entries by id and memo, imports by id with their rows by description),
// and the trial balance of every company balances. Exits 1 when a goal is missed: the
// achieved rate below 95 % of --rate, any error, p99 above --p99-ms (500), anything lost.
//
// npm run bench:load -- [--duration 60] [--rate 500] [--connections 64] [--companies 8]
//   [--warmup 5] [--p99-ms 500] [--database-url postgres://postgres@127.0.0.1:5432/postgres] [--json]

const args = process.argv.slice(2);
const arg = (name: string, fallback: string) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1]! : fallback;
};
const DURATION = Number(arg('duration', '60'));
const RATE = Number(arg('rate', '500'));
const CONNECTIONS = Number(arg('connections', '64'));
const COMPANIES = Number(arg('companies', '8'));
const WARMUP = Number(arg('warmup', '5'));
const P99_GOAL_MS = Number(arg('p99-ms', '500'));
const ADMIN_URL = arg(
  'database-url',
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
);
const AS_JSON = args.includes('--json');
/** `--only post-entry,journal-list`: just these kinds of the mix (for CPU per request of one kind). */
const ONLY = arg('only', '').split(',').filter(Boolean);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const RUN = randomBytes(3).toString('hex');

const log = (line: string) => process.stderr.write(`[bench:load] ${line}\n`);

// --- the compiled server, rebuilt when stale (as scripts/start.mjs does) -----------------------
if (serverIsStale()) {
  log('compiling the server (dist/server is missing or stale)');
  await buildServer();
}

// --- CPU of the processes involved (Linux /proc) -------------------------------------------------
const cpuMsOf = (pid: number) => {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
};
/** CPU of the PostgreSQL backends serving database `dbName` (their process title names it). */
const postgresCpuMs = (dbName: string) => {
  let total = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(` ${dbName} `))
        total += cpuMsOf(Number(entry));
    } catch {
      // gone
    }
  }
  return total;
};

type Kind =
  | 'journal-list'
  | 'transactions-list'
  | 'invoices-list'
  | 'trial-balance'
  | 'income-statement'
  | 'dashboard'
  | 'post-entry'
  | 'import-csv';
// One cycle of the mix (autocannon goes through it in order on each connection): 14 reads, 6 writes.
const MIX: Kind[] = [
  'journal-list',
  'post-entry',
  'transactions-list',
  'trial-balance',
  'post-entry',
  'invoices-list',
  'dashboard',
  'journal-list',
  'post-entry',
  'income-statement',
  'transactions-list',
  'import-csv',
  'journal-list',
  'post-entry',
  'invoices-list',
  'trial-balance',
  'transactions-list',
  'post-entry',
  'income-statement',
  'dashboard',
];

const mix = ONLY.length ? MIX.filter((kind) => ONLY.includes(kind)) : MIX;
if (!mix.length) throw new Error(`--only names no kind of the mix: ${[...new Set(MIX)].join(', ')}`);

type Company = { id: string; cookie: string; bank: string; sales: string; moneyAccountId: string };

// --- database, nodes, proxy -----------------------------------------------------------------------
const dbName = `kontor_load_${RUN}`;
const admin = new pg.Client({ connectionString: ADMIN_URL });
await admin.connect();
await admin.query(`create database ${dbName}`);
const target = new URL(ADMIN_URL);
target.pathname = `/${dbName}`;

const nodes: AppNode[] = [];
let proxy: RoundRobinProxy | undefined;
const cleanUp = async () => {
  await Promise.all(nodes.map(stopNode));
  if (proxy) await new Promise((resolve) => proxy!.server.close(resolve));
  await admin.query(`drop database if exists ${dbName} with (force)`);
  await admin.end();
};

let exitCode = 0;
try {
  const ports = [await freePort(), await freePort()];
  proxy = await startProxy(ports, { record: false });
  const base = `http://127.0.0.1:${proxy.port}`;
  const env = {
    APP_ENV: 'test',
    HOST: '127.0.0.1',
    DATABASE_URL: target.toString(),
    PUBLIC_URL: base,
    LOG_LEVEL: 'warn',
    TRUST_PROXY: 'true',
    AUTH_SECRET: `load-bench-secret-${RUN}-0123456789abcdefghij`,
    BANK_FEEDS_KEY: Buffer.alloc(32, 7).toString('base64'),
    // Limits high enough that the bench meets none; they are still counted (in PostgreSQL).
    API_LIMIT_PER_MINUTE: '1000000',
    API_ANONYMOUS_LIMIT_PER_MINUTE: '1000000',
    AUTH_SIGNUP_LIMIT_PER_MINUTE: '100000',
    WEB_DIR: path.join(ROOT, 'dist', 'no-web-for-load-bench'),
    REDIS_URL: '',
    OTEL_EXPORTER_OTLP_ENDPOINT: '',
  };
  const started = performance.now();
  // The first node migrates the fresh database; the second starts on the migrated schema.
  nodes.push(startNode(ports[0]!, env, { compiled: true }));
  await waitHealthy(nodes[0]!, Date.now() + 60_000);
  nodes.push(startNode(ports[1]!, env, { compiled: true }));
  await waitHealthy(nodes[1]!, Date.now() + 60_000);
  log(`two nodes up in ${Math.round(performance.now() - started)} ms; proxy on ${base}; database ${dbName}`);

  // --- seed through the API ---------------------------------------------------------------------
  const call = async (method: string, url: string, cookie: string, body?: unknown) => {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: {
        origin: base,
        ...(cookie ? { cookie } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const parsed = text && (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : null;
    if (res.status >= 300) throw new Error(`${method} ${url} answered ${res.status}: ${text.slice(0, 300)}`);
    return { body: parsed, cookies: res.headers.getSetCookie().map((c) => c.split(';')[0]!) };
  };
  const companies: Company[] = [];
  for (let c = 0; c < COMPANIES; c += 1) {
    const signUp = await call('POST', '/api/auth/sign-up/email', '', {
      email: `load-${RUN}-${c}@example.com`,
      password: 'Quiet-River-71-load',
      name: `Load ${c}`,
    });
    const cookie = signUp.cookies.join('; ');
    const org = await call('POST', '/api/orgs', cookie, {
      name: `Load ${RUN} ${c} Ltd`,
      baseCurrency: 'USD',
      fiscalYearStartMonth: 1,
    });
    const o = `/api/orgs/${org.body.id}`;
    const { accounts } = (await call('GET', `${o}/accounts`, cookie)).body as {
      accounts: { id: string; systemKey: string | null }[];
    };
    const money = await call('POST', `${o}/wallet/accounts`, cookie, {
      name: 'Checking',
      kind: 'bank',
      currency: 'USD',
      openingDate: '2025-12-31',
      openingBalance: 1_000_000,
    });
    const company: Company = {
      id: org.body.id,
      cookie,
      bank: accounts.find((a) => a.systemKey === 'bank')!.id,
      sales: accounts.find((a) => a.systemKey === 'sales')!.id,
      moneyAccountId: money.body.id,
    };
    for (let i = 0; i < 20; i += 1)
      await call('POST', `${o}/journal-entries`, cookie, {
        date: `2026-${String((i % 11) + 1).padStart(2, '0')}-15`,
        memo: `Seed ${i}`,
        status: 'posted',
        lines: [
          { accountId: company.bank, debit: 10_000 + i },
          { accountId: company.sales, credit: 10_000 + i },
        ],
      });
    companies.push(company);
  }
  log(`seeded ${COMPANIES} companies`);

  // --- the mix ----------------------------------------------------------------------------------
  let seq = 0;
  const acked = {
    entries: new Map<string, { id: string; memo: string }[]>(), // company id → acknowledged entries
    imports: new Map<string, { id: string; descriptions: string[] }[]>(),
  };
  // The kind (and what it wrote) of the answer autocannon is about to count: a request's
  // onResponse runs right before the client emits 'response', in the same tick.
  let answering: { kind: Kind } | null = null;

  const csvFor = (n: number) => {
    const rows = [0, 1, 2].map((r) => ({
      date: `${String((n % 11) + 1).padStart(2, '0')}/${String((r % 27) + 1).padStart(2, '0')}/2026`,
      description: `Load ${RUN} import ${n} row ${r}`,
      amount: r === 1 ? '1,250.00' : `-${(n % 97) + 1}.${String(r * 11).padStart(2, '0')}`,
      externalId: `L${RUN}-${n}-${r}`,
    }));
    return {
      rows,
      content: `Date,Description,Payee,Amount,Transaction ID\n${rows
        .map((r) => `${r.date},${r.description},Load Payee,"${r.amount}",${r.externalId}`)
        .join('\n')}\n`,
    };
  };

  const requestFor = (kind: Kind) => ({
    setupRequest: (req: Record<string, unknown>, context: Record<string, unknown>) => {
      seq += 1;
      const n = seq;
      const company = companies[n % companies.length]!;
      const o = `/api/orgs/${company.id}`;
      const headers: Record<string, string> = { cookie: company.cookie, origin: base };
      context.company = company.id;
      switch (kind) {
        case 'journal-list':
          return { ...req, method: 'GET', path: `${o}/journal-entries`, headers };
        case 'transactions-list':
          return { ...req, method: 'GET', path: `${o}/transactions`, headers };
        case 'invoices-list':
          return { ...req, method: 'GET', path: `${o}/invoices`, headers };
        case 'trial-balance':
          return { ...req, method: 'GET', path: `${o}/reports/trial-balance?to=2026-12-31`, headers };
        case 'income-statement':
          return {
            ...req,
            method: 'GET',
            path: `${o}/reports/income-statement?from=2026-01-01&to=2026-12-31`,
            headers,
          };
        case 'dashboard':
          return { ...req, method: 'GET', path: `${o}/dashboard`, headers };
        case 'post-entry': {
          const memo = `Load ${RUN} entry ${n}`;
          context.memo = memo;
          return {
            ...req,
            method: 'POST',
            path: `${o}/journal-entries`,
            headers: { ...headers, 'content-type': 'application/json' },
            body: JSON.stringify({
              date: `2026-${String((n % 11) + 1).padStart(2, '0')}-${String((n % 27) + 1).padStart(2, '0')}`,
              memo,
              status: 'posted',
              lines: [
                { accountId: company.bank, debit: 1_000 + (n % 997) },
                { accountId: company.sales, credit: 1_000 + (n % 997) },
              ],
            }),
          };
        }
        case 'import-csv': {
          const csv = csvFor(n);
          context.descriptions = csv.rows.map((r) => r.description);
          return {
            ...req,
            method: 'POST',
            path: `${o}/statement-imports`,
            headers: { ...headers, 'content-type': 'application/json' },
            body: JSON.stringify({
              moneyAccountId: company.moneyAccountId,
              fileName: `load-${n}.csv`,
              content: csv.content,
              mapping: CHECKING_US_MAPPING,
            }),
          };
        }
      }
    },
    onResponse: (status: number, body: string, context: Record<string, unknown>) => {
      answering = { kind };
      if (status < 200 || status >= 300) return;
      const companyId = context.company as string;
      if (kind === 'post-entry') {
        const list = acked.entries.get(companyId) ?? [];
        list.push({ id: JSON.parse(body).id, memo: context.memo as string });
        acked.entries.set(companyId, list);
      } else if (kind === 'import-csv') {
        const list = acked.imports.get(companyId) ?? [];
        list.push({ id: JSON.parse(body).id, descriptions: context.descriptions as string[] });
        acked.imports.set(companyId, list);
      }
    },
  });

  type Stats = {
    latencies: Map<Kind, number[]>;
    statuses: Map<Kind, Map<number, number>>;
    socketErrors: number;
    timeouts: number;
  };
  const runLoad = async (seconds: number, rate: number) => {
    const stats: Stats = { latencies: new Map(), statuses: new Map(), socketErrors: 0, timeouts: 0 };
    const instance = autocannon({
      url: base,
      connections: CONNECTIONS,
      overallRate: rate,
      duration: seconds,
      timeout: 30,
      requests: mix.map(requestFor) as Request[],
    });
    instance.on('response', (_client: unknown, status: number, _bytes: number, responseTime: number) => {
      const kind = answering?.kind ?? ('unknown' as Kind);
      answering = null;
      const l = stats.latencies.get(kind) ?? [];
      l.push(responseTime);
      stats.latencies.set(kind, l);
      const s = stats.statuses.get(kind) ?? new Map<number, number>();
      s.set(status, (s.get(status) ?? 0) + 1);
      stats.statuses.set(kind, s);
    });
    instance.on('reqError', () => {
      stats.socketErrors += 1;
    });
    const result = await instance;
    stats.timeouts = result.timeouts;
    stats.socketErrors = Math.max(stats.socketErrors, result.errors - result.timeouts);
    return { result, stats };
  };

  if (WARMUP > 0) {
    log(`warm-up: ${WARMUP} s at ${Math.round(RATE / 2)} req/s`);
    await runLoad(WARMUP, Math.round(RATE / 2));
  }
  log(`load: ${DURATION} s at ${RATE} req/s over ${CONNECTIONS} connections`);
  const cpu0 = {
    nodes: nodes.map((n) => cpuMsOf(n.child.pid!)),
    pg: postgresCpuMs(dbName),
    self: process.cpuUsage(),
  };
  const t0 = performance.now();
  const { result, stats } = await runLoad(DURATION, RATE);
  const wall = (performance.now() - t0) / 1000;
  const selfCpu = process.cpuUsage(cpu0.self);
  const cpu = {
    nodesSeconds: nodes.map((n, i) => Math.round((cpuMsOf(n.child.pid!) - cpu0.nodes[i]!) / 100) / 10),
    postgresSeconds: Math.round((postgresCpuMs(dbName) - cpu0.pg) / 100) / 10,
    loadGeneratorAndProxySeconds: Math.round((selfCpu.user + selfCpu.system) / 100_000) / 10,
  };
  const serverCpuSeconds = cpu.nodesSeconds.reduce((a, b) => a + b, 0) + cpu.postgresSeconds;

  // --- figures ----------------------------------------------------------------------------------
  const pct = (sorted: number[], p: number) =>
    sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! : 0;
  const summary = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const ms = (v: number) => Math.round(v * 10) / 10;
    return {
      count: sorted.length,
      p50: ms(pct(sorted, 50)),
      p90: ms(pct(sorted, 90)),
      p99: ms(pct(sorted, 99)),
      max: ms(sorted.at(-1) ?? 0),
    };
  };
  const all = [...stats.latencies.values()].flat();
  const perKind = Object.fromEntries(
    [...stats.latencies.entries()].map(([kind, values]) => [
      kind,
      {
        ...summary(values),
        non2xx: Object.fromEntries(
          [...(stats.statuses.get(kind) ?? new Map()).entries()].filter(([s]) => s < 200 || s >= 300),
        ),
      },
    ]),
  );
  const non2xx: Record<string, number> = {};
  for (const byStatus of stats.statuses.values())
    for (const [status, n] of byStatus)
      if (status < 200 || status >= 300) non2xx[status] = (non2xx[status] ?? 0) + n;
  const errorCount = Object.values(non2xx).reduce((a, b) => a + b, 0) + stats.socketErrors + stats.timeouts;

  // --- nothing lost -----------------------------------------------------------------------------
  const check = new pg.Client({ connectionString: target.toString() });
  await check.connect();
  let entriesAcked = 0;
  let entriesFound = 0;
  let importsAcked = 0;
  let importsFound = 0;
  let importRowsFound = 0;
  const unbalanced: string[] = [];
  try {
    for (const company of companies) {
      const entries = acked.entries.get(company.id) ?? [];
      entriesAcked += entries.length;
      if (entries.length) {
        const { rows } = await check.query<{ n: string }>(
          `select count(*) as n from journal_entries j
             join unnest($2::text[], $3::text[]) as a(id, memo) on a.id = j.id and a.memo = j.memo
            where j.organization_id = $1 and j.status = 'posted'`,
          [company.id, entries.map((e) => e.id), entries.map((e) => e.memo)],
        );
        entriesFound += Number(rows[0]!.n);
      }
      const imports = acked.imports.get(company.id) ?? [];
      importsAcked += imports.length;
      if (imports.length) {
        const found = await check.query<{ n: string }>(
          `select count(*) as n from statement_imports
            where organization_id = $1 and id = any($2::text[]) and imported_rows = 3`,
          [company.id, imports.map((i) => i.id)],
        );
        importsFound += Number(found.rows[0]!.n);
        const rows = await check.query<{ n: string }>(
          `select count(*) as n from bank_transactions
            where organization_id = $1 and description = any($2::text[])`,
          [company.id, imports.flatMap((i) => i.descriptions)],
        );
        importRowsFound += Number(rows.rows[0]!.n);
      }
      const tb = await call(
        'GET',
        `/api/orgs/${company.id}/reports/trial-balance?to=2026-12-31`,
        company.cookie,
      );
      if (tb.body.totals.debit !== tb.body.totals.credit) unbalanced.push(company.id);
    }
  } finally {
    await check.end();
  }
  const nothingLost =
    entriesFound === entriesAcked && importsFound === importsAcked && importRowsFound === importsAcked * 3;

  const requests = all.length;
  const report = {
    duration: Math.round(wall * 10) / 10,
    targetRate: RATE,
    connections: CONNECTIONS,
    companies: COMPANIES,
    requests,
    requestsPerSecond: Math.round(requests / wall),
    autocannonRequestsAverage: result.requests.average,
    errors: { total: errorCount, non2xx, socketErrors: stats.socketErrors, timeouts: stats.timeouts },
    latencyMs: summary(all),
    perKind,
    cpu,
    // CPU of the nodes and PostgreSQL per request, and the rate two cores would serve at that
    // cost with nothing else running (no load generator, no proxy, no other work on the machine).
    serverCpuMsPerRequest: Math.round(((serverCpuSeconds * 1000) / Math.max(1, all.length)) * 10) / 10,
    cpuBoundRequestsPerSecond: Math.round((all.length * 2) / Math.max(0.001, serverCpuSeconds)),
    nothingLost: {
      entries: { acknowledged: entriesAcked, found: entriesFound },
      imports: { acknowledged: importsAcked, found: importsFound, rowsFound: importRowsFound },
      ok: nothingLost,
    },
    trialBalancesZero: unbalanced.length === 0,
    loadAverage: fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
  };
  const goals = {
    rate: report.requestsPerSecond >= RATE * 0.95,
    noErrors: errorCount === 0,
    p99: report.latencyMs.p99 <= P99_GOAL_MS,
    nothingLost,
    trialBalancesZero: report.trialBalancesZero,
  };
  if (AS_JSON) process.stdout.write(`${JSON.stringify({ ...report, goals })}\n`);
  else {
    const out: string[] = [];
    out.push(
      `${requests} requests in ${report.duration} s over two nodes: ${report.requestsPerSecond} req/s (target ${RATE}), ` +
        `${CONNECTIONS} connections, ${COMPANIES} companies`,
    );
    out.push(
      `errors: ${errorCount} (non-2xx ${JSON.stringify(non2xx)}, socket errors ${stats.socketErrors}, timeouts ${stats.timeouts})`,
    );
    const l = report.latencyMs;
    out.push(`latency ms overall: p50 ${l.p50}, p90 ${l.p90}, p99 ${l.p99}, max ${l.max}`);
    for (const [kind, k] of Object.entries(perKind))
      out.push(
        `  ${kind.padEnd(18)} n=${String(k.count).padStart(6)}  p50 ${k.p50}  p90 ${k.p90}  p99 ${k.p99}  max ${k.max}` +
          (Object.keys(k.non2xx).length ? `  non-2xx ${JSON.stringify(k.non2xx)}` : ''),
      );
    out.push(
      `CPU seconds: nodes ${cpu.nodesSeconds.join(' + ')}, PostgreSQL ${cpu.postgresSeconds}, ` +
        `load generator + proxy ${cpu.loadGeneratorAndProxySeconds} (2 cores × ${report.duration} s = ${Math.round(report.duration * 2)})`,
    );
    out.push(
      `server CPU per request (nodes + PostgreSQL): ${report.serverCpuMsPerRequest} ms → two idle cores would serve ~${report.cpuBoundRequestsPerSecond} req/s`,
    );
    out.push(
      `nothing lost: entries ${entriesFound}/${entriesAcked}, imports ${importsFound}/${importsAcked} ` +
        `(rows ${importRowsFound}/${importsAcked * 3}) → ${nothingLost ? 'ok' : 'LOST'}; ` +
        `trial balances zero: ${report.trialBalancesZero}; load average ${report.loadAverage}`,
    );
    out.push(
      `goals: ${Object.entries(goals)
        .map(([k, v]) => `${k} ${v ? 'met' : 'MISSED'}`)
        .join(', ')}`,
    );
    process.stdout.write(`${out.join('\n')}\n`);
  }
  if (!Object.values(goals).every(Boolean)) exitCode = 1;
} catch (error) {
  log(String(error instanceof Error ? (error.stack ?? error.message) : error));
  for (const node of nodes) log(`node ${node.port} output: ${node.output.join('').slice(-2000)}`);
  exitCode = 2;
} finally {
  await cleanUp();
}
process.exit(exitCode);
