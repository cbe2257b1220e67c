import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { openDatabase } from '../../src/server/db/client.ts';
import { postJournalEntry } from '../../src/server/modules/ledger/posting.ts';
import { createTestCompanyInDatabase } from '../../src/server/testing/companies.ts';
import { startServer, waitForHealth } from '../build-web.ts';
import { openBenchDatabase } from './setup.ts';

// Posting single entries over HTTP (issue 20 §4; docs/performance.md "Posting over HTTP"):
// the real server (src/server/main.ts) on a fresh PostgreSQL database; one company; --clients
// clients (default 16) each POST /journal-entries (a posted two-line entry) one after the
// other for --seconds (default 20) after a warm-up. Reports entries/s, latency p50/p99, the
// CPU time the server process and the PostgreSQL processes spent per entry (the machine is
// shared, so wall-clock throughput moves with the load; CPU per entry does not much), and
// checks the result: every acknowledged entry stored, numbers 1..n without gaps.
//
// With --direct, no HTTP: the same clients call postJournalEntry in this process on a pool of
// --clients connections, which measures the posting itself (checks, the numbered last
// statement, the audit row, the commit) without the server's per-request work.
//
// With --read <path> (e.g. /journal-entries, /transactions, /dashboard), the timed part GETs
// that path of the company instead of posting: the CPU per request of a read, on the company
// the warm-up's postings filled (figures are then per request, not per entry).
//
// node --import tsx scripts/bench/posting-http.ts [--clients 16] [--seconds 20] [--port 3991]
//      [--pg-url postgres://postgres@127.0.0.1:5432/test] [--direct] [--read <path>] [--json]
// (the database named in --pg-url / BENCH_DATABASE_URL only hosts a fresh database, dropped after)

const arg = (name: string, fallback: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1]! : fallback;
};
const CLIENTS = Number(arg('clients', '16'));
const SECONDS = Number(arg('seconds', '20'));
const PORT = Number(arg('port', '3991'));
const PG_URL = arg('pg-url', process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
const AS_JSON = process.argv.includes('--json');
const DIRECT = process.argv.includes('--direct');
/** `--read /journal-entries?limit=50`: after the warm-up's postings, time GETs of this company path instead. */
const READ = arg('read', '');

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;

/** utime and stime of a process, in milliseconds (Linux /proc; 0 when it is gone). */
const cpuSplitOf = (pid: number) => {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return { user: (Number(fields[11]) * 1000) / 100, system: (Number(fields[12]) * 1000) / 100 }; // ticks of 1/100 s
  } catch {
    return { user: 0, system: 0 };
  }
};

/** utime + stime of a process, in milliseconds. */
const cpuMsOf = (pid: number) => {
  const { user, system } = cpuSplitOf(pid);
  return user + system;
};

/**
 * CPU of the PostgreSQL backends serving database `dbName` (their process title names it), in
 * ms: other databases' work on a shared server is left out, and so are the WAL writer and the
 * checkpointer.
 */
const postgresCpuMs = (dbName: string) => {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(` ${dbName} `))
        total += cpuMsOf(Number(entry));
    } catch {
      // gone
    }
  }
  return total;
};

