import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../shared/config/config.ts';
import { loadServerConfig } from '../config.ts';
import { LSN_COOKIE, observeReads, onReplica } from '../http/read-replica.ts';
import type { AppContext } from '../context.ts';
import type { App } from '../app.ts';
import { createTestApp } from '../testing/app.ts';
import { type TestCompany, createTestCompany } from '../testing/companies.ts';
import { postedEntryBody, systemAccountsOf } from '../testing/ledger.ts';
import { type DatabaseHandle, type Db, openDatabase } from './client.ts';
import { migrateToLatest } from './migrate.ts';
import { type ReadChoice, createReplicaRouter, formatLsn, parseLsn } from './replica.ts';

// The read replica (decision 0047). The first block needs nothing; the second makes its own
// primary and streaming standby with scripts/replica/setup.sh (initdb, pg_basebackup) on two
// free loopback ports, so it runs only with TEST_DATABASE_URL set (a PostgreSQL run) and the
// PostgreSQL programs at hand.

const execFileAsync = promisify(execFile);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const pgBin = (() => {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const base = '/usr/lib/postgresql';
  if (!fs.existsSync(base)) return null;
  const versions = fs.readdirSync(base).sort((a, b) => Number(b) - Number(a));
  const found = versions
    .map((v) => path.join(base, v, 'bin'))
    .find((bin) => fs.existsSync(path.join(bin, 'pg_basebackup')));
  return found ?? null;
})();
const enabled = Boolean(process.env.TEST_DATABASE_URL) && pgBin !== null;
if (!enabled)
  console.log(
    'replica.test.ts: the streaming-replica tests are skipped (they need TEST_DATABASE_URL and PostgreSQL programs in /usr/lib/postgresql/*/bin or PG_BIN)',
  );

describe('read replica: LSNs and settings', () => {
  it('reads and writes LSNs as PostgreSQL does, in order', () => {
    expect(parseLsn('0/3000148')).toBe(0x3000148n);
    expect(parseLsn('16/B374D848')).toBe((0x16n << 32n) | 0xb374d848n);
    expect(formatLsn(parseLsn('16/B374D848')!)).toBe('16/B374D848');
    expect(parseLsn('1/0')! > parseLsn('0/FFFFFFFF')!).toBe(true);
    for (const bad of ['', '0', '0/', '/1', 'x/1', '123456789/0', '0/3000148; a=b', null, undefined])
      expect(parseLsn(bad)).toBeNull();
  });

  it('takes DATABASE_REPLICA_URL with DATABASE_URL only, and a sane REPLICA_MAX_LAG_MS', () => {
    const primary = 'postgres://kontor@db1:5432/kontor';
    const replica = 'postgres://kontor@db2:5432/kontor';
    expect(loadServerConfig({ DATABASE_URL: primary }).replica).toBeNull();
    expect(loadServerConfig({ DATABASE_URL: primary, DATABASE_REPLICA_URL: replica }).replica).toEqual({
      url: replica,
      maxLagMs: 5000,
    });
    expect(
      loadServerConfig({ DATABASE_URL: primary, DATABASE_REPLICA_URL: replica, REPLICA_MAX_LAG_MS: '250' })
        .replica?.maxLagMs,
    ).toBe(250);
    expect(() => loadServerConfig({ DATABASE_REPLICA_URL: replica })).toThrow(ConfigError);
    expect(() => loadServerConfig({ DATABASE_REPLICA_URL: replica })).toThrow(/needs DATABASE_URL/);
    expect(() => loadServerConfig({ DATABASE_URL: primary, DATABASE_REPLICA_URL: 'mysql://x' })).toThrow(
      /DATABASE_REPLICA_URL must be a postgres/,
    );
    for (const bad of ['-1', 'soon', '1.5', '600001'])
      expect(() =>
        loadServerConfig({ DATABASE_URL: primary, DATABASE_REPLICA_URL: replica, REPLICA_MAX_LAG_MS: bad }),
      ).toThrow(/REPLICA_MAX_LAG_MS/);
  });
});

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const until = async (what: string, check: () => Promise<boolean>, timeoutMs = 20_000) => {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await sleep(50);
  }
  throw new Error(`timed out waiting for ${what}`);
};

