import fs from 'node:fs';
import os from 'node:os';
import pg from 'pg';
import { transactionListQuerySchema } from '../../src/shared/transactions.ts';
import { createTestCompanyInDatabase } from '../../src/server/testing/companies.ts';
import { commitStatement } from '../../src/server/modules/statement-import/service.ts';
import { listTransactions, transactionTotals } from '../../src/server/modules/transactions/read-service.ts';
import { moneyAccountMismatches, trialBalanceDifference } from '../../src/server/testing/transactions.ts';
import {
  benchContext,
  benchCsvMapping,
  benchOwner,
  createBenchCheckingAccount,
  flagArg,
  medianOfRuns,
  numberArg,
  openBenchDatabase,
  timed,
} from './setup.ts';

// Transactions benchmark: imports CSV statements of --rows lines (default 100,000) through the
// real import service until the company holds --total transactions (default 1,000,000), then
// times the list's first page, filtered pages, a deep page and the filter totals.
// Runs on a fresh PGlite in a temp folder, or on PostgreSQL with DATABASE_URL (a fresh schema).
// Each import reports its wall time, Node's and the PostgreSQL backends' CPU time (so runs on a
// loaded machine can still be compared) and the process's peak RSS.
// Usage: node --expose-gc --import tsx scripts/bench/transactions.ts [--rows 100000] [--total 1000000] [--new-company] [--keep] [--json]
// --keep leaves the database (its URL or folder is printed) for EXPLAIN.

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  // Without this, --help was taken as no option at all and ran the full million-line benchmark.
  console.log(`Usage: node --expose-gc --import tsx scripts/bench/transactions.ts [options]
  --rows N         lines per imported CSV file (default 100000)
  --total N        import files until the company holds N lines (default 1000000)
  --new-company    then import one more file into a brand-new company of the same database
  --keep           leave the database (its URL or folder is printed) for EXPLAIN
  --json           print only the JSON report
PostgreSQL: set DATABASE_URL (a server this machine can read /proc of, for the backends' CPU time);
a fresh database is created beside it. Without DATABASE_URL: a fresh PGlite in a temp folder.`);
  process.exit(0);
}
const rowsPerFile = numberArg('rows', 100_000);
const total = numberArg('total', 1_000_000);
const asJson = flagArg('json');

const MERCHANTS = [
  'AMAZON WEB SERVICES',
  'STRIPE PAYOUT',
  'GOOGLE WORKSPACE',
  'SHELL OIL',
  'STARBUCKS',
  'WEWORK',
  'DELTA AIR',
  'UBER TRIP',
  'OFFICE DEPOT',
  'CLIENT PAYMENT',
];

/** A year of plausible bank lines; `seed` keeps files distinct so nothing is a duplicate. */
const makeCsv = (rows: number, seed: number) => {
  const lines = ['Date,Description,Amount,Transaction ID'];
  for (let i = 0; i < rows; i += 1) {
    const n = seed * rows + i;
    const day = 1 + (n % 365);
    const date = new Date(Date.UTC(2025, 0, day)).toISOString().slice(0, 10);
    const merchant = MERCHANTS[n % MERCHANTS.length]!;
    const cents = ((n * 7919) % 500_000) + 100;
    const amount = merchant.startsWith('STRIPE') || merchant.startsWith('CLIENT') ? cents : -cents;
    const sign = amount < 0 ? '-' : '';
    const abs = Math.abs(amount);
    lines.push(
      `${date},${merchant} ${n},${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')},B${n}`,
    );
  }
  return `${lines.join('\n')}\n`;
};

/** CPU time (ms) of the PostgreSQL server processes serving `database` (local server, read from /proc). */
let serverCpu: () => Promise<number> = async () => 0;

const postgresBackendsCpu = (adminUrl: string, name: string) => async () => {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  const { rows } = await c.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [
    name,
  ]);
  await c.end();
  let ticks = 0;
  for (const { pid } of rows) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
    } catch {
      // a backend that ended, or a server on another machine: not counted
    }
  }
  return (ticks * 1000) / 100; // USER_HZ
};

