import { addMonthsToMonthStart, monthEnd, monthStart } from '../../../shared/dates.ts';

// Calendar-date helpers for the accounting screens. Accounting dates are ISO strings with no
// time zone; "today" is the user's local calendar day, and everything else is the shared
// UTC arithmetic of src/shared/dates.ts, so no time zone can shift a day.

const pad = (n: number) => String(n).padStart(2, '0');

export const todayIso = (now: Date = new Date()) =>
  `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;

export { addDays, fiscalYearOf, monthEnd, monthStart } from '../../../shared/dates.ts';

/** The first day of the month `months` after the month of `date`. */
export const addMonths = addMonthsToMonthStart;

/** How people name a fiscal year: by the calendar year it ends in ("FY 2026"). */
export const fiscalYearLabel = (fy: { start: string; end: string }) => `FY ${fy.end.slice(0, 4)}`;

/** The last `count` whole months up to and including the month of `date`, oldest first. */
export const lastMonths = (date: string, count: number) =>
  Array.from({ length: count }, (_, i) => {
    const start = addMonths(monthStart(date), i - count + 1);
    return { start, end: monthEnd(start) };
  });

// Showing a date to people (formatDate, formatMonth, …) is src/web/lib/format.ts.
