import {
  type FormatPreferences,
  type Formatter,
  defaultFormatter,
  formatterFor,
} from '../../shared/format.ts';
import { formatMinorPlain } from '../../shared/money-text.ts';

// The web app's names for the one formatter (src/shared/format.ts). Pages import from here
// (or render <Money>, which uses formatAmount) instead of building Intl formatters. Every
// function writes with the signed-in user's preferences (date format, language, time zone):
// PreferencesProvider (auth/PreferencesProvider.tsx) sets them when the profile loads; public pages
// and signed-out screens use the defaults. Amounts are exact from integer minor units;
// calendar dates are ISO strings that no time zone can move; moments show in the user's zone.

let current: Formatter = defaultFormatter;

/** Makes every function below write with this formatter (PreferencesProvider calls it). */
export const installFormatter = (formatter: Formatter) => {
  current = formatter;
};

/** Sets the preferences every function below writes with (null: the defaults). */
export const setFormatPreferences = (prefs: Partial<FormatPreferences> | null) => {
  current = prefs ? formatterFor(prefs) : defaultFormatter;
  return current;
};

/** The formatter in use now (its `prefs` and `locale` too). */
export const currentFormatter = () => current;

// --- Money -------------------------------------------------------------------------------

/** "$1,234.56", "-$5.00", "¥1,235"; accounting style writes negatives as "($5.00)". */
export const formatAmount = (minor: number, currency: string, accounting = false) =>
  current.amount(minor, currency, { accounting });

/** The amount without a currency symbol, grouped: "1,234.56" (table cells under a currency heading). */
export const formatAmountNumber = (minor: number, currency: string) => current.amountNumber(minor, currency);

/** An explicit sign for changes: "+$12.00", "−$3.50" (true minus sign), "$0.00". */
export const formatSignedAmount = (minor: number, currency: string) => current.signedAmount(minor, currency);

/** Short amounts for chart axes and tiles: "$1.2K", "-$3.4M", "¥12K". */
export const formatAmountCompact = (minor: number, currency: string) =>
  current.amountCompact(minor, currency);

/**
 * A price: whole units when the amount has no cents ("$12"), otherwise with them ("$12.50").
 * For marketing pages (plans), not for books.
 */
export const formatPrice = (minor: number, currency: string) => current.price(minor, currency);

/** Exact decimal text for an input field: 1234 USD → "12.34" (no symbol, no grouping). */
export const formatAmountInput = formatMinorPlain;

// --- Dates and times --------------------------------------------------------------------

/** An ISO calendar date in the user's date format: "11/21/2026" (default MM/DD/YYYY). */
export const formatDate = (date: string) => current.date(date);
/** "Nov 21" for an ISO calendar date (axis and compact labels). */
export const formatDayMonth = (date: string) => current.dayMonth(date);
/** "Nov" for an ISO calendar date. */
export const formatMonth = (date: string) => current.month(date);
/** "Nov 26" for an ISO calendar date. */
export const formatMonthYear = (date: string) => current.monthYear(date);

/** A moment (ISO timestamp or Date) in the user's time zone: "11/21/2026, 3:04 PM". */
export const formatDateTime = (at: string | number | Date) => current.dateTime(at);

/** The calendar day of a moment in the user's time zone, in their date format. */
export const formatDayOf = (at: string | number | Date) => current.dayOf(at);

/** The browser's IANA time zone, or UTC when it cannot tell. */
export const browserTimeZone = () => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
};

/**
 * Month names for pickers ("January" …), index 0 = January: the default formatter's
 * `monthName(0 … 11)`, written out (format.test.ts holds them equal). Making them with Intl
 * when this module loads made a date format on every page's first load, public pages too
 * (the first one loads the runtime's calendar data: tens of milliseconds on a phone).
 */
export const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

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
  const names = new Intl.DisplayNames(['en-US'], { type: 'currency' });
  const label = (c: string) => `${c} — ${names.of(c) ?? c}`;
  const rest = Intl.supportedValuesOf('currency').filter((c) => !COMMON_CURRENCIES.includes(c));
  return [...COMMON_CURRENCIES, ...rest].map((c) => ({ value: c, label: label(c) }));
};

// --- Counts, sizes, durations -------------------------------------------------------------

/** "12,345". */
export const formatCount = (n: number) => current.count(n);

/** "1 transaction", "2,000 transactions". */
export const plural = (n: number, one: string, many = `${one}s`) =>
  `${formatCount(n)} ${n === 1 ? one : many}`;

/** "512 B", "1.5 KB", "2 MB", "1.5 GB", "10 GB" (1024-based, as file pickers show). */
export const formatBytes = (bytes: number) => current.bytes(bytes);

/** "1.2 s" for a duration in milliseconds. */
export const formatSeconds = (ms: number) => current.seconds(ms);

/** "12.5%" for a percentage value (12.5, not 0.125), one decimal. */
export const formatPercent = (value: number) => current.percent(value);