type Measured = {
  rows: number;
  ms: number;
  rowsPerSecond: number;
  /** Node's own CPU time during the import (user + system). */
  nodeCpuMs: number;
  /** The database backends' CPU time (PostgreSQL only; PGlite runs inside Node). */
  serverCpuMs: number;
  /** Rows per second of CPU time (Node + server): what the import costs, whatever else loads the machine. */
  rowsPerCpuSecond: number;
  /** Highest resident set size of this process sampled every 50 ms during the import. */
  peakRssMb: number;
  /** Resident set size right before the import (what the process held already). */
  rssBeforeMb: number;
  /** Highest V8 heap in use + external memory (Buffers) in the same samples. */
  peakHeapMb: number;
};

const measureImport = async (rows: number, fn: () => Promise<{ imported: number }>): Promise<Measured> => {
  const before = process.memoryUsage();
  let peak = before.rss;
  let peakHeap = before.heapUsed + before.external;
  const sample = () => {
    const m = process.memoryUsage();
    peak = Math.max(peak, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed + m.external);
  };
  const sampler = setInterval(sample, 50);
  const cpu0 = process.cpuUsage();
  const server0 = await serverCpu();
  const { ms, result } = await timed(fn);
  const server1 = await serverCpu();
  const cpu = process.cpuUsage(cpu0);
  clearInterval(sampler);
  sample();
  if (result.imported !== rows) throw new Error(`imported ${result.imported} of ${rows}`);
  const nodeCpuMs = Math.round((cpu.user + cpu.system) / 1000);
  const serverCpuMs = Math.round(server1 - server0);
  return {
    rows,
    ms,
    rowsPerSecond: Math.round((rows / ms) * 1000),
    nodeCpuMs,
    serverCpuMs,
    rowsPerCpuSecond: Math.round((rows / (nodeCpuMs + serverCpuMs)) * 1000),
    peakRssMb: Math.round(peak / 2 ** 20),
    rssBeforeMb: Math.round(before.rss / 2 ** 20),
    peakHeapMb: Math.round(peakHeap / 2 ** 20),
  };
};

const describeImport = (m: Measured) =>
  `${m.rows} rows in ${m.ms} ms (${m.rowsPerSecond} rows/s; CPU: node ${m.nodeCpuMs} ms + server ${m.serverCpuMs} ms = ${m.rowsPerCpuSecond} rows per CPU-second; peak RSS ${m.peakRssMb} MB, ${m.rssBeforeMb} MB before; peak heap + external ${m.peakHeapMb} MB)`;

