// Money is an integer count of a currency's minor units (cents, pence, yen) end to end.
// This module is the one place that turns decimal text into minor units and back, so no
// amount ever passes through a binary float. Arithmetic that needs more than integers
// (exchange rates) is done on BigInt with rounding half away from zero.

const CURRENCY_CODE = /^[A-Z]{3}$/;

const knownCurrencies: ReadonlySet<string> = new Set(
  typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('currency') : [],
);

/** True for an ISO 4217 code this runtime knows (three upper-case letters). */
export const isCurrencyCode = (code: string): boolean =>
  CURRENCY_CODE.test(code) && (knownCurrencies.size === 0 || knownCurrencies.has(code));

const exponentCache = new Map<string, number>();

/** Digits after the decimal point of a currency's minor unit (USD 2, JPY 0, BHD 3), from Intl. */
export const currencyExponent = (currency: string): number => {
  const cached = exponentCache.get(currency);
  if (cached !== undefined) return cached;
  if (!CURRENCY_CODE.test(currency)) throw new RangeError(`"${currency}" is not an ISO 4217 currency code.`);
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
    .maximumFractionDigits;
  const exponent = digits ?? 2;
  exponentCache.set(currency, exponent);
  return exponent;
};

export type ParseMoneyOptions = {
  /** Round extra decimals half away from zero instead of refusing them. */
  round?: boolean;
  /** Allow a leading minus sign. */
  allowNegative?: boolean;
};

export class MoneyParseError extends Error {
  override name = 'MoneyParseError';
}

const DECIMAL = /^([+-])?(\d+)(?:\.(\d*))?$|^([+-])?\.(\d+)$/;

/**
 * Parses a decimal amount ("1234.5", "1,234.56", "-0.07") into minor units of a currency
 * with the given exponent. Group separators (comma, space, apostrophe, underscore) are
 * ignored; the decimal separator is a point.
 */
export const parseDecimalToMinor = (input: string, exponent: number, options: ParseMoneyOptions = {}) => {
  const text = input.trim().replace(/[,\s'_]/g, '');
  const match = DECIMAL.exec(text);
  if (!match)
    throw new MoneyParseError(`"${input}" is not an amount. Use digits with an optional decimal point.`);
  const sign = match[1] ?? match[4] ?? '+';
  const whole = match[2] ?? '0';
  const fraction = match[3] ?? match[5] ?? '';
  if (sign === '-' && !options.allowNegative) {
    throw new MoneyParseError(`"${input}" is negative; enter a positive amount.`);
  }
  let minor: bigint;
  if (fraction.length <= exponent) {
    minor = BigInt(whole + fraction.padEnd(exponent, '0'));
  } else {
    if (!options.round) {
      throw new MoneyParseError(
        `"${input}" has more than ${exponent} decimal place${exponent === 1 ? '' : 's'} for this currency.`,
      );
    }
    const kept = BigInt(whole + fraction.slice(0, exponent));
    const nextDigit = Number(fraction[exponent]);
    minor = nextDigit >= 5 ? kept + 1n : kept;
  }
  if (sign === '-') minor = -minor;
  const value = Number(minor);
  if (!Number.isSafeInteger(value)) throw new MoneyParseError(`"${input}" is too large an amount.`);
  return value === 0 ? 0 : value;
};

/** Parses a decimal amount in a currency ("12.34" USD → 1234). */
export const parseMoney = (input: string, currency: string, options: ParseMoneyOptions = {}) =>
  parseDecimalToMinor(input, currencyExponent(currency), options);

/** Minor units as exact decimal text: 123456 with exponent 2 → "1234.56", -5 → "-0.05". */
export const minorToDecimalString = (minor: number | bigint, exponent: number): string => {
  const value = BigInt(minor);
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(exponent + 1, '0');
  const whole = exponent === 0 ? digits : digits.slice(0, -exponent);
  const fraction = exponent === 0 ? '' : `.${digits.slice(-exponent)}`;
  return `${negative ? '-' : ''}${whole}${fraction}`;
};

/** Minor units of a currency as exact decimal text (1234 USD → "12.34"). */
export const formatMinorPlain = (minor: number | bigint, currency: string) =>
  minorToDecimalString(minor, currencyExponent(currency));

export type FormatMoneyOptions = {
  locale?: string;
  /** How the currency shows: symbol ($), code (USD), name (US dollars) or none (just the number). */
  display?: 'symbol' | 'narrowSymbol' | 'code' | 'name' | 'none';
  /** Accounting style shows negatives in parentheses. */
  accounting?: boolean;
};

/** Formats minor units for people with Intl, from the exact decimal text (no float rounding). */
export const formatMoney = (minor: number | bigint, currency: string, options: FormatMoneyOptions = {}) => {
  const exponent = currencyExponent(currency);
  const display = options.display ?? 'symbol';
  const formatter = new Intl.NumberFormat(options.locale ?? 'en-US', {
    ...(display === 'none' ? {} : { style: 'currency', currency, currencyDisplay: display }),
    currencySign: options.accounting ? 'accounting' : 'standard',
    minimumFractionDigits: exponent,
    maximumFractionDigits: exponent,
  });
  // Intl accepts exact decimal strings; the cast covers older lib typings.
  return formatter.format(minorToDecimalString(minor, exponent) as unknown as number);
};

/** Integer division of BigInts rounding half away from zero. */
export const divideRoundHalfAwayFromZero = (numerator: bigint, denominator: bigint): bigint => {
  if (denominator === 0n) throw new RangeError('division by zero');
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  let q = n / d;
  if ((n % d) * 2n >= d) q += 1n;
  return negative ? -q : q;
};

/** Rounds a number to an integer half away from zero (2.5 → 3, -2.5 → -3). */
export const roundHalfAwayFromZero = (value: number): number => {
  const r = Math.sign(value) * Math.round(Math.abs(value));
  return r === 0 ? 0 : r;
};

const RATE = /^(\d+)(?:\.(\d+))?$/;

/** An exchange rate as an exact fraction: "1.0825" → 10825 / 10000. Refuses zero and negatives. */
export const parseRate = (rate: string | number): { numerator: bigint; denominator: bigint } => {
  const text = typeof rate === 'number' ? String(rate) : rate.trim();
  const match = RATE.exec(text);
  if (!match) throw new MoneyParseError(`"${text}" is not an exchange rate; use a positive decimal number.`);
  const fraction = match[2] ?? '';
  const numerator = BigInt((match[1] ?? '0') + fraction);
  if (numerator === 0n) throw new MoneyParseError('An exchange rate must be greater than zero.');
  return { numerator, denominator: 10n ** BigInt(fraction.length) };
};

/**
 * Converts an amount in a foreign currency's minor units to the base currency's minor units
 * at `rate` (base units per one foreign unit), rounding half away from zero.
 */
export const convertMinor = (
  amountMinor: number,
  fromCurrency: string,
  rate: string | number,
  toCurrency: string,
) => {
  const { numerator, denominator } = parseRate(rate);
  const fromExp = BigInt(currencyExponent(fromCurrency));
  const toExp = BigInt(currencyExponent(toCurrency));
  const result = divideRoundHalfAwayFromZero(
    BigInt(amountMinor) * numerator * 10n ** toExp,
    denominator * 10n ** fromExp,
  );
  const value = Number(result);
  if (!Number.isSafeInteger(value)) throw new RangeError('converted amount is beyond the safe integer range');
  return value === 0 ? 0 : value;
};
