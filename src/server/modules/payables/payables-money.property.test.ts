import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expectBooksAgree, moneySnapshot } from '../../testing/payables-money.ts';
import { addTestSupplier, createOpenTestBill, setUpTestPayables } from '../../testing/payables.ts';

// Random sequences of partial payments, supplier credit applications and their removal on one
// bill (in the base currency or in euros at random rates) through the API. Whatever the order
// and amounts: nothing is ever overpaid (a step asking for more than is due is refused with 400
// and changes nothing), amount due + paid + credited = total, the bill is paid exactly when
// nothing is due and then owes nothing in base either, and after every step the books balance
// and accounts payable equals the open bills less the credit not yet used.

const fixture = setUpTestPayables({ name: 'Property Co' });

type Step =
  | { kind: 'pay'; amount: number; rate: string }
  | { kind: 'credit'; amount: number }
  | { kind: 'removePayment'; pick: number }
  | { kind: 'unapply'; pick: number };

const rate = fc
  .integer({ min: 5_000, max: 20_000 })
  .map((n) => (n / 10_000).toFixed(4).replace(/0+$/, '').replace(/\.$/, ''));

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('pay' as const),
      amount: fc.integer({ min: 1, max: 7_000 }),
      rate,
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('credit' as const),
      amount: fc.integer({ min: 1, max: 6_000 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('removePayment' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('unapply' as const), pick: fc.nat() }) },
);

let runNo = 0;
const runs = Number(process.env.PROPERTY_RUNS ?? 12);

describe('payments and credits on a bill, in any order', () => {
  it('never overpay, keep due + paid + credited = total, and keep accounts payable in agreement', async () => {
    const euroSupplier = await addTestSupplier(fixture.t.database, fixture.company, {
      name: 'Random Euro GmbH',
      currency: 'EUR',
    });
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        rate,
        rate,
        fc.integer({ min: 1_000, max: 12_000 }),
        fc.array(step, { minLength: 1, maxLength: 7 }),
        async (foreign, billRate, creditRate, unitPrice, steps) => {
          runNo += 1;
          const supplierId = foreign ? euroSupplier : fixture.fx.supplierId;
          const bill = await createOpenTestBill(fixture.client, fixture.fx, {
            supplierId,
            reference: `P-${runNo}`,
            ...(foreign ? { exchangeRate: billRate } : {}),
            lines: [{ description: 'Goods', quantity: '1', unitPrice }],
          });
          const credit = await fixture.client.post('/supplier-credits', {
            supplierId,
            date: '2026-03-02',
            reference: `PC-${runNo}`,
            ...(foreign ? { exchangeRate: creditRate } : {}),
            lines: [{ description: 'Allowance', quantity: '1', unitPrice: 5_000 }],
          });
          expect(credit.status, JSON.stringify(credit.body)).toBe(201);
          const creditId = credit.body.id as string;
          for (const s of steps) {
            const now = (await fixture.client.get(`/bills/${bill.id}`)).body;
            const creditNow = (await fixture.client.get(`/supplier-credits/${creditId}`)).body;
            const before = await moneySnapshot(fixture.t.database, fixture.company.id);
            let status = 0;
            if (s.kind === 'pay') {
              const res = await fixture.client.post(`/bills/${bill.id}/payments`, {
                date: '2026-03-05',
                amount: s.amount,
                paymentAccountId: fixture.fx.bankId,
                ...(foreign ? { exchangeRate: s.rate } : {}),
              });
              status = res.status;
              if (now.storedStatus === 'paid') expect(res.status).toBe(409);
              else if (s.amount > now.amountDue) {
                expect(res.status).toBe(400);
                expect(res.body.error.code).toBe('overpayment');
              } else expect(res.status, JSON.stringify(res.body)).toBe(201);
            } else if (s.kind === 'credit') {
              const res = await fixture.client.post(`/supplier-credits/${creditId}/apply`, {
                billId: bill.id,
                amount: s.amount,
                date: '2026-03-05',
              });
              status = res.status;
              if (now.storedStatus === 'paid') expect(res.status).toBe(409);
              else if (s.amount > creditNow.amountLeft) expect(res.body.error?.code).toBe('exceeds_credit');
              else if (s.amount > now.amountDue) expect(res.body.error?.code).toBe('overpayment');
              else expect(res.status, JSON.stringify(res.body)).toBe(200);
            } else if (s.kind === 'removePayment') {
              const live = now.payments.filter((p: { reversed: boolean }) => !p.reversed);
              if (live.length === 0) continue;
              const p = live[s.pick % live.length];
              const res = await fixture.client.delete(`/bills/${bill.id}/payments/${p.id}`);
              status = res.status;
              expect(res.status, JSON.stringify(res.body)).toBe(200);
            } else {
              const live = creditNow.allocations.filter((a: { reversed: boolean }) => !a.reversed);
              if (live.length === 0) continue;
              const a = live[s.pick % live.length];
              const res = await fixture.client.delete(`/supplier-credits/${creditId}/allocations/${a.id}`);
              status = res.status;
              expect(res.status, JSON.stringify(res.body)).toBe(200);
            }
            const after = (await fixture.client.get(`/bills/${bill.id}`)).body;
            if (status >= 400) {
              // A refused step changed nothing at all.
              expect(await moneySnapshot(fixture.t.database, fixture.company.id)).toEqual(before);
            }
            expect(after.amountDue).toBeGreaterThanOrEqual(0);
            expect(after.amountDue + after.amountPaid + after.amountCredited).toBe(after.total);
            const livePaid = after.payments
              .filter((p: { reversed: boolean }) => !p.reversed)
              .reduce((sum: number, p: { amount: number }) => sum + p.amount, 0);
            const liveCredited = after.creditsApplied
              .filter((c: { reversed: boolean }) => !c.reversed)
              .reduce((sum: number, c: { amount: number }) => sum + c.amount, 0);
            expect(after.amountPaid).toBe(livePaid);
            expect(after.amountCredited).toBe(liveCredited);
            expect(after.storedStatus).toBe(
              after.amountDue === 0 ? 'paid' : after.amountDue === after.total ? 'open' : 'partially_paid',
            );
            if (after.amountDue === 0) expect(after.balanceBase).toBe(0);
            if (after.amountDue === after.total) expect(after.balanceBase).toBe(after.totalBase);
            const creditAfter = (await fixture.client.get(`/supplier-credits/${creditId}`)).body;
            expect(creditAfter.amountLeft + creditAfter.amountApplied + creditAfter.amountRefunded).toBe(
              creditAfter.total,
            );
            expect(creditAfter.amountLeft).toBeGreaterThanOrEqual(0);
            await expectBooksAgree(fixture);
          }
        },
      ),
      { numRuns: runs },
    );
    expect(runNo).toBeGreaterThanOrEqual(runs);
  }, 600_000);
});