const main = async () => {
  // A fresh database of its own on PostgreSQL (DATABASE_URL), else PGlite in a temp folder.
  const database = await openBenchDatabase('transactions', { pglite: 'folder', keep: flagArg('keep') });
  const adminUrl = process.env.DATABASE_URL;
  if (adminUrl && database.kind === 'postgres') {
    serverCpu = postgresBackendsCpu(adminUrl, new URL(database.where).pathname.slice(1));
  }
  const ctx = benchContext(database);
  /** A USD company of the database and its checking account, opening at the end of 2024. */
  const companyWithChecking = async (accountName: string, openingBalance: number) => {
    const org = await createTestCompanyInDatabase(database.db, { baseCurrency: 'USD' });
    const member = benchOwner(org);
    const account = await createBenchCheckingAccount(ctx, member, {
      name: accountName,
      openingBalance,
      openingDate: '2024-12-31',
    });
    return { org, member, account };
  };
  const { org, member, account } = await companyWithChecking('Bench checking', 100_000_00);
  const mapping = benchCsvMapping();
  const imports: Measured[] = [];
  for (let seed = 0; seed * rowsPerFile < total; seed += 1) {
    const content = makeCsv(rowsPerFile, seed);
    const measured = await measureImport(rowsPerFile, () =>
      commitStatement(ctx, member, {
        moneyAccountId: account.id,
        fileName: `bench-${seed}.csv`,
        content,
        mapping,
        applyRules: true,
      }),
    );
    imports.push(measured);
    if (!asJson) console.error(`import ${seed + 1}: ${describeImport(measured)}`);
  }
  // --new-company: one more file into a brand-new company of the same database, which must be as
  // fast as any other import (its first entries are unknown to the planner's statistics).
  let newCompany: Measured | null = null;
  if (flagArg('new-company')) {
    const { member: member2, account: account2 } = await companyWithChecking('New company checking', 0);
    const content = makeCsv(rowsPerFile, 1000);
    newCompany = await measureImport(rowsPerFile, () =>
      commitStatement(ctx, member2, {
        moneyAccountId: account2.id,
        fileName: 'bench-new-company.csv',
        content,
        mapping,
        applyRules: true,
      }),
    );
    if (!asJson) console.error(`new company: ${describeImport(newCompany)}`);
  }
  // The same file again adds nothing, and says so quickly.
  const again = await timed(() =>
    commitStatement(ctx, member, {
      moneyAccountId: account.id,
      fileName: 'bench-0.csv',
      content: makeCsv(rowsPerFile, 0),
      mapping,
      applyRules: true,
    }),
  );
  if (again.result.imported !== 0) throw new Error('re-import added rows');
  const q = (query: Record<string, string>) => transactionListQuerySchema.parse(query);
  const cursorPage = await listTransactions(ctx, member, q({ limit: '50' }));
  const queries: [string, () => Promise<unknown>][] = [
    ['first page (50, newest first)', () => listTransactions(ctx, member, q({ limit: '50' }))],
    [
      'next page by cursor',
      () => listTransactions(ctx, member, q({ limit: '50', cursor: cursorPage.nextCursor! })),
    ],
    [
      'expenses this month',
      () =>
        listTransactions(
          ctx,
          member,
          q({ limit: '50', type: 'expense', from: '2025-12-01', to: '2025-12-31' }),
        ),
    ],
    [
      'income, account filter',
      () => listTransactions(ctx, member, q({ limit: '50', type: 'income', moneyAccountId: account.id })),
    ],
    ['text search "starbucks"', () => listTransactions(ctx, member, q({ limit: '50', search: 'starbucks' }))],
    [
      'amount range 100-200',
      () => listTransactions(ctx, member, q({ limit: '50', minAmount: '10000', maxAmount: '20000' })),
    ],
    ['uncategorised', () => listTransactions(ctx, member, q({ limit: '50', categoryId: 'uncategorized' }))],
    ['sorted by amount', () => listTransactions(ctx, member, q({ limit: '50', sort: 'amount' }))],
    ['totals, this month', () => transactionTotals(ctx, member, q({ from: '2025-12-01', to: '2025-12-31' }))],
    ['totals, everything', () => transactionTotals(ctx, member, q({}))],
  ];
  const listTimes: { query: string; medianMs: number }[] = [];
  for (const [name, fn] of queries) {
    listTimes.push({ query: name, medianMs: await medianOfRuns(fn) });
    if (!asJson) console.error(`${name}: ${listTimes.at(-1)!.medianMs} ms`);
  }
  const mismatches = await moneyAccountMismatches(database.db, org.id);
  const trial = await trialBalanceDifference(database.db, org.id);
  const report = {
    database: database.kind,
    transactions: imports.reduce((s, i) => s + i.rows, 0),
    imports,
    importRowsPerSecondMedian: [...imports].sort((a, b) => a.rowsPerSecond - b.rowsPerSecond)[
      Math.floor(imports.length / 2)
    ]!.rowsPerSecond,
    newCompany,
    reimportMs: again.ms,
    list: listTimes,
    booksBalanced: mismatches.length === 0 && trial === 0,
    node: process.version,
    cpus: os.cpus().length,
  };
  console.log(asJson ? JSON.stringify(report, null, 2) : report);
  await database.close();
};

await main();
