import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { createTestDatabase, testDatabaseKind } from '../../testing/db.ts';
import { updateLedgerSettings } from './accounts.ts';
import { closeFiscalYear, reopenFiscalYear } from './fiscal.ts';
import { type PostingLineInput, postJournalEntry, reverseJournalEntry } from './posting.ts';
import { balanceSheet, cashFlow, incomeStatement, trialBalance } from './reports.ts';
import { keptBalancesMismatch } from '../../testing/ledger-checks.ts';
import { debitCreditLines } from '../../testing/ledger.ts';
import { createTestCompanyInDatabase } from '../../testing/companies.ts';

// Any sequence of valid postings, reversals, closes and lock-date changes keeps the books
// balanced and the kept balances equal to the lines; any invalid posting is refused with a
// clear error and changes nothing.

let handle: DatabaseHandle;
let other: Awaited<ReturnType<typeof createTestCompanyInDatabase>>;
beforeAll(async () => {
  handle = await createTestDatabase();
  other = await createTestCompanyInDatabase(handle.db);
});
afterAll(async () => {
  await handle?.close();
});

const KEYS = [
  'bank',
  'cash',
  'accounts_receivable',
  'accounts_payable',
  'sales',
  'wages',
  'cost_of_goods_sold',
  'owner_equity',
  'equipment',
  'loans_payable',
  'retained_earnings',
];

