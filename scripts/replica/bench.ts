import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import type { App } from '../../src/server/app.ts';
import { openDatabase } from '../../src/server/db/client.ts';
import { migrateToLatest } from '../../src/server/db/migrate.ts';
import type { ReadReason } from '../../src/server/db/replica.ts';
import { LSN_COOKIE, observeReads } from '../../src/server/http/read-replica.ts';
import { createTestApp } from '../../src/server/testing/app.ts';
import { createTestCompany } from '../../src/server/testing/companies.ts';
import { postedEntryBody, systemAccountsOf } from '../../src/server/testing/ledger.ts';

// The read replica's effect (decision 0047, docs/performance.md "Read replica"): a fresh
// primary and streaming standby from scripts/replica/setup.sh, two apps on the same primary —
// one with the replica, one without — and, alternating between them so a busy machine weighs
// on both alike:
// - list and report reads: median latency, and the transactions each server ran
//   (pg_stat_database.xact_commit) — what moved off the primary;
// - posted entries: median latency (with the replica each write also reads the WAL position);
// - post-then-list as one user (read-your-writes): where the list was read.
// Usage: node --import tsx scripts/replica/bench.ts [--reads 300] [--writes 150] [--fast]

const args = process.argv.slice(2);
const numberArg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const READS = numberArg('reads', 300);
const WRITES = numberArg('writes', 150);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor(sorted.length / 2)]! * 100) / 100;
};
const p95 = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor(sorted.length * 0.95)]! * 100) / 100;
};

