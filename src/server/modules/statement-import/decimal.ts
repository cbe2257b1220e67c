import {
  MoneyParseError,
  currencyExponent,
  isCurrencyCode,
  parseDecimalToMinor,
} from '../../../shared/money.ts';

// Amounts of machine-written formats (OFX TRNAMT/BALAMT, CAMT Amt): a plain signed decimal,
// read exactly. Digits beyond the currency's decimals are accepted only when they are zeros
// ("30.000", "3.77000"); anything that would lose a cent is refused with the value.

const PLAIN = /^([+-])?(\d*)(?:[.,](\d*))?$/;

/** Signed minor units of a plain decimal ("-12.50", "1,5", ".5"); throws MoneyParseError otherwise. */
export const parseExactDecimal = (input: string, exponent: number, currency: string | null): number => {
  const text = input.trim();
  const m = PLAIN.exec(text);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) throw new MoneyParseError(`"${input}" is not an amount`);
  const whole = m[2] || '0';
  let fraction = m[3] ?? '';
  if (fraction.length > exponent) {
    const extra = fraction.slice(exponent);
    if (/[^0]/.test(extra)) {
      throw new MoneyParseError(
        `"${input}" has more decimals than ${currency ?? 'the currency'} allows (${exponent}); importing it would lose part of a cent`,
      );
    }
    fraction = fraction.slice(0, exponent);
  }
  return parseDecimalToMinor(`${m[1] === '-' ? '-' : ''}${whole}.${fraction}`, exponent, {
    allowNegative: true,
  });
};

/** The minor-unit exponent of a currency code the file states; null when it is not an ISO 4217 code. */
export const exponentOfCode = (code: string): number | null => {
  if (!isCurrencyCode(code)) return null;
  try {
    return currencyExponent(code);
  } catch {
    return null;
  }
};
