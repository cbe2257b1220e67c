import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatAmountCompact } from '../../lib/format.ts';
import type { Insight } from '../../../shared/dashboard.ts';
import { insightText, rangeFromParams, signedPercent, valueAxis } from './figures.ts';

describe('dashboard range from the address bar', () => {
  it('reads 24 months, a valid date range, and falls back to 12 months', () => {
    expect(rangeFromParams(new URLSearchParams('months=24'))).toEqual({
      choice: '24',
      query: { months: 24 },
    });
    expect(rangeFromParams(new URLSearchParams('from=2026-01-01&to=2026-03-31'))).toEqual({
      choice: 'custom',
      query: { from: '2026-01-01', to: '2026-03-31' },
    });
    for (const bad of ['', 'months=13', 'from=2026-02-30&to=2026-03-01', 'from=2026-05-01&to=2026-04-01'])
      expect(rangeFromParams(new URLSearchParams(bad)).query, bad).toEqual({ months: 12 });
  });
});

describe('insight sentences', () => {
  it('says which way spending moved, with both months and the percent', () => {
    const i: Insight = {
      kind: 'spend_change',
      accountId: 'a',
      accountName: 'Travel',
      month: '2026-05-01',
      previousMonth: '2026-04-01',
      amount: 80_000,
      previousAmount: 10_000,
      percent: 700,
      link: '/x',
    };
    const t = insightText(i, 'USD');
    expect(t.title).toBe('Travel rose (+700.0%)');
    expect(t.detail).toContain('$800.00');
    expect(t.detail).toContain('$100.00');
    expect(insightText({ ...i, amount: 5_000, percent: -50 }, 'USD').title).toBe('Travel fell (−50.0%)');
  });

  it('names the late customer, the days and their usual', () => {
    const t = insightText(
      {
        kind: 'late_payer',
        customerId: 'c',
        customerName: 'Northwind',
        invoiceId: 'i',
        invoiceNumber: 'INV-0004',
        balance: 40_000,
        daysLate: 61,
        usualDaysLate: 2,
        paidInvoices: 3,
        link: '/x',
      },
      'USD',
    );
    expect(t.title).toBe('Northwind is paying later than usual');
    expect(t.detail).toContain('INV-0004 ($400.00 open) is 61 days past due');
    expect(t.detail).toContain('median 2 days');
  });

  it('gives the multiple of the median for an unusual expense', () => {
    const t = insightText(
      {
        kind: 'unusual_transaction',
        entryId: 'e',
        entryNumber: 7,
        date: '2026-06-09',
        accountId: 'a',
        accountName: 'Software',
        memo: 'Annual licence',
        amount: 30_000,
        median: 2_000,
        sampleSize: 7,
        link: '/x',
      },
      'USD',
    );
    expect(t.title).toBe('Unusual Software expense: $300.00');
    expect(t.detail).toContain('15.0× the median $20.00 of 7 expenses');
  });

  it('signs percents', () => {
    expect(signedPercent(12.34)).toBe('+12.3%');
    expect(signedPercent(-3)).toBe('−3.0%');
    expect(signedPercent(0)).toBe('0.0%');
  });
});

describe('chart value axis', () => {
  it('labels a nearly flat forecast so that no two ticks read alike', () => {
    const y = valueAxis([700_000, 701_250, 702_500, 700_800], 'USD');
    const labels = y.ticks.map(y.format);
    expect(new Set(labels).size).toBe(labels.length);
    expect(y.ticks[0]).toBeLessThanOrEqual(700_000);
    expect(y.ticks[y.ticks.length - 1]).toBeGreaterThanOrEqual(702_500);
    expect(y.domain).toEqual([y.ticks[0], y.ticks[y.ticks.length - 1]]);
  });

  it('keeps compact labels when they tell the ticks apart, and covers any values', () => {
    const y = valueAxis([0, 12_000_00, 48_000_00], 'USD');
    expect(y.ticks.map(y.format)).toEqual(y.ticks.map((t) => formatAmountCompact(t, 'USD')));
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -1_000_000_000_000, max: 1_000_000_000_000 }), {
          minLength: 1,
          maxLength: 30,
        }),
        (values) => {
          const axis = valueAxis(values, 'USD');
          const labels = axis.ticks.map(axis.format);
          expect(new Set(labels).size).toBe(labels.length);
          expect(axis.ticks[0]).toBeLessThanOrEqual(Math.min(...values));
          expect(axis.ticks[axis.ticks.length - 1]).toBeGreaterThanOrEqual(Math.max(...values));
          expect(axis.ticks.length).toBeLessThanOrEqual(12);
        },
      ),
    );
  });
});
