import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DATE_FORMATS,
  dateFormatExample,
  defaultFormatter,
  formatBytes,
  formatterFor,
  isTimeZone,
  localeFor,
} from './format.ts';
import { MAX_AMOUNT_MINOR, currencyExponent, parseDecimalToMinor } from './money.ts';

// The one formatter (src/shared/format.ts): dates per the user's date format, moments in
// their time zone, amounts exact from minor units, and safe defaults for anything unknown.

describe('dates per the date format', () => {
  it.each([
    ['MM/DD/YYYY', '11/21/2026'],
    ['DD/MM/YYYY', '21/11/2026'],
    ['YYYY-MM-DD', '2026-11-21'],
    ['DD.MM.YYYY', '21.11.2026'],
  ] as const)('%s writes 2026-11-21 as %s', (dateFormat, expected) => {
    expect(formatterFor({ dateFormat }).date('2026-11-21')).toBe(expected);
    expect(dateFormatExample(dateFormat)).toBe(expected);
  });

  it('defaults to MM/DD/YYYY (the seed default) and ignores an unknown format', () => {
    expect(defaultFormatter.date('2026-01-05')).toBe('01/05/2026');
    expect(formatterFor({ dateFormat: 'YY.MM' as never }).date('2026-01-05')).toBe('01/05/2026');
  });

  it('no time zone moves a calendar date', () => {
    for (const timeZone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'UTC']) {
      expect(formatterFor({ timeZone, dateFormat: 'YYYY-MM-DD' }).date('2026-03-01')).toBe('2026-03-01');
    }
  });

  it('writes every ISO day back in its own digits for every format', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('1900-01-01T00:00:00Z'),
          max: new Date('2199-12-31T00:00:00Z'),
          noInvalidDate: true,
        }),
        fc.constantFrom(...DATE_FORMATS),
        (d, dateFormat) => {
          const iso = d.toISOString().slice(0, 10);
          const [y, m, day] = iso.split('-');
          const text = formatterFor({ dateFormat }).date(iso);
          expect(text.match(/\d+/g)!.sort()).toEqual([y, m, day].sort());
        },
      ),
    );
  });
});

describe('moments in the user time zone', () => {
  const at = '2026-11-21T23:30:00Z';

  it('shows the day and time where the user is', () => {
    expect(formatterFor({ timeZone: 'UTC' }).dateTime(at)).toBe('11/21/2026, 11:30 PM');
    expect(formatterFor({ timeZone: 'Europe/Berlin', dateFormat: 'DD.MM.YYYY' }).dateTime(at)).toBe(
      '22.11.2026, 12:30 AM',
    );
    expect(formatterFor({ timeZone: 'America/New_York' }).dateTime(at)).toBe('11/21/2026, 6:30 PM');
    expect(formatterFor({ timeZone: 'Asia/Tokyo', dateFormat: 'YYYY-MM-DD' }).isoDayOf(at)).toBe(
      '2026-11-22',
    );
  });

  it('falls back to UTC for an unknown time zone instead of throwing', () => {
    expect(formatterFor({ timeZone: 'Mars/Base' }).dateTime(at)).toBe('11/21/2026, 11:30 PM');
    expect(isTimeZone('Mars/Base')).toBe(false);
    expect(isTimeZone('')).toBe(false);
    expect(isTimeZone('Europe/Berlin')).toBe(true);
  });
});

describe('amounts', () => {
  it('writes minor units exactly in the locale the language implies', () => {
    const f = formatterFor({ language: 'en' });
    expect(localeFor('en')).toBe('en-US');
    expect(localeFor('xx')).toBe('en-US');
    expect(f.amount(123456, 'USD')).toBe('$1,234.56');
    expect(f.amount(-500, 'USD', { accounting: true })).toBe('($5.00)');
    expect(f.amount(1235, 'JPY')).toBe('¥1,235');
    expect(f.amountNumber(MAX_AMOUNT_MINOR, 'USD')).toBe('9,999,999,999.99');
    expect(f.signedAmount(-350, 'USD')).toBe('−$3.50');
    expect(f.price(1200, 'USD')).toBe('$12');
    expect(f.price(1250, 'USD')).toBe('$12.50');
  });

  it('amount text parses back to the same minor units for every currency exponent', () => {
    const currencies = ['USD', 'EUR', 'JPY', 'KRW', 'BHD', 'KWD', 'TND', 'CLF', 'GBP', 'CHF'];
    // The set covers exponents 0, 2, 3 and 4.
    expect(new Set(currencies.map(currencyExponent))).toEqual(new Set([0, 2, 3, 4]));
    const f = defaultFormatter;
    fc.assert(
      fc.property(
        fc.integer({ min: -MAX_AMOUNT_MINOR, max: MAX_AMOUNT_MINOR }),
        fc.constantFrom(...currencies),
        fc.boolean(),
        (minor, currency, accounting) => {
          const text = f.amount(minor, currency, { accounting });
          const negative = /^-|^\(|−/.test(text);
          const digits = text.replace(/[^\d.,]/g, '').replace(/^[.,]+|[.,]+$/g, '');
          const parsed = parseDecimalToMinor(digits, currencyExponent(currency));
          expect(negative ? -parsed : parsed).toBe(minor === 0 ? 0 : minor);
          const plain = f.amountNumber(minor, currency);
          expect(parseDecimalToMinor(plain, currencyExponent(currency), { allowNegative: true })).toBe(minor);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('counts and sizes', () => {
  it.each<[number, string]>([
    [12, '12 B'],
    [512, '512 B'],
    [1536, '1.5 KB'],
    [2 * 1024 * 1024, '2 MB'],
    [1.5 * 1024 * 1024, '1.5 MB'],
    [1024 ** 3, '1 GB'],
    [10 * 1024 ** 3, '10 GB'],
  ])('formatBytes(%i) is %s (one wording for web and server)', (bytes, text) =>
    expect(formatBytes(bytes)).toBe(text),
  );

  it('groups counts per locale', () => {
    expect(defaultFormatter.count(12345)).toBe('12,345');
    expect(defaultFormatter.percent(12.345)).toBe('12.3%');
  });
});
