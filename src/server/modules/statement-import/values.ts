import { type CsvDateFormat, CSV_DATE_FORMATS, type DecimalSeparator } from '../../../shared/transactions.ts';
import { AMOUNT_LIMIT_MESSAGE, MoneyParseError, isAmountWithinLimit } from '../../../shared/money.ts';

// Dates and amounts as banks write them, turned into ISO dates and minor units without
// ever passing an amount through a float. Each reader is strict: a value is read exactly
// in the format chosen, or refused — never half-read (decision record 0017).

const isRealDate = (y: number, m: number, d: number) => {
  if (y < 1900 || y > 2999 || m < 1 || m > 12 || d < 1) return false;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return d <= days;
};

const iso = (y: number, m: number, d: number) =>
  `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

/** Two-digit years: 00–69 are 2000–2069, 70–99 are 1970–1999 (the POSIX strptime rule). */
export const fullYear = (yy: number) => (yy < 70 ? 2000 + yy : 1900 + yy);

// English and German month names and their usual abbreviations (lower case, no dot).
const MONTHS: Record<string, number> = {};
[
  ['jan', 'january', 'januar', 'jän', 'jänner'],
  ['feb', 'february', 'februar', 'febr'],
  ['mar', 'march', 'mär', 'märz', 'mrz', 'maerz'],
  ['apr', 'april'],
  ['may', 'mai'],
  ['jun', 'june', 'juni'],
  ['jul', 'july', 'juli'],
  ['aug', 'august'],
  ['sep', 'sept', 'september'],
  ['oct', 'october', 'okt', 'oktober'],
  ['nov', 'november'],
  ['dec', 'december', 'dez', 'dezember'],
].forEach((names, i) => {
  for (const n of names) MONTHS[n] = i + 1;
});

type Part = 'y' | 'yy' | 'm' | 'd' | 'mon';
const D = '(\\d{1,2})';
const Y4 = '(\\d{4})';
const Y2 = '(\\d{2})';
const MON = '([A-Za-zÄäÖöÜü]{3,9})\\.?';
const PATTERNS: Record<CsvDateFormat, { re: string; order: Part[] }> = {
  'YYYY-MM-DD': { re: `${Y4}-${D}-${D}`, order: ['y', 'm', 'd'] },
  'YYYY/MM/DD': { re: `${Y4}/${D}/${D}`, order: ['y', 'm', 'd'] },
  // Hungarian banks end the date with a point too ("2019.04.19.").
  'YYYY.MM.DD': { re: `${Y4}\\.${D}\\.${D}\\.?`, order: ['y', 'm', 'd'] },
  YYYYMMDD: { re: '(\\d{4})(\\d{2})(\\d{2})', order: ['y', 'm', 'd'] },
  'DD.MM.YYYY': { re: `${D}\\.${D}\\.${Y4}`, order: ['d', 'm', 'y'] },
  'DD.MM.YY': { re: `${D}\\.${D}\\.${Y2}`, order: ['d', 'm', 'yy'] },
  'DD/MM/YYYY': { re: `${D}/${D}/${Y4}`, order: ['d', 'm', 'y'] },
  'MM/DD/YYYY': { re: `${D}/${D}/${Y4}`, order: ['m', 'd', 'y'] },
  'DD/MM/YY': { re: `${D}/${D}/${Y2}`, order: ['d', 'm', 'yy'] },
  'MM/DD/YY': { re: `${D}/${D}/${Y2}`, order: ['m', 'd', 'yy'] },
  'DD-MM-YYYY': { re: `${D}-${D}-${Y4}`, order: ['d', 'm', 'y'] },
  'MM-DD-YYYY': { re: `${D}-${D}-${Y4}`, order: ['m', 'd', 'y'] },
  'DD-MM-YY': { re: `${D}-${D}-${Y2}`, order: ['d', 'm', 'yy'] },
  'DD-MMM-YYYY': { re: `${D}[-. /]\\s*${MON}[-. /]\\s*${Y4}`, order: ['d', 'mon', 'y'] },
  'DD-MMM-YY': { re: `${D}[-. /]\\s*${MON}[-. /]\\s*${Y2}`, order: ['d', 'mon', 'yy'] },
  'MMM DD, YYYY': { re: `${MON}[ -]${D},?[ -]${Y4}`, order: ['mon', 'd', 'y'] },
};
// A time of day may follow the date ("2021-09-05 11:32:41", "2020-01-23T08:26:29Z",
// "2018-02-25 12:34:56 +0000"); the date is taken as the bank wrote it.
const TIME =
  '(?:[ T]\\s*\\d{1,2}:\\d{2}(?::\\d{2}(?:[.,]\\d+)?)?(?:\\s*(?:[AaPp][Mm]))?(?:\\s*(?:Z|UTC|GMT|[+-]\\d{2}:?\\d{2}|[A-Z]{3,4}))?)?';
const COMPILED = Object.fromEntries(
  Object.entries(PATTERNS).map(([k, p]) => [k, { re: new RegExp(`^${p.re}${TIME}$`), order: p.order }]),
) as Record<CsvDateFormat, { re: RegExp; order: Part[] }>;

/** Reads a date in the given format; returns null when it is not one. */
export const parseDateIn = (text: string, format: CsvDateFormat): string | null => {
  const value = text.trim();
  const { re, order } = COMPILED[format];
  const match = re.exec(value);
  if (!match) return null;
  let y = 0;
  let m = 0;
  let d = 0;
  for (let i = 0; i < order.length; i += 1) {
    const raw = match[i + 1]!;
    const part = order[i]!;
    if (part === 'y') y = Number(raw);
    else if (part === 'yy') y = fullYear(Number(raw));
    else if (part === 'm') m = Number(raw);
    else if (part === 'd') d = Number(raw);
    else {
      const month = MONTHS[raw.toLowerCase()];
      if (!month) return null;
      m = month;
    }
  }
  return isRealDate(y, m, d) ? iso(y, m, d) : null;
};

/** Day-first and month-first formats that read the same text differently. */
const TWINS: [CsvDateFormat, CsvDateFormat][] = [
  ['DD/MM/YYYY', 'MM/DD/YYYY'],
  ['DD/MM/YY', 'MM/DD/YY'],
  ['DD-MM-YYYY', 'MM-DD-YYYY'],
];

export type DateFormatGuess = {
  /** The format to use, or null when the column fits two readings and the user must choose. */
  format: CsvDateFormat | null;
  /** Every format all the column's values fit (more than one: ambiguous). */
  fitting: CsvDateFormat[];
};

/**
 * Decides a column's date format from all its values. A format every value fits wins;
 * when day-first and month-first both fit every value (no day above 12 anywhere), the
 * answer is null and the user chooses. When no format fits every value, the one most
 * values fit is suggested and the others are refused by line when the file is read.
 */
export const detectDateFormat = (samples: string[]): DateFormatGuess => {
  const values = [...new Set(samples.map((s) => s.trim()).filter(Boolean))];
  if (values.length === 0) return { format: null, fitting: [] };
  // Every value is checked against each format (a wrong format fails at once).
  const fitting = CSV_DATE_FORMATS.filter((f) => values.every((v) => parseDateIn(v, f) !== null));
  if (fitting.length === 1) return { format: fitting[0]!, fitting };
  if (fitting.length > 1) {
    const twin = TWINS.find(([a, b]) => fitting.includes(a) && fitting.includes(b));
    if (twin) return { format: null, fitting };
    return { format: fitting[0]!, fitting };
  }
  // None fits every value: suggest the one most values fit; the others are refused by line.
  const sample =
    values.length > 5000 ? values.filter((_, i) => i % Math.ceil(values.length / 5000) === 0) : values;
  const scores = CSV_DATE_FORMATS.map((f) => ({
    f,
    n: sample.filter((v) => parseDateIn(v, f) !== null).length,
  }));
  const best = scores.reduce((a, b) => (b.n > a.n ? b : a));
  return { format: best.n > 0 ? best.f : null, fitting: [] };
};

/** Compatibility: the format a column's values suggest, or null. */
export const guessDateFormat = (samples: string[]): CsvDateFormat | null => detectDateFormat(samples).format;

/** True when the text is a date in any format Kontor reads. */
export const looksLikeDate = (text: string) => {
  const v = text.trim();
  return v !== '' && /\d/.test(v) && CSV_DATE_FORMATS.some((f) => parseDateIn(v, f) !== null);
};

// ---- Amounts ----------------------------------------------------------------------------

/** Currency signs and the currency each one names without doubt ($ and ¥ name several). */
const SIGNS: Record<string, string | null> = {
  $: null,
  US$: 'USD',
  '€': 'EUR',
  '£': 'GBP',
  '¥': null,
  '₹': 'INR',
  '₽': 'RUB',
  '₩': 'KRW',
  '₺': 'TRY',
  '₪': 'ILS',
  '₫': 'VND',
  '฿': 'THB',
  '₴': 'UAH',
  '₦': 'NGN',
  zł: 'PLN',
  Kč: 'CZK',
  Ft: 'HUF',
  kr: null,
  'kr.': null,
  'Fr.': 'CHF',
  // Arabic-script signs, written before the number as YNAB and Gulf banks do ("د.ا.4.750").
  'د.ا.': 'JOD',
  'د.ا': 'JOD',
  'د.إ.': 'AED',
  'د.إ': 'AED',
  'د.ك.': 'KWD',
  'د.ك': 'KWD',
  'د.ب.': 'BHD',
  'د.ب': 'BHD',
  'ر.س.': 'SAR',
  'ر.س': 'SAR',
  'ر.ق.': 'QAR',
  'ر.ق': 'QAR',
  'ر.ع.': 'OMR',
  'ر.ع': 'OMR',
};
const SIGN_RE = Object.keys(SIGNS)
  .sort((a, b) => b.length - a.length)
  .map((s) => s.replace(/[.$]/g, '\\$&'))
  .join('|');
const LEADING_CURRENCY = new RegExp(`^(${SIGN_RE}|[A-Z]{3}(?![A-Za-z]))\\s*`);
const TRAILING_CURRENCY = new RegExp(`\\s*(${SIGN_RE}|(?<![A-Za-z])[A-Z]{3})$`);
const GROUP = "[ \\u00a0\\u202f']";

const numberPattern = (decimal: DecimalSeparator) => {
  const sep = decimal === '.' ? ',' : '\\.';
  const point = decimal === '.' ? '\\.' : ',';
  return new RegExp(`^(\\d+|\\d{1,3}(?:(${sep}|${GROUP})\\d{3})(?:\\2\\d{3})*)?(?:${point}(\\d+))?$`);
};
const NUMBER: Record<DecimalSeparator, RegExp> = { '.': numberPattern('.'), ',': numberPattern(',') };

export type ReadAmount = {
  negative: boolean;
  whole: string;
  fraction: string;
  /** The currency the value names ("EUR" from "€" or "EUR"), when it names one without doubt. */
  currency: string | null;
};

/**
 * Reads an amount as banks write it: "1,234.56" or "1.234,56" (by the decimal mark given),
 * "1 234,56", "1'234.56", "-12.00", "(12.00)", "12.00-", "+ £1,100.00", "49,99 EUR".
 * Thousands separators must group exactly three digits; anything else is refused.
 */
export const readAmount = (text: string, decimal: DecimalSeparator): ReadAmount => {
  const original = text;
  let value = text.trim().replace(/\u2212/g, '-');
  if (value === '') throw new MoneyParseError('the amount is empty');
  let signs = 0;
  let negative = false;
  let currency: string | null = null;
  let sawCurrency = false;
  if (/^\(.*\)$/.test(value)) {
    negative = true;
    signs += 1;
    value = value.slice(1, -1).trim();
  }
  const takeSign = (at: 'start' | 'end') => {
    const m = at === 'start' ? /^([+-])\s*/.exec(value) : /\s*([+-])$/.exec(value);
    if (!m) return;
    signs += 1;
    if (m[1] === '-') negative = true;
    value = at === 'start' ? value.slice(m[0].length) : value.slice(0, value.length - m[0].length);
  };
  const takeCurrency = (at: 'start' | 'end') => {
    if (sawCurrency) return;
    const m = (at === 'start' ? LEADING_CURRENCY : TRAILING_CURRENCY).exec(value);
    if (!m) return;
    sawCurrency = true;
    const token = m[1]!;
    currency = token in SIGNS ? SIGNS[token]! : token;
    value = at === 'start' ? value.slice(m[0].length) : value.slice(0, value.length - m[0].length);
  };
  takeSign('start');
  takeCurrency('start');
  takeSign('start');
  takeSign('end');
  takeCurrency('end');
  takeSign('end');
  if (signs > 1) throw new MoneyParseError(`"${original}" has more than one sign`);
  const m = NUMBER[decimal].exec(value);
  if (!m || (m[1] === undefined && m[3] === undefined)) {
    const other = decimal === '.' ? 'a decimal comma' : 'a decimal point';
    const hint =
      (decimal === '.' && /,\d{1,2}$/.test(value)) || (decimal === ',' && /\.\d{1,2}$/.test(value))
        ? ` (it looks like ${other}; change the decimal mark)`
        : '';
    throw new MoneyParseError(`"${original}" is not an amount${hint}`);
  }
  const whole = (m[1] ?? '0').replace(/\D/g, '').replace(/^0+(?=\d)/, '');
  return { negative, whole, fraction: m[3] ?? '', currency };
};

/** Signed minor units of a read amount; extra decimals are accepted only when they are zeros. */
export const toMinor = (a: ReadAmount, exponent: number, text: string): number => {
  let fraction = a.fraction;
  if (fraction.length > exponent) {
    if (/[^0]/.test(fraction.slice(exponent))) {
      throw new MoneyParseError(
        `"${text}" has more than ${exponent} decimal place${exponent === 1 ? '' : 's'}; importing it would lose part of a cent`,
      );
    }
    fraction = fraction.slice(0, exponent);
  }
  const minor = BigInt(a.whole + fraction.padEnd(exponent, '0'));
  // The one amount bound (decision 0013): the line is refused, naming it, like any bad value.
  if (!isAmountWithinLimit(minor))
    throw new MoneyParseError(`"${text}" is too large. ${AMOUNT_LIMIT_MESSAGE}`);
  const value = Number(a.negative ? -minor : minor);
  return value === 0 ? 0 : value;
};

/** Reads an amount in signed minor units of a currency with the given exponent. */
export const parseBankAmount = (text: string, exponent: number, decimal: DecimalSeparator): number =>
  toMinor(readAmount(text, decimal), exponent, text);

const readsAs = (text: string, decimal: DecimalSeparator) => {
  try {
    return readAmount(text, decimal);
  } catch {
    return null;
  }
};

export type DecimalGuess = {
  /** The decimal mark, or null when the values read both ways with different results. */
  mark: DecimalSeparator | null;
  /** Values that read differently with a point and with a comma ("1,234"), when ambiguous. */
  ambiguousValues: string[];
};

/**
 * Decides a column's decimal mark from all its values: the mark every value reads with;
 * when both do, whether any value means something different under each ("1,234"): then
 * the user chooses. When neither reads every value, the one that reads more wins and the
 * rest are refused by line.
 */
export const detectDecimalMark = (samples: string[]): DecimalGuess => {
  const values = [...new Set(samples.map((s) => s.trim()).filter(Boolean))];
  const allPoint = values.every((v) => readsAs(v, '.'));
  const allComma = values.every((v) => readsAs(v, ','));
  if (allPoint !== allComma) return { mark: allPoint ? '.' : ',', ambiguousValues: [] };
  if (allPoint && allComma) {
    const differ = values.filter((v) => {
      const a = readsAs(v, '.')!;
      const b = readsAs(v, ',')!;
      return a.whole !== b.whole || a.fraction.replace(/0+$/, '') !== b.fraction.replace(/0+$/, '');
    });
    return differ.length > 0
      ? { mark: null, ambiguousValues: differ.slice(0, 5) }
      : { mark: '.', ambiguousValues: [] };
  }
  const point = values.filter((v) => readsAs(v, '.')).length;
  const comma = values.filter((v) => readsAs(v, ',')).length;
  return { mark: comma > point ? ',' : '.', ambiguousValues: [] };
};

/** Compatibility: a decimal mark for sample amounts (a point when they do not say). */
export const guessDecimalSeparator = (samples: string[]): DecimalSeparator =>
  detectDecimalMark(samples).mark ?? '.';

/** True when the text reads as an amount with either decimal mark. */
export const looksLikeAmount = (text: string) => {
  const v = text.trim();
  return v !== '' && /\d/.test(v) && (readsAs(v, '.') !== null || readsAs(v, ',') !== null);
};

export const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
