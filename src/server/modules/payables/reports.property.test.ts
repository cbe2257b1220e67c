import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays } from '../../../shared/dates.ts';
import { balancesOn } from '../../testing/invoices.ts';
import { addTestSupplier, createOpenTestBill, setUpTestPayables } from '../../testing/payables.ts';

// For random bills (base or foreign currency, any due date) and random partial payments (at
// another rate for foreign bills), some removed again: on every date the AP aging's buckets
// add up per supplier and overall, and its total equals the accounts payable balance in the
// ledger on that date.

const fixture = setUpTestPayables({ name: 'Aging Property Co', now: '2026-12-31T12:00:00Z' });

const billArb = fc.record({
  foreign: fc.boolean(),
  amount: fc.integer({ min: 1, max: 5_000_000 }),
  issueDay: fc.integer({ min: 0, max: 150 }),
  terms: fc.integer({ min: 0, max: 120 }),
  rate: fc.constantFrom('1.1', '0.9', '1.2345'),
  payments: fc.array(
    fc.record({
      share: fc.integer({ min: 1, max: 100 }),
      after: fc.integer({ min: 0, max: 120 }),
      rate: fc.constantFrom('1.05', '1.3'),
      remove: fc.boolean(),
    }),
    { maxLength: 2 },
  ),
});

const BASE = '2026-01-01';
let run = 0;

describe('AP aging agrees with the ledger', () => {
  it('on every date, for random bills and payments', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(billArb, { minLength: 1, maxLength: 3 }),
        fc.array(fc.integer({ min: 0, max: 330 }), { minLength: 2, maxLength: 3 }),
        async (bills, asOfDays) => {
          run += 1;
          const usd = await addTestSupplier(fixture.t.database, fixture.company, { name: `USD ${run}` });
          const eur = await addTestSupplier(fixture.t.database, fixture.company, {
            name: `EUR ${run}`,
            currency: 'EUR',
          });
          for (const spec of bills) {
            const issueDate = addDays(BASE, spec.issueDay);
            const bill = await createOpenTestBill(fixture.client, fixture.fx, {
              supplierId: spec.foreign ? eur : usd,
              issueDate,
              dueDate: addDays(issueDate, spec.terms),
              ...(spec.foreign ? { currency: 'EUR', exchangeRate: spec.rate } : {}),
              lines: [{ description: 'Goods', quantity: '1', unitPrice: spec.amount, taxRateIds: [] }],
            });
            let left = bill.amountDue as number;
            for (const p of spec.payments) {
              const amount = Math.min(left, Math.max(1, Math.floor((bill.total * p.share) / 100)));
              if (left <= 0 || amount <= 0) break;
              const res = await fixture.client.post(`/bills/${bill.id}/payments`, {
                date: addDays(issueDate, p.after),
                amount,
                paymentAccountId: fixture.fx.bankId,
                ...(spec.foreign ? { exchangeRate: p.rate } : {}),
              });
              expect(res.status, JSON.stringify(res.body)).toBe(201);
              left -= amount;
              if (p.remove) {
                const removed = await fixture.client.delete(
                  `/bills/${bill.id}/payments/${res.body.paymentId}`,
                );
                expect(removed.status, JSON.stringify(removed.body)).toBe(200);
                left += amount;
              }
            }
          }
          for (const day of [...asOfDays, 400]) {
            const asOf = addDays(BASE, day);
            const res = await fixture.client.get(`/payables/aging?asOf=${asOf}`);
            expect(res.status).toBe(200);
            const report = res.body;
            const keys = ['current', 'days1to30', 'days31to60', 'days61to90', 'over90'] as const;
            for (const row of report.rows) expect(keys.reduce((s, k) => s + row[k], 0)).toBe(row.total);
            for (const k of [...keys, 'total'] as const) {
              expect(report.rows.reduce((s: number, r: Record<string, number>) => s + r[k]!, 0)).toBe(
                report.totals[k],
              );
            }
            const ledger =
              (await balancesOn(fixture.t.database, fixture.company.id, asOf)).byId.get(
                fixture.fx.payableId,
              ) ?? 0;
            expect(report.ledgerBalance).toBe(0 - ledger);
            expect(report.totals.total).toBe(report.ledgerBalance);
          }
        },
      ),
      { numRuns: 8 },
    );
  }, 240_000);
});