const commits = async (url: string) => {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      'select xact_commit::bigint::text as n from pg_stat_database where datname = current_database()',
    );
    return Number(rows[0].n);
  } finally {
    await client.end();
  }
};

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kontor-replica-bench-'));
const port = await freePort();
let replicaPort = await freePort();
while (replicaPort === port) replicaPort = await freePort();
const out = execFileSync(
  'bash',
  [
    path.join(ROOT, 'scripts/replica/setup.sh'),
    ...['--dir', dir, '--new-primary', '--port', String(port), '--replica-port', String(replicaPort)],
    ...(args.includes('--fast') ? ['--fast'] : []),
  ],
  { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
);
const primaryUrl = /^DATABASE_URL=(.*)$/m.exec(out)![1]!;
const replicaUrl = /^DATABASE_REPLICA_URL=(.*)$/m.exec(out)![1]!;

try {
  const withReplica = await openDatabase({
    kind: 'postgres',
    url: primaryUrl,
    replica: { url: replicaUrl, maxLagMs: 5000 },
  });
  await migrateToLatest(withReplica.db);
  const primaryOnly = await openDatabase({ kind: 'postgres', url: primaryUrl });
  const a = await createTestApp({
    database: withReplica,
    env: { DATABASE_URL: primaryUrl, DATABASE_REPLICA_URL: replicaUrl },
  });
  const b = await createTestApp({ database: primaryOnly, env: { DATABASE_URL: primaryUrl } });
  const reasons = new Map<ReadReason, number>();
  observeReads(a.ctx, (choice) => reasons.set(choice.reason, (reasons.get(choice.reason) ?? 0) + 1));

  const company = await createTestCompany(a.app);
  const session = company.owner.cookie
    .split('; ')
    .filter((c) => !c.startsWith(`${LSN_COOKIE}=`))
    .join('; ');
  const accounts = await systemAccountsOf(a.app, company);
  const post = (app: App, cookie: string, n: number) =>
    app.inject({
      method: 'POST',
      url: `/api/orgs/${company.id}/journal-entries`,
      headers: { cookie },
      payload: postedEntryBody('2026-11-02', `bench ${n}`, accounts.bank, accounts.services, 100 + n),
    });
  const timedInject = async (run: () => Promise<{ statusCode: number; body: string }>) => {
    const start = performance.now();
    const res = await run();
    const ms = performance.now() - start;
    if (res.statusCode >= 300) throw new Error(`${res.statusCode} ${res.body}`);
    return { ms, res };
  };

  // Writes, alternating: with the replica (and its kontor_lsn) and without.
  const writeMs = { replica: [] as number[], primary: [] as number[] };
  for (let i = 0; i < WRITES; i += 1) {
    writeMs.replica.push((await timedInject(() => post(a.app, session, i))).ms);
    writeMs.primary.push((await timedInject(() => post(b.app, session, WRITES + i))).ms);
  }
  // Let the replica catch up, then reads without any write of the reader's own.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const reads = [
    `/api/orgs/${company.id}/journal-entries?limit=50`,
    `/api/orgs/${company.id}/reports/trial-balance?from=2026-01-01&to=2026-12-31`,
  ];
  const readMs = { replica: [] as number[], primary: [] as number[] };
  const get = (app: App, url: string, cookie = session) =>
    app.inject({ method: 'GET', url, headers: { cookie } });
  // Warm both (the replica's pool connects on first use).
  for (const url of reads) {
    await get(a.app, url);
    await get(b.app, url);
  }
  reasons.clear();
  // Pairs of the same read, one on each app, so the machine's load weighs on both alike; the
  // servers' transaction counts are read around each app's half (A's reads, then B's).
  const before = { primary: await commits(primaryUrl), replica: await commits(replicaUrl) };
  for (let i = 0; i < READS; i += 1) {
    const url = reads[i % reads.length]!;
    readMs.replica.push((await timedInject(() => get(a.app, url))).ms);
  }
  const afterA = { primary: await commits(primaryUrl), replica: await commits(replicaUrl) };
  for (let i = 0; i < READS; i += 1) {
    const url = reads[i % reads.length]!;
    readMs.primary.push((await timedInject(() => get(b.app, url))).ms);
  }
  const afterB = { primary: await commits(primaryUrl), replica: await commits(replicaUrl) };
  const paired = { replica: [] as number[], primary: [] as number[] };
  for (let i = 0; i < READS; i += 1) {
    const url = reads[i % reads.length]!;
    const first = i % 2 === 0 ? a : b;
    const second = first === a ? b : a;
    const one = (await timedInject(() => get(first.app, url))).ms;
    const two = (await timedInject(() => get(second.app, url))).ms;
    paired[first === a ? 'replica' : 'primary'].push(one);
    paired[second === a ? 'replica' : 'primary'].push(two);
  }
  const readReasons = Object.fromEntries(reasons);

  // Post, then list at once, as the writer (its kontor_lsn cookie).
  reasons.clear();
  const ownMs: number[] = [];
  let seen = 0;
  for (let i = 0; i < Math.min(WRITES, 100); i += 1) {
    const written = await post(a.app, session, 10_000 + i);
    const lsn = [written.headers['set-cookie'] ?? []]
      .flat()
      .find((c) => c.startsWith(`${LSN_COOKIE}=`))!
      .split(';')[0]!;
    const { ms, res } = await timedInject(() => get(a.app, reads[0]!, `${session}; ${lsn}`));
    ownMs.push(ms);
    if (
      (res as unknown as { json: () => { entries: { memo: string }[] } })
        .json()
        .entries.some((e) => e.memo === `bench ${10_000 + i}`)
    )
      seen += 1;
  }
  const ownReasons = Object.fromEntries(reasons);

  const report = {
    machine: `${os.cpus().length} cores, load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
    writes: {
      n: WRITES,
      withReplica: { medianMs: median(writeMs.replica), p95Ms: p95(writeMs.replica) },
      primaryOnly: { medianMs: median(writeMs.primary), p95Ms: p95(writeMs.primary) },
    },
    reads: {
      n: READS,
      withReplica: {
        medianMs: median(readMs.replica),
        p95Ms: p95(readMs.replica),
        primaryTransactions: afterA.primary - before.primary,
        replicaTransactions: afterA.replica - before.replica,
        where: readReasons,
      },
      pairedMedianMs: { withReplica: median(paired.replica), primaryOnly: median(paired.primary) },
      primaryOnly: {
        medianMs: median(readMs.primary),
        p95Ms: p95(readMs.primary),
        primaryTransactions: afterB.primary - afterA.primary,
        replicaTransactions: afterB.replica - afterA.replica,
      },
    },
    postThenList: {
      n: ownMs.length,
      ownEntrySeen: seen,
      medianMs: median(ownMs),
      where: ownReasons,
    },
  };
  console.log(JSON.stringify(report, null, 2));
  await a.close();
  await b.close();
} finally {
  execFileSync('bash', [path.join(ROOT, 'scripts/replica/teardown.sh'), '--dir', dir], { stdio: 'inherit' });
}
