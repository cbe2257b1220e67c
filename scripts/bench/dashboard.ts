import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { addDays } from '../../src/shared/dates.ts';
import { spendChanges } from '../../src/server/modules/dashboard/insights.ts';
import {
  selectLatePayerCandidates,
  selectMonthlyMovements,
  selectRecentEntries,
  selectSpendingByWeek,
  selectUnusualExpenses,
} from '../../src/server/modules/dashboard/queries.ts';
import { getDashboard } from '../../src/server/modules/dashboard/service.ts';
import { loadContext } from '../../src/server/modules/ledger/report-basics.ts';
import { trialBalance } from '../../src/server/modules/ledger/reports.ts';
import { getWalletSummary } from '../../src/server/modules/wallet/summary.ts';
import { openDatabase } from '../../src/server/db/client.ts';
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
    /** A database a --keep run left (its URL): measure again without seeding, and keep it. */
    reuse: { type: 'string' },
    runs: { type: 'string', default: '7' },
  },
});

const entries = Number(values.entries);
const runs = Number(values.runs);
const database = values.reuse
  ? { ...(await openDatabase({ kind: 'postgres', url: values.reuse, max: 4 })), where: values.reuse }
  : await openBenchDatabase('dashboard', {
      pglite: 'folder',
      postgresUrl: values.db === 'postgres' ? values['pg-url']! : null,
      keep: values.keep,
    });
try {
  const today = new Date().toISOString().slice(0, 10);
  if (!values.reuse)
    process.stdout.write(`${values.db}: seeding ${entries.toLocaleString('en-US')} entries...\n`);
  const reused = async () => {
    const row = await database.db.selectFrom('organizations').select('id').executeTakeFirstOrThrow();
    return { organizationId: row.id };
  };
  const seeded = await timed(() =>
    values.reuse
      ? reused()
      : seedCompany(database, {
          entries,
          accounts: 300,
          years: 3,
          currency: 'USD',
          name: 'Dashboard Bench Co',
          batch: 2000,
          seed: 42,
          endDate: today,
          onProgress: (posted, total) => {
            if (posted % 100_000 === 0)
              process.stdout.write(`  ${posted.toLocaleString('en-US')} / ${total}\n`);
          },
        }),
  );
  const org = seeded.result.organizationId;
  if (!values.reuse) await sql`analyze`.execute(database.db);
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
  // Where the time goes: each part alone (median of `runs`).
  const db = database.db;
  const accounts = (await loadContext(db, org)).accounts;
  const cashIds = (await getWalletSummary(ctx, member, { asOf: today })).accounts.map(
    (a) => a.ledgerAccountId,
  );
  const parts: [string, () => Promise<unknown>][] = [
    ['wallet summary (cash)', () => getWalletSummary(ctx, member, { asOf: today })],
    ['monthly movements, 12 months', () => selectMonthlyMovements(db, org, first.from, today, cashIds)],
    ['latest entries', () => selectRecentEntries(db, org, 6)],
    ['spend changes (2 months)', () => spendChanges(db, org, today, accounts)],
    [
      'unusual expenses (180-day medians)',
      () => selectUnusualExpenses(db, org, today, addDays(today, -29), addDays(today, -179), 3, 5),
    ],
    ['late payers', () => selectLatePayerCandidates(db, org, today, addDays(today, -730), 3)],
    ['bank spending by week', () => selectSpendingByWeek(db, org, today, 12)],
    // Calibration: the ledger bench measured this at 7.6 ms at 1M entries on a quiet machine.
    ['trial balance, all time (calibration)', () => trialBalance(db, org, { to: today })],
  ];
  for (const [label, fn] of parts) results.push([`part: ${label}`, await medianMs(fn, runs)]);
  process.stdout.write(
    [
      '',
      `entries: ${entries.toLocaleString('en-US')} (${Number(lines.rows[0]!.n).toLocaleString('en-US')} lines), seeded in ${(seeded.ms / 1000).toFixed(1)} s`,
      `first answer: ${first.months.length} months, cash ${first.kpis.cash.amount}, ${first.insights.length} insights`,
      ...results.map(([label, ms]) =>
        label.startsWith('part: ')
          ? `  ${label}: median ${ms} ms`
          : `GET /dashboard, ${label}: median ${ms} ms of ${runs}`,
      ),
      '',
    ].join('\n'),
  );
} finally {
  await database.close();
}
