import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  convertMinor,
  MAX_AMOUNT_MINOR,
  currencyExponent,
  divideRoundHalfAwayFromZero,
  formatMoney,
  isCurrencyCode,
  minorToDecimalString,
  parseDecimalToMinor,
  parseMoney,
  parseRate,
  roundHalfAwayFromZero,
} from './money.ts';

describe('currencyExponent', () => {
  it('reads minor-unit digits from Intl', () => {
    expect(currencyExponent('USD')).toBe(2);
    expect(currencyExponent('EUR')).toBe(2);
    expect(currencyExponent('JPY')).toBe(0);
    expect(currencyExponent('BHD')).toBe(3);
  });
  it('refuses malformed codes', () => {
    expect(() => currencyExponent('usd')).toThrow(/ISO 4217/);
    expect(isCurrencyCode('USD')).toBe(true);
    expect(isCurrencyCode('XYZ1')).toBe(false);
  });
});

describe('parseMoney', () => {
  it('parses decimal text exactly', () => {
    expect(parseMoney('12.34', 'USD')).toBe(1234);
    expect(parseMoney('1,234.5', 'USD')).toBe(123450);
    expect(parseMoney('0.1', 'USD')).toBe(10);
    expect(parseMoney('.07', 'USD')).toBe(7);
    expect(parseMoney('5', 'USD')).toBe(500);
    expect(parseMoney('1500', 'JPY')).toBe(1500);
    expect(parseMoney('1.234', 'BHD')).toBe(1234);
    expect(parseMoney('-3.10', 'USD', { allowNegative: true })).toBe(-310);
  });
  it('refuses bad text, negatives and extra decimals unless asked to round', () => {
    expect(() => parseMoney('abc', 'USD')).toThrow(/not an amount/);
    expect(() => parseMoney('1e5', 'USD')).toThrow(/not an amount/);
    expect(() => parseMoney('-1', 'USD')).toThrow(/negative/);
    expect(() => parseMoney('1.005', 'USD')).toThrow(/more than 2 decimal places/);
    expect(() => parseMoney('99999999999999999', 'USD')).toThrow(/too large/);
  });
  it('rounds half away from zero when asked', () => {
    expect(parseMoney('1.005', 'USD', { round: true })).toBe(101);
    expect(parseMoney('1.004', 'USD', { round: true })).toBe(100);
    expect(parseMoney('-1.005', 'USD', { round: true, allowNegative: true })).toBe(-101);
    expect(parseMoney('2.5', 'JPY', { round: true })).toBe(3);
  });
  it('round-trips any integer of minor units through text', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -MAX_AMOUNT_MINOR, max: MAX_AMOUNT_MINOR }),
        fc.constantFrom(0, 2, 3),
        (minor, exp) => {
          const text = minorToDecimalString(minor, exp);
          expect(parseDecimalToMinor(text, exp, { allowNegative: true })).toBe(minor === 0 ? 0 : minor);
        },
      ),
    );
  });
});

describe('formatMoney', () => {
  it('formats from exact decimals', () => {
    expect(formatMoney(123456, 'USD')).toBe('$1,234.56');
    expect(formatMoney(-5, 'USD')).toBe('-$0.05');
    expect(formatMoney(-5, 'USD', { accounting: true })).toBe('($0.05)');
    expect(formatMoney(1500, 'JPY')).toBe('¥1,500');
    expect(formatMoney(123456, 'EUR', { locale: 'de-DE' })).toMatch(/^1\.234,56\s€$/);
    expect(formatMoney(123456, 'USD', { display: 'code' })).toMatch(/USD\s1,234\.56/);
    expect(formatMoney(123456, 'USD', { display: 'none' })).toBe('1,234.56');
    // Beyond float precision for cents the text stays exact.
    expect(formatMoney(9007199254740991, 'USD')).toBe('$90,071,992,547,409.91');
  });
});

describe('rounding and conversion', () => {
  it('rounds half away from zero', () => {
    expect(roundHalfAwayFromZero(2.5)).toBe(3);
    expect(roundHalfAwayFromZero(-2.5)).toBe(-3);
    expect(roundHalfAwayFromZero(-0.4)).toBe(0);
    expect(divideRoundHalfAwayFromZero(5n, 2n)).toBe(3n);
    expect(divideRoundHalfAwayFromZero(-5n, 2n)).toBe(-3n);
    expect(divideRoundHalfAwayFromZero(7n, 3n)).toBe(2n);
  });
  it('converts with exact rates', () => {
    expect(convertMinor(10000, 'EUR', '1.0825', 'USD')).toBe(10825);
    expect(convertMinor(1, 'EUR', '0.5', 'USD')).toBe(1); // 0.5 cent rounds up
    expect(convertMinor(1000, 'JPY', '0.0067', 'USD')).toBe(670);
    expect(convertMinor(10000, 'USD', '149.5', 'JPY')).toBe(14950);
    expect(() => parseRate('0')).toThrow(/greater than zero/);
    expect(() => parseRate('-1')).toThrow(/exchange rate/);
  });
});
