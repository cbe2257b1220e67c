// Calendar-date arithmetic on ISO 'YYYY-MM-DD' strings, shared by the ledger and the pages.
// Accounting dates have no time zone, so everything here works in UTC on whole days and
// returns strings again.

const toUtc = (date: string) => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d));
};
const fromUtc = (d: Date) => d.toISOString().slice(0, 10);

export const isIsoDate = (value: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  return fromUtc(toUtc(value)) === value;
};

export const addDays = (date: string, days: number) => {
  const d = toUtc(date);
  d.setUTCDate(d.getUTCDate() + days);
  return fromUtc(d);
};

/** First day of the month of `date`. */
export const monthStart = (date: string) => `${date.slice(0, 7)}-01`;

/** First day of the month `months` after the month of `date`. */
export const addMonthsToMonthStart = (date: string, months: number) => {
  const [y, m] = date.split('-').map(Number) as [number, number];
  return fromUtc(new Date(Date.UTC(y, m - 1 + months, 1)));
};

export const monthEnd = (date: string) => addDays(addMonthsToMonthStart(date, 1), -1);

export const daysBetween = (from: string, to: string) =>
  Math.round((toUtc(to).getTime() - toUtc(from).getTime()) / 86_400_000);

/** The fiscal year containing `date` for a company whose year starts in `startMonth` (1-12). */
export const fiscalYearOf = (date: string, startMonth: number) => {
  const [y, m] = date.split('-').map(Number) as [number, number];
  const startYear = m >= startMonth ? y : y - 1;
  const start = `${String(startYear).padStart(4, '0')}-${String(startMonth).padStart(2, '0')}-01`;
  const end = addDays(addMonthsToMonthStart(start, 12), -1);
  return { start, end };
};

/** The period just before [from, to]: the same number of months when both are month bounds, else of days. */
export const previousPeriod = (from: string, to: string) => {
  if (from === monthStart(from) && to === monthEnd(to)) {
    const months =
      (Number(to.slice(0, 4)) - Number(from.slice(0, 4))) * 12 +
      Number(to.slice(5, 7)) -
      Number(from.slice(5, 7)) +
      1;
    const previousFrom = addMonthsToMonthStart(from, -months);
    return { from: previousFrom, to: addDays(from, -1) };
  }
  const days = daysBetween(from, to) + 1;
  return { from: addDays(from, -days), to: addDays(from, -1) };
};

const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** The same calendar day a year earlier; Feb 29 becomes Feb 28. */
export const sameDayLastYear = (date: string) => {
  const y = Number(date.slice(0, 4)) - 1;
  const md = date.slice(5) === '02-29' && !isLeap(y) ? '02-28' : date.slice(5);
  return `${String(y).padStart(4, '0')}-${md}`;
};

/**
 * The same period a year earlier. Each day moves back a year (Feb 29 → Feb 28); a period that
 * ends on a month's last day ends on that month's last day a year earlier, so "February 2025"
 * (Feb 1–28) compares with "February 2024" (Feb 1–29).
 */
export const samePeriodLastYear = (from: string, to: string) => {
  const lastYearTo = sameDayLastYear(to);
  return { from: sameDayLastYear(from), to: to === monthEnd(to) ? monthEnd(lastYearTo) : lastYearTo };
};

const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * A period's short name: "Mar 2026", "Jan–Mar 2025", "Nov 2025–Jan 2026" when it is whole
 * months, else its two days as `formatDay` writes them ("2025-01-15–2025-02-14" by default).
 */
export const periodName = (from: string, to: string, formatDay: (date: string) => string = (d) => d) => {
  if (from !== monthStart(from) || to !== monthEnd(to)) return `${formatDay(from)}–${formatDay(to)}`;
  const month = (d: string) => MONTH_NAMES[Number(d.slice(5, 7)) - 1]!;
  const [fy, ty] = [from.slice(0, 4), to.slice(0, 4)];
  if (from.slice(0, 7) === to.slice(0, 7)) return `${month(from)} ${fy}`;
  if (fy === ty) return `${month(from)}–${month(to)} ${fy}`;
  return `${month(from)} ${fy}–${month(to)} ${ty}`;
};

/** What an income statement compares a period with: the period just before, the same one a year earlier. */
export const COMPARISONS = ['previous', 'lastYear'] as const;
export type Comparison = (typeof COMPARISONS)[number];
export const COMPARISON_LABELS: Record<Comparison, string> = {
  previous: 'previous period',
  lastYear: 'same period last year',
};

/** A comparison period's dates and its label: "Jan–Mar 2025 (same period last year)". */
export const comparisonPeriod = (
  kind: Comparison,
  from: string,
  to: string,
  formatDay?: (date: string) => string,
) => {
  const p = kind === 'previous' ? previousPeriod(from, to) : samePeriodLastYear(from, to);
  return { ...p, label: `${periodName(p.from, p.to, formatDay)} (${COMPARISON_LABELS[kind]})` };
};
