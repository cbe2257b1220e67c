import { afterEach, describe, expect, it } from 'vitest';
import { defaultFormatter } from '../../shared/format.ts';
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
  MONTH_NAMES,
  MONTH_OPTIONS,
  currencyOptions,
  currentFormatter,
  plural,
  setFormatPreferences,
} from './format.ts';

// The web's one formatter: exact from minor units (no float on the way), the currency's own
// number of decimals, signs kept, and calendar dates that no time zone can move.

describe('formatAmount', () => {
  it.each<[string, string]>([
    [formatAmount(123456, 'USD'), '$1,234.56'],
    [formatAmount(5, 'EUR'), '€0.05'],
    [formatAmount(0, 'USD'), '$0.00'],
  ])('writes minor units with the currency symbol and its decimals: %s', (actual, expected) =>
    expect(actual).toBe(expected),
  );

  it.each<[string, string]>([
    [formatAmount(-500, 'USD'), '-$5.00'],
    [formatAmount(-1, 'USD'), '-$0.01'],
    [formatAmount(-500, 'USD', true), '($5.00)'],
    [formatAmount(500, 'USD', true), '$5.00'],
  ])('keeps the sign of negatives, or parentheses in accounting style: %s', (actual, expected) =>
    expect(actual).toBe(expected),
  );

  it('writes zero-decimal and three-decimal currencies in their own minor units', () => {
    expect(formatAmount(1235, 'JPY')).toBe('¥1,235');
    expect(formatAmount(-1235, 'JPY')).toBe('-¥1,235');
    expect(formatAmount(1234, 'BHD')).toMatch(/^BHD\s1\.234$/);
  });

  it.each<[string, string]>([
    [formatAmount(MAX_AMOUNT_MINOR, 'USD'), '$9,999,999,999.99'],
    [formatAmount(-MAX_AMOUNT_MINOR, 'USD'), '-$9,999,999,999.99'],
    [formatAmount(MAX_AMOUNT_MINOR, 'JPY'), '¥999,999,999,999'],
    [formatAmount(MAX_AMOUNT_MINOR - 1, 'USD', true), '$9,999,999,999.98'],
    // 0.1 + 0.2 style trouble would show here if the cents went through a float.
    [formatAmount(1_000_000_000_001, 'USD'), '$10,000,000,000.01'],
  ])('is exact up to the amount bound (no float rounding): %s', (actual, expected) =>
    expect(actual).toBe(expected),
  );

  it.each<[string, string]>([
    [formatAmountNumber(-123456, 'USD'), '-1,234.56'],
    [formatAmountNumber(1235, 'JPY'), '1,235'],
    [formatSignedAmount(21_437, 'USD'), '+$214.37'],
    [formatSignedAmount(-231_845, 'USD'), '−$2,318.45'],
    [formatSignedAmount(0, 'USD'), '$0.00'],
    [formatSignedAmount(-1235, 'JPY'), '−¥1,235'],
    [formatAmountInput(-5, 'USD'), '-0.05'],
    [formatAmountInput(MAX_AMOUNT_MINOR, 'JPY'), '999999999999'],
  ])('writes the number alone, with a sign for changes, and as input text: %s', (actual, expected) =>
    expect(actual).toBe(expected),
  );

  it.each<[string, string]>([
    [formatAmountCompact(123_456, 'USD'), '$1.2K'],
    [formatAmountCompact(-350_000_000, 'USD'), '-$3.5M'],
    [formatAmountCompact(12_000, 'JPY'), '¥12K'],
    [formatAmountCompact(MAX_AMOUNT_MINOR, 'USD'), '$10B'],
    [formatAmountCompact(0, 'USD'), '$0'],
  ])('shortens amounts for charts: %s', (actual, expected) => expect(actual).toBe(expected));

  it.each<[string, string]>([
    [formatPrice(1900, 'USD'), '$19'],
    [formatPrice(149_000, 'USD'), '$1,490'],
    [formatPrice(1583, 'USD'), '$15.83'],
    [formatPrice(500, 'JPY'), '¥500'],
  ])('writes prices in whole units unless they have cents: %s', (actual, expected) =>
    expect(actual).toBe(expected),
  );
});

describe('dates', () => {
  afterEach(() => setFormatPreferences(null));

  it.each<[string, string]>([
    [formatDate('2026-11-21'), '11/21/2026'],
    [formatDate('2026-01-01'), '01/01/2026'],
    [formatDate('2026-12-31'), '12/31/2026'],
    [formatDayMonth('2025-06-01'), 'Jun 1'],
    [formatMonth('2026-02-28'), 'Feb'],
    [formatMonthYear('2027-01-01'), 'Jan 27'],
  ])('formats calendar dates without moving the day: %s', (actual, expected) =>
    expect(actual).toBe(expected),
  );

  it('formats moments with date and time in the default time zone (UTC) when no one is signed in', () => {
    expect(formatDateTime('2026-11-21T15:04:00Z')).toBe('11/21/2026, 3:04 PM');
  });

  it("writes with the signed-in user's preferences once they are set", () => {
    setFormatPreferences({ dateFormat: 'DD.MM.YYYY', timeZone: 'Asia/Tokyo', language: 'en' });
    expect(formatDate('2026-11-21')).toBe('21.11.2026');
    expect(formatDateTime('2026-11-21T15:04:00Z')).toBe('22.11.2026, 12:04 AM');
    expect(currentFormatter().prefs.timeZone).toBe('Asia/Tokyo');
    setFormatPreferences(null);
    expect(formatDate('2026-11-21')).toBe('11/21/2026');
  });
});

describe('counts and sizes', () => {
  it.each<[string, string]>([
    [formatCount(1_234_567), '1,234,567'],
    [plural(1, 'transaction'), '1 transaction'],
    [plural(2000, 'transaction'), '2,000 transactions'],
    [plural(0, 'entry', 'entries'), '0 entries'],
  ])('groups counts and picks the plural: %s', (actual, expected) => expect(actual).toBe(expected));

  it.each<[string, string]>([
    [formatBytes(512), '512 B'],
    [formatBytes(1536), '1.5 KB'],
    [formatBytes(2 * 1024 * 1024), '2 MB'],
    [formatBytes(1.5 * 1024 * 1024 * 1024), '1.5 GB'],
    [formatBytes(10 * 1024 * 1024 * 1024), '10 GB'],
  ])('writes file sizes: %s', (actual, expected) => expect(actual).toBe(expected));
});

describe('pickers', () => {
  it('lists months by number and currencies with the common ones first', () => {
    expect(MONTH_OPTIONS[0]).toEqual({ value: '1', label: 'January' });
    expect(MONTH_OPTIONS[11]).toEqual({ value: '12', label: 'December' });
    // Written out (no Intl format at load); they are the default formatter's names.
    expect(MONTH_NAMES).toEqual(Array.from({ length: 12 }, (_, i) => defaultFormatter.monthName(i)));
    const currencies = currencyOptions();
    expect(currencies[0]).toEqual({ value: 'USD', label: 'USD — US Dollar' });
    expect(currencies.find((c) => c.value === 'JPY')?.label).toBe('JPY — Japanese Yen');
    expect(new Set(currencies.map((c) => c.value)).size).toBe(currencies.length);
  });
});
