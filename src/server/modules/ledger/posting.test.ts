import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors.ts';
import type { Executor } from '../../db/transaction.ts';
import { testDatabaseKind } from '../../testing/db.ts';
import { setUpTestDatabase } from '../../testing/per-file-app.ts';
import { archiveAccountForTest, keptBalancesMismatch } from '../../testing/ledger-checks.ts';
import { createAccount, updateLedgerSettings } from './accounts.ts';
import { closeFiscalYear, postOpeningBalances, reopenFiscalYear } from './fiscal.ts';
import {
  approveEntry,
  createDraftEntry,
  deleteDraftEntry,
  postDraftEntry,
  updateDraftEntry,
} from './drafts.ts';
import { type PostingLineInput, postJournalEntry, reverseJournalEntry } from './posting.ts';
import { createTestCompanyInDatabase } from '../../testing/companies.ts';
import { debitCreditLines } from '../../testing/ledger.ts';

const handle = setUpTestDatabase();

type TestOrganization = Awaited<ReturnType<typeof createTestCompanyInDatabase>>;

/** A manual sale: Dr bank, Cr sales, `amount` minor units on `date`. */
const postSale = (org: TestOrganization, date: string, amount: number) =>
  postJournalEntry(handle.db, {
    organizationId: org.id,
    date,
    source: 'manual',
    actorUserId: 'u1',
    lines: debitCreditLines(org.accounts.bank!, org.accounts.sales!, amount),
  });

const expectAppError = async (promise: Promise<unknown>, code: string) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, `expected ${code}`).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe(code);
  return error as AppError;
};

const countRows = async (table: 'journal_lines' | 'account_period_balances', organizationId: string) => {
  const row = await handle.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
};

/** The debit and credit of an account's first row in a table of lines or of kept balances. */
const firstDebitCredit = (
  table: 'journal_lines' | 'account_period_balances',
  organizationId: string,
  accountId: string,
) =>
  handle.db
    .selectFrom(table)
    .select(['debit', 'credit'])
    .where('organization_id', '=', organizationId)
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow();

