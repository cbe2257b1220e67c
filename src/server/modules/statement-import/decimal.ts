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
  let text = input.trim();
  // Both marks: the last one is the decimal mark, the other groups thousands in threes
  // ("1,234.56", "-1.234.567,89"); any other mix is not an amount.
  const grouped = /^([+-]?)(\d{1,3}(?:([.,])\d{3})+)([.,])(\d*)$/.exec(text);
  if (grouped && grouped[3] !== grouped[4]) {
    text = `${grouped[1]}${grouped[2]!.split(grouped[3]!).join('')}.${grouped[5]}`;
  }
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
