import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { loadServerConfig } from '../src/server/config.ts';
import { type DatabaseHandle, openConfiguredDatabase } from '../src/server/db/client.ts';
import { migrateToLatest } from '../src/server/db/migrate.ts';
import { initializeLedger } from '../src/server/modules/ledger/accounts.ts';
import { postJournalEntries } from '../src/server/modules/ledger/posting.ts';
import { buildSampleChart, sampleEntries } from '../src/server/modules/ledger/sample-data.ts';
import { adoptChartMoneyAccounts } from '../src/server/modules/wallet/queries.ts';

// Seeds a realistic company: a few hundred accounts and N journal entries (about three lines
// each) over three years, posted through the ledger service in batches, so every rule and
// trigger runs as in production. Works on PGlite (DATA_DIR) and PostgreSQL (DATABASE_URL).
//
//   node --import tsx scripts/seed.ts --entries 100000 [--accounts 300] [--years 3]
//        [--currency USD] [--owner-email you@example.com] [--batch 1000]

const usage = `usage: node --import tsx scripts/seed.ts --entries N [--accounts 300] [--years 3] [--currency USD]
       [--owner-email EMAIL] [--name "Company"] [--batch 1000] [--seed 42]`;

export type SeedOptions = {
  entries: number;
  accounts: number;
  years: number;
  currency: string;
  name: string;
  ownerEmail?: string;
  batch: number;
  seed: number;
  /** The last day of the seeded period; entries span `years` years up to it. */
  endDate?: string;
  onProgress?: (posted: number, total: number) => void;
};

/** Creates the company and posts its entries; returns its id and timings. */
export const seedCompany = async (database: DatabaseHandle, options: SeedOptions) => {
  const db = database.db;
  let ownerId = 'seed';
  if (options.ownerEmail) {
    const user = await db
      .selectFrom('user')
      .select('id')
      .where('email', '=', options.ownerEmail.toLowerCase())
      .executeTakeFirst();
    if (!user) throw new Error(`No user with the email ${options.ownerEmail}; sign up first.`);
    ownerId = user.id;
  }
  const organizationId = randomUUID();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('organizations')
      .values({
        id: organizationId,
        name: options.name,
        base_currency: options.currency,
        fiscal_year_start_month: 1,
        created_by: ownerId,
      })
      .execute();
    if (options.ownerEmail) {
      await trx
        .insertInto('organization_members')
        .values({ organization_id: organizationId, user_id: ownerId, role: 'owner' })
        .execute();
    }
    await initializeLedger(trx, {
      organizationId,
      baseCurrency: options.currency,
      fiscalYearStartMonth: 1,
      actorUserId: ownerId,
    });
  });
  const chart = await buildSampleChart(db, organizationId, options.accounts);
  const end = options.endDate ?? `${new Date().getUTCFullYear() - 1}-12-31`;
  const from = `${Number(end.slice(0, 4)) - options.years + 1}-01-01`;
  // Its bank, cash and card accounts are money accounts of the wallet (decision 0022).
  await adoptChartMoneyAccounts(db, organizationId, from, ownerId);
  const started = performance.now();
  let batch: ReturnType<typeof sampleEntries> extends Generator<infer T> ? T[] : never = [];
  let posted = 0;
  for (const entry of sampleEntries(chart, {
    count: options.entries,
    from,
    to: end,
    seed: options.seed,
    baseCurrency: options.currency,
  })) {
    batch.push(entry);
    if (batch.length === options.batch) {
      await postJournalEntries(db, organizationId, batch, ownerId);
      posted += batch.length;
      batch = [];
      options.onProgress?.(posted, options.entries);
    }
  }
  if (batch.length > 0) {
    await postJournalEntries(db, organizationId, batch, ownerId);
    posted += batch.length;
    options.onProgress?.(posted, options.entries);
  }
  return { organizationId, from, to: end, seconds: (performance.now() - started) / 1000 };
};

const main = async () => {
  const { values } = parseArgs({
    options: {
      entries: { type: 'string' },
      accounts: { type: 'string', default: '300' },
      years: { type: 'string', default: '3' },
      currency: { type: 'string', default: 'USD' },
      name: { type: 'string', default: 'Northwind Supplies Ltd' },
      'owner-email': { type: 'string' },
      batch: { type: 'string', default: '1000' },
      seed: { type: 'string', default: '42' },
      help: { type: 'boolean', default: false },
    },
  });
  const entries = Number(values.entries);
  if (values.help || !Number.isSafeInteger(entries) || entries < 1) {
    console.log(usage);
    process.exit(values.help ? 0 : 1);
  }
  const config = loadServerConfig();
  const database = await openConfiguredDatabase(config);
  try {
    await migrateToLatest(database.db);
    let lastReport = 0;
    const result = await seedCompany(database, {
      entries,
      accounts: Number(values.accounts),
      years: Number(values.years),
      currency: values.currency!.toUpperCase(),
      name: values.name!,
      ownerEmail: values['owner-email'],
      batch: Number(values.batch),
      seed: Number(values.seed),
      onProgress: (posted, total) => {
        if (posted - lastReport >= Math.max(10_000, total / 20) || posted === total) {
          lastReport = posted;
          process.stdout.write(
            `  ${posted.toLocaleString('en-US')} / ${total.toLocaleString('en-US')} entries\n`,
          );
        }
      },
    });
    // Planner statistics for the freshly loaded tables, so reports use their indexes at once.
    await sql`analyze`.execute(database.db);
    console.log(
      `Seeded company ${result.organizationId} (${database.kind}): ${entries.toLocaleString('en-US')} entries ` +
        `from ${result.from} to ${result.to} in ${result.seconds.toFixed(1)} s ` +
        `(${Math.round(entries / result.seconds).toLocaleString('en-US')} entries/s).`,
    );
  } finally {
    await database.close();
  }
};

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(`seed: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  });
}