describe(`posting (${testDatabaseKind()})`, () => {
  it('posts a balanced entry with gap-free numbers, lines and kept balances', async () => {
    const org = await createTestCompanyInDatabase(handle.db);
    const base = { organizationId: org.id, source: 'manual' as const, actorUserId: 'u1' };
    const e1 = await postJournalEntry(handle.db, {
      ...base,
      date: '2026-03-05',
      memo: 'Sale',
      lines: debitCreditLines(org.accounts.bank!, org.accounts.sales!, 10_000),
    });
    const e2 = await postJournalEntry(handle.db, {
      ...base,
      date: '2026-03-06',
      lines: [
        { accountId: org.accounts.bank!, credit: 2_500 },
        { accountId: org.accountsByCode['6200']!, debit: 2_500, description: 'March rent' },
      ],
    });
    expect(e1.number).toBe(1);
    expect(e2.number).toBe(2);
    expect(e1.status).toBe('posted');
    expect(e1.lines).toHaveLength(2);
    expect(e2.lines[1]!.description).toBe('March rent');
    expect(await keptBalancesMismatch(handle.db, org.id)).toEqual([]);
    const audit = await handle.db
      .selectFrom('audit_log')
      .select(['action'])
      .where('organization_id', '=', org.id)
      .where('entity_id', '=', e1.id)
      .execute();
    expect(audit.map((a) => a.action)).toEqual(['journal_entry.posted']);
  });

  it('refuses unbalanced, negative, two-sided, empty and cross-company postings and writes nothing', async () => {
    const org = await createTestCompanyInDatabase(handle.db);
    const other = await createTestCompanyInDatabase(handle.db);
    const base = { organizationId: org.id, source: 'manual' as const, actorUserId: 'u1', date: '2026-01-10' };
    const bank = org.accounts.bank!;
    const sales = org.accounts.sales!;
    const refusals: [code: string, lines: PostingLineInput[], date?: string][] = [
      ['entry_unbalanced', debitCreditLines(bank, sales, 100, 99)],
      ['negative_amount', debitCreditLines(bank, sales, -100)],
      [
        'invalid_line',
        [
          { accountId: bank, debit: 100, credit: 100 },
          { accountId: sales, credit: 0 },
        ],
      ],
      ['invalid_line', debitCreditLines(bank, sales, 1.5)],
      ['entry_too_few_lines', [{ accountId: bank, debit: 100 }]],
      ['account_not_found', debitCreditLines(bank, other.accounts.sales!, 100)],
      ['invalid_date', debitCreditLines(bank, sales, 1), '2026-02-30'],
    ];
    for (const [code, lines, date] of refusals) {
      await expectAppError(postJournalEntry(handle.db, { ...base, date: date ?? base.date, lines }), code);
    }
    expect(await countRows('journal_lines', org.id)).toBe(0);
    expect(await countRows('journal_lines', other.id)).toBe(0);
    const settings = await handle.db
      .selectFrom('ledger_settings')
      .select('next_entry_number')
      .where('organization_id', '=', org.id)
      .executeTakeFirstOrThrow();
    expect(settings.next_entry_number).toBe(1);
  });

  it('refuses postings on or before the lock date and on archived accounts', async () => {
    const org = await createTestCompanyInDatabase(handle.db);
    await updateLedgerSettings(handle.db, org.id, 'u1', { lockDate: '2026-03-31' });
    const err = await expectAppError(postSale(org, '2026-03-31', 500), 'period_locked');
    expect(err.message).toContain('2026-03-31');
    const ok = await postSale(org, '2026-04-01', 500);
    expect(ok.number).toBe(1);
    await archiveAccountForTest(handle.db, org.id, org.accounts.sales!);
    await expectAppError(postSale(org, '2026-04-02', 500), 'account_archived');
    const audit = await handle.db
      .selectFrom('audit_log')
      .select(['action', 'before', 'after'])
      .where('organization_id', '=', org.id)
      .where('action', '=', 'ledger.lock_date_changed')
      .executeTakeFirstOrThrow();
    expect(audit.after).toEqual({ lockDate: '2026-03-31' });
  });

  it('reverses a posted entry once, linked to the original', async () => {
    const org = await createTestCompanyInDatabase(handle.db);
    const entry = await postSale(org, '2026-05-01', 700);
    const reversal = await reverseJournalEntry(handle.db, {
      organizationId: org.id,
      entryId: entry.id,
      actorUserId: 'u1',
    });
    expect(reversal.reversesEntryId).toBe(entry.id);
    expect(reversal.source).toBe('reversal');
    expect(reversal.lines.map((l) => [l.debit, l.credit])).toEqual([
      [0, 700],
      [700, 0],
    ]);
    await expectAppError(
      reverseJournalEntry(handle.db, { organizationId: org.id, entryId: entry.id, actorUserId: 'u1' }),
      'entry_already_reversed',
    );
    expect(await firstDebitCredit('account_period_balances', org.id, org.accounts.bank!)).toEqual({
      debit: 700,
      credit: 700,
    });
  });

  it('posts foreign-currency lines with amount and rate, checking the conversion', async () => {
    const org = await createTestCompanyInDatabase(handle.db);
    const eurBank = await createAccount(handle.db, org.id, 'u1', {
      code: '1020',
      name: 'EUR account',
      type: 'asset',
      // a bank account would be a money account, made in the Wallet (decision 0022)
      subtype: 'current_asset',
      currency: 'EUR',
    });
    const base = { organizationId: org.id, date: '2026-06-01', source: 'manual' as const, actorUserId: 'u1' };
    const entry = await postJournalEntry(handle.db, {
      ...base,
      lines: [
        { accountId: eurBank.id, debit: 10_825, currency: 'EUR', amount: 10_000, rate: '1.0825' },
        { accountId: org.accounts.sales!, credit: 10_825 },
      ],
    });
    expect(entry.lines[0]).toMatchObject({ currency: 'EUR', amount: 10_000, rate: '1.0825', debit: 10_825 });
    await expectAppError(
      postJournalEntry(handle.db, {
        ...base,
        lines: [
          { accountId: eurBank.id, debit: 11_000, currency: 'EUR', amount: 10_000, rate: '1.0825' },
          { accountId: org.accounts.sales!, credit: 11_000 },
        ],
      }),
      'rate_mismatch',
    );
    await expectAppError(
      postJournalEntry(handle.db, {
        ...base,
        lines: debitCreditLines(eurBank.id, org.accounts.sales!, 100),
      }),
      'currency_mismatch',
    );
  });

  it('keeps drafts editable and posts them; approval holds members’ entries', async () => {
    const org = await createTestCompanyInDatabase(handle.db);
    const draft = await createDraftEntry(handle.db, {
      organizationId: org.id,
      date: '2026-07-01',
      memo: 'Draft',
      lines: debitCreditLines(org.accounts.bank!, org.accounts.sales!, 100, 90),
      actorUserId: 'u1',
    });
    expect(draft.status).toBe('draft');
    expect(draft.number).toBeNull();
    await expectAppError(
      postDraftEntry(handle.db, {
        organizationId: org.id,
        entryId: draft.id,
        actorUserId: 'u1',
        canApprove: false,
      }),
      'entry_unbalanced',
    );
    const edited = await updateDraftEntry(handle.db, {
      organizationId: org.id,
      entryId: draft.id,
      actorUserId: 'u1',
      lines: debitCreditLines(org.accounts.bank!, org.accounts.sales!, 100),
    });
    expect(edited.lines[1]!.credit).toBe(100);
    await updateLedgerSettings(handle.db, org.id, 'admin', { approvalRequired: true });
    const pending = await postDraftEntry(handle.db, {
      organizationId: org.id,
      entryId: draft.id,
      actorUserId: 'member',
      canApprove: false,
    });
    expect(pending.status).toBe('pending_approval');
    expect(await countRows('journal_lines', org.id)).toBe(0);
    const approved = await approveEntry(handle.db, {
      organizationId: org.id,
      entryId: draft.id,
      actorUserId: 'accountant',
    });
    expect(approved.status).toBe('posted');
    expect(approved.number).toBe(1);
    expect(approved.approvedBy).toBe('accountant');
    await expectAppError(
      updateDraftEntry(handle.db, {
        organizationId: org.id,
        entryId: draft.id,
        actorUserId: 'u1',
        memo: 'x',
      }),
      'entry_posted',
    );
    await expectAppError(
      deleteDraftEntry(handle.db, { organizationId: org.id, entryId: draft.id, actorUserId: 'u1' }),
      'entry_posted',
    );
    const another = await createDraftEntry(handle.db, {
      organizationId: org.id,
      date: '2026-07-02',
      lines: [{ accountId: org.accounts.bank!, debit: 5 }],
      actorUserId: 'u1',
    });
    await deleteDraftEntry(handle.db, { organizationId: org.id, entryId: another.id, actorUserId: 'u1' });
    const gone = await handle.db
      .selectFrom('journal_entries')
      .select('id')
      .where('organization_id', '=', org.id)
      .where('id', '=', another.id)
      .executeTakeFirst();
    expect(gone).toBeUndefined();
  });

  it('closes a fiscal year into retained earnings and reopens it', async () => {
    const org = await createTestCompanyInDatabase(handle.db);
    const base = { organizationId: org.id, source: 'manual' as const, actorUserId: 'u1' };
    await postSale(org, '2025-05-01', 1000);
    await postJournalEntry(handle.db, {
      ...base,
      date: '2025-06-01',
      lines: [
        { accountId: org.accounts.bank!, credit: 300 },
        { accountId: org.accounts.wages!, debit: 300 },
      ],
    });
    await expectAppError(
      closeFiscalYear(handle.db, { organizationId: org.id, endDate: '2025-06-30', actorUserId: 'u1' }),
      'not_fiscal_year_end',
    );
    const closed = await closeFiscalYear(handle.db, {
      organizationId: org.id,
      endDate: '2025-12-31',
      actorUserId: 'u1',
    });
    expect(closed.closeEntryId).not.toBeNull();
    expect(await firstDebitCredit('journal_lines', org.id, org.accounts.retained_earnings!)).toEqual({
      debit: 0,
      credit: 700,
    });
    await expectAppError(postSale(org, '2025-07-01', 1), 'fiscal_year_closed');
    await expectAppError(
      closeFiscalYear(handle.db, { organizationId: org.id, endDate: '2025-12-31', actorUserId: 'u1' }),
      'fiscal_year_already_closed',
    );
    await reopenFiscalYear(handle.db, { organizationId: org.id, endDate: '2025-12-31', actorUserId: 'u1' });
    await postSale(org, '2025-07-01', 1);
    expect(await keptBalancesMismatch(handle.db, org.id)).toEqual([]);
  });

  it('puts the difference of opening balances into opening balance equity', async () => {
    const org = await createTestCompanyInDatabase(handle.db);
    const entry = await postOpeningBalances(handle.db, {
      organizationId: org.id,
      date: '2025-12-31',
      lines: debitCreditLines(org.accounts.bank!, org.accounts.accounts_payable!, 50_000, 20_000),
      actorUserId: 'u1',
    });
    expect(entry.source).toBe('opening_balance');
    expect(entry.lines.at(-1)).toMatchObject({
      accountId: org.accounts.opening_balance_equity,
      credit: 30_000,
    });
  });
});

