import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { createTestDatabase, testDatabaseKind } from '../../testing/db.ts';
import { externalBalances, toolAvailable } from './external.ts';
import { exportJournalText, journalAccountName } from './journal-export.ts';
import { importJournal } from './journal-import.ts';
import { postJournalEntries } from './posting.ts';
import { trialBalance } from './reports.ts';
import { buildSampleChart, sampleEntries } from './sample-data.ts';
import { keptBalancesMismatch } from '../../testing/ledger-checks.ts';
import { createTestCompanyInDatabase } from '../../testing/companies.ts';
import { debitCreditLines } from '../../testing/ledger.ts';

let handle: DatabaseHandle;
let dir: string;
let org: Awaited<ReturnType<typeof createTestCompanyInDatabase>>;
let journalFile: string;
const hasHledger = await toolAvailable('hledger');
const hasLedger = await toolAvailable('ledger');

beforeAll(async () => {
  handle = await createTestDatabase();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kontor-interop-'));
  org = await createTestCompanyInDatabase(handle.db);
  const chart = await buildSampleChart(handle.db, org.id, 120);
  const entries = [
    ...sampleEntries(chart, {
      count: 600,
      from: '2024-01-01',
      to: '2026-06-30',
      seed: 7,
      baseCurrency: 'USD',
    }),
  ];
  for (let i = 0; i < entries.length; i += 200) {
    await postJournalEntries(handle.db, org.id, entries.slice(i, i + 200), 'seed');
  }
  journalFile = path.join(dir, 'company.journal');
  fs.writeFileSync(journalFile, await exportJournalText(handle.db, org.id));
});
afterAll(async () => {
  await handle?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const ourBalances = async (organizationId: string) => {
  const tb = await trialBalance(handle.db, organizationId, { to: '2030-12-31' });
  return new Map(
    tb.rows.filter((r) => r.closingBalance !== 0).map((r) => [journalAccountName(r), r.closingBalance]),
  );
};

describe(`plain-text accounting interop (${testDatabaseKind()})`, () => {
  it('posts batches with gap-free numbers and kept balances equal to the lines', async () => {
    const numbers = await handle.db
      .selectFrom('journal_entries')
      .select((eb) => [
        eb.fn.min('number').as('min'),
        eb.fn.max('number').as('max'),
        eb.fn.countAll<string>().as('n'),
      ])
      .where('organization_id', '=', org.id)
      .executeTakeFirstOrThrow();
    expect([Number(numbers.min), Number(numbers.max), Number(numbers.n)]).toEqual([1, 600, 600]);
    expect(await keptBalancesMismatch(handle.db, org.id)).toEqual([]);
  });

  it('refuses a batch with one bad entry and writes none of it', async () => {
    const before = await ourBalances(org.id);
    const error = await postJournalEntries(
      handle.db,
      org.id,
      [
        {
          date: '2026-07-01',
          source: 'manual',
          actorUserId: null,
          lines: debitCreditLines(org.accounts.bank!, org.accounts.sales!, 5),
        },
        {
          date: '2026-07-02',
          source: 'manual',
          actorUserId: null,
          lines: debitCreditLines(org.accounts.bank!, org.accounts.sales!, 5, 4),
        },
      ],
      'seed',
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).message).toMatch(/^Entry 2 \(2026-07-02\)/);
    expect(await ourBalances(org.id)).toEqual(before);
  });

  it('re-imports its own export to the same trial balance', async () => {
    const target = await createTestCompanyInDatabase(handle.db);
    const result = await importJournal(handle.db, target.id, 'u1', fs.readFileSync(journalFile, 'utf8'));
    expect(result.entries).toBe(600);
    expect(await ourBalances(target.id)).toEqual(await ourBalances(org.id));
  });

  it('imports a hand-written hledger journal with symbols, elided amounts and prices', async () => {
    const target = await createTestCompanyInDatabase(handle.db);
    const journal = [
      '; opening',
      'account Assets:Checking',
      'commodity $1,000.00',
      '',
      '2026/01/02 * Opening balance',
      '    Assets:Checking          $1,500.00',
      '    Equity:Opening balances',
      '',
      '2026-01-03 ! (42) Coffee  ; a comment',
      '    Expenses:Food:Coffee     $4.50  ; latte',
      '    Assets:Checking         $-4.50 = $1,495.50',
      '',
      '2026-01-04 Trip',
      '    Expenses:Travel          20.00 EUR @ 1.10 USD',
      '    Assets:Checking',
    ].join('\n');
    const result = await importJournal(handle.db, target.id, 'u1', journal);
    // Expenses:Travel is the standard chart's Travel account (same name and type); the rest are new.
    expect(result).toMatchObject({ entries: 3, createdAccounts: 3 });
    expect(result.accounts.find((a) => a.journalName === 'Expenses:Travel')).toMatchObject({
      name: 'Travel',
      created: false,
    });
    const tb = await trialBalance(handle.db, target.id, { to: '2026-12-31' });
    const byName = Object.fromEntries(tb.rows.map((r) => [r.name, r.closingBalance]));
    expect(byName).toMatchObject({
      Checking: 147_350,
      'Opening balances': -150_000,
      'Food / Coffee': 450,
      Travel: 2_200,
    });
  });

  for (const [tool, installed] of [
    ['hledger', hasHledger],
    ['ledger', hasLedger],
  ] as const) {
    describe.skipIf(!installed)(
      `${tool} (skipped when the ${tool} binary is not installed: apt-get install ${tool})`,
      () => {
        it('agrees with our trial balance to the cent', async () => {
          const theirs = await externalBalances(tool, journalFile, 'USD');
          expect(theirs).toEqual(await ourBalances(org.id));
        });
      },
    );
  }
});
