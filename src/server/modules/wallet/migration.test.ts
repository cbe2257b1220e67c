import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Kysely, type Migration, Migrator, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cashPositionOf } from '../../../shared/cash.ts';
import type { WalletSummary } from '../../../shared/wallet.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { createTestApp } from '../../testing/app.ts';
import { createTestDatabase, withTestMigrationLock } from '../../testing/db.ts';
import { initializeLedger } from '../ledger/accounts.ts';
import { postJournalEntry } from '../ledger/posting.ts';
import { balanceSheet } from '../ledger/reports.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { getWalletSummary } from './summary.ts';

// Migration 20261125_0200 on a company made before it: the chart's bank, cash and card
// accounts had no money account (invoice payments into 1010 never reached the wallet) and
// money accounts kept a stored balance. After it, each has a money account whose wallet
// balance is its ledger balance, the bank is the deposit account and the column is gone.
// PGlite by default, PostgreSQL with TEST_DATABASE_URL.

const MIGRATIONS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'db', 'migrations');
const THIS = '20261125_0200_money_accounts_one_model';

const migrateBefore = async (db: Kysely<any>) => {
  const files = (await fs.readdir(MIGRATIONS)).filter(
    (f) => /\.ts$/.test(f) && f.replace(/\.ts$/, '') < THIS,
  );
  const migrations: Record<string, Migration> = {};
  for (const f of files.sort()) migrations[f.replace(/\.ts$/, '')] = await import(path.join(MIGRATIONS, f));
  const schema = (await sql<{ name: string }>`select current_schema() as name`.execute(db)).rows[0]!.name;
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableSchema: schema,
  });
  const { error } = await withTestMigrationLock(() => migrator.migrateToLatest());
  if (error) throw error;
};

let database: Awaited<ReturnType<typeof createTestDatabase>>;
const org = 'org-before-0200';

beforeAll(async () => {
  database = await createTestDatabase({ migrate: false });
  const db = database.db as Kysely<any>;
  await migrateBefore(db);
  await db
    .insertInto('organizations')
    .values({
      id: org,
      name: 'Before Co',
      base_currency: 'USD',
      fiscal_year_start_month: 1,
      created_by: 'u1',
      created_at: new Date('2026-03-01T00:00:00Z'),
    })
    .execute();
  await database.db.transaction().execute((trx) =>
    initializeLedger(trx, {
      organizationId: org,
      baseCurrency: 'USD',
      fiscalYearStartMonth: 1,
      actorUserId: 'u1',
    }),
  );
  const acc = async (code: string) =>
    (
      await db
        .selectFrom('accounts')
        .select('id')
        .where('organization_id', '=', org)
        .where('code', '=', code)
        .executeTakeFirstOrThrow()
    ).id as string;
  // An invoice payment of 2,000.00 into 1010 dated before the company's creation in the app
  // (books brought over), and a card purchase of 45.00.
  const post = async (date: string, debitCode: string, creditCode: string, amount: number) =>
    postJournalEntry(db, {
      organizationId: org,
      actorUserId: 'u1',
      date,
      source: 'manual',
      lines: [
        { accountId: await acc(debitCode), debit: amount },
        { accountId: await acc(creditCode), credit: amount },
      ],
    });
  await post('2026-02-10', '1010', '1100', 200_000);
  await post('2026-03-10', '6100', '2100', 4_500);
  // A money account the wallet made before, with its stored balance.
  const walletBank = '1011';
  await db
    .insertInto('accounts')
    .values({
      organization_id: org,
      id: 'acc-1011',
      code: walletBank,
      name: 'Savings',
      type: 'asset',
      subtype: 'bank',
      currency: 'USD',
    })
    .execute();
  await db
    .insertInto('money_accounts')
    .values({
      organization_id: org,
      id: 'm-savings',
      ledger_account_id: 'acc-1011',
      name: 'Savings',
      kind: 'bank',
      currency: 'USD',
      opening_date: '2026-01-01',
      balance: 0,
    })
    .execute();
  await withTestMigrationLock(() => migrateToLatest(db));
});
afterAll(async () => {
  await database?.close();
});

describe(`migration ${THIS}`, () => {
  it('gives every bank, cash and card account of the chart a money account and drops the stored balance', async () => {
    const db = database.db as Kysely<any>;
    const rows = await db
      .selectFrom('money_accounts as m')
      .innerJoin('accounts as a', (j) =>
        j.onRef('a.organization_id', '=', 'm.organization_id').onRef('a.id', '=', 'm.ledger_account_id'),
      )
      .select(['a.code', 'm.id', 'm.kind', 'm.opening_date', 'm.opening_balance', 'm.is_default_deposit'])
      .where('m.organization_id', '=', org)
      .orderBy('a.code')
      .execute();
    expect(rows.map((r) => [r.code, r.kind, r.is_default_deposit])).toEqual([
      ['1000', 'cash', false],
      ['1010', 'bank', true],
      ['1011', 'bank', false],
      ['1050', 'payment_processor', false],
      ['2100', 'credit_card', false],
    ]);
    const bank = rows.find((r) => r.code === '1010')!;
    // It opens on its first posting (before the company's creation), holding nothing of its own.
    expect(bank).toMatchObject({ opening_date: '2026-02-10', opening_balance: 0 });
    expect(rows.find((r) => r.code === '1011')!.id).toBe('m-savings');
    const columns = await sql<{ column_name: string }>`
      select column_name from information_schema.columns
       where table_name = 'money_accounts' and table_schema = current_schema()`.execute(db);
    expect(columns.rows.map((r) => r.column_name)).not.toContain('balance');
  });

  it('shows the ledger balances in the wallet, equal to the balance sheet’s cash lines', async () => {
    const t = await createTestApp({ database });
    try {
      // No user signed up for this company: read the wallet through the service its route calls.
      const member = { organizationId: org, userId: 'u1', role: 'owner' } as unknown as MemberContext;
      const wallet: WalletSummary = await getWalletSummary(t.ctx, member, { asOf: '2026-11-20' });
      const byCode = Object.fromEntries(wallet.accounts.map((a) => [a.ledgerAccountCode, a]));
      expect(byCode['1010']!.balance).toBe(200_000);
      expect(byCode['2100']!.balance).toBe(-4_500);
      expect(wallet.cashBase).toBe(200_000);
      expect(wallet.cardsBase).toBe(-4_500);
      const bs = await balanceSheet(database.db, org, '2026-11-20');
      expect(cashPositionOf(bs).cash).toBe(wallet.cashBase);
    } finally {
      await t.app.close();
    }
  });
});
