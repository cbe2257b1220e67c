import { sql } from 'kysely';
import { addDays, addMonthsToMonthStart, daysBetween, monthEnd, monthStart } from '../../../shared/dates.ts';

// How a sum over [from, to] is read (docs/ledger.md, "Kept balances"): whole calendar months
// from the kept monthly balances, plus the lines of the edge days they do not cover, less the
// lines of the edge days they cover but the range does not. A partial month is read whichever
// way touches fewer days of lines: 1–28 November adds the kept November and takes away the
// lines of the 29th and 30th (usually none, for a range ending today) instead of adding 28
// days of lines; 3–30 November takes away the 1st and 2nd.

/** A closed range of days [from, to]. */
export type DayRange = { from: string; to: string };

export type KeptSpan = {
  /** Kept months with first day >= keptFrom and < keptTo (none when keptFrom >= keptTo). */
  keptFrom: string;
  keptTo: string;
  /** Lines added: the days the range holds outside those months. */
  add: DayRange[];
  /** Lines taken away: the days of those months outside the range. */
  subtract: DayRange[];
};

/** The earliest day a kept balance can hold: a range open at the start begins here. */
export const BEGINNING = '0001-01-01';

export const keptSpan = (from: string | null, to: string): KeptSpan => {
  const start = from ?? BEGINNING;
  const firstMonth = monthStart(start);
  const lastMonth = monthStart(to);
  const daysIn = (month: string) => daysBetween(month, monthEnd(month)) + 1;
  if (start > to) return { keptFrom: firstMonth, keptTo: firstMonth, add: [], subtract: [] };

  if (firstMonth === lastMonth) {
    // One month: its lines, or the kept month less the days around the range.
    const inside = daysBetween(start, to) + 1;
    if (inside <= daysIn(firstMonth) - inside)
      return { keptFrom: firstMonth, keptTo: firstMonth, add: [{ from: start, to }], subtract: [] };
    const subtract: DayRange[] = [];
    if (start > firstMonth) subtract.push({ from: firstMonth, to: addDays(start, -1) });
    if (to < monthEnd(to)) subtract.push({ from: addDays(to, 1), to: monthEnd(to) });
    return { keptFrom: firstMonth, keptTo: addMonthsToMonthStart(firstMonth, 1), add: [], subtract };
  }

  const add: DayRange[] = [];
  const subtract: DayRange[] = [];
  // The first month: whole, or its days from `start` added, or the kept month less the days before.
  let keptFrom = firstMonth;
  if (start > firstMonth) {
    const before = daysBetween(firstMonth, start);
    const after = daysIn(firstMonth) - before;
    if (after <= before) {
      add.push({ from: start, to: monthEnd(start) });
      keptFrom = addMonthsToMonthStart(firstMonth, 1);
    } else subtract.push({ from: firstMonth, to: addDays(start, -1) });
  }
  // The last month: whole, or its days up to `to` added, or the kept month less the days after.
  let keptTo = addMonthsToMonthStart(lastMonth, 1);
  if (to < monthEnd(to)) {
    const upTo = daysBetween(lastMonth, to) + 1;
    const after = daysIn(lastMonth) - upTo;
    if (upTo <= after) {
      add.push({ from: lastMonth, to });
      keptTo = lastMonth;
    } else subtract.push({ from: addDays(to, 1), to: monthEnd(to) });
  }
  return { keptFrom, keptTo, add, subtract };
};

/** SQL: a line dated in any of `ranges` (false when there are none). */
export const inRanges = (ranges: DayRange[]) =>
  ranges.length === 0
    ? sql`false`
    : sql`(${sql.join(
        ranges.map((r) => sql`(date >= ${r.from} and date <= ${r.to})`),
        sql` or `,
      )})`;
