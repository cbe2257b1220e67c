import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type Kysely, type KyselyPlugin, sql } from 'kysely';
import type { Database } from '../../src/server/db/types.ts';
import { listEntries } from '../../src/server/modules/ledger/entries.ts';
import { externalBalances, toolAvailable } from '../../src/server/modules/ledger/external.ts';
import { exportJournal, journalAccountName } from '../../src/server/modules/ledger/journal-export.ts';
import { postJournalEntries, postJournalEntry } from '../../src/server/modules/ledger/posting.ts';
import {
  balanceSheet,
  generalLedger,
  incomeStatement,
  trialBalance,
} from '../../src/server/modules/ledger/reports.ts';
import { sampleEntries } from '../../src/server/modules/ledger/sample-data.ts';
import { seedCompany } from '../seed.ts';
import { openBenchDatabase } from './setup.ts';

// Ledger benchmark: seeds a company of N entries on PostgreSQL and/or PGlite, then measures
// posting throughput (one by one and in batches, through the service), report times, and
// hledger/ledger on the exported journal of the same data, checking that all totals agree.
// Long-running: not part of npm test.
//
//   node --import tsx scripts/bench/ledger.ts --sizes 10000,100000 --db postgres,pglite
//        [--pg-url postgres://postgres@127.0.0.1:5432/test] [--json out.json] [--skip-external] [--lists-only]

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '10000,100000' },
    db: { type: 'string', default: 'postgres,pglite' },
    'pg-url': {
      type: 'string',
      default: process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    },
    json: { type: 'string' },
    'skip-external': { type: 'boolean', default: false },
    // Only seed and time the journal-entry list (issue 20 §3): no posting, report or export runs.
    'lists-only': { type: 'boolean', default: false },
    // Leave the database in place (for EXPLAIN); it says where.
    keep: { type: 'boolean', default: false },
  },
});

const sizes = values.sizes!.split(',').map(Number);
const kinds = values.db!.split(',') as ('postgres' | 'pglite')[];

const openFresh = (kind: 'postgres' | 'pglite') =>
  openBenchDatabase('ledger', {
    pglite: 'folder',
    keep: values.keep,
    postgresUrl: kind === 'postgres' ? values['pg-url']! : null,
  });

/** Median wall time of `runs` runs, in milliseconds. */
const time = async (runs: number, fn: () => Promise<unknown>) => {
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return Math.round(times[Math.floor(times.length / 2)]! * 10) / 10;
};

type Result = Record<string, number | string | boolean>;

/** The number of queries `fn` sends through `db` (a counting Kysely plugin). */
const countQueries = async (db: Kysely<Database>, fn: (db: Kysely<Database>) => Promise<unknown>) => {
  let queries = 0;
  const plugin: KyselyPlugin = {
    transformQuery: (args) => {
      queries += 1;
      return args.node;
    },
    transformResult: async (args) => args.result,
  };
  await fn(db.withPlugin(plugin));
  return queries;
};
const results: Result[] = [];

