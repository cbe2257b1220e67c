import { describe, expect, it } from 'vitest';
import { addDays, addMonths, fiscalYearOf, lastMonths, monthEnd, todayIso } from './dates.ts';

describe('accounting dates', () => {
  it('finds the fiscal year containing a date', () => {
    expect(fiscalYearOf('2026-11-21', 1)).toEqual({ start: '2026-01-01', end: '2026-12-31' });
    expect(fiscalYearOf('2026-03-31', 4)).toEqual({ start: '2025-04-01', end: '2026-03-31' });
    expect(fiscalYearOf('2026-04-01', 4)).toEqual({ start: '2026-04-01', end: '2027-03-31' });
    expect(fiscalYearOf('2024-02-29', 3)).toEqual({ start: '2023-03-01', end: '2024-02-29' });
  });

  it('moves across month and year ends without time-zone drift', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
    expect(addMonths('2026-11-15', 2)).toBe('2027-01-01');
    expect(addMonths('2026-01-31', -1)).toBe('2025-12-01');
    expect(monthEnd('2026-02-10')).toBe('2026-02-28');
  });

  it('lists the last months oldest first', () => {
    const months = lastMonths('2026-02-14', 3);
    expect(months).toEqual([
      { start: '2025-12-01', end: '2025-12-31' },
      { start: '2026-01-01', end: '2026-01-31' },
      { start: '2026-02-01', end: '2026-02-28' },
    ]);
  });

  it('uses the local calendar day for today', () => {
    expect(todayIso(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
  });
});
