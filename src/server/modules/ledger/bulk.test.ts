import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors.ts';
import { inTransaction } from '../../db/transaction.ts';
import { setUpTestDatabase } from '../../testing/per-file-app.ts';
import { updateLedgerSettings } from './accounts.ts';
import { type BulkEntryInput, postEntriesInBulk } from './bulk.ts';
import { type PostJournalEntryInput, postJournalEntry } from './posting.ts';
import { archiveAccountForTest, keptBalancesMismatch } from '../../testing/ledger-checks.ts';
import { createTestCompanyInDatabase } from '../../testing/companies.ts';
import { debitCreditLines } from '../../testing/ledger.ts';

// The bulk path (statement imports) is the ledger's own: the same checks as a single posting,
// in the same order, with the same error codes, and ids from the same time-ordered generator
// (issue 13 §3). Each bad input below is given to both paths and must be refused by both
// with the same code, writing nothing.

const handle = setUpTestDatabase();

type Org = Awaited<ReturnType<typeof createTestCompanyInDatabase>>;

const codeOf = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
  return 'posted';
};

const entryCount = async (org: Org) =>
  Number(
    (
      await handle.db
        .selectFrom('journal_entries')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('organization_id', '=', org.id)
        .executeTakeFirstOrThrow()
    ).n,
  );

const both = async (org: Org, entry: BulkEntryInput) => {
  const before = await entryCount(org);
  const single = await codeOf(
    postJournalEntry(handle.db, {
      organizationId: org.id,
      actorUserId: 'u1',
      date: entry.date,
      memo: entry.memo,
      source: entry.source as PostJournalEntryInput['source'],
      sourceId: entry.sourceId,
      lines: entry.lines,
    }),
  );
  const bulk = await codeOf(
    inTransaction(handle.db, (trx) =>
      postEntriesInBulk(trx, { organizationId: org.id, actorUserId: 'u1', audit: null }, [entry]),
    ),
  );
  const after = await entryCount(org);
  return { single, bulk, written: after - before };
};

describe('the bulk posting path has the single path’s rules', () => {
  it('refuses each bad entry with the same code as a single posting, and writes nothing', async () => {
    const org = await createTestCompanyInDatabase(handle.db);
    const ok = (over: Partial<BulkEntryInput> = {}): BulkEntryInput => ({
      date: '2026-05-10',
      memo: 'test',
      source: 'bank',
      sourceId: null,
      lines: debitCreditLines(org.accounts.bank!, org.accounts.sales!, 700),
      ...over,
    });
    const other = await createTestCompanyInDatabase(handle.db);
    const cases: [string, BulkEntryInput][] = [
      ['invalid_date', ok({ date: '2026-02-30' })],
      ['invalid_source', ok({ source: 'mystery' as BulkEntryInput['source'] })],
      [
        'entry_unbalanced',
        ok({
          lines: debitCreditLines(org.accounts.bank!, org.accounts.sales!, 700, 600),
        }),
      ],
      ['entry_too_few_lines', ok({ lines: [{ accountId: org.accounts.bank!, debit: 700 }] })],
      [
        'negative_amount',
        ok({
          lines: debitCreditLines(org.accounts.bank!, org.accounts.sales!, -700),
        }),
      ],
      [
        'account_not_found',
        ok({
          lines: debitCreditLines(other.accounts.bank!, org.accounts.sales!, 700),
        }),
      ],
    ];
    for (const [code, entry] of cases) {
      const result = await both(org, entry);
      expect({ code, ...result }).toEqual({ code, single: result.single, bulk: result.single, written: 0 });
      expect(result.single, code).not.toBe('posted');
    }
    // The codes themselves, so a path that refuses everything the same wrong way still fails.
    const codes = [];
    for (const [, entry] of cases) codes.push((await both(org, entry)).bulk);
    expect(codes).toEqual([
      'invalid_date',
      'invalid_source',
      expect.stringMatching(/unbalanced/),
      'entry_too_few_lines',
      'negative_amount',
      'account_not_found',
    ]);
  });

  it('refuses the lock date and archived accounts like a single posting', async () => {
    const org = await createTestCompanyInDatabase(handle.db);
    const entry: BulkEntryInput = {
      date: '2026-03-31',
      memo: 'locked',
      source: 'bank',
      sourceId: null,
      lines: debitCreditLines(org.accounts.bank!, org.accounts.sales!, 500),
    };
    await updateLedgerSettings(handle.db, org.id, 'u1', { lockDate: '2026-03-31' });
    expect(await both(org, entry)).toEqual({ single: 'period_locked', bulk: 'period_locked', written: 0 });
    await archiveAccountForTest(handle.db, org.id, org.accounts.sales!);
    expect(await both(org, { ...entry, date: '2026-04-01' })).toEqual({
      single: 'account_archived',
      bulk: 'account_archived',
      written: 0,
    });
  });

  it('posts what a single posting posts: same numbers in sequence, time-ordered ids, balances kept', async () => {
    const org = await createTestCompanyInDatabase(handle.db);
    const lines = [
      { accountId: org.accounts.bank!, debit: 1234 },
      { accountId: org.accounts.sales!, credit: 1234 },
    ];
    const single = await postJournalEntry(handle.db, {
      organizationId: org.id,
      actorUserId: 'u1',
      date: '2026-06-01',
      source: 'bank',
      lines,
    });
    const ids = await inTransaction(handle.db, (trx) =>
      postEntriesInBulk(trx, { organizationId: org.id, actorUserId: 'u1', audit: null }, [
        { date: '2026-06-02', memo: 'a', source: 'bank', sourceId: null, lines },
        { date: '2026-06-03', memo: 'b', source: 'bank', sourceId: null, lines },
      ]),
    );
    const rows = await handle.db
      .selectFrom('journal_entries')
      .select(['id', 'number', 'status'])
      .where('organization_id', '=', org.id)
      .where('id', 'in', [single.id, ...ids])
      .orderBy('number')
      .execute();
    const n = Number(single.number);
    expect(rows.map((r) => Number(r.number))).toEqual([n, n + 1, n + 2]);
    expect(rows.map((r) => r.id)).toEqual([single.id, ...ids]);
    // UUIDv7 from the same generator: version 7, and later postings sort after earlier ones.
    for (const id of [single.id, ...ids]) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-/);
    expect([...ids].sort()).toEqual(ids);
    expect(ids[0]! > single.id).toBe(true);
    expect(await keptBalancesMismatch(handle.db, org.id)).toEqual([]);
  });
});
