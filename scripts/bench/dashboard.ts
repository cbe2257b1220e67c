import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { getDashboard } from '../../src/server/modules/dashboard/service.ts';
import { seedCompany } from '../seed.ts';
import { benchContext, benchOwner, medianMs, openBenchDatabase, timed } from './setup.ts';

// Dashboard benchmark (issue 17, "Speed"): one company of N journal entries (1,000,000 by
// default) posted through the ledger's batch path (scripts/seed.ts → postJournalEntries, the
// kept monthly balances filled as it goes) over three years ending today, then the whole
// dashboard answer (getDashboard: 12 and 24 months, a date range) timed, median of 7 after a
// warm-up. Goal: ≤ 100 ms at 1,000,000 entries on PostgreSQL. The database is its own, dropped
// at the end. Long-running: not part of npm test.
//
//   node --import tsx scripts/bench/dashboard.ts [--entries 1000000] [--db postgres|pglite]
//        [--pg-url postgres://postgres@127.0.0.1:5432/test] [--keep]

const { values } = parseArgs({
  options: {
    entries: { type: 'string', default: '1000000' },
    db: { type: 'string', default: 'postgres' },
    'pg-url': {
      type: 'string',
      default: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    },
    keep: { type: 'boolean', default: false },
    runs: { type: 'string', default: '7' },
  },
});

const entries = Number(values.entries);
const runs = Number(values.runs);
const database = await openBenchDatabase('dashboard', {
  pglite: 'folder',
  postgresUrl: values.db === 'postgres' ? values['pg-url']! : null,
  keep: values.keep,
});
try {
  const today = new Date().toISOString().slice(0, 10);
  process.stdout.write(`${values.db}: seeding ${entries.toLocaleString('en-US')} entries...\n`);
  const seeded = await timed(() =>
    seedCompany(database, {
      entries,
      accounts: 300,
      years: 3,
      currency: 'USD',
      name: 'Dashboard Bench Co',
      batch: 2000,
      seed: 42,
      endDate: today,
      onProgress: (posted, total) => {
        if (posted % 100_000 === 0) process.stdout.write(`  ${posted.toLocaleString('en-US')} / ${total}\n`);
      },
    }),
  );
  const org = seeded.result.organizationId;
  await sql`analyze`.execute(database.db);
  const lines = await sql<{
    n: string;
  }>`select count(*)::bigint as n from journal_lines where organization_id = ${org}`.execute(database.db);
  const ctx = benchContext(database);
  const member = benchOwner({ id: org });
  const first = await getDashboard(ctx, member, {});
  const results: [string, number][] = [];
  for (const [label, query] of [
    ['12 months', { months: 12 }],
    ['24 months', { months: 24 }],
    [
      'date range (Feb 10 – Nov 20 of last year)',
      { from: `${Number(today.slice(0, 4)) - 1}-02-10`, to: `${Number(today.slice(0, 4)) - 1}-11-20` },
    ],
  ] as const) {
    results.push([label, await medianMs(() => getDashboard(ctx, member, query), runs)]);
  }
  process.stdout.write(
    [
      '',
      `entries: ${entries.toLocaleString('en-US')} (${Number(lines.rows[0]!.n).toLocaleString('en-US')} lines), seeded in ${(seeded.ms / 1000).toFixed(1)} s`,
      `first answer: ${first.months.length} months, cash ${first.kpis.cash.amount}, ${first.insights.length} insights`,
      ...results.map(([label, ms]) => `GET /dashboard, ${label}: median ${ms} ms of ${runs}`),
      '',
    ].join('\n'),
  );
} finally {
  await database.close();
}
