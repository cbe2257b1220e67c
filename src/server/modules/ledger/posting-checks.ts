import { type AppError, badRequest, conflict, notFound } from '../../../shared/errors.ts';
import { JOURNAL_SOURCES } from '../../../shared/ledger.ts';
import { isIsoDate } from './dates.ts';
import {
  type Executor,
  selectClosedYearContaining,
  selectOpenCloses,
  selectSettings,
  takeEntryNumber,
  takeEntryNumbers,
} from './queries.ts';

// The checks every posting makes besides its lines: a real date, a known source, the
// company's settings, the lock date and closed fiscal years, and the entry number taken last.

export const loadSettingsOrThrow = async (db: Executor, organizationId: string) => {
  const settings = await selectSettings(db, organizationId);
  if (!settings) throw notFound('Company not found.');
  return { ...settings, base_currency: settings.base_currency.trim() };
};

/** A real calendar date: the first check of every posting, single, batch or bulk. */
export const checkDate = (date: string) => {
  if (typeof date !== 'string' || !isIsoDate(date)) {
    throw badRequest('invalid_date', 'Use a real calendar date in the form YYYY-MM-DD.');
  }
};

/** One of the ledger's journal sources. */
export const checkSource = (source: string) => {
  if (!JOURNAL_SOURCES.includes(source as (typeof JOURNAL_SOURCES)[number])) {
    throw badRequest('invalid_source', `"${source}" is not a journal source.`);
  }
};

export const lockedError = (lockDate: string) =>
  conflict(
    'period_locked',
    `The books are locked through ${lockDate}. Post on a later date, or ask an admin or accountant to move the lock date.`,
    { lockDate },
  );

export const closedYearError = (closed: { start_date: string; end_date: string }) =>
  conflict(
    'fiscal_year_closed',
    `The fiscal year ${closed.start_date} to ${closed.end_date} is closed. Reopen it to post there, or post on a later date.`,
    { startDate: closed.start_date, endDate: closed.end_date },
  );

export const checkOpenPeriod = async (
  db: Executor,
  organizationId: string,
  date: string,
  lockDate: string | null,
  options: { allowClosedYear: boolean },
) => {
  if (lockDate && date <= lockDate) throw lockedError(lockDate);
  if (!options.allowClosedYear) {
    const closed = await selectClosedYearContaining(db, organizationId, date);
    if (closed) throw closedYearError(closed);
  }
};

/**
 * Takes the entry's number, last of all: the row lock it takes makes a racing lock-date
 * change wait, and the lock date it returns is the one in force at commit.
 */
export const takeNumberInOpenPeriod = async (db: Executor, organizationId: string, date: string) => {
  const taken = await takeEntryNumber(db, organizationId);
  if (!taken) throw notFound('Company not found.');
  if (taken.lock_date && date <= taken.lock_date) throw lockedError(taken.lock_date);
  return taken.number;
};

type ClosedYear = { start_date: string; end_date: string };

/**
 * checkOpenPeriod for several entries, in their order: each after the lock date and outside
 * every closed fiscal year (`closedError` words that refusal).
 */
export const checkOpenPeriods = async (
  db: Executor,
  organizationId: string,
  dates: string[],
  lockDate: string | null,
  closedError: (closed: ClosedYear, date: string) => AppError = closedYearError,
) => {
  const closes = await selectOpenCloses(db, organizationId);
  for (const date of dates) {
    if (lockDate && date <= lockDate) throw lockedError(lockDate);
    const closed = closes.find((c) => c.start_date <= date && date <= c.end_date);
    if (closed) throw closedError(closed, date);
  }
};

/** takeNumberInOpenPeriod for several entries: one number range, last of all; returns its first number. */
export const takeNumbersInOpenPeriod = async (db: Executor, organizationId: string, dates: string[]) => {
  const taken = await takeEntryNumbers(db, organizationId, dates.length);
  if (!taken) throw notFound('Company not found.');
  if (taken.lock_date && dates.some((date) => date <= taken.lock_date!)) throw lockedError(taken.lock_date);
  return taken.first;
};