/** --direct: postJournalEntry from CLIENTS workers on a pool of CLIENTS connections. */
const runDirect = async () => {
  const bench = await openBenchDatabase('posting', { pglite: 'memory', postgresUrl: PG_URL });
  const database = await openDatabase({ kind: 'postgres', url: bench.where, max: CLIENTS });
  try {
    const org = await createTestCompanyInDatabase(database.db, { baseCurrency: 'USD' });
    let seq = 0;
    const post = () => {
      seq += 1;
      return postJournalEntry(database.db, {
        organizationId: org.id,
        date: '2026-11-02',
        memo: `Bench ${seq}`,
        source: 'manual',
        actorUserId: null,
        lines: [
          { accountId: org.accounts.bank!, debit: 1000 + (seq % 997) },
          { accountId: org.accounts.sales!, credit: 1000 + (seq % 997) },
        ],
      });
    };
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        for (let i = 0; i < 10; i += 1) await post();
      }),
    );
    const latencies: number[] = [];
    const cpu0 = process.cpuUsage();
    const dbName = new URL(bench.where).pathname.slice(1);
    const pgCpu0 = postgresCpuMs(dbName);
    const start = performance.now();
    const end = start + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (performance.now() < end) {
          const t0 = performance.now();
          await post();
          latencies.push(performance.now() - t0);
        }
      }),
    );
    const wall = (performance.now() - start) / 1000;
    const cpu = process.cpuUsage(cpu0);
    const nodeCpu = (cpu.user + cpu.system) / 1000;
    const pgCpu = postgresCpuMs(dbName) - pgCpu0;
    const row = await database.db
      .selectFrom('journal_entries')
      .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.max('number').as('max')])
      .where('organization_id', '=', org.id)
      .executeTakeFirstOrThrow();
    latencies.sort((a, b) => a - b);
    const result = {
      mode: 'direct',
      clients: CLIENTS,
      seconds: Math.round(wall * 10) / 10,
      entries: latencies.length,
      entriesPerSecond: Math.round(latencies.length / wall),
      p50Ms: Math.round(pct(latencies, 50) * 10) / 10,
      p99Ms: Math.round(pct(latencies, 99) * 10) / 10,
      nodeCpuMsPerEntry: Math.round((nodeCpu / latencies.length) * 100) / 100,
      postgresCpuMsPerEntry: Math.round((pgCpu / latencies.length) * 100) / 100,
      numbersGapFree: Number(row.n) === Number(row.max) && Number(row.n) === latencies.length + CLIENTS * 10,
      loadAverage: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await database.close();
    await bench.close();
  }
  process.exit(0);
};
if (DIRECT) await runDirect();

const name = `kontor_bench_posting_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: PG_URL });
await admin.connect();
await admin.query(`create database ${name}`);
const target = new URL(PG_URL);
target.pathname = `/${name}`;

const dataDir = mkdtempSync(path.join(tmpdir(), 'kontor-bench-posting-'));
const baseUrl = `http://127.0.0.1:${PORT}`;
const server = startServer({
  port: PORT,
  dataDir,
  webDir: '/nonexistent',
  env: { APP_ENV: 'test', API_LIMIT_PER_MINUTE: '1000000', DATABASE_URL: target.toString() },
});

