import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { filterTransactions, formatDemoDate, formatMoney, formatSignedMoney, progressTone } from './logic.ts';
import { PROJECTS, TRANSACTIONS } from './sampleData.ts';

describe('progressTone', () => {
  it.each([
    [100, 'green'],
    [80, 'green'],
    [79.9, 'blue'],
    [50, 'blue'],
    [49, 'amber'],
    [25, 'amber'],
    [24.99, 'red'],
    [0, 'red'],
  ] as const)('%d%% is %s', (percent, tone) => {
    expect(progressTone(percent)).toBe(tone);
  });

  it('never gets greener as progress falls', () => {
    const rank = { red: 0, amber: 1, blue: 2, green: 3 };
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 }), (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(rank[progressTone(lo)]).toBeLessThanOrEqual(rank[progressTone(hi)]);
      }),
    );
  });

  it('the sample projects show every colour', () => {
    expect(new Set(PROJECTS.map((p) => progressTone(p.progress)))).toEqual(
      new Set(['green', 'blue', 'amber', 'red']),
    );
  });
});

describe('filterTransactions', () => {
  const rows = [
    { id: 'a', amount: 100, date: '2025-06-01' },
    { id: 'b', amount: -50, date: '2025-06-30' },
    { id: 'c', amount: 20, date: '2025-05-31' },
    { id: 'd', amount: -1, date: '2024-06-15' },
  ];
  it('All keeps every row in order', () => {
    expect(filterTransactions(rows, 'All', '2025-06-18').map((r) => r.id)).toEqual(['a', 'b', 'c', 'd']);
  });
  it('Income keeps money in, Expenses money out', () => {
    expect(filterTransactions(rows, 'Income', '2025-06-18').map((r) => r.id)).toEqual(['a', 'c']);
    expect(filterTransactions(rows, 'Expenses', '2025-06-18').map((r) => r.id)).toEqual(['b', 'd']);
  });
  it('This Month keeps the calendar month of today only (not the same month last year)', () => {
    expect(filterTransactions(rows, 'This Month', '2025-06-18').map((r) => r.id)).toEqual(['a', 'b']);
  });
  it('Income and Expenses split the sample rows exactly', () => {
    const income = filterTransactions(TRANSACTIONS, 'Income');
    const expenses = filterTransactions(TRANSACTIONS, 'Expenses');
    expect(income.length + expenses.length).toBe(TRANSACTIONS.length);
    expect(income.length).toBeGreaterThan(0);
    expect(expenses.length).toBeGreaterThan(0);
    const month = filterTransactions(TRANSACTIONS, 'This Month');
    expect(month.length).toBeGreaterThan(0);
    expect(month.length).toBeLessThan(TRANSACTIONS.length);
  });
});

describe('formatting', () => {
  it('formats cents exactly', () => {
    expect(formatMoney(1_245_000)).toBe('$12,450.00');
    expect(formatMoney(231_845)).toBe('$2,318.45');
    expect(formatSignedMoney(-231_845)).toBe('−$2,318.45');
    expect(formatSignedMoney(21_437)).toBe('+$214.37');
  });
  it('formats a date without shifting the day', () => {
    expect(formatDemoDate('2025-06-01')).toBe('Jun 1');
  });
});
