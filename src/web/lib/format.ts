import { currencyExponent, formatMinorPlain, formatMoney, minorToDecimalString } from '../../shared/money.ts';

// The one place the web app turns amounts, dates, counts and sizes into text for people.
// Amounts arrive as integer minor units and are formatted from their exact decimal text
// (src/shared/money.ts), never by dividing a float. Calendar dates are ISO strings with no
// time zone and are formatted in UTC so no browser time zone can move a day. Pages import
// from here (or render <Money>, which uses formatAmount) instead of building Intl formatters.

const LOCALE = 'en-US';

// --- Money -------------------------------------------------------------------------------

/** "$1,234.56", "-$5.00", "¥1,235"; accounting style writes negatives as "($5.00)". */
export const formatAmount = (minor: number, currency: string, accounting = false) =>
  formatMoney(minor, currency, { accounting, locale: LOCALE });

/** The amount without a currency symbol, grouped: "1,234.56" (table cells under a currency heading). */
export const formatAmountNumber = (minor: number, currency: string) =>
  formatMoney(minor, currency, { display: 'none', locale: LOCALE });

/** An explicit sign for changes: "+$12.00", "−$3.50" (true minus sign), "$0.00". */
export const formatSignedAmount = (minor: number, currency: string) =>
  `${minor > 0 ? '+' : minor < 0 ? '−' : ''}${formatAmount(Math.abs(minor), currency)}`;

const compactFormatters = new Map<string, Intl.NumberFormat>();

/** Short amounts for chart axes and tiles: "$1.2K", "-$3.4M", "¥12K". */
export const formatAmountCompact = (minor: number, currency: string) => {
  let formatter = compactFormatters.get(currency);
  if (!formatter) {
    formatter = new Intl.NumberFormat(LOCALE, {
      style: 'currency',
      currency,
      notation: 'compact',
      minimumFractionDigits: 0,
      maximumFractionDigits: 1,
    });
    compactFormatters.set(currency, formatter);
  }
  // Intl takes the exact decimal string; the cast covers older lib typings.
  return formatter.format(minorToDecimalString(minor, currencyExponent(currency)) as unknown as number);
};

/**
 * A price: whole units when the amount has no cents ("$12"), otherwise with them ("$12.50").
 * For marketing pages (plans), not for books.
 */
export const formatPrice = (minor: number, currency: string) => {
  const exponent = currencyExponent(currency);
  const whole = exponent === 0 || minor % 10 ** exponent === 0;
  const text = formatAmount(minor, currency);
  return whole && exponent > 0 ? text.replace(/\.0+(?=\D*$)/, '') : text;
};

/** Exact decimal text for an input field: 1234 USD → "12.34" (no symbol, no grouping). */
export const formatAmountInput = formatMinorPlain;

// --- Dates and times --------------------------------------------------------------------

const utcDay = (date: string) => new Date(`${date.slice(0, 10)}T00:00:00Z`);

const DATE = new Intl.DateTimeFormat(LOCALE, {
  timeZone: 'UTC',
  year: 'numeric',
  month: 'short',
  day: 'numeric',
});
const DAY_MONTH = new Intl.DateTimeFormat(LOCALE, { timeZone: 'UTC', month: 'short', day: 'numeric' });
const MONTH = new Intl.DateTimeFormat(LOCALE, { timeZone: 'UTC', month: 'short' });
const MONTH_YEAR = new Intl.DateTimeFormat(LOCALE, { timeZone: 'UTC', month: 'short', year: '2-digit' });
const DATE_TIME = new Intl.DateTimeFormat(LOCALE, { dateStyle: 'medium', timeStyle: 'short' });

/** "Nov 21, 2026" for an ISO calendar date. */
export const formatDate = (date: string) => DATE.format(utcDay(date));
/** "Nov 21" for an ISO calendar date. */
export const formatDayMonth = (date: string) => DAY_MONTH.format(utcDay(date));
/** "Nov" for an ISO calendar date. */
export const formatMonth = (date: string) => MONTH.format(utcDay(date));
/** "Nov 26" for an ISO calendar date. */
export const formatMonthYear = (date: string) => MONTH_YEAR.format(utcDay(date));

/** A moment (ISO timestamp or Date) in the browser's own time zone: "Nov 21, 2026, 3:04 PM". */
export const formatDateTime = (at: string | number | Date) => DATE_TIME.format(new Date(at));

/** The browser's IANA time zone, or UTC when it cannot tell. */
export const browserTimeZone = () => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
};

/** Month names for pickers ("January" …), index 0 = January. */
export const MONTH_NAMES = Array.from({ length: 12 }, (_, i) =>
  new Intl.DateTimeFormat(LOCALE, { month: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(2026, i, 1))),
);

/** A fiscal-year start picker's options: value "1" … "12", label the month's name. */
export const MONTH_OPTIONS = MONTH_NAMES.map((name, i) => ({ value: String(i + 1), label: name }));

// --- Currencies ---------------------------------------------------------------------------

/** The currencies most companies use, offered first in pickers. */
export const COMMON_CURRENCIES = [
  'USD',
  'EUR',
  'GBP',
  'CAD',
  'AUD',
  'CHF',
  'JPY',
  'SEK',
  'NOK',
  'DKK',
  'PLN',
  'INR',
  'SGD',
  'NZD',
  'ZAR',
  'BRL',
  'MXN',
];

/** Every currency this browser knows as picker options ("EUR — Euro"), the common ones first. */
export const currencyOptions = () => {
  const names = new Intl.DisplayNames([LOCALE], { type: 'currency' });
  const label = (c: string) => `${c} — ${names.of(c) ?? c}`;
  const rest = Intl.supportedValuesOf('currency').filter((c) => !COMMON_CURRENCIES.includes(c));
  return [...COMMON_CURRENCIES, ...rest].map((c) => ({ value: c, label: label(c) }));
};

// --- Counts, sizes, durations -------------------------------------------------------------

const COUNT = new Intl.NumberFormat(LOCALE);

/** "12,345". */
export const formatCount = (n: number) => COUNT.format(n);

/** "1 transaction", "2,000 transactions". */
export const plural = (n: number, one: string, many = `${one}s`) =>
  `${formatCount(n)} ${n === 1 ? one : many}`;

/** "512 B", "1.5 KB", "2.0 MB", "1.5 GB", "10 GB" (1024-based, as file pickers show). */
export const formatBytes = (bytes: number) =>
  bytes < 1024
    ? `${bytes} B`
    : bytes < 1024 * 1024
      ? `${(bytes / 1024).toFixed(1)} KB`
      : bytes < 1024 * 1024 * 1024
        ? `${(bytes / 1024 / 1024).toFixed(1)} MB`
        : `${(bytes / 1024 / 1024 / 1024).toFixed(1).replace(/\.0$/, '')} GB`;

/** "1.2 s" for a duration in milliseconds. */
export const formatSeconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** "12.5%" for a percentage value (12.5, not 0.125), one decimal. */
export const formatPercent = (value: number) => `${value.toFixed(1)}%`;