const date = fc
  .tuple(
    fc.integer({ min: 2024, max: 2026 }),
    fc.integer({ min: 1, max: 12 }),
    fc.integer({ min: 1, max: 28 }),
  )
  .map(([y, m, d]) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`);

const balancedLines = fc
  .array(fc.tuple(fc.integer({ min: 0, max: KEYS.length - 1 }), fc.integer({ min: 1, max: 5_000_000 })), {
    minLength: 1,
    maxLength: 3,
  })
  .chain((debits) =>
    fc.integer({ min: 0, max: KEYS.length - 1 }).map((creditKey) => ({
      debits,
      creditKey,
    })),
  );

type Op =
  | { kind: 'post'; date: string; lines: { debits: [number, number][]; creditKey: number } }
  | { kind: 'reverse'; pick: number; date: string }
  | { kind: 'close'; year: number }
  | { kind: 'reopen'; year: number }
  | { kind: 'lock'; date: string | null }
  | { kind: 'unbalanced'; date: string; amount: number }
  | { kind: 'negative'; date: string; amount: number }
  | { kind: 'crossCompany'; date: string; amount: number }
  | { kind: 'locked'; amount: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('post' as const), date, lines: balancedLines }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('reverse' as const), pick: fc.nat(), date }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('close' as const), year: fc.integer({ min: 2024, max: 2025 }) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('reopen' as const),
      year: fc.integer({ min: 2024, max: 2025 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('lock' as const), date: fc.option(date, { nil: null }) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('unbalanced' as const),
      date,
      amount: fc.integer({ min: 2, max: 1_000_000 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('negative' as const),
      date,
      amount: fc.integer({ min: 1, max: 1_000_000 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('crossCompany' as const),
      date,
      amount: fc.integer({ min: 1, max: 1_000_000 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('locked' as const),
      amount: fc.integer({ min: 1, max: 1_000_000 }),
    }),
  },
);

const snapshot = async (organizationId: string) => {
  const r = await sql<{ lines: string; entries: string; next: number; kept: string | null }>`
    select (select count(*) from journal_lines where organization_id = ${organizationId}) as lines,
           (select count(*) from journal_entries where organization_id = ${organizationId}) as entries,
           (select next_entry_number from ledger_settings where organization_id = ${organizationId}) as next,
           (select sum(debit * 3 + credit * 7)::text from account_period_balances where organization_id = ${organizationId}) as kept`.execute(
    handle.db,
  );
  return r.rows[0];
};

const expectRefused = async (organizationId: string, run: () => Promise<unknown>, codes: string[]) => {
  const before = await snapshot(organizationId);
  const error = await run().then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect(codes).toContain((error as AppError).code);
  expect((error as AppError).message.length).toBeGreaterThan(10);
  expect(await snapshot(organizationId)).toEqual(before);
};

const ALLOWED_REFUSALS = [
  'period_locked',
  'fiscal_year_closed',
  'fiscal_year_already_closed',
  'fiscal_year_not_closed',
  'reopen_later_year_first',
  'entry_already_reversed',
];

describe(`ledger properties (${testDatabaseKind()})`, () => {
  it('keeps the books balanced and the kept balances equal to the lines under any sequence of operations', async () => {
    // Counted so the test proves it exercised real postings, reversals and closes.
    const done = { post: 0, reverse: 0, close: 0, reopen: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { minLength: 1, maxLength: 14 }),
        fc.array(fc.tuple(date, date), { minLength: 1, maxLength: 3 }),
        async (ops, ranges) => {
          const org = await createTestCompanyInDatabase(handle.db);
          const acct = (i: number) => org.accounts[KEYS[i]!]!;
          const posted: string[] = [];
          let lockDate: string | null = null;
          const attempt = async (run: () => Promise<{ id: string } | unknown>) => {
            const before = await snapshot(org.id);
            try {
              return await run();
            } catch (error) {
              expect(error).toBeInstanceOf(AppError);
              expect(ALLOWED_REFUSALS).toContain((error as AppError).code);
              expect(await snapshot(org.id)).toEqual(before);
              done.refused += 1;
              return null;
            }
          };
          const base = { organizationId: org.id, source: 'manual' as const, actorUserId: 'prop' };
          const post = (date: string, lines: PostingLineInput[]) =>
            postJournalEntry(handle.db, { ...base, date, lines });
          /** Runs a valid operation and counts it unless it was refused. */
          const count = async (kind: keyof typeof done, run: () => Promise<unknown>) => {
            const result = await attempt(run);
            if (result) done[kind] += 1;
            return result as { id: string } | null;
          };
          const fiscalYear = (change: typeof closeFiscalYear | typeof reopenFiscalYear, year: number) =>
            change(handle.db, { organizationId: org.id, endDate: `${year}-12-31`, actorUserId: 'prop' });
          for (const o of ops) {
            switch (o.kind) {
              case 'post': {
                const total = o.lines.debits.reduce((s, [, a]) => s + a, 0);
                const lines: PostingLineInput[] = [
                  ...o.lines.debits.map(([k, a]) => ({ accountId: acct(k), debit: a })),
                  { accountId: acct(o.lines.creditKey), credit: total },
                ];
                const entry = await count('post', () => post(o.date, lines));
                if (entry) posted.push(entry.id);
                break;
              }
              case 'reverse': {
                if (posted.length === 0) break;
                const id = posted[o.pick % posted.length]!;
                const entry = await count('reverse', () =>
                  reverseJournalEntry(handle.db, {
                    organizationId: org.id,
                    entryId: id,
                    date: o.date,
                    actorUserId: 'prop',
                  }),
                );
                if (entry) posted.push(entry.id);
                break;
              }
              case 'close':
                await count('close', () => fiscalYear(closeFiscalYear, o.year));
                break;
              case 'reopen':
                await count('reopen', () => fiscalYear(reopenFiscalYear, o.year));
                break;
              case 'lock':
                await updateLedgerSettings(handle.db, org.id, 'prop', { lockDate: o.date });
                lockDate = o.date;
                break;
              case 'unbalanced':
                await expectRefused(
                  org.id,
                  () => post(o.date, debitCreditLines(acct(0), acct(4), o.amount, o.amount - 1)),
                  ['entry_unbalanced'],
                );
                break;
              case 'negative':
                await expectRefused(
                  org.id,
                  () => post(o.date, debitCreditLines(acct(0), acct(4), -o.amount)),
                  ['negative_amount'],
                );
                break;
              case 'crossCompany':
                await expectRefused(
                  org.id,
                  () => post(o.date, debitCreditLines(acct(0), other.accounts.sales!, o.amount)),
                  ['account_not_found'],
                );
                break;
              case 'locked':
                if (!lockDate) break;
                await expectRefused(
                  org.id,
                  () => post(lockDate!, debitCreditLines(acct(0), acct(4), o.amount)),
                  ['period_locked'],
                );
                break;
            }
          }
          expect(await keptBalancesMismatch(handle.db, org.id)).toEqual([]);
          const tb = await trialBalance(handle.db, org.id, { to: '2027-12-31' });
          expect(tb.totals.debit).toBe(tb.totals.credit);
          expect(tb.totals.closingDebit).toBe(tb.totals.closingCredit);
          const tbRange = await trialBalance(handle.db, org.id, { from: '2025-02-14', to: '2025-11-03' });
          expect(tbRange.totals.debit).toBe(tbRange.totals.credit);
          for (const asOf of ['2024-06-15', '2024-12-31', '2025-12-31', '2026-03-31', '2027-01-01']) {
            const bs = await balanceSheet(handle.db, org.id, asOf);
            expect(bs.balanced, `balance sheet as of ${asOf}`).toBe(true);
          }
          // Any range, month-aligned or not: kept balances plus edge days equal a plain sum of lines.
          for (const [x, y] of ranges) {
            const [from, to] = x <= y ? [x, y] : [y, x];
            const tbr = await trialBalance(handle.db, org.id, { from, to });
            const naive = await sql<{ account_id: string; debit: string; credit: string; before: string }>`
            select account_id,
                   sum(case when date >= ${from} then debit else 0 end) as debit,
                   sum(case when date >= ${from} then credit else 0 end) as credit,
                   sum(case when date < ${from} then debit - credit else 0 end) as before
              from journal_lines where organization_id = ${org.id} and date <= ${to} group by account_id`.execute(
              handle.db,
            );
            for (const n of naive.rows) {
              const row = tbr.rows.find((r) => r.accountId === n.account_id);
              expect(row?.debit ?? 0).toBe(Number(n.debit));
              expect(row?.credit ?? 0).toBe(Number(n.credit));
              expect(row?.openingBalance ?? 0).toBe(Number(n.before));
            }
          }
          const cf = await cashFlow(handle.db, org.id, { from: '2025-01-01', to: '2025-12-31' });
          expect(cf.totals.operating + cf.totals.investing + cf.totals.financing).toBe(cf.totals.netChange);
          const is = await incomeStatement(handle.db, org.id, { from: '2025-01-01', to: '2025-12-31' });
          expect(is.totals.netIncome).toBe(cf.netIncome);
        },
      ),
      { numRuns: testDatabaseKind() === 'postgres' ? 40 : 25 },
    );
    expect(done.post).toBeGreaterThan(10);
    expect(done.reverse).toBeGreaterThan(0);
    expect(done.close).toBeGreaterThan(0);
  }, 240_000);
});
