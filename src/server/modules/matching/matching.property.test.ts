import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { setUpTestApp } from '../../testing/per-file-app.ts';
import { createTestCompany } from '../../testing/companies.ts';
import { api, ensureLedger } from '../../testing/invoices.ts';
import { ledgerAccountBalance, trialBalanceDifference } from '../../testing/transactions.ts';

// Random sequences of match and unmatch (to invoices, to a payment recorded by hand, refused
// ones included) keep, after every step: the trial balance at zero; each invoice's paid amount
// equal to the sum of its payments not removed, and to what the model says; the money
// account's ledger balance unchanged by matching to invoices (the cash was already there) and
// lower by the payment's amount exactly while the line is matched to the recorded payment (the
// same cash had been counted twice); and a refused step changes nothing.

const t = setUpTestApp();

const INVOICES = [10_000, 6_000, 4_000];
const LINES = [10_000, 6_000, 3_000, 1_000, 4_000];
const RECORDED = 4_000;

type Op =
  | { kind: 'match'; line: number; invoices: number[] }
  | { kind: 'matchPayment'; line: number }
  | { kind: 'unmatch'; line: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('match' as const),
      line: fc.nat(LINES.length - 1),
      invoices: fc.uniqueArray(fc.nat(INVOICES.length - 1), { minLength: 1, maxLength: 3 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('matchPayment' as const), line: fc.nat(LINES.length - 1) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('unmatch' as const), line: fc.nat(LINES.length - 1) }),
  },
);