const stop = async () => {
  server.kill('SIGTERM');
  if (server.exitCode === null) await new Promise((r) => server.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
};

try {
  await waitForHealth(baseUrl, server);
  let cookie = '';
  const call = async (method: string, url: string, body?: unknown) => {
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
    if (!cookie) {
      const set = res.headers.getSetCookie().map((c) => c.split(';')[0]!);
      if (set.length) cookie = set.join('; ');
    }
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  const ok = async (method: string, url: string, body?: unknown) => {
    const res = await call(method, url, body);
    if (res.status >= 300)
      throw new Error(`${method} ${url} answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body;
  };
  await ok('POST', '/api/auth/sign-up/email', {
    email: `bench-posting-${Date.now()}@example.com`,
    password: 'Correct-Horse-9',
    name: 'Bench Posting',
  });
  const company = await ok('POST', '/api/orgs', { name: 'Bench Posting Ltd', baseCurrency: 'USD' });
  const o = `/api/orgs/${company.id}`;
  const { accounts } = (await ok('GET', `${o}/accounts`)) as {
    accounts: { id: string; systemKey: string | null }[];
  };
  const bank = accounts.find((a) => a.systemKey === 'bank')!.id;
  const sales = accounts.find((a) => a.systemKey === 'sales')!.id;
  let seq = 0;
  const post = () => {
    seq += 1;
    return call('POST', `${o}/journal-entries`, {
      date: '2026-11-02',
      memo: `Bench ${seq}`,
      status: 'posted',
      lines: [
        { accountId: bank, debit: 1000 + (seq % 997) },
        { accountId: sales, credit: 1000 + (seq % 997) },
      ],
    });
  };

  // Warm-up: code loaded and compiled, pool connections open, plans cached.
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for (let i = 0; i < 10; i += 1) await post();
    }),
  );

  const latencies: number[] = [];
  const errors = new Map<number, number>();
  const serverCpu0 = cpuSplitOf(server.pid!);
  const pgCpu0 = postgresCpuMs(name);
  const start = performance.now();
  const end = start + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        const res = READ ? await call('GET', `${o}${READ}`) : await post();
        const t = performance.now() - t0;
        if (res.status === (READ ? 200 : 201)) latencies.push(t);
        else errors.set(res.status, (errors.get(res.status) ?? 0) + 1);
      }
    }),
  );
  const wall = (performance.now() - start) / 1000;
  const serverSplit = cpuSplitOf(server.pid!);
  const serverSystem = serverSplit.system - serverCpu0.system;
  const serverCpu = serverSplit.user - serverCpu0.user + serverSystem;
  const pgCpu = postgresCpuMs(name) - pgCpu0;

  // Every acknowledged entry is there, numbered 1..n without a gap or a repeat.
  const check = new pg.Client({ connectionString: target.toString() });
  await check.connect();
  const stored = await check.query<{ n: string; max: string; distinct: string }>(
    `select count(*) as n, max(number) as max, count(distinct number) as distinct
       from journal_entries where organization_id = $1 and status = 'posted'`,
    [company.id],
  );
  await check.end();
  const row = stored.rows[0]!;
  const acknowledged = (READ ? 0 : latencies.length) + CLIENTS * 10;
  latencies.sort((a, b) => a - b);
  const result = {
    ...(READ ? { read: READ } : {}),
    clients: CLIENTS,
    seconds: Math.round(wall * 10) / 10,
    entries: latencies.length,
    entriesPerSecond: Math.round(latencies.length / wall),
    p50Ms: Math.round(pct(latencies, 50) * 10) / 10,
    p99Ms: Math.round(pct(latencies, 99) * 10) / 10,
    errors: Object.fromEntries(errors),
    serverCpuMsPerEntry: Math.round((serverCpu / latencies.length) * 100) / 100,
    serverSystemCpuMsPerEntry: Math.round((serverSystem / latencies.length) * 100) / 100,
    postgresCpuMsPerEntry: Math.round((pgCpu / latencies.length) * 100) / 100,
    cpuBoundEntriesPerSecond: Math.round((latencies.length * 1000 * 2) / (serverCpu + pgCpu)),
    storedEqualsAcknowledged: Number(row.n) === acknowledged,
    numbersGapFree: Number(row.max) === Number(row.n) && Number(row.distinct) === Number(row.n),
    loadAverage: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
  };
  if (AS_JSON) process.stdout.write(`${JSON.stringify(result)}\n`);
  else
    process.stdout.write(
      `${READ ? `GET ${READ}: ` : ''}${result.entries} ${READ ? 'requests' : 'entries'} in ${result.seconds} s with ${CLIENTS} clients: ${result.entriesPerSecond}/s, ` +
        `p50 ${result.p50Ms} ms, p99 ${result.p99Ms} ms, errors ${JSON.stringify(result.errors)}\n` +
        `CPU per ${READ ? 'request' : 'entry'}: server ${result.serverCpuMsPerEntry} ms (kernel ${result.serverSystemCpuMsPerEntry}), PostgreSQL ${result.postgresCpuMsPerEntry} ms ` +
        `(both cores busy with this alone: ~${result.cpuBoundEntriesPerSecond}/s)\n` +
        `stored = acknowledged: ${result.storedEqualsAcknowledged}; numbers 1..n without gaps: ${result.numbersGapFree}; ` +
        `load average ${result.loadAverage}\n`,
    );
} finally {
  await stop();
}
process.exit(0);
