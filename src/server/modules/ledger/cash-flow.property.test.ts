import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CASH_SUBTYPES } from '../../../shared/ledger.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { createTestCompanyInDatabase } from '../../testing/companies.ts';
import { createTestDatabase, testDatabaseKind } from '../../testing/db.ts';
import { closeFiscalYear } from './fiscal.ts';
import { type PostingLineInput, postJournalEntry } from './posting.ts';
import { cashFlow, incomeStatement } from './reports.ts';

// The cash flow statement adds up on any books: for random balanced postings across every
// kind of account (cash, receivables, inventory, equipment, accumulated depreciation, cards,
// loans, equity, income, expenses), with or without a year-end close, and any period, the net
// change in cash equals the change in the cash accounts' balance read straight from the
// journal lines, and equals operating + investing + financing.

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle?.close();
});

const KEYS = [
  'bank',
  'cash',
  'undeposited_funds',
  'accounts_receivable',
  'inventory',
  'prepaid_expenses',
  'equipment',
  'accumulated_depreciation',
  'accounts_payable',
  'credit_card',
  'sales_tax_payable',
  'loans_payable',
  'owner_equity',
  'owner_drawings',
  'retained_earnings',
  'services',
  'cost_of_goods_sold',
  'depreciation',
  'wages',
];

const date = fc
  .tuple(
    fc.integer({ min: 2024, max: 2026 }),
    fc.integer({ min: 1, max: 12 }),
    fc.integer({ min: 1, max: 28 }),
  )
  .map(([y, m, d]) => `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`);

const posting = fc.record({
  date,
  debits: fc.array(
    fc.tuple(fc.integer({ min: 0, max: KEYS.length - 1 }), fc.integer({ min: 1, max: 5_000_000 })),
    { minLength: 1, maxLength: 3 },
  ),
  creditKey: fc.integer({ min: 0, max: KEYS.length - 1 }),
});

describe(`cash flow statement identity (${testDatabaseKind()})`, () => {
  it('net change in cash = change in the cash accounts = operating + investing + financing', async () => {
    let checked = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(posting, { minLength: 1, maxLength: 12 }),
        fc.boolean(),
        fc.tuple(date, date),
        async (postings, close, [x, y]) => {
          const org = await createTestCompanyInDatabase(handle.db);
          for (const p of postings) {
            const total = p.debits.reduce((s, [, amount]) => s + amount, 0);
            const lines: PostingLineInput[] = [
              ...p.debits.map(([k, amount]) => ({ accountId: org.accounts[KEYS[k]!]!, debit: amount })),
              { accountId: org.accounts[KEYS[p.creditKey]!]!, credit: total },
            ];
            await postJournalEntry(handle.db, {
              organizationId: org.id,
              source: 'manual',
              actorUserId: 'prop',
              date: p.date,
              lines,
            });
          }
          if (close)
            await closeFiscalYear(handle.db, {
              organizationId: org.id,
              endDate: '2024-12-31',
              actorUserId: 'prop',
            });
          const [from, to] = x <= y ? [x, y] : [y, x];
          const cf = await cashFlow(handle.db, org.id, { from, to });
          // The cash accounts' balance before and at the end of the period, from the lines.
          const naive = await sql<{ before: string; after: string }>`
            select coalesce(sum(case when l.date < ${from} then l.debit - l.credit else 0 end), 0)::text as before,
                   coalesce(sum(l.debit - l.credit), 0)::text as after
              from journal_lines l join accounts a on a.organization_id = l.organization_id and a.id = l.account_id
             where l.organization_id = ${org.id} and l.date <= ${to}
               and a.subtype in (${sql.join([...CASH_SUBTYPES])})`.execute(handle.db);
          const before = Number(naive.rows[0]!.before);
          const after = Number(naive.rows[0]!.after);
          expect(cf.totals.openingCash).toBe(before);
          expect(cf.totals.closingCash).toBe(after);
          expect(cf.totals.netChange).toBe(after - before);
          expect(cf.totals.operating + cf.totals.investing + cf.totals.financing).toBe(cf.totals.netChange);
          const sum = (xs: { amount: number }[]) => xs.reduce((s, l) => s + l.amount, 0);
          expect(cf.totals.operating).toBe(cf.netIncome + sum(cf.adjustments) + sum(cf.workingCapital));
          expect(cf.totals.investing).toBe(sum(cf.investing));
          expect(cf.totals.financing).toBe(sum(cf.financing));
          // Net income is the income statement's for the same period.
          const is = await incomeStatement(handle.db, org.id, { from, to });
          expect(cf.netIncome).toBe(is.totals.netIncome);
          // No cash account is explained by itself.
          const ids = [...cf.adjustments, ...cf.workingCapital, ...cf.investing, ...cf.financing].map(
            (l) => l.subtype,
          );
          expect(ids.filter((s) => CASH_SUBTYPES.includes(s))).toEqual([]);
          if (after !== before) checked += 1;
        },
      ),
      { numRuns: testDatabaseKind() === 'postgres' ? 40 : 25 },
    );
    // The property saw periods in which cash really moved.
    expect(checked).toBeGreaterThan(3);
  }, 240_000);
});
