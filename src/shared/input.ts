import { z } from 'zod';

// Input rules every API field shares, so a bad value is a clear 400 naming the field and never
// reaches a parser that throws or a database that refuses it (decision 0014):
// - calendar dates are real YYYY-MM-DD days between MIN_DATE and MAX_DATE;
// - decimal text ("12.5", "0.0825") is checked by pattern before anything parses it;
// - text holds no NUL character and no lone UTF-16 surrogate (see `unsafeTextProblem`).

/** The earliest date the API accepts: older books than this are not kept in Kontor. */
export const MIN_DATE = '1900-01-01';
/** The latest date the API accepts: far enough for any schedule, and date arithmetic stays in range. */
export const MAX_DATE = '2199-12-31';

const DATE_SHAPE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;

const isRealDate = (d: string) => {
  const t = Date.parse(`${d}T00:00:00Z`);
  return Number.isFinite(t) && new Date(t).toISOString().slice(0, 10) === d;
};

/** An ISO calendar date (YYYY-MM-DD) that exists and lies between MIN_DATE and MAX_DATE. */
export const isoDate = z
  .string()
  .regex(DATE_SHAPE, { message: 'Use a date in the form YYYY-MM-DD.', abort: true })
  .refine(isRealDate, { message: 'This is not a real calendar date.', abort: true })
  .refine((d) => d >= MIN_DATE && d <= MAX_DATE, {
    message: `Use a date between ${MIN_DATE} and ${MAX_DATE}.`,
  });

export type DecimalTextOptions = {
  /** Digits allowed before the point. */
  maxWholeDigits?: number;
  /** Digits allowed after the point. */
  maxDecimals: number;
  /** The message when the text is not such a number. */
  message: string;
};

/**
 * Exact decimal text: digits, optionally a point and up to `maxDecimals` digits; no sign,
 * exponent, grouping or spaces inside. Later refinements run only on text that passed, so
 * they may parse it without guarding against garbage.
 */
export const decimalText = ({ maxWholeDigits = 12, maxDecimals, message }: DecimalTextOptions) =>
  z
    .string()
    .trim()
    .regex(new RegExp(`^[0-9]{1,${maxWholeDigits}}(\\.[0-9]{1,${maxDecimals}})?$`), { message, abort: true });

/** True when decimal text (as `decimalText` accepts) is greater than zero. */
export const isPositiveDecimalText = (text: string) => /[1-9]/.test(text);

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Why a string cannot be stored as text, or undefined when it can. PostgreSQL text cannot hold
 * NUL, and a lone UTF-16 surrogate is no character at all (it would be stored as U+FFFD).
 */
export const unsafeTextProblem = (text: string): string | undefined => {
  if (text.includes('\u0000')) return 'contains a NUL character (\\u0000), which text cannot hold';
  if (LONE_SURROGATE.test(text)) return 'contains a lone UTF-16 surrogate, which is not a character';
  return undefined;
};