for (const kind of kinds) {
  for (const size of sizes) {
    const database = await openFresh(kind);
    const r: Result = { database: kind, entries: size };
    try {
      process.stdout.write(`\n${kind} ${size.toLocaleString('en-US')} entries: seeding...\n`);
      const seeded = await seedCompany(database, {
        entries: size,
        accounts: 300,
        years: 3,
        currency: 'USD',
        name: 'Bench Co',
        batch: 2000,
        seed: 42,
        endDate: '2025-12-31',
      });
      const org = seeded.organizationId;
      // Fresh statistics, as autovacuum would have them on a live database after a bulk load.
      await sql`analyze`.execute(database.db);
      const lines = await database.db
        .selectFrom('journal_lines')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('organization_id', '=', org)
        .executeTakeFirstOrThrow();
      r.lines = Number(lines.n);
      r.seedSeconds = Math.round(seeded.seconds * 10) / 10;
      r.batchEntriesPerSecond = Math.round(size / seeded.seconds);
      const accounts = await database.db
        .selectFrom('accounts')
        .select(['id', 'system_key'])
        .where('organization_id', '=', org)
        .execute();
      const bank = accounts.find((a) => a.system_key === 'bank')!.id;
      const sales = accounts.find((a) => a.system_key === 'sales')!.id;

      // The journal-entry list's first page (newest first), as the Journal screen asks it: 50
      // entries, and one status or source filter; the queries one page costs.
      r.entryListFirstPageMs = await time(5, () => listEntries(database.db, org, { limit: 50 }));
      r.entryListSourceFilterMs = await time(5, () =>
        listEntries(database.db, org, { limit: 50, source: 'manual' }),
      );
      r.entryListQueries10 = await countQueries(database.db, (db) => listEntries(db, org, { limit: 10 }));
      r.entryListQueries50 = await countQueries(database.db, (db) => listEntries(db, org, { limit: 50 }));
      if (values['lists-only']) throw new Error('lists only');

      // One by one: each entry its own transaction through postJournalEntry, as a request does.
      const single = 300;
      const singleStart = performance.now();
      for (let i = 0; i < single; i += 1) {
        await postJournalEntry(database.db, {
          organizationId: org,
          date: '2026-01-15',
          memo: `Bench ${i}`,
          source: 'manual',
          actorUserId: null,
          lines: [
            { accountId: bank, debit: 1000 + i },
            { accountId: sales, credit: 1000 + i },
          ],
        });
      }
      r.singleEntriesPerSecond = Math.round(single / ((performance.now() - singleStart) / 1000));

      // Batches of 1,000 through postJournalEntries.
      const chart = {
        bank: [bank],
        receivable: accounts.find((a) => a.system_key === 'accounts_receivable')!.id,
        payable: accounts.find((a) => a.system_key === 'accounts_payable')!.id,
        card: accounts.find((a) => a.system_key === 'credit_card')!.id,
        salesTax: accounts.find((a) => a.system_key === 'sales_tax_payable')!.id,
        payroll: accounts.find((a) => a.system_key === 'payroll_liabilities')!.id,
        wages: accounts.find((a) => a.system_key === 'wages')!.id,
        bankFees: accounts.find((a) => a.system_key === 'bank_fees')!.id,
        income: [sales],
        expenses: [accounts.find((a) => a.system_key === 'uncategorized_expense')!.id],
      };
      const batchEntries = [
        ...sampleEntries(chart, {
          count: 5000,
          from: '2026-02-01',
          to: '2026-02-28',
          seed: 9,
          baseCurrency: 'USD',
        }),
      ];
      const batchStart = performance.now();
      for (let i = 0; i < batchEntries.length; i += 1000) {
        await postJournalEntries(database.db, org, batchEntries.slice(i, i + 1000), null);
      }
      r.batch1000EntriesPerSecond = Math.round(
        batchEntries.length / ((performance.now() - batchStart) / 1000),
      );

      r.trialBalanceAllMs = await time(5, () => trialBalance(database.db, org, { to: '2026-12-31' }));
      r.trialBalanceMonthMs = await time(5, () =>
        trialBalance(database.db, org, { from: '2025-06-01', to: '2025-06-30' }),
      );
      r.trialBalanceOddRangeMs = await time(5, () =>
        trialBalance(database.db, org, { from: '2024-03-17', to: '2025-08-09' }),
      );
      r.balanceSheetMs = await time(5, () => balanceSheet(database.db, org, '2025-12-31'));
      r.incomeStatementMs = await time(5, () =>
        incomeStatement(database.db, org, { from: '2025-01-01', to: '2025-12-31' }),
      );
      r.generalLedgerFirstPageMs = await time(5, () =>
        generalLedger(database.db, org, {
          accountId: bank,
          from: '2023-01-01',
          to: '2026-12-31',
          limit: 100,
        }),
      );

      if (!values['skip-external']) {
        const file = path.join(os.tmpdir(), `kontor-bench-${kind}-${size}.journal`);
        const exportStart = performance.now();
        const out = fs.createWriteStream(file);
        for await (const chunk of exportJournal(database.db, org)) {
          if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
        }
        await new Promise<void>((resolve) => out.end(() => resolve()));
        r.exportSeconds = Math.round((performance.now() - exportStart) / 100) / 10;
        r.exportMegabytes = Math.round(fs.statSync(file).size / 1e5) / 10;
        const tb = await trialBalance(database.db, org, { to: '2026-12-31' });
        const ours = new Map(
          tb.rows.filter((x) => x.closingBalance !== 0).map((x) => [journalAccountName(x), x.closingBalance]),
        );
        const same = (a: Map<string, number>) =>
          a.size === ours.size && [...ours].every(([k, v]) => a.get(k) === v);
        for (const tool of ['hledger', 'ledger'] as const) {
          if (!(await toolAvailable(tool))) {
            r[`${tool}BalanceSeconds`] = 'not installed';
            continue;
          }
          const start = performance.now();
          const theirs = await externalBalances(tool, file, 'USD');
          r[`${tool}BalanceSeconds`] = Math.round((performance.now() - start) / 100) / 10;
          r[`${tool}Agrees`] = same(theirs);
        }
        fs.rmSync(file, { force: true });
      }
    } catch (error) {
      if (!(error instanceof Error && error.message === 'lists only'))
        r.error = error instanceof Error ? error.message : String(error);
    } finally {
      await database.close();
    }
    results.push(r);
    console.log(JSON.stringify(r));
  }
}

const columns = [...new Set(results.flatMap((r) => Object.keys(r)))];
console.log(`\n| ${columns.join(' | ')} |\n| ${columns.map(() => '---').join(' | ')} |`);
for (const r of results) console.log(`| ${columns.map((c) => String(r[c] ?? '')).join(' | ')} |`);
if (values.json)
  fs.writeFileSync(
    values.json,
    JSON.stringify(
      {
        machine: {
          cpus: os.cpus().length,
          cpu: os.cpus()[0]?.model,
          memoryGb: Math.round(os.totalmem() / 1e9),
          node: process.version,
        },
        results,
      },
      null,
      2,
    ),
  );