// On PostgreSQL these race for real on several connections; on PGlite the driver serialises
// them on its one connection (src/server/db/pglite-dialect.ts), and the outcome must match.
describe('concurrency', () => {
  it('numbers entries without gaps when postings race, some of them failing', async () => {
    const org = await createTestCompanyInDatabase(handle.db);
    const attempts = Array.from({ length: 24 }, (_, i) =>
      postJournalEntry(handle.db, {
        organizationId: org.id,
        date: '2026-10-05',
        source: 'manual',
        actorUserId: 'u1',
        // every fourth one is unbalanced and must leave no number behind
        lines: debitCreditLines(
          org.accounts.bank!,
          org.accounts.sales!,
          100 + i,
          i % 4 === 3 ? 99 + i : 100 + i,
        ),
      }),
    );
    const results = await Promise.allSettled(attempts);
    const numbers = results
      .flatMap((r) => (r.status === 'fulfilled' ? [r.value.number!] : []))
      .sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 18 }, (_, i) => i + 1));
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(6);
  });

  it('16 parallel posters: numbers gap-free, unique and in commit order (a reader never sees a hole)', async () => {
    const org = await createTestCompanyInDatabase(handle.db);
    let done = false;
    const holes: string[] = [];
    // The number is taken by the posting's last statement and its row lock is held to the
    // commit, so at any moment the committed numbers are exactly 1..max: a later number
    // committing before an earlier one would show a hole to this reader.
    const reader = (async () => {
      let reads = 0;
      while (!done || reads === 0) {
        const row = await sql<{ n: number; max: number | null }>`
          select count(*)::int as n, max(number) as max from journal_entries
           where organization_id = ${org.id} and status = 'posted'`.execute(handle.db);
        const { n, max } = row.rows[0]!;
        if ((max ?? 0) !== n) holes.push(`${n} entries up to number ${max}`);
        reads += 1;
      }
      return reads;
    })();
    const poster = async (p: number) => {
      const numbers: number[] = [];
      for (let i = 0; i < 8; i += 1) {
        const unbalanced = (p + i) % 5 === 4;
        const result = await postJournalEntry(handle.db, {
          organizationId: org.id,
          date: '2026-10-05',
          source: 'manual',
          actorUserId: 'u1',
          lines: debitCreditLines(
            org.accounts.bank!,
            org.accounts.sales!,
            100 + p,
            unbalanced ? 99 + p : 100 + p,
          ),
        }).then(
          (e) => e.number!,
          () => null,
        );
        if (result !== null) numbers.push(result);
      }
      return numbers;
    };
    const posted = (await Promise.all(Array.from({ length: 16 }, (_, p) => poster(p)))).flat();
    done = true;
    expect(await reader).toBeGreaterThan(0);
    expect(holes).toEqual([]);
    const expected = Array.from({ length: 16 * 8 }, (_, k) => k).filter((k) => {
      const p = Math.floor(k / 8);
      return (p + (k % 8)) % 5 !== 4;
    }).length;
    expect(posted.sort((a, b) => a - b)).toEqual(Array.from({ length: expected }, (_, i) => i + 1));
    const stored = await handle.db
      .selectFrom('journal_lines')
      .select(['entry_number'])
      .where('organization_id', '=', org.id)
      .execute();
    expect(stored).toHaveLength(expected * 2);
    expect(await keptBalancesMismatch(handle.db, org.id)).toEqual([]);
  });

  it('a lock-date change racing postings leaves nothing posted inside the locked period', async () => {
    const org = await createTestCompanyInDatabase(handle.db);
    const post = (date: string) => postSale(org, date, 1);
    const racing = [
      ...Array.from({ length: 10 }, () => post('2026-01-15')),
      updateLedgerSettings(handle.db, org.id, 'u1', { lockDate: '2026-01-31' }),
      ...Array.from({ length: 10 }, () => post('2026-01-20')),
    ];
    await Promise.allSettled(racing);
    const settings = await handle.db
      .selectFrom('ledger_settings')
      .select('lock_date')
      .where('organization_id', '=', org.id)
      .executeTakeFirstOrThrow();
    expect(settings.lock_date).toBe('2026-01-31');
    const late = await handle.db
      .selectFrom('journal_entries')
      .select(['number', 'posted_at'])
      .where('organization_id', '=', org.id)
      .orderBy('number')
      .execute();
    // Every posting either committed before the lock (and its number is below every later
    // refusal) or was refused; numbers stay gap-free either way.
    expect(late.map((e) => e.number)).toEqual(Array.from({ length: late.length }, (_, i) => i + 1));
    await expectAppError(post('2026-01-31'), 'period_locked');
  });
});

