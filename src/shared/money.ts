// Money is an integer count of a currency's minor units (cents, pence, yen) end to end.
// This module is the one place that turns decimal text into minor units and back, so no
// amount ever passes through a binary float. Arithmetic that needs more than integers
// (exchange rates) is done on BigInt with rounding half away from zero.

import { z } from 'zod';
import { AppError } from './errors.ts';
import { decimalText, isPositiveDecimalText } from './input.ts';
import { CURRENCY_CODE, currencyExponent, formatMinorPlain, minorToDecimalString } from './money-text.ts';

// Minor units as decimal text live in money-text.ts, which has no zod (the web's entry chunk
// formats amounts without loading the schema library); this module re-exports them.
export { currencyExponent, formatMinorPlain, minorToDecimalString };

// --- The amount bound (decision 0013, docs/ledger.md "Amount limits") ----------------------

/**
 * The largest absolute amount any one field may hold, in minor units: 999,999,999,999
 * (9,999,999,999.99 in a two-decimal currency, 999,999,999,999 yen). Every amount the API
 * accepts, every imported amount, every converted amount and every document total (an
 * invoice's total, a split's parts) stays within it.
 */
export const MAX_AMOUNT_MINOR = 999_999_999_999;

/**
 * The most a company's ledger may ever hold: the sum over all posted lines of debit + credit
 * + the foreign amount, in minor units (10^15). The ledger keeps this figure and refuses a
 * posting past it, so every balance, report total, running balance and difference of them
 * stays far inside JavaScript's exact integer range (2^53 − 1 ≈ 9.007 × 10^15).
 */
export const LEDGER_VOLUME_LIMIT = 1_000_000_000_000_000;

/** The refusal of a posting that would take the ledger past LEDGER_VOLUME_LIMIT (409 ledger_limit_reached). */
export const LEDGER_LIMIT_MESSAGE =
  "This would take the company's ledger past its limit: all postings together (debits + credits + foreign amounts) can reach at most 1,000,000,000,000,000 minor units. Nothing was saved.";

/** The one message for an amount beyond the bound. */
export const AMOUNT_LIMIT_MESSAGE =
  'Amounts can be at most 999,999,999,999 minor units (9,999,999,999.99 in a currency with cents).';

/** True for an integer number of minor units within the bound (either sign). */
export const isAmountWithinLimit = (value: number | bigint): boolean =>
  typeof value === 'bigint'
    ? value <= BigInt(MAX_AMOUNT_MINOR) && value >= -BigInt(MAX_AMOUNT_MINOR)
    : Number.isInteger(value) && Math.abs(value) <= MAX_AMOUNT_MINOR;

/**
 * The zod schema of every amount field: whole minor units within ±MAX_AMOUNT_MINOR.
 * `sign` narrows it (default `nonnegative`); `message` replaces the sign message.
 */
export const minorAmount = (
  options: { sign?: 'any' | 'nonnegative' | 'positive'; signMessage?: string } = {},
) => {
  const sign = options.sign ?? 'nonnegative';
  let schema = z
    .number()
    .int('Amounts are whole minor units (cents).')
    .max(MAX_AMOUNT_MINOR, AMOUNT_LIMIT_MESSAGE)
    .min(-MAX_AMOUNT_MINOR, AMOUNT_LIMIT_MESSAGE);
  if (sign === 'nonnegative')
    schema = schema.nonnegative(options.signMessage ?? 'Amounts cannot be negative.');
  if (sign === 'positive')
    schema = schema.positive(options.signMessage ?? 'Enter an amount greater than zero.');
  return schema;
};

const knownCurrencies: ReadonlySet<string> = new Set(
  typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('currency') : [],
);

/** An ISO 4217 currency code field: three upper-case letters, taken as sent. */
export const currencyCodeSchema = z
  .string()
  .regex(CURRENCY_CODE, 'Use an ISO 4217 currency code such as USD.');

