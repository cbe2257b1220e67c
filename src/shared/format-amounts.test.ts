import { describe, expect, it } from 'vitest';
import { formatterFor } from './format.ts';
import { formatMoney } from './money.ts';

// The formatter keeps one Intl.NumberFormat per currency and style (src/shared/format.ts):
// its text must stay exactly formatMoney's, whatever was formatted before it.

describe('formatter amounts (cached Intl formats)', () => {
  const f = formatterFor({ language: 'en' });
  const cases: [number, string][] = [
    [123456, 'USD'],
    [-5, 'USD'],
    [0, 'EUR'],
    [1235, 'JPY'],
    [-1234567, 'BHD'],
    [99, 'GBP'],
  ];
  it('writes what formatMoney writes, in every style, twice in a row', () => {
    for (let round = 0; round < 2; round++)
      for (const [minor, currency] of cases) {
        expect(f.amount(minor, currency)).toBe(formatMoney(minor, currency, { locale: 'en-US' }));
        expect(f.amount(minor, currency, { accounting: true })).toBe(
          formatMoney(minor, currency, { locale: 'en-US', accounting: true }),
        );
        expect(f.amountNumber(minor, currency)).toBe(
          formatMoney(minor, currency, { locale: 'en-US', display: 'none' }),
        );
        expect(f.amount(minor, currency, { display: 'code' })).toBe(
          formatMoney(minor, currency, { locale: 'en-US', display: 'code' }),
        );
      }
  });
  it('keeps currencies and styles apart', () => {
    expect(f.amount(-500, 'USD', { accounting: true })).toBe('($5.00)');
    expect(f.amount(-500, 'USD')).toBe('-$5.00');
    expect(f.amount(500, 'EUR')).toBe('€5.00');
    expect(f.amount(500, 'JPY')).toBe('¥500');
    expect(f.amount(12345678901234n, 'USD')).toBe('$123,456,789,012.34');
  });
});