// Rows written straight into the journal tables, past the posting functions: the database's
// own guards must stop what is wrong.
type RawEntry = { id: string; number: number; date: string };

const insertRawEntry = (db: Executor, organizationId: string, entry: RawEntry) =>
  sql`insert into journal_entries (organization_id, id, number, date, source, status)
      values (${organizationId}, ${entry.id}, ${entry.number}, ${entry.date}, 'manual', 'posted')`.execute(
    db,
  );

/** Two lines from `lineNo` on: `debit` on the first account, `credit` on the second. */
const insertRawLines = (
  db: Executor,
  organizationId: string,
  entry: RawEntry,
  lineNo: number,
  [debitAccountId, debit]: [string, number],
  [creditAccountId, credit]: [string, number],
) =>
  sql`insert into journal_lines (organization_id, entry_id, line_no, account_id, date, entry_number, debit, credit)
      values (${organizationId}, ${entry.id}, ${lineNo}, ${debitAccountId}, ${entry.date}, ${entry.number}, ${debit}, 0),
             (${organizationId}, ${entry.id}, ${lineNo + 1}, ${creditAccountId}, ${entry.date}, ${entry.number}, 0, ${credit})`.execute(
    db,
  );

describe(`database guards (${testDatabaseKind()})`, () => {
  it('rejects a direct UPDATE or DELETE of a posted line or entry', async () => {
    const org = await createTestCompanyInDatabase(handle.db);
    const entry = await postSale(org, '2026-08-01', 100);
    const refused = [
      [
        sql`update journal_lines set debit = 999 where organization_id = ${org.id} and entry_id = ${entry.id}`,
        /cannot be changed/,
      ],
      [
        sql`delete from journal_lines where organization_id = ${org.id} and entry_id = ${entry.id}`,
        /cannot be changed/,
      ],
      [
        sql`update journal_entries set memo = 'x' where organization_id = ${org.id} and id = ${entry.id}`,
        /cannot be changed/,
      ],
      [
        sql`delete from journal_entries where organization_id = ${org.id} and id = ${entry.id}`,
        /cannot be deleted/,
      ],
    ] as const;
    for (const [statement, message] of refused)
      await expect(statement.execute(handle.db)).rejects.toThrow(message);
    const lines = await handle.db
      .selectFrom('journal_lines')
      .select('debit')
      .where('organization_id', '=', org.id)
      .execute();
    expect(lines.map((l) => l.debit).sort()).toEqual([0, 100]);
  });

  it('refuses an unbalanced posted entry at commit, and one inside the lock date', async () => {
    const org = await createTestCompanyInDatabase(handle.db);
    const insert = (date: string, debit: number, credit: number) =>
      handle.db.transaction().execute(async (trx) => {
        await sql`update ledger_settings set next_entry_number = next_entry_number + 1 where organization_id = ${org.id}`.execute(
          trx,
        );
        const entry = { id: `raw-${date}-${debit}-${credit}`, number: 100, date };
        await insertRawEntry(trx, org.id, entry);
        await insertRawLines(
          trx,
          org.id,
          entry,
          1,
          [org.accounts.bank!, debit],
          [org.accounts.sales!, credit],
        );
      });
    await expect(insert('2026-09-01', 100, 99)).rejects.toThrow(/unbalanced/);
    await sql`update ledger_settings set lock_date = '2026-09-30' where organization_id = ${org.id}`.execute(
      handle.db,
    );
    await expect(insert('2026-09-15', 100, 100)).rejects.toThrow(/locked/);
    await expect(
      sql`insert into journal_lines (organization_id, entry_id, line_no, account_id, date, entry_number, debit, credit)
          values (${org.id}, 'nope', 1, ${org.accounts.bank!}, '2026-10-01', 1, 100, 100)`.execute(handle.db),
    ).rejects.toThrow();
    expect(await countRows('journal_lines', org.id)).toBe(0);
    expect(await countRows('account_period_balances', org.id)).toBe(0);
  });

  it('refuses lines slipped into an entry posted in an earlier transaction', async () => {
    const org = await createTestCompanyInDatabase(handle.db);
    const entry = await postSale(org, '2026-08-01', 100);
    await expect(
      insertRawLines(
        handle.db,
        org.id,
        { id: entry.id, number: entry.number!, date: '2026-08-01' },
        3,
        [org.accounts.bank!, 50],
        [org.accounts.sales!, 50],
      ),
    ).rejects.toThrow(/posted in this transaction/);
  });

  it('refuses a line on another company’s account at the database level', async () => {
    const org = await createTestCompanyInDatabase(handle.db);
    const other = await createTestCompanyInDatabase(handle.db);
    await expect(
      handle.db.transaction().execute(async (trx) => {
        const entry = { id: 'x-co', number: 1, date: '2026-10-01' };
        await insertRawEntry(trx, org.id, entry);
        await insertRawLines(trx, org.id, entry, 1, [other.accounts.bank!, 100], [org.accounts.sales!, 100]);
      }),
    ).rejects.toThrow(/foreign key/);
  });
});
