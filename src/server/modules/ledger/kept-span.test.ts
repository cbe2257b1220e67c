import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, addMonthsToMonthStart, daysBetween, monthStart } from '../../../shared/dates.ts';
import { BEGINNING, type KeptSpan, keptSpan } from './kept-span.ts';

// Each day of [from, to] counted exactly once, and no other day: the kept months' days, plus
// the added days, less the taken-away ones.

const count = (span: KeptSpan, lo: string, hi: string) => {
  const days = new Map<string, number>();
  const bump = (day: string, by: number) => days.set(day, (days.get(day) ?? 0) + by);
  const first = [span.keptFrom, monthStart(lo)].sort()[1]!;
  for (let m = first; m < span.keptTo; m = addMonthsToMonthStart(m, 1))
    for (let d = m; d < addMonthsToMonthStart(m, 1); d = addDays(d, 1)) if (d >= lo && d <= hi) bump(d, 1);
  for (const r of span.add) for (let d = r.from; d <= r.to; d = addDays(d, 1)) bump(d, 1);
  for (const r of span.subtract) for (let d = r.from; d <= r.to; d = addDays(d, 1)) bump(d, -1);
  return days;
};

const lineDays = (span: KeptSpan) =>
  [...span.add, ...span.subtract].reduce((n, r) => n + daysBetween(r.from, r.to) + 1, 0);

const day = fc.integer({ min: 0, max: 800 }).map((n) => addDays('2024-01-01', n));

describe('keptSpan', () => {
  it('covers every day of the range exactly once and no other day', () => {
    fc.assert(
      fc.property(day, day, fc.boolean(), (a, b, open) => {
        const [from, to] = a <= b ? [a, b] : [b, a];
        const span = keptSpan(open ? null : from, to);
        // The days around the range (an open range's from 2023-12, well before any `to`).
        const lo = open ? '2023-12-01' : addDays(from, -40);
        const hi = addDays(to, 40);
        const days = count(span, lo, hi);
        for (let d = lo; d <= hi; d = addDays(d, 1)) {
          const want = d <= to && (open || d >= from) ? 1 : 0;
          expect(days.get(d) ?? 0, d).toBe(want);
        }
        // Taken-away days lie inside kept months; added ones outside.
        for (const r of span.subtract) {
          expect(monthStart(r.from) >= span.keptFrom && monthStart(r.to) < span.keptTo).toBe(true);
        }
        for (const r of span.add) {
          expect(monthStart(r.from) < span.keptFrom || monthStart(r.from) >= span.keptTo).toBe(true);
        }
        // Never more than half a month of lines at either edge.
        expect(lineDays(span)).toBeLessThanOrEqual(32);
      }),
      { numRuns: 200 },
    );
  });

  it('reads a range ending today from the kept month, less the days after it', () => {
    expect(keptSpan(null, '2026-11-28')).toEqual({
      keptFrom: BEGINNING,
      keptTo: '2026-12-01',
      add: [],
      subtract: [{ from: '2026-11-29', to: '2026-11-30' }],
    });
    expect(keptSpan('2026-11-03', '2026-11-05')).toEqual({
      keptFrom: '2026-11-01',
      keptTo: '2026-11-01',
      add: [{ from: '2026-11-03', to: '2026-11-05' }],
      subtract: [],
    });
    expect(keptSpan('2026-02-10', '2026-11-04')).toEqual({
      keptFrom: '2026-02-01',
      keptTo: '2026-11-01',
      add: [{ from: '2026-11-01', to: '2026-11-04' }],
      subtract: [{ from: '2026-02-01', to: '2026-02-09' }],
    });
  });
});
