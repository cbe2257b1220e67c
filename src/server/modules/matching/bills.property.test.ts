import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTestCompany } from '../../testing/companies.ts';
import { api, ensureLedger, systemAccount } from '../../testing/invoices.ts';
import { setUpTestApp } from '../../testing/per-file-app.ts';
import {
  ledgerAccountBalance,
  moneyAccountMismatches,
  trialBalanceDifference,
} from '../../testing/transactions.ts';

// Random sequences of matching money-out lines to bills and unmatching them (refused ones
// included) keep, after every step: the trial balance at zero; the accounts payable balance
// equal to what the open bills still owe; each bill's paid amount what the model says; the
// bank's ledger balance what its register says (the Wallet) and unchanged by matching (the
// cash was already there); and a refused step changes nothing.

const t = setUpTestApp();

const BILLS = [10_000, 6_000, 4_000];
const LINES = [10_000, 6_000, 3_000, 1_000, 4_000];

type Op = { kind: 'match'; line: number; bills: number[] } | { kind: 'unmatch'; line: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('match' as const),
      line: fc.nat(LINES.length - 1),
      bills: fc.uniqueArray(fc.nat(BILLS.length - 1), { minLength: 1, maxLength: 3 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('unmatch' as const), line: fc.nat(LINES.length - 1) }),
  },
);

describe('bill match and unmatch sequences', () => {
  it('keep the books, the bills and the bank balance right after every step', {
    timeout: 600_000,
  }, async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 8 }), async (ops) => {
        const company = await createTestCompany(t.app, { name: `Bill Property ${run++}` });
        await ensureLedger(t.database, company);
        const client = api(t.app, company);
        const db = t.database.db;
        const money = await client.post('/wallet/accounts', {
          name: 'Bank',
          kind: 'bank',
          currency: 'USD',
          openingDate: '2026-01-01',
        });
        expect(money.status).toBe(201);
        const supplier = await client.post('/suppliers', { name: 'Property Supplier' });
        expect(supplier.status, JSON.stringify(supplier.body)).toBe(201);
        const expense = await systemAccount(t.database, company.id, 'uncategorized_expense');
        const payable = await systemAccount(t.database, company.id, 'accounts_payable');
        const billIds: string[] = [];
        for (const amount of BILLS) {
          const b = await client.post('/bills', {
            supplierId: supplier.body.id,
            issueDate: '2026-03-01',
            lines: [{ description: 'Goods', quantity: '1', unitPrice: amount, accountId: expense }],
          });
          expect(b.status, JSON.stringify(b.body)).toBe(201);
          expect((await client.post(`/bills/${b.body.id}/submit`, {})).status).toBe(200);
          billIds.push(b.body.id);
        }
        const lineIds: string[] = [];
        for (const [i, amount] of LINES.entries()) {
          const l = await client.post('/transactions', {
            moneyAccountId: money.body.id,
            date: '2026-03-10',
            description: `Payment ${i}`,
            amount: -amount,
          });
          expect(l.status).toBe(201);
          lineIds.push(l.body.id);
        }
        const bankBalance = await ledgerAccountBalance(db, company.id, money.body.ledgerAccountId);
        // The model: what each bill has paid, and which line pays what.
        const paid = BILLS.map(() => 0);
        const matched = new Map<number, { bill: number; amount: number }[]>();

        const state = async () =>
          db
            .selectFrom('bills')
            .select(['id', 'amount_paid', 'balance_base', 'status'])
            .where('organization_id', '=', company.id)
            .orderBy('id')
            .execute();

        for (const op of ops) {
          const before = await state();
          const entriesBefore = await db
            .selectFrom('journal_entries')
            .select('id')
            .where('organization_id', '=', company.id)
            .execute();
          let expectOk: boolean;
          let res: { status: number; body: unknown };
          if (op.kind === 'match') {
            let remaining = LINES[op.line]!;
            const allocations = op.bills.map((b) => {
              const amount = Math.min(remaining, BILLS[b]! - paid[b]!);
              remaining -= amount;
              return { bill: b, amount };
            });
            if (remaining > 0) allocations[allocations.length - 1]!.amount += remaining;
            expectOk =
              !matched.has(op.line) &&
              remaining === 0 &&
              allocations.every((a) => a.amount > 0 && a.amount <= BILLS[a.bill]! - paid[a.bill]!);
            res = await client.post(`/transactions/${lineIds[op.line]}/match`, {
              bills: allocations.map((a) => ({ billId: billIds[a.bill], amount: a.amount })),
            });
            if (expectOk) {
              for (const a of allocations) paid[a.bill]! += a.amount;
              matched.set(op.line, allocations);
            }
          } else {
            expectOk = matched.has(op.line);
            res = await client.delete(`/transactions/${lineIds[op.line]}/match`);
            if (expectOk) {
              for (const a of matched.get(op.line)!) paid[a.bill]! -= a.amount;
              matched.delete(op.line);
            }
          }
          if (expectOk) expect(res.status, JSON.stringify(res.body)).toBe(200);
          else {
            expect(res.status, JSON.stringify(res.body)).toBeGreaterThanOrEqual(400);
            expect(res.status).toBeLessThan(500);
            expect(await state()).toEqual(before);
            const entriesAfter = await db
              .selectFrom('journal_entries')
              .select('id')
              .where('organization_id', '=', company.id)
              .execute();
            expect(entriesAfter.length).toBe(entriesBefore.length);
          }
          // The invariants.
          expect(await trialBalanceDifference(db, company.id)).toBe(0);
          expect(await moneyAccountMismatches(db, company.id)).toEqual([]);
          expect(await ledgerAccountBalance(db, company.id, money.body.ledgerAccountId)).toBe(bankBalance);
          const bills = await db
            .selectFrom('bills')
            .select(['id', 'amount_paid', 'balance_base', 'status'])
            .where('organization_id', '=', company.id)
            .execute();
          for (const [i, id] of billIds.entries()) {
            const row = bills.find((b) => b.id === id)!;
            expect(Number(row.amount_paid)).toBe(paid[i]);
            expect(Number(row.balance_base)).toBe(BILLS[i]! - paid[i]!);
            expect(row.status).toBe(
              paid[i] === 0 ? 'open' : paid[i] === BILLS[i] ? 'paid' : 'partially_paid',
            );
          }
          const owed = bills.reduce((s, b) => s + Number(b.balance_base), 0);
          // 0 - owed, not -owed: when every bill is paid, -0 is not toBe 0.
          expect(await ledgerAccountBalance(db, company.id, payable)).toBe(0 - owed);
        }
      }),
      { numRuns: 6 },
    );
  });
});
