import {
  FORECAST_SOURCES,
  type Forecast,
  type ForecastItem,
  type ForecastSource,
} from '../../../shared/dashboard.ts';
import { addDays } from '../../../shared/dates.ts';
import { type RecurringFrequency, addDaysIso, occurrenceDate } from '../../../shared/invoice-calc.ts';

// The 13-week cash forecast (docs/dashboard.md, "Forecast"), as a pure function of its inputs
// so a property test can check it: today's cash, the dated items (open invoices and bills by
// due date, upcoming recurring occurrences by the due date they will get; anything already
// overdue falls in the first week) and the trailing weeks of other spending. Each week takes
// the dated items whose date falls in it and the trailing weekly average of other spending;
// the balance is today's cash plus every week so far. The band is the spread (population
// standard deviation) of the trailing weeks, widened with the square root of the number of
// weeks ahead (independent weekly surprises add up that way): low/high = balance ∓ spread·√k.

export const FORECAST_WEEKS = 13;
export const TRAILING_WEEKS = 12;

export type ForecastInput = {
  today: string;
  startCash: number;
  /** Dated movements: positive in, negative out. */
  items: ForecastItem[];
  /** Other spending in each trailing week, oldest first, as positive amounts. */
  spendingWeeks: number[];
  spendingLink: string;
};

/** The last day the forecast covers. */
export const forecastEnd = (today: string) => addDays(today, 7 * FORECAST_WEEKS);

const zeroTotals = () =>
  Object.fromEntries(FORECAST_SOURCES.map((s) => [s, 0])) as Record<ForecastSource, number>;

export const buildForecast = (input: ForecastInput): Forecast => {
  const { today, startCash } = input;
  const end = forecastEnd(today);
  const inHorizon = input.items.filter((i) => i.date <= end);
  const weeks = input.spendingWeeks;
  const weeklyAverage = weeks.length === 0 ? 0 : Math.round(weeks.reduce((s, w) => s + w, 0) / weeks.length);
  const mean = weeks.length === 0 ? 0 : weeks.reduce((s, w) => s + w, 0) / weeks.length;
  const spread =
    weeks.length === 0
      ? 0
      : Math.round(Math.sqrt(weeks.reduce((s, w) => s + (w - mean) ** 2, 0) / weeks.length));

  const totals = zeroTotals();
  const points: Forecast['points'] = [];
  let balance = startCash;
  for (let k = 0; k < FORECAST_WEEKS; k += 1) {
    const weekStart = addDays(today, 1 + 7 * k);
    const weekEnd = addDays(today, 7 + 7 * k);
    let inflow = 0;
    let outflow = 0;
    for (const item of inHorizon) {
      // Week 0 also takes whatever is already due (dated today or earlier).
      const inWeek = k === 0 ? item.date <= weekEnd : item.date >= weekStart && item.date <= weekEnd;
      if (!inWeek) continue;
      if (item.amount >= 0) inflow += item.amount;
      else outflow -= item.amount;
      totals[item.source] += item.amount;
    }
    outflow += weeklyAverage;
    totals.unscheduled_spending -= weeklyAverage;
    balance += inflow - outflow;
    const half = Math.round(spread * Math.sqrt(k + 1));
    points.push({ weekStart, weekEnd, inflow, outflow, balance, low: balance - half, high: balance + half });
  }
  const items = [...inHorizon]
    .sort((a, b) => Math.abs(b.amount) - Math.abs(a.amount) || a.date.localeCompare(b.date))
    .slice(0, 20);
  return {
    from: addDays(today, 1),
    to: end,
    startCash,
    endCash: balance,
    points,
    totals,
    items,
    spending: { weeks, weeklyAverage, spread, link: input.spendingLink },
  };
};

export type ScheduleForForecast = {
  frequency: RecurringFrequency;
  startDate: string;
  endDate: string | null;
  maxCount: number | null;
  nextIndex: number;
  nextDate: string | null;
  paymentTermsDays: number;
};

/**
 * The due dates of a schedule's occurrences not yet created, up to `until` (the runner has
 * not made them, so no open invoice or bill stands for them yet): from its next occurrence on,
 * while it has not ended by date or count.
 */
export const upcomingDueDates = (s: ScheduleForForecast, until: string): string[] => {
  if (s.nextDate === null) return [];
  const out: string[] = [];
  for (let n = s.nextIndex; n < s.nextIndex + 800; n += 1) {
    if (s.maxCount !== null && n >= s.maxCount) break;
    const occurrence = occurrenceDate(s.startDate, s.frequency, n);
    if (s.endDate !== null && occurrence > s.endDate) break;
    const due = addDaysIso(occurrence, s.paymentTermsDays);
    if (due > until) break;
    out.push(due);
  }
  return out;
};
