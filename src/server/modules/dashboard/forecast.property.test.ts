import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FORECAST_SOURCES, type ForecastItem } from '../../../shared/dashboard.ts';
import { addDays, daysBetween } from '../../../shared/dates.ts';
import { FORECAST_WEEKS, buildForecast, forecastEnd, upcomingDueDates } from './forecast.ts';

// The forecast adds up: whatever the items and the trailing weeks, the forecast's total equals
// the sum of its inputs inside the horizon, each week's balance is the one before plus its
// inflow less its outflow, every dated item lands in exactly one week, and the band holds the
// balance. Expected values are computed here from the inputs, not from the forecast.

const TODAY = '2026-06-15';
const END = forecastEnd(TODAY);

const itemArb = fc.record({
  source: fc.constantFrom('invoice', 'bill', 'recurring_invoice', 'recurring_bill') as fc.Arbitrary<
    ForecastItem['source']
  >,
  offset: fc.integer({ min: -120, max: 140 }),
  amount: fc.integer({ min: -50_000_000, max: 50_000_000 }),
});

describe('buildForecast', () => {
  it('totals equal the sum of the inputs in the horizon; balances run week by week', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -10_000_000_00, max: 10_000_000_00 }),
        fc.array(itemArb, { maxLength: 40 }),
        fc.array(fc.integer({ min: 0, max: 5_000_000 }), { maxLength: 12 }),
        (startCash, raw, spendingWeeks) => {
          const items: ForecastItem[] = raw.map((r) => ({
            source: r.source,
            date: addDays(TODAY, r.offset),
            amount: r.amount,
            label: '',
            link: '',
          }));
          const f = buildForecast({ today: TODAY, startCash, items, spendingWeeks, spendingLink: '/x' });
          const inside = items.filter((i) => i.date <= END);
          const average =
            spendingWeeks.length === 0
              ? 0
              : Math.round(spendingWeeks.reduce((s, w) => s + w, 0) / spendingWeeks.length);
          for (const source of FORECAST_SOURCES) {
            const expected =
              source === 'unscheduled_spending'
                ? -average * FORECAST_WEEKS
                : inside.filter((i) => i.source === source).reduce((s, i) => s + i.amount, 0);
            expect(f.totals[source] + 0).toBe(expected + 0);
          }
          const all = inside.reduce((s, i) => s + i.amount, 0) - average * FORECAST_WEEKS;
          expect(f.endCash).toBe(startCash + all);
          expect(f.points).toHaveLength(FORECAST_WEEKS);
          let balance = startCash;
          for (const [k, p] of f.points.entries()) {
            expect(daysBetween(p.weekStart, p.weekEnd)).toBe(6);
            const dated = inside.filter((i) =>
              k === 0 ? i.date <= p.weekEnd : i.date >= p.weekStart && i.date <= p.weekEnd,
            );
            expect(p.inflow).toBe(dated.filter((i) => i.amount >= 0).reduce((s, i) => s + i.amount, 0));
            expect(p.outflow).toBe(
              dated.filter((i) => i.amount < 0).reduce((s, i) => s - i.amount, 0) + average,
            );
            balance += p.inflow - p.outflow;
            expect(p.balance).toBe(balance);
            expect(p.low).toBeLessThanOrEqual(p.balance);
            expect(p.high).toBeGreaterThanOrEqual(p.balance);
            expect(p.high - p.balance).toBe(p.balance - p.low);
            if (k > 0)
              expect(p.high - p.balance).toBeGreaterThanOrEqual(
                f.points[k - 1]!.high - f.points[k - 1]!.balance,
              );
          }
          expect(f.points.at(-1)!.weekEnd).toBe(END);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('has no band when every trailing week spent the same', () => {
    const f = buildForecast({
      today: TODAY,
      startCash: 0,
      items: [],
      spendingWeeks: Array(12).fill(700),
      spendingLink: '',
    });
    expect(f.spending.spread).toBe(0);
    expect(f.points.every((p) => p.low === p.balance && p.high === p.balance)).toBe(true);
    expect(f.endCash).toBe(-700 * FORECAST_WEEKS);
  });
});

describe('upcomingDueDates', () => {
  it('stops at the end date, the count and the horizon, from the next occurrence on', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('weekly', 'monthly', 'quarterly', 'yearly') as fc.Arbitrary<
          'weekly' | 'monthly' | 'quarterly' | 'yearly'
        >,
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 0, max: 60 }),
        fc.option(fc.integer({ min: 1, max: 40 })),
        fc.option(fc.integer({ min: 0, max: 400 })),
        (frequency, nextIndex, terms, maxCount, endOffset) => {
          const startDate = '2026-01-31';
          const endDate = endOffset === null ? null : addDays(startDate, endOffset);
          const dates = upcomingDueDates(
            {
              frequency,
              startDate,
              endDate,
              maxCount,
              nextIndex,
              nextDate: startDate,
              paymentTermsDays: terms,
            },
            END,
          );
          for (const d of dates) expect(d <= END).toBe(true);
          if (maxCount !== null) expect(dates.length).toBeLessThanOrEqual(Math.max(0, maxCount - nextIndex));
          if (endDate !== null) for (const d of dates) expect(addDays(d, -terms) <= endDate).toBe(true);
          expect([...dates].sort()).toEqual(dates);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('gives nothing for a schedule without a next date', () => {
    expect(
      upcomingDueDates(
        {
          frequency: 'weekly',
          startDate: TODAY,
          endDate: null,
          maxCount: null,
          nextIndex: 0,
          nextDate: null,
          paymentTermsDays: 0,
        },
        END,
      ),
    ).toEqual([]);
  });
});
