// Calendar-date helpers for the accounting screens. Accounting dates are ISO strings with no
// time zone; "today" is the user's local calendar day, and everything else is string and
// UTC-midnight arithmetic so no time zone can shift a day.

const pad = (n: number) => String(n).padStart(2, '0');

export const todayIso = (now: Date = new Date()) =>
  `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;

const toUtc = (date: string) => new Date(`${date}T00:00:00Z`);
const fromUtc = (d: Date) => d.toISOString().slice(0, 10);

export const addDays = (date: string, days: number) => {
  const d = toUtc(date);
  d.setUTCDate(d.getUTCDate() + days);
  return fromUtc(d);
};

export const monthStart = (date: string) => `${date.slice(0, 7)}-01`;

/** The first day of the month `months` after the month of `date`. */
export const addMonths = (date: string, months: number) => {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7)) - 1 + months;
  const y = year + Math.floor(month / 12);
  const m = ((month % 12) + 12) % 12;
  return `${y}-${pad(m + 1)}-01`;
};

export const monthEnd = (date: string) => addDays(addMonths(date, 1), -1);

/** The fiscal year containing `date` for a company whose year starts in `startMonth` (1–12). */
export const fiscalYearOf = (date: string, startMonth: number) => {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  const startYear = month >= startMonth ? year : year - 1;
  const start = `${startYear}-${pad(startMonth)}-01`;
  const end = addDays(addMonths(start, 12), -1);
  return { start, end };
};

/** How people name a fiscal year: by the calendar year it ends in ("FY 2026"). */
export const fiscalYearLabel = (fy: { start: string; end: string }) => `FY ${fy.end.slice(0, 4)}`;

/** The last `count` whole months up to and including the month of `date`, oldest first. */
export const lastMonths = (date: string, count: number) =>
  Array.from({ length: count }, (_, i) => {
    const start = addMonths(monthStart(date), i - count + 1);
    return { start, end: monthEnd(start) };
  });

// Showing a date to people (formatDate, formatMonth, …) is src/web/lib/format.ts.
