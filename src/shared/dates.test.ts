import { describe, expect, it } from 'vitest';
import {
  comparisonPeriod,
  periodName,
  previousPeriod,
  sameDayLastYear,
  samePeriodLastYear,
} from './dates.ts';

describe('comparison periods', () => {
  it('moves a day back a year, Feb 29 to Feb 28', () => {
    expect(sameDayLastYear('2025-03-15')).toBe('2024-03-15');
    expect(sameDayLastYear('2024-02-29')).toBe('2023-02-28');
    expect(sameDayLastYear('2025-02-28')).toBe('2024-02-28');
    expect(sameDayLastYear('2000-02-29')).toBe('1999-02-28');
  });

  it('compares whole months with the same months a year earlier, month ends kept', () => {
    expect(samePeriodLastYear('2026-01-01', '2026-03-31')).toEqual({ from: '2025-01-01', to: '2025-03-31' });
    // February 2025 (28 days) compares with February 2024 (29 days), and the other way.
    expect(samePeriodLastYear('2025-02-01', '2025-02-28')).toEqual({ from: '2024-02-01', to: '2024-02-29' });
    expect(samePeriodLastYear('2024-02-01', '2024-02-29')).toEqual({ from: '2023-02-01', to: '2023-02-28' });
    expect(samePeriodLastYear('2024-01-01', '2024-12-31')).toEqual({ from: '2023-01-01', to: '2023-12-31' });
  });

  it('moves a day range day by day', () => {
    expect(samePeriodLastYear('2024-02-29', '2024-03-10')).toEqual({ from: '2023-02-28', to: '2023-03-10' });
    expect(samePeriodLastYear('2026-01-15', '2026-02-14')).toEqual({ from: '2025-01-15', to: '2025-02-14' });
  });

  it('names periods by their months, or by their days', () => {
    expect(periodName('2025-01-01', '2025-03-31')).toBe('Jan–Mar 2025');
    expect(periodName('2025-03-01', '2025-03-31')).toBe('Mar 2025');
    expect(periodName('2025-11-01', '2026-01-31')).toBe('Nov 2025–Jan 2026');
    expect(periodName('2025-01-15', '2025-02-14')).toBe('2025-01-15–2025-02-14');
    expect(periodName('2025-01-15', '2025-02-14', (d) => d.slice(5))).toBe('01-15–02-14');
  });

  it('labels each comparison with its dates and kind', () => {
    expect(comparisonPeriod('lastYear', '2026-01-01', '2026-03-31')).toEqual({
      from: '2025-01-01',
      to: '2025-03-31',
      label: 'Jan–Mar 2025 (same period last year)',
    });
    expect(comparisonPeriod('previous', '2026-01-01', '2026-03-31')).toEqual({
      from: '2025-10-01',
      to: '2025-12-31',
      label: 'Oct–Dec 2025 (previous period)',
    });
    expect(previousPeriod('2026-01-10', '2026-01-19')).toEqual({ from: '2025-12-31', to: '2026-01-09' });
  });
});
