import { currencyExponent, minorToDecimalString } from './money-text.ts';

// The one formatter: how the app writes amounts, dates, date-times, counts and sizes for
// people — on every screen (src/web/lib/format.ts delegates here), in every PDF, email and
// notification. It is built from a user's preferences (date format, language, time zone);
// `defaultFormatter` is what public pages and mail without a user use. CSV does not use it:
// CSV keeps ISO dates and plain numbers (src/server/http/csv.ts). docs/formatting.md.

/** Date layouts a user can choose (SPEC section 3: seed default MM/DD/YYYY). */
export const DATE_FORMATS = ['MM/DD/YYYY', 'DD/MM/YYYY', 'YYYY-MM-DD', 'DD.MM.YYYY'] as const;
export type DateFormat = (typeof DATE_FORMATS)[number];

/**
 * The languages the app really has text for. Only English exists; the language also sets
 * the number style (grouping, decimal point, currency symbols) through its locale.
 */
export const LANGUAGES = [{ code: 'en', name: 'English', locale: 'en-US' }] as const;
export type Language = (typeof LANGUAGES)[number]['code'];

export type FormatPreferences = {
  dateFormat: DateFormat;
  /** A language code the app supports ('en'). */
  language: string;
  /** An IANA time zone ('Europe/Berlin'); date-times show in it. */
  timeZone: string;
};

export const DEFAULT_FORMAT_PREFERENCES: FormatPreferences = {
  dateFormat: 'MM/DD/YYYY',
  language: 'en',
  timeZone: 'UTC',
};

export const isDateFormat = (value: unknown): value is DateFormat =>
  typeof value === 'string' && (DATE_FORMATS as readonly string[]).includes(value);

/** True for an IANA time zone this runtime knows ('UTC', 'America/New_York'). */
export const isTimeZone = (value: unknown): value is string => {
  if (typeof value !== 'string' || value.length === 0 || value.length > 64) return false;
  if (value === 'UTC') return true; // the default: known everywhere, without making a format
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
};

/** The number/date locale a language implies ('en' → 'en-US'); unknown languages → en-US. */
export const localeFor = (language: string | undefined): string =>
  LANGUAGES.find((l) => l.code === language)?.locale ?? 'en-US';

/** The date format's example for a fixed day (Nov 21, 2026), for pickers: "11/21/2026". */
export const dateFormatExample = (format: DateFormat) => layoutDate('2026', '11', '21', format);

const layoutDate = (y: string, m: string, d: string, format: DateFormat) => {
  switch (format) {
    case 'MM/DD/YYYY':
      return `${m}/${d}/${y}`;
    case 'DD/MM/YYYY':
      return `${d}/${m}/${y}`;
    case 'DD.MM.YYYY':
      return `${d}.${m}.${y}`;
    case 'YYYY-MM-DD':
      return `${y}-${m}-${d}`;
  }
};

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})/;

const BYTE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** "512 B", "1.5 KB", "2 MB", "1 GB" (1024-based, one decimal, no trailing ".0"). */
export const formatBytes = (bytes: number): string => {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const shown = unit === 0 ? String(Math.round(value)) : String(Math.round(value * 10) / 10);
  return `${shown} ${BYTE_UNITS[unit]}`;
};

export type Formatter = ReturnType<typeof formatterFor>;

/** A value made by `make` the first time it is asked for. */
const once = <T>(make: () => T) => {
  let value: T | undefined;
  return () => {
    value ??= make();
    return value;
  };
};

