import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { csvMappingSchema } from '../../src/shared/transactions.ts';
import { loadServerConfig } from '../../src/server/config.ts';
import type { AppContext } from '../../src/server/context.ts';
import { type DatabaseHandle, openDatabase } from '../../src/server/db/client.ts';
import { migrateToLatest } from '../../src/server/db/migrate.ts';
import type { MemberContext } from '../../src/server/http/tenancy.ts';
import { postJournalEntry } from '../../src/server/modules/ledger/posting.ts';
import { createMoneyAccount } from '../../src/server/modules/wallet/service.ts';
import type { TestCompanyInDatabase } from '../../src/server/testing/companies.ts';

// What the benchmarks share: command-line numbers and flags, timing, a fresh migrated
// database, the context and member services run with, a checking account and the mapping of
// the generated bank CSV files, and the one posted entry generated rows point at.

const args = process.argv.slice(2);

/** `--name 123` from the command line, or the fallback. */
export const numberArg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};

/** Whether `--name` was given. */
export const flagArg = (name: string) => args.includes(`--${name}`);

/** Runs `fn` once: its result and its wall time in milliseconds (one decimal). */
export const timed = async <T>(fn: () => Promise<T>) => {
  const start = performance.now();
  const result = await fn();
  return { ms: Math.round((performance.now() - start) * 10) / 10, result };
};

/** Median wall time of `runs` runs, in milliseconds (one decimal). */
export const medianOfRuns = async (fn: () => Promise<unknown>, runs = 5) => {
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) times.push((await timed(fn)).ms);
  times.sort((a, b) => a - b);
  return times[Math.floor(runs / 2)]!;
};

/** Median wall time of `runs` runs after one warm-up, in milliseconds (one decimal). */
export const medianMs = async (fn: () => Promise<unknown>, runs = 5) => {
  await fn(); // warm-up
  return medianOfRuns(fn, runs);
};

/**
 * A fresh, migrated database: on PostgreSQL at `postgresUrl` (DATABASE_URL by default; null for
 * PGlite) a database of its own (not a schema: Kysely's migrator looks for its tables in every
 * schema it can see); else PGlite, in memory or in a temp folder. `where` is its URL or folder.
 * `close` drops it, unless `keep` (then it says where it is).
 */
/** A new, empty database `kontor_bench_<label>_<random>` on the server of `url`: its name, URL, and a drop. */
export const createScratchDatabase = async (url: string, label: string) => {
  const name = `kontor_bench_${label}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  return {
    name,
    url: target.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
};

export const openBenchDatabase = async (
  label: string,
  options: { pglite: 'memory' | 'folder'; keep?: boolean; postgresUrl?: string | null },
): Promise<DatabaseHandle & { where: string }> => {
  const url = options.postgresUrl === undefined ? process.env.DATABASE_URL : options.postgresUrl;
  let inner: DatabaseHandle;
  let drop: () => Promise<void>;
  let where: string;
  if (url) {
    const scratch = await createScratchDatabase(url, label);
    where = scratch.url;
    inner = await openDatabase({ kind: 'postgres', url: where, max: 4 });
    drop = scratch.drop;
  } else if (options.pglite === 'folder') {
    where = fs.mkdtempSync(path.join(os.tmpdir(), `kontor-bench-${label}-`));
    inner = await openDatabase({ kind: 'pglite', dataDir: where });
    drop = async () => fs.rmSync(where, { recursive: true, force: true });
  } else {
    where = 'memory';
    inner = await openDatabase({ kind: 'pglite', dataDir: null });
    drop = async () => {};
  }
  await migrateToLatest(inner.db);
  return {
    ...inner,
    where,
    close: async () => {
      await inner.close();
      if (options.keep) process.stderr.write(`kept the benchmark database: ${where}\n`);
      else await drop();
    },
  };
};

/** One real posted entry (receivables against sales) that generated invoices and payments point at: their foreign keys need one. */
export const postAnchorEntry = (db: DatabaseHandle['db'], company: TestCompanyInDatabase, date: string) =>
  postJournalEntry(db, {
    organizationId: company.id,
    date,
    memo: 'Benchmark anchor',
    source: 'invoice',
    lines: [
      { accountId: company.accounts.accounts_receivable!, debit: 100 },
      { accountId: company.accounts.sales!, credit: 100 },
    ],
    actorUserId: null,
  });

/** The context a benchmark calls services with: test configuration, silent log, the real clock. */
export const benchContext = (database: DatabaseHandle): AppContext => ({
  config: loadServerConfig({ APP_ENV: 'test', LOG_LEVEL: 'silent' }),
  database,
  now: () => new Date(),
});

/** The owner the benchmarks act as in a company. */
export const benchOwner = (company: { id: string }): MemberContext => ({
  organizationId: company.id,
  userId: 'bench-user',
  role: 'owner',
});

/** A USD bank account in the wallet, opening with `openingBalance` (minor units) on `openingDate`. */
export const createBenchCheckingAccount = (
  ctx: AppContext,
  member: MemberContext,
  account: { name: string; openingBalance: number; openingDate: string },
) => createMoneyAccount(ctx, member, { ...account, kind: 'bank', currency: 'USD', institution: '' });

/** The mapping of the generated bank files: `Date,Description,Amount,Transaction ID`, ISO dates. */
export const benchCsvMapping = () =>
  // Parsed through the schema so fields added later take their defaults.
  csvMappingSchema.parse({
    dateColumn: 0,
    descriptionColumn: 1,
    amountColumn: 2,
    externalIdColumn: 3,
    dateFormat: 'YYYY-MM-DD',
  });