const MAX_LAG_MS = 4000;
const RETRY_MS = 300;

describe.skipIf(!enabled)('read replica on a streaming standby', () => {
  let dir = '';
  let primaryUrl = '';
  let replicaUrl = '';
  let database: DatabaseHandle;
  let app: App;
  let close: () => Promise<void> = async () => {};
  let company: TestCompany;
  let session = '';
  let testCtx: AppContext;
  let accounts: Record<string, string>;
  /** A direct connection to the replica, to pause and resume its replay. */
  let replicaAdmin: DatabaseHandle | null = null;
  const choices: { choice: ReadChoice; inRecovery: boolean; url: string }[] = [];
  const pending: Promise<void>[] = [];
  const asPostgres = (args: string[]) =>
    process.getuid?.() === 0
      ? execFileAsync('runuser', ['-u', 'postgres', '--', ...args])
      : execFileAsync(args[0]!, args.slice(1));

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kontor-replica-'));
    const port = await freePort();
    let replicaPort = await freePort();
    while (replicaPort === port) replicaPort = await freePort();
    const { stdout } = await execFileAsync(
      'bash',
      [
        path.join(ROOT, 'scripts/replica/setup.sh'),
        ...[
          '--dir',
          dir,
          '--new-primary',
          '--port',
          String(port),
          '--replica-port',
          String(replicaPort),
          '--fast',
        ],
      ],
      { env: { ...process.env, PG_BIN: pgBin! } },
    );
    primaryUrl = /^DATABASE_URL=(.*)$/m.exec(stdout)![1]!;
    replicaUrl = /^DATABASE_REPLICA_URL=(.*)$/m.exec(stdout)![1]!;
    database = await openDatabase({
      kind: 'postgres',
      url: primaryUrl,
      max: 5,
      replica: { url: replicaUrl, maxLagMs: MAX_LAG_MS, refreshMs: 20, retryMs: RETRY_MS },
    });
    await migrateToLatest(database.db);
    replicaAdmin = await openDatabase({ kind: 'postgres', url: replicaUrl, max: 1 });
    const built = await createTestApp({
      database,
      env: {
        DATABASE_URL: primaryUrl,
        DATABASE_REPLICA_URL: replicaUrl,
        REPLICA_MAX_LAG_MS: String(MAX_LAG_MS),
      },
    });
    app = built.app;
    testCtx = built.ctx;
    close = built.close;
    // Each read's choice, and what the database it was handed says it is.
    observeReads(built.ctx, (choice, db: Db, request) => {
      const probe = sql<{ r: boolean }>`select pg_is_in_recovery() as r`
        .execute(db)
        .then(({ rows }) => rows[0]!.r);
      pending.push(
        probe.then(
          (inRecovery) => void choices.push({ choice, inRecovery, url: request.url }),
          () => void choices.push({ choice, inRecovery: false, url: request.url }),
        ),
      );
    });
    company = await createTestCompany(app);
    // The owner's session alone: signing up set a kontor_lsn too (a write), kept apart here.
    session = company.owner.cookie
      .split('; ')
      .filter((c) => !c.startsWith(`${LSN_COOKIE}=`))
      .join('; ');
    accounts = await systemAccountsOf(app, company);
  }, 60_000);

  const lastChoice = async () => {
    await Promise.all(pending.splice(0));
    return choices[choices.length - 1]!;
  };

  afterAll(async () => {
    await replicaAdmin?.close();
    await close();
    if (dir)
      await execFileAsync('bash', [path.join(ROOT, 'scripts/replica/teardown.sh'), '--dir', dir], {
        env: { ...process.env, PG_BIN: pgBin! },
      });
  }, 60_000);

  /** Waits until the replica has replayed everything the primary has written so far. */
  const caughtUp = async () => {
    const { rows } = await sql<{ lsn: string }>`select pg_current_wal_lsn()::text as lsn`.execute(
      database.db,
    );
    const target = parseLsn(rows[0]!.lsn)!;
    await until('the replica to catch up', async () => {
      const replay = await sql<{ lsn: string }>`select pg_last_wal_replay_lsn()::text as lsn`.execute(
        replicaAdmin!.db,
      );
      return parseLsn(replay.rows[0]!.lsn)! >= target;
    });
    await database.replica!.refresh();
  };

  const listEntries = (cookie: string) =>
    app.inject({
      method: 'GET',
      url: `/api/orgs/${company.id}/journal-entries?limit=50`,
      headers: { cookie },
    });

  const memos = (body: { entries: { memo: string | null }[] }) => body.entries.map((e) => e.memo);

  /** Posts an entry as the owner; its answer's kontor_lsn cookie. */
  const postEntry = async (memo: string) => {
    const res = await app.inject({
      method: 'POST',
      url: `/api/orgs/${company.id}/journal-entries`,
      headers: { cookie: company.owner.cookie },
      payload: postedEntryBody('2026-11-02', memo, accounts.bank, accounts.services, 1250),
    });
    expect(res.statusCode, res.body).toBe(201);
    const setCookie = [res.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith(`${LSN_COOKIE}=`));
    expect(setCookie).toMatch(/^kontor_lsn=[0-9A-F]+\/[0-9A-F]+; Path=\/; Max-Age=5; HttpOnly; SameSite=Lax/);
    return setCookie!.split(';')[0]!;
  };

  it('serves a list and a report from the replica once it has caught up', async () => {
    await postEntry('before the replica test');
    await caughtUp();
    const onReplica = await listEntries(session);
    expect(onReplica.statusCode).toBe(200);
    const seen = await lastChoice();
    expect(seen.choice).toEqual({ target: 'replica', reason: 'replica' });
    expect(seen.inRecovery).toBe(true);
    expect(memos(onReplica.json())).toContain('before the replica test');

    const report = await app.inject({
      method: 'GET',
      url: `/api/orgs/${company.id}/reports/trial-balance?from=2026-01-01&to=2026-12-31`,
      headers: { cookie: company.owner.cookie },
    });
    expect(report.statusCode).toBe(200);
    expect((await lastChoice()).inRecovery).toBe(true);
    // A write never goes there: the answer to a refused write sets no cookie either.
    const refused = await app.inject({
      method: 'POST',
      url: `/api/orgs/${company.id}/journal-entries`,
      headers: { cookie: company.owner.cookie },
      payload: { date: 'not a date', lines: [] },
    });
    expect(refused.statusCode).toBe(400);
    expect(String(refused.headers['set-cookie'] ?? '')).not.toContain(LSN_COOKIE);
  });

  it('shows the writer its own entry at once, from the primary while the replica has not replayed it', async () => {
    await caughtUp();
    await sql`select pg_wal_replay_pause()`.execute(replicaAdmin!.db);
    await until('replay to pause', async () => {
      const { rows } = await sql<{ s: string }>`select pg_get_wal_replay_pause_state() as s`.execute(
        replicaAdmin!.db,
      );
      return rows[0]!.s === 'paused';
    });
    const lsnCookie = await postEntry('written while replay is paused');

    // The writer (its session and kontor_lsn): from the primary, with the new entry.
    const own = await listEntries(`${session}; ${lsnCookie}`);
    expect(own.statusCode).toBe(200);
    expect((await lastChoice()).choice).toEqual({ target: 'primary', reason: 'own_write' });
    expect((await lastChoice()).inRecovery).toBe(false);
    expect(memos(own.json())).toContain('written while replay is paused');

    // Another reader (no kontor_lsn) within the lag bound: the replica, which has not got it yet.
    const other = await listEntries(session);
    expect(other.statusCode).toBe(200);
    expect((await lastChoice()).choice).toEqual({ target: 'replica', reason: 'replica' });
    expect(memos(other.json())).not.toContain('written while replay is paused');
    expect(memos(other.json())).toContain('before the replica test');
  });

  it('reads from the primary when the replica lags more than REPLICA_MAX_LAG_MS, and from the replica again after', async () => {
    // Replay is still paused: once the bound has passed, every reader gets the primary.
    await sleep(MAX_LAG_MS + 200);
    const lagging = await listEntries(session);
    expect(lagging.statusCode).toBe(200);
    expect((await lastChoice()).choice).toEqual({ target: 'primary', reason: 'lag' });
    expect(memos(lagging.json())).toContain('written while replay is paused');
    // null: no probe shows the primary at a position the replica has reached (too far behind to tell).
    expect(database.replica!.status().lagMs ?? Number.POSITIVE_INFINITY).toBeGreaterThan(MAX_LAG_MS);
    // The health answer says so, and stays healthy: reads have somewhere to go.
    const health = await app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toMatchObject({ healthy: true, replica: { reads: 'primary', reason: 'lag' } });

    await sql`select pg_wal_replay_resume()`.execute(replicaAdmin!.db);
    await caughtUp();
    const again = await listEntries(session);
    expect((await lastChoice()).choice).toEqual({ target: 'replica', reason: 'replica' });
    const caught = (await app.inject({ method: 'GET', url: '/api/health' })).json();
    expect(caught.replica).toMatchObject({ reads: 'replica', reason: 'replica' });
    expect(caught.replica.lagMs).toBeLessThanOrEqual(MAX_LAG_MS);
    expect(memos(again.json())).toContain('written while replay is paused');
  });

  it('answers from the primary while the replica is down, and goes back to it once it is up', async () => {
    await caughtUp();
    await replicaAdmin!.close();
    replicaAdmin = null;
    const before = await listEntries(session);
    expect((await lastChoice()).choice.target).toBe('replica');
    // A router whose last probe (just now, before the stop) still says "up": its next read is
    // sent to the replica, fails there, and is answered by the primary.
    const stale = createReplicaRouter(database.db, {
      url: replicaUrl,
      maxLagMs: MAX_LAG_MS,
      refreshMs: 600_000,
    });
    await stale.refresh();
    expect(stale.status()).toMatchObject({ up: true, standby: true });
    await asPostgres([
      path.join(pgBin!, 'pg_ctl'),
      '-D',
      path.join(dir, 'replica'),
      '-m',
      'immediate',
      '-w',
      'stop',
    ]);
    try {
      const staleCtx = { ...testCtx, database: { ...database, replica: stale } };
      const servedBy: boolean[] = [];
      const read = onReplica(async (c: AppContext, _member: null, _input: null) => {
        const { rows } = await sql<{ r: boolean }>`select pg_is_in_recovery() as r`.execute(c.database.db);
        servedBy.push(rows[0]!.r);
        return rows[0]!.r;
      });
      const http = {
        request: { headers: {}, log: { warn: () => {} } },
        reply: { sent: false },
      } as unknown as Parameters<typeof read>[3];
      expect(await read(staleCtx, null, null, http)).toBe(false);
      expect(servedBy).toEqual([false]);
      expect(stale.status()).toMatchObject({ up: false });
    } finally {
      await stale.close();
    }

    // Reads in flight when it went, and after: every one answers, from the primary.
    const answers = await Promise.all(Array.from({ length: 6 }, () => listEntries(session)));
    for (const res of answers) {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(before.json());
    }
    await until('the replica to be seen down', async () => {
      await listEntries(session);
      return (await lastChoice()).choice.reason === 'down';
    });
    expect(database.replica!.status()).toMatchObject({ up: false });
    const report = await app.inject({
      method: 'GET',
      url: `/api/orgs/${company.id}/reports/balance-sheet?asOf=2026-12-31`,
      headers: { cookie: company.owner.cookie },
    });
    expect(report.statusCode).toBe(200);
    expect((await lastChoice()).choice).toEqual({ target: 'primary', reason: 'down' });

    // Started again: after RETRY_MS a read probes it in the background, and reads return to it.
    await asPostgres([
      path.join(pgBin!, 'pg_ctl'),
      '-D',
      path.join(dir, 'replica'),
      '-l',
      path.join(dir, 'replica.log'),
      '-w',
      'start',
    ]);
    replicaAdmin = await openDatabase({ kind: 'postgres', url: replicaUrl, max: 1 });
    await until('reads to return to the replica', async () => {
      const res = await listEntries(session);
      expect(res.statusCode).toBe(200);
      return (await lastChoice()).choice.target === 'replica';
    });
    expect((await lastChoice()).inRecovery).toBe(true);
  }, 60_000);
});
