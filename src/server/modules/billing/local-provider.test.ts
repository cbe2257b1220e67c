import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addInterval, addMonthsUtc, discounted, mulDivRound, prorate } from './local-provider.ts';

// The local provider's arithmetic: proration to the cent, discounts, month steps.

const DAY = 86_400_000;
const start = new Date('2027-01-15T12:00:00Z');
const end = new Date('2027-02-15T12:00:00Z');

describe('proration', () => {
  it('works the documented example: Business to Enterprise with 21 of 31 days left', () => {
    expect(
      prorate({
        oldPrice: 4900,
        newPrice: 14900,
        periodStart: start,
        periodEnd: end,
        now: new Date(start.getTime() + 10 * DAY),
        sameInterval: true,
        newInterval: 'monthly',
      }),
    ).toEqual({ credit: 3319, charge: 10094, net: 6775, periodEnd: end });
  });

  const price = fc.integer({ min: 0, max: 1_000_000 });
  const at = fc.integer({ min: -5 * DAY, max: 40 * DAY });

  it('credits and charges each within half a cent of the exact share, net = charge − credit', () => {
    fc.assert(
      fc.property(price, price, at, fc.boolean(), (oldPrice, newPrice, offset, sameInterval) => {
        const now = new Date(start.getTime() + offset);
        const p = prorate({
          oldPrice,
          newPrice,
          periodStart: start,
          periodEnd: end,
          now,
          sameInterval,
          newInterval: 'yearly',
        });
        const period = end.getTime() - start.getTime();
        const remaining = Math.min(period, Math.max(0, end.getTime() - now.getTime()));
        // Exact rational comparison: |credit × period − oldPrice × remaining| ≤ period / 2.
        const off = (value: number, full: number) =>
          2n * (BigInt(value) * BigInt(period) - BigInt(full) * BigInt(remaining));
        expect(off(p.credit, oldPrice) <= BigInt(period) && off(p.credit, oldPrice) >= -BigInt(period)).toBe(
          true,
        );
        expect(p.credit).toBeGreaterThanOrEqual(0);
        expect(p.credit).toBeLessThanOrEqual(oldPrice);
        expect(p.net).toBe(p.charge - p.credit);
        if (sameInterval) {
          expect(
            off(p.charge, newPrice) <= BigInt(period) && off(p.charge, newPrice) >= -BigInt(period),
          ).toBe(true);
          expect(p.periodEnd).toEqual(end);
        } else {
          expect(p.charge).toBe(newPrice);
          expect(p.periodEnd).toEqual(addInterval(now, 'yearly'));
        }
        // The same plan on the same interval costs nothing to change.
        if (sameInterval && oldPrice === newPrice) expect(p.net).toBe(0);
      }),
    );
  });

  it('credits everything at the start and nothing at the end', () => {
    fc.assert(
      fc.property(price, (oldPrice) => {
        const base = {
          oldPrice,
          newPrice: 0,
          periodStart: start,
          periodEnd: end,
          sameInterval: true,
          newInterval: 'monthly' as const,
        };
        expect(prorate({ ...base, now: start }).credit).toBe(oldPrice);
        expect(prorate({ ...base, now: end }).credit).toBe(0);
      }),
    );
  });

  it('rounds half up exactly and takes discounts to the cent', () => {
    expect(mulDivRound(1, 1, 2)).toBe(1);
    expect(mulDivRound(5, 1, 4)).toBe(1);
    expect(mulDivRound(999_999, 2_678_400_000, 2_678_400_000)).toBe(999_999);
    expect(discounted(4900, 25)).toBe(3675);
    expect(discounted(1900, 15)).toBe(1615);
    expect(discounted(1999, 50)).toBe(999); // 999.5 off rounds up to 1000
    expect(discounted(4900, null)).toBe(4900);
  });

  it('steps months in UTC with the day clamped', () => {
    expect(addMonthsUtc(new Date('2027-01-31T10:00:00Z'), 1).toISOString()).toBe('2027-02-28T10:00:00.000Z');
    expect(addMonthsUtc(new Date('2028-01-31T10:00:00Z'), 1).toISOString()).toBe('2028-02-29T10:00:00.000Z');
    expect(addInterval(new Date('2027-03-15T00:00:00Z'), 'yearly').toISOString()).toBe(
      '2028-03-15T00:00:00.000Z',
    );
    expect(addInterval(new Date('2027-03-15T00:00:00Z'), 'monthly', -1).toISOString()).toBe(
      '2027-02-15T00:00:00.000Z',
    );
  });
});
