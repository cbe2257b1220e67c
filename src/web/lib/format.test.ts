import { describe, expect, it } from 'vitest';
import { MAX_AMOUNT_MINOR } from '../../shared/money.ts';
import {
  formatAmount,
  formatAmountCompact,
  formatAmountInput,
  formatAmountNumber,
  formatBytes,
  formatCount,
  formatDate,
  formatDateTime,
  formatDayMonth,
  formatMonth,
  formatMonthYear,
  formatPrice,
  formatSignedAmount,
  plural,
} from './format.ts';

// The web's one formatter: exact from minor units (no float on the way), the currency's own
// number of decimals, signs kept, and calendar dates that no time zone can move.

describe('formatAmount', () => {
  it('writes minor units with the currency symbol and its decimals', () => {
    expect(formatAmount(123456, 'USD')).toBe('$1,234.56');
    expect(formatAmount(5, 'EUR')).toBe('€0.05');
    expect(formatAmount(0, 'USD')).toBe('$0.00');
  });

  it('keeps the sign of negatives, or parentheses in accounting style', () => {
    expect(formatAmount(-500, 'USD')).toBe('-$5.00');
    expect(formatAmount(-1, 'USD')).toBe('-$0.01');
    expect(formatAmount(-500, 'USD', true)).toBe('($5.00)');
    expect(formatAmount(500, 'USD', true)).toBe('$5.00');
  });

  it('writes zero-decimal and three-decimal currencies in their own minor units', () => {
    expect(formatAmount(1235, 'JPY')).toBe('¥1,235');
    expect(formatAmount(-1235, 'JPY')).toBe('-¥1,235');
    expect(formatAmount(1234, 'BHD')).toMatch(/^BHD\s1\.234$/);
  });

  it('is exact up to the amount bound (no float rounding)', () => {
    expect(formatAmount(MAX_AMOUNT_MINOR, 'USD')).toBe('$9,999,999,999.99');
    expect(formatAmount(-MAX_AMOUNT_MINOR, 'USD')).toBe('-$9,999,999,999.99');
    expect(formatAmount(MAX_AMOUNT_MINOR, 'JPY')).toBe('¥999,999,999,999');
    expect(formatAmount(MAX_AMOUNT_MINOR - 1, 'USD', true)).toBe('$9,999,999,999.98');
    // 0.1 + 0.2 style trouble would show here if the cents went through a float.
    expect(formatAmount(1_000_000_000_001, 'USD')).toBe('$10,000,000,000.01');
  });

  it('writes the number alone, with a sign for changes, and as input text', () => {
    expect(formatAmountNumber(-123456, 'USD')).toBe('-1,234.56');
    expect(formatAmountNumber(1235, 'JPY')).toBe('1,235');
    expect(formatSignedAmount(21_437, 'USD')).toBe('+$214.37');
    expect(formatSignedAmount(-231_845, 'USD')).toBe('−$2,318.45');
    expect(formatSignedAmount(0, 'USD')).toBe('$0.00');
    expect(formatSignedAmount(-1235, 'JPY')).toBe('−¥1,235');
    expect(formatAmountInput(-5, 'USD')).toBe('-0.05');
    expect(formatAmountInput(MAX_AMOUNT_MINOR, 'JPY')).toBe('999999999999');
  });

  it('shortens amounts for charts', () => {
    expect(formatAmountCompact(123_456, 'USD')).toBe('$1.2K');
    expect(formatAmountCompact(-350_000_000, 'USD')).toBe('-$3.5M');
    expect(formatAmountCompact(12_000, 'JPY')).toBe('¥12K');
    expect(formatAmountCompact(MAX_AMOUNT_MINOR, 'USD')).toBe('$10B');
    expect(formatAmountCompact(0, 'USD')).toBe('$0');
  });

  it('writes prices in whole units unless they have cents', () => {
    expect(formatPrice(1900, 'USD')).toBe('$19');
    expect(formatPrice(149_000, 'USD')).toBe('$1,490');
    expect(formatPrice(1583, 'USD')).toBe('$15.83');
    expect(formatPrice(500, 'JPY')).toBe('¥500');
  });
});

describe('dates', () => {
  it('formats calendar dates without moving the day', () => {
    expect(formatDate('2026-11-21')).toBe('Nov 21, 2026');
    expect(formatDate('2026-01-01')).toBe('Jan 1, 2026');
    expect(formatDate('2026-12-31')).toBe('Dec 31, 2026');
    expect(formatDayMonth('2025-06-01')).toBe('Jun 1');
    expect(formatMonth('2026-02-28')).toBe('Feb');
    expect(formatMonthYear('2027-01-01')).toBe('Jan 27');
  });

  it('formats moments with date and time', () => {
    const text = formatDateTime('2026-11-21T15:04:00Z');
    expect(text).toMatch(/Nov 2[01], 2026/);
    expect(text).toMatch(/\d{1,2}:\d{2}\s?[AP]M/);
  });
});

describe('counts and sizes', () => {
  it('groups counts and picks the plural', () => {
    expect(formatCount(1_234_567)).toBe('1,234,567');
    expect(plural(1, 'transaction')).toBe('1 transaction');
    expect(plural(2000, 'transaction')).toBe('2,000 transactions');
    expect(plural(0, 'entry', 'entries')).toBe('0 entries');
  });

  it('writes file sizes', () => {
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(2 * 1024 * 1024)).toBe('2.0 MB');
  });
});
