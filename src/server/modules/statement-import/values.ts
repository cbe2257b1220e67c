import type { CsvDateFormat, DecimalSeparator } from '../../../shared/transactions.ts';
import { MoneyParseError, parseDecimalToMinor } from '../../../shared/money.ts';

// Dates and amounts as banks write them, turned into ISO dates and minor units without
// ever passing an amount through a float.

const isRealDate = (y: number, m: number, d: number) => {
  if (y < 1900 || y > 2999 || m < 1 || m > 12 || d < 1) return false;
  const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return d <= days;
};

const iso = (y: number, m: number, d: number) =>
  `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;

const PATTERNS: Record<
  CsvDateFormat,
  { re: RegExp; order: ['y' | 'm' | 'd', 'y' | 'm' | 'd', 'y' | 'm' | 'd'] }
> = {
  'YYYY-MM-DD': { re: /^(\d{4})-(\d{1,2})-(\d{1,2})$/, order: ['y', 'm', 'd'] },
  'DD/MM/YYYY': { re: /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/, order: ['d', 'm', 'y'] },
  'MM/DD/YYYY': { re: /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/, order: ['m', 'd', 'y'] },
  'DD.MM.YYYY': { re: /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/, order: ['d', 'm', 'y'] },
  'DD-MM-YYYY': { re: /^(\d{1,2})-(\d{1,2})-(\d{4})$/, order: ['d', 'm', 'y'] },
  'YYYY/MM/DD': { re: /^(\d{4})\/(\d{1,2})\/(\d{1,2})$/, order: ['y', 'm', 'd'] },
  YYYYMMDD: { re: /^(\d{4})(\d{2})(\d{2})$/, order: ['y', 'm', 'd'] },
};

/** Reads a date in the given format; returns null when it is not one. Times after a space or T are ignored. */
export const parseDateIn = (text: string, format: CsvDateFormat): string | null => {
  const value = text.trim().split(/[ T]/)[0] ?? '';
  const { re, order } = PATTERNS[format];
  const match = re.exec(value);
  if (!match) return null;
  const parts = { y: 0, m: 0, d: 0 };
  order.forEach((key, i) => {
    parts[key] = Number(match[i + 1]);
  });
  return isRealDate(parts.y, parts.m, parts.d) ? iso(parts.y, parts.m, parts.d) : null;
};

/** Guesses the date format from sample values: the first format every sample fits. */
export const guessDateFormat = (samples: string[]): CsvDateFormat | null => {
  const values = samples.map((s) => s.trim()).filter(Boolean);
  if (values.length === 0) return null;
  const order: CsvDateFormat[] = [
    'YYYY-MM-DD',
    'DD.MM.YYYY',
    'DD/MM/YYYY',
    'MM/DD/YYYY',
    'DD-MM-YYYY',
    'YYYY/MM/DD',
    'YYYYMMDD',
  ];
  // Day-first and month-first slashes are told apart by a value above 12 in either place.
  // The format most samples fit wins, so one mistyped date does not hide the file's format.
  const score = (f: CsvDateFormat) => values.filter((v) => parseDateIn(v, f) !== null).length;
  let best: CsvDateFormat | null = null;
  let bestScore = 0;
  for (const f of order) {
    const s = score(f);
    if (s > bestScore) {
      best = f;
      bestScore = s;
    }
  }
  if (best === 'DD/MM/YYYY' || best === 'MM/DD/YYYY') {
    const dayFirst = score('DD/MM/YYYY') > score('MM/DD/YYYY');
    const monthFirst = score('MM/DD/YYYY') > score('DD/MM/YYYY');
    if (dayFirst) return 'DD/MM/YYYY';
    if (monthFirst) return 'MM/DD/YYYY';
  }
  return best;
};

/**
 * Reads an amount as banks write it: "1,234.56", "1.234,56" (decimal comma), "-12.00",
 * "(12.00)", "12.00-", "+5", with an optional currency symbol or code. Returns signed minor units.
 */
export const parseBankAmount = (text: string, exponent: number, decimal: DecimalSeparator): number => {
  let value = text.trim();
  if (value === '') throw new MoneyParseError('the amount is empty');
  let negative = false;
  if (/^\(.*\)$/.test(value)) {
    negative = true;
    value = value.slice(1, -1).trim();
  }
  if (value.endsWith('-')) {
    negative = !negative;
    value = value.slice(0, -1).trim();
  }
  // Currency symbols and codes around the number ("$12.00", "12,00 EUR", "€ 5").
  value = value
    .replace(/^[A-Za-z]{3}\s*|\s*[A-Za-z]{3}$/g, '')
    .replace(/[$€£¥₹₽₩₺₪₫฿₴₦]/gu, '')
    .trim();
  if (value.startsWith('-')) {
    negative = !negative;
    value = value.slice(1).trim();
  } else if (value.startsWith('+')) {
    value = value.slice(1).trim();
  }
  if (decimal === ',') {
    if (/,\d*,/.test(value)) throw new MoneyParseError(`"${text}" has more than one decimal comma`);
    value = value.replace(/[.\s'\u00a0\u202f]/g, '').replace(',', '.');
  } else {
    if (/\.\d*\./.test(value)) throw new MoneyParseError(`"${text}" has more than one decimal point`);
    value = value.replace(/[,\s'\u00a0\u202f]/g, '');
  }
  if (!/^\d+(\.\d*)?$|^\.\d+$/.test(value)) throw new MoneyParseError(`"${text}" is not an amount`);
  const minor = parseDecimalToMinor(value, exponent);
  return negative && minor !== 0 ? -minor : minor;
};

/** Guesses the decimal separator from sample amounts: a comma followed by 1-2 digits at the end means decimal comma. */
export const guessDecimalSeparator = (samples: string[]): DecimalSeparator => {
  let comma = 0;
  let point = 0;
  for (const raw of samples) {
    const s = raw.trim().replace(/[-)\s]+$/, '');
    if (/,\d{1,2}$/.test(s)) comma += 1;
    else if (/\.\d{1,2}$/.test(s)) point += 1;
  }
  return comma > point ? ',' : '.';
};

export const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