describe('match and unmatch sequences', () => {
  it('keep the books, the invoices and the bank balance right after every step', {
    timeout: 300_000,
  }, async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 10 }), async (ops) => {
        const company = await createTestCompany(t.app, { name: `Property ${run++}` });
        await ensureLedger(t.database, company);
        const client = api(t.app, company);
        const db = t.database.db;
        const money = await client.post('/wallet/accounts', {
          name: 'Bank',
          kind: 'bank',
          currency: 'USD',
          openingDate: '2026-01-01',
        });
        const { ledger_account_id: bankLedger } = await db
          .selectFrom('money_accounts')
          .select('ledger_account_id')
          .where('organization_id', '=', company.id)
          .where('id', '=', money.body.id)
          .executeTakeFirstOrThrow();
        const customer = await client.post('/customers', { name: 'Northwind', email: 'n@example.com' });
        const invoiceIds: string[] = [];
        for (const amount of INVOICES) {
          const created = await client.post('/invoices', {
            customerId: customer.body.id,
            issueDate: '2026-03-01',
            lines: [{ description: 'Work', quantity: '1', unitPrice: amount }],
          });
          await client.post(`/invoices/${created.body.id}/send`, { email: false });
          invoiceIds.push(created.body.id);
        }
        // A payment recorded by hand on the last invoice, which the 4,000 line may be.
        const recorded = await client.post(`/invoices/${invoiceIds[2]}/payments`, {
          date: '2026-03-05',
          amount: RECORDED,
          depositAccountId: bankLedger,
        });
        expect(recorded.status, JSON.stringify(recorded.body)).toBe(201);
        const paymentId = recorded.body.paymentId as string;
        const lineIds: string[] = [];
        for (const [i, amount] of LINES.entries()) {
          const res = await client.post('/transactions', {
            moneyAccountId: money.body.id,
            date: '2026-03-10',
            description: `Statement line ${i}`,
            amount,
          });
          lineIds.push(res.body.id);
        }
        const bankBalance = () => ledgerAccountBalance(db, company.id, bankLedger);
        const bankAtStart = await bankBalance();

        // The model: what each line settles on each invoice, and whether the payment is matched.
        const matched = new Map<number, { invoice: number; amount: number }[] | 'payment'>();
        const paidByModel = () => {
          const paid = INVOICES.map(() => 0);
          paid[2]! += RECORDED;
          for (const m of matched.values())
            if (m !== 'payment') for (const a of m) paid[a.invoice]! += a.amount;
          return paid;
        };
        const state = async () => {
          const invoices = await db
            .selectFrom('invoices')
            .select(['id', 'amount_paid', 'status', 'balance_base'])
            .where('organization_id', '=', company.id)
            .orderBy('id')
            .execute();
          const lines = await db
            .selectFrom('bank_transactions')
            .select(['id', 'entry_id', 'category_kind'])
            .where('organization_id', '=', company.id)
            .orderBy('id')
            .execute();
          const entries = await db
            .selectFrom('journal_entries')
            .select(({ fn }) => fn.countAll<number>().as('n'))
            .where('organization_id', '=', company.id)
            .executeTakeFirstOrThrow();
          return { invoices, lines, entries: Number(entries.n) };
        };

        for (const op of ops) {
          const before = await state();
          let res: { status: number; body: any };
          const lineId = lineIds[op.line]!;
          let plan: { invoice: number; amount: number }[] | 'payment' | null = null;
          if (op.kind === 'unmatch') {
            res = await client.delete(`/transactions/${lineId}/match`);
          } else if (op.kind === 'matchPayment') {
            plan = 'payment';
            res = await client.post(`/transactions/${lineId}/match`, { paymentId });
          } else {
            // Spread the line over the chosen invoices, each up to what the model says is due;
            // anything left over goes on the first (then the API must refuse an overpayment).
            const due = INVOICES.map((total, i) => total - paidByModel()[i]!);
            let left = LINES[op.line]!;
            const allocations = op.invoices.map((i) => {
              const amount = Math.min(left, Math.max(due[i]!, 0));
              left -= amount;
              return { invoice: i, amount };
            });
            allocations[0]!.amount += left;
            plan = allocations.filter((a) => a.amount > 0);
            res = await client.post(`/transactions/${lineId}/match`, {
              invoices: plan.map((a) => ({ invoiceId: invoiceIds[a.invoice], amount: a.amount })),
            });
          }
          expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
          // What the model expects the API to do.
          const due = INVOICES.map((total, i) => total - paidByModel()[i]!);
          let expectOk: boolean;
          if (op.kind === 'unmatch') expectOk = matched.has(op.line);
          else if (matched.has(op.line)) expectOk = false;
          else if (plan === 'payment')
            expectOk = LINES[op.line] === RECORDED && ![...matched.values()].includes('payment');
          else
            expectOk =
              plan !== null &&
              plan.length > 0 &&
              plan.every((a) => a.amount <= due[a.invoice]! && due[a.invoice]! > 0);
          expect(res.status < 300, `${JSON.stringify(op)} → ${res.status} ${JSON.stringify(res.body)}`).toBe(
            expectOk,
          );
          if (res.status < 300) {
            if (op.kind === 'unmatch') matched.delete(op.line);
            else matched.set(op.line, plan!);
          } else {
            expect(await state()).toEqual(before);
          }

          expect(await trialBalanceDifference(db, company.id)).toBe(0);
          const paymentMatched = [...matched.values()].includes('payment');
          expect(await bankBalance()).toBe(bankAtStart - (paymentMatched ? RECORDED : 0));
          const payments = await db
            .selectFrom('invoice_payments')
            .select(['invoice_id', 'amount'])
            .where('organization_id', '=', company.id)
            .where('reversal_entry_id', 'is', null)
            .execute();
          const rows = await db
            .selectFrom('invoices')
            .select(['id', 'amount_paid'])
            .where('organization_id', '=', company.id)
            .execute();
          const model = paidByModel();
          for (const [i, id] of invoiceIds.entries()) {
            const row = rows.find((r) => r.id === id)!;
            const sum = payments.filter((p) => p.invoice_id === id).reduce((s, p) => s + Number(p.amount), 0);
            expect(Number(row.amount_paid)).toBe(sum);
            expect(Number(row.amount_paid)).toBe(model[i]);
          }
        }
      }),
      { numRuns: Number(process.env.MATCH_RUNS ?? 12), seed: Number(process.env.MATCH_SEED ?? 20261125) },
    );
  });
});