/** A formatter for one user's preferences; missing or invalid fields take the defaults. */
export const formatterFor = (prefs: Partial<FormatPreferences> = {}) => {
  const dateFormat = isDateFormat(prefs.dateFormat)
    ? prefs.dateFormat
    : DEFAULT_FORMAT_PREFERENCES.dateFormat;
  const language = LANGUAGES.some((l) => l.code === prefs.language)
    ? (prefs.language as string)
    : DEFAULT_FORMAT_PREFERENCES.language;
  const timeZone = isTimeZone(prefs.timeZone) ? prefs.timeZone : DEFAULT_FORMAT_PREFERENCES.timeZone;
  const locale = localeFor(language);

  // Each Intl format is made on first use: making one costs far more than using it (the first
  // date format loads the runtime's calendar data), and most pages use only a few of them.
  const count = once(() => new Intl.NumberFormat(locale));
  const compact = new Map<string, Intl.NumberFormat>();
  const dayMonth = once(
    () => new Intl.DateTimeFormat(locale, { timeZone: 'UTC', month: 'short', day: 'numeric' }),
  );
  const monthShort = once(() => new Intl.DateTimeFormat(locale, { timeZone: 'UTC', month: 'short' }));
  const monthYear = once(
    () => new Intl.DateTimeFormat(locale, { timeZone: 'UTC', month: 'short', year: '2-digit' }),
  );
  const monthLong = once(() => new Intl.DateTimeFormat(locale, { timeZone: 'UTC', month: 'long' }));
  // The calendar day of a moment in the user's zone (en-US parts are stable to read).
  const zonedDay = once(
    () =>
      new Intl.DateTimeFormat('en-US', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
      }),
  );
  const zonedTime = once(
    () => new Intl.DateTimeFormat(locale, { timeZone, hour: 'numeric', minute: '2-digit' }),
  );

  const utcDay = (date: string) => new Date(`${date.slice(0, 10)}T00:00:00Z`);

  /** An ISO calendar date ("2026-11-21", or a timestamp's first ten characters) per dateFormat. */
  const date = (iso: string) => {
    const m = ISO_DAY.exec(iso);
    if (!m) return iso;
    return layoutDate(m[1]!, m[2]!, m[3]!, dateFormat);
  };

  /** The calendar day a moment falls on in the user's time zone, as ISO "2026-11-21". */
  const zonedIsoDay = (at: string | number | Date) => {
    const parts = Object.fromEntries(
      zonedDay()
        .formatToParts(new Date(at))
        .map((p) => [p.type, p.value]),
    );
    return `${parts.year}-${parts.month}-${parts.day}`;
  };

  // One Intl.NumberFormat per currency and style, made once: building one costs a hundred
  // times what formatting with it does, and a page of amounts formats hundreds of them per
  // render (formatMoney's own options, so the text is the same).
  const moneyFormats = new Map<string, Intl.NumberFormat>();
  const amount = (
    minor: number | bigint,
    currency: string,
    options: { accounting?: boolean; display?: 'symbol' | 'code' | 'none' } = {},
  ) => {
    const exponent = currencyExponent(currency);
    const display = options.display ?? 'symbol';
    const key = `${currency} ${display} ${options.accounting ? 'accounting' : 'standard'}`;
    let f = moneyFormats.get(key);
    if (!f) {
      f = new Intl.NumberFormat(locale, {
        ...(display === 'none' ? {} : { style: 'currency', currency, currencyDisplay: display }),
        currencySign: options.accounting ? 'accounting' : 'standard',
        minimumFractionDigits: exponent,
        maximumFractionDigits: exponent,
      });
      moneyFormats.set(key, f);
    }
    return f.format(minorToDecimalString(minor, exponent) as unknown as number);
  };

  return {
    prefs: { dateFormat, language, timeZone } as FormatPreferences,
    locale,

    // --- Money: exact from minor units (src/shared/money.ts), never through a float ----------
    /** "$1,234.56", "-$5.00", "¥1,235"; accounting writes negatives as "($5.00)". */
    amount,
    /** The number without a currency symbol: "1,234.56". */
    amountNumber: (minor: number | bigint, currency: string) => amount(minor, currency, { display: 'none' }),
    /** An explicit sign: "+$12.00", "−$3.50" (true minus sign), "$0.00". */
    signedAmount: (minor: number, currency: string) =>
      `${minor > 0 ? '+' : minor < 0 ? '−' : ''}${amount(Math.abs(minor), currency)}`,
    /** Short amounts for chart axes and tiles: "$1.2K", "-$3.4M". */
    amountCompact: (minor: number, currency: string) => {
      let f = compact.get(currency);
      if (!f) {
        f = new Intl.NumberFormat(locale, {
          style: 'currency',
          currency,
          notation: 'compact',
          minimumFractionDigits: 0,
          maximumFractionDigits: 1,
        });
        compact.set(currency, f);
      }
      return f.format(minorToDecimalString(minor, currencyExponent(currency)) as unknown as number);
    },
    /** A price: whole units when there are no cents ("$12"), else with them ("$12.50"). */
    price: (minor: number, currency: string) => {
      const exponent = currencyExponent(currency);
      const whole = exponent === 0 || minor % 10 ** exponent === 0;
      const text = amount(minor, currency);
      return whole && exponent > 0 ? text.replace(/\.0+(?=\D*$)/, '') : text;
    },

    // --- Dates and times --------------------------------------------------------------------
    date,
    /** A moment (ISO timestamp, epoch ms or Date) in the user's time zone: "11/21/2026, 3:04 PM". */
    dateTime: (at: string | number | Date) => {
      const d = new Date(at);
      if (Number.isNaN(d.getTime())) return String(at);
      return `${date(zonedIsoDay(d))}, ${zonedTime().format(d)}`;
    },
    /** The time of day of a moment in the user's time zone: "3:04 PM". */
    time: (at: string | number | Date) => zonedTime().format(new Date(at)),
    /** The calendar day a moment falls on in the user's time zone, per dateFormat. */
    dayOf: (at: string | number | Date) => date(zonedIsoDay(at)),
    /** ISO "2026-11-21" of a moment in the user's time zone ("today" for the user). */
    isoDayOf: zonedIsoDay,
    /** Short labels for axes and compact lists: "Nov 21", "Nov", "Nov 26" (month and 2-digit year). */
    dayMonth: (iso: string) => dayMonth().format(utcDay(iso)),
    month: (iso: string) => monthShort().format(utcDay(iso)),
    monthYear: (iso: string) => monthYear().format(utcDay(iso)),
    /** "January" … for month index 0 … 11. */
    monthName: (index: number) => monthLong().format(new Date(Date.UTC(2026, index, 1))),

    // --- Counts, percentages, sizes, durations -----------------------------------------------
    /** "12,345". */
    count: (n: number) => count().format(n),
    /** "12.5%" for a percentage value (12.5, not 0.125), one decimal. */
    percent: (value: number) => `${value.toFixed(1)}%`,
    bytes: formatBytes,
    /** "1.2 s" for a duration in milliseconds. */
    seconds: (ms: number) => `${(ms / 1000).toFixed(1)} s`,
  };
};

/** The formatter with default preferences (public pages, mail with no user). */
export const defaultFormatter = formatterFor();