/** The same for a field people type: trimmed and upper-cased before the check. */
export const currencyCodeInputSchema = z
  .string()
  .trim()
  .toUpperCase()
  .regex(CURRENCY_CODE, 'Use an ISO 4217 currency code such as USD.');

/** An exchange rate as exact decimal text greater than zero (up to 14 whole digits and 10 decimals). */
export const rateTextSchema = decimalText({
  maxWholeDigits: 14,
  maxDecimals: 10,
  message: 'Use a positive decimal rate such as 1.0825 (up to 10 decimals).',
}).refine(isPositiveDecimalText, 'A rate must be greater than zero.');

/** True for an ISO 4217 code this runtime knows (three upper-case letters). */
export const isCurrencyCode = (code: string): boolean =>
  CURRENCY_CODE.test(code) && (knownCurrencies.size === 0 || knownCurrencies.has(code));

export type ParseMoneyOptions = {
  /** Round extra decimals half away from zero instead of refusing them. */
  round?: boolean;
  /**
   * Refuse amounts beyond this many minor units (default MAX_AMOUNT_MINOR, the amount bound).
   * Only readers of totals (hledger's balance output in the interop test) raise it.
   */
  limit?: number;
  /** Allow a leading minus sign. */
  allowNegative?: boolean;
};

export class MoneyParseError extends Error {
  override name = 'MoneyParseError';
}

const DECIMAL = /^([+-])?([0-9]+)(?:\.([0-9]*))?$|^([+-])?\.([0-9]+)$/;

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
  const limit = BigInt(Math.min(options.limit ?? MAX_AMOUNT_MINOR, Number.MAX_SAFE_INTEGER));
  if (minor > limit || minor < -limit) {
    throw new MoneyParseError(
      options.limit === undefined
        ? `"${input}" is too large. ${AMOUNT_LIMIT_MESSAGE}`
        : `"${input}" is too large an amount.`,
    );
  }
  const value = Number(minor);
  return value === 0 ? 0 : value;
};

/** Parses a decimal amount in a currency ("12.34" USD → 1234). */
export const parseMoney = (input: string, currency: string, options: ParseMoneyOptions = {}) =>
  parseDecimalToMinor(input, currencyExponent(currency), options);

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

const RATE = /^([0-9]+)(?:\.([0-9]+))?$/;

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

/** Exact conversion to the other currency's minor units as a BigInt (no bound applied). */
export const convertMinorExact = (
  amountMinor: number | bigint,
  fromCurrency: string,
  rate: string | number,
  toCurrency: string,
): bigint => {
  const { numerator, denominator } = parseRate(rate);
  const fromExp = BigInt(currencyExponent(fromCurrency));
  const toExp = BigInt(currencyExponent(toCurrency));
  return divideRoundHalfAwayFromZero(
    BigInt(amountMinor) * numerator * 10n ** toExp,
    denominator * 10n ** fromExp,
  );
};

/**
 * Converts an amount in a foreign currency's minor units to the base currency's minor units
 * at `rate` (base units per one foreign unit), rounding half away from zero. A result beyond
 * the amount bound is refused with 400 `amount_too_large` (it would be an amount field too).
 */
export const convertMinor = (
  amountMinor: number,
  fromCurrency: string,
  rate: string | number,
  toCurrency: string,
) => {
  const result = convertMinorExact(amountMinor, fromCurrency, rate, toCurrency);
  if (!isAmountWithinLimit(result)) {
    throw new AppError(
      400,
      'amount_too_large',
      `${minorToDecimalString(amountMinor, currencyExponent(fromCurrency))} ${fromCurrency} at ${String(rate)} is ${minorToDecimalString(result, currencyExponent(toCurrency))} ${toCurrency}, beyond the limit. ${AMOUNT_LIMIT_MESSAGE}`,
    );
  }
  const value = Number(result);
  return value === 0 ? 0 : value;
};
