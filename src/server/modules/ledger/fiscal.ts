import { randomUUID } from 'node:crypto';
import { badRequest, conflict, notFound } from '../../../shared/errors.ts';
import type { FiscalYear } from '../../../shared/ledger.ts';
import { recordAudit } from '../audit/record.ts';
import { findSystemAccount } from './accounts.ts';
import { addDays, addMonthsToMonthStart, fiscalYearOf, isIsoDate } from './dates.ts';
import { inTransaction } from '../../db/transaction.ts';
import { type PostingLineInput, postJournalEntry, reverseJournalEntry } from './posting.ts';
import { type Executor, selectBalances, selectOpenCloses, selectSettings } from './queries.ts';

// Fiscal years, year-end close and reopen, and opening balances.

const settingsOrThrow = async (db: Executor, organizationId: string) => {
  const s = await selectSettings(db, organizationId);
  if (!s) throw notFound('Company not found.');
  return s;
};

/** Fiscal years from the first posting's year to the current one, newest first, with their close state. */
export const listFiscalYears = async (
  db: Executor,
  organizationId: string,
  today: string,
): Promise<FiscalYear[]> => {
  const settings = await settingsOrThrow(db, organizationId);
  const first = await db
    .selectFrom('journal_entries')
    .select((eb) => eb.fn.min('date').as('first'))
    .where('organization_id', '=', organizationId)
    .where('status', '=', 'posted')
    .executeTakeFirst();
  const closes = await selectOpenCloses(db, organizationId);
  const startDate = first?.first && first.first < today ? first.first : today;
  const years: FiscalYear[] = [];
  let year = fiscalYearOf(startDate, settings.fiscal_year_start_month);
  const last = fiscalYearOf(today, settings.fiscal_year_start_month);
  while (year.start <= last.start) {
    const close = closes.find((c) => c.end_date === year.end);
    years.push({
      startDate: year.start,
      endDate: year.end,
      status: close ? 'closed' : 'open',
      closeEntryId: close?.close_entry_id ?? null,
      closedAt: close ? new Date(close.closed_at as Date).toISOString() : null,
    });
    year = {
      start: addMonthsToMonthStart(year.start, 12),
      end: addDays(addMonthsToMonthStart(year.start, 24), -1),
    };
  }
  return years.reverse();
};

/**
 * The company's year-end closes, read after locking its ledger settings row, so a racing
 * close, reopen or posting waits for this one.
 */
const lockedYearEnds = async (trx: Executor, organizationId: string) => {
  await trx
    .selectFrom('ledger_settings')
    .select('organization_id')
    .where('organization_id', '=', organizationId)
    .forUpdate()
    .execute();
  return selectOpenCloses(trx, organizationId);
};

/**
 * Closes a fiscal year: one entry dated its last day moves every income and expense balance
 * of the year to retained earnings. Earlier years must be closed first only in the sense
 * that their own balances are theirs; each year closes its own activity.
 */
export const closeFiscalYear = (
  db: Executor,
  input: { organizationId: string; endDate: string; actorUserId: string | null },
) =>
  inTransaction(db, async (trx) => {
    const { organizationId, endDate } = input;
    if (!isIsoDate(endDate))
      throw badRequest('invalid_date', 'Use a real calendar date in the form YYYY-MM-DD.');
    const settings = await settingsOrThrow(trx, organizationId);
    const year = fiscalYearOf(endDate, settings.fiscal_year_start_month);
    if (year.end !== endDate) {
      throw badRequest(
        'not_fiscal_year_end',
        `${endDate} is not the last day of a fiscal year; this company's year ends on ${year.end}.`,
      );
    }
    const closes = await lockedYearEnds(trx, organizationId);
    if (closes.some((c) => c.end_date === endDate)) {
      throw conflict('fiscal_year_already_closed', `The fiscal year ending ${endDate} is already closed.`);
    }
    const span = { from: year.start, to: year.end };
    const balances = await selectBalances(trx, organizationId, span, null);
    const accounts = await trx
      .selectFrom('accounts')
      .select(['id', 'type'])
      .where('organization_id', '=', organizationId)
      .where('type', 'in', ['income', 'expense'])
      .execute();
    const pl = new Set(accounts.map((a) => a.id));
    const lines: PostingLineInput[] = [];
    let net = 0; // debit - credit of the closing lines so far, which is the year's net income
    for (const b of balances) {
      if (!pl.has(b.account_id)) continue;
      const balance = b.debit - b.credit;
      if (balance === 0) continue;
      lines.push(
        balance > 0
          ? { accountId: b.account_id, credit: balance }
          : { accountId: b.account_id, debit: -balance },
      );
      net -= balance;
    }
    let closeEntryId: string | null = null;
    if (lines.length > 0) {
      const retained = await findSystemAccount(trx, organizationId, 'retained_earnings');
      if (net !== 0)
        lines.push(
          net < 0 ? { accountId: retained.id, debit: -net } : { accountId: retained.id, credit: net },
        );
      if (lines.length >= 2) {
        const entry = await postJournalEntry(
          trx,
          {
            organizationId,
            date: endDate,
            memo: `Year-end close ${year.start} to ${year.end}`,
            source: 'year_end_close',
            lines,
            actorUserId: input.actorUserId,
          },
          { isClosing: true, allowClosedYear: true, allowArchived: true },
        );
        closeEntryId = entry.id;
      }
    }
    const id = randomUUID();
    await trx
      .insertInto('fiscal_year_closes')
      .values({
        organization_id: organizationId,
        id,
        start_date: year.start,
        end_date: year.end,
        close_entry_id: closeEntryId,
        closed_by: input.actorUserId,
      })
      .execute();
    await recordAudit(trx, {
      organizationId,
      actorUserId: input.actorUserId,
      action: 'fiscal_year.closed',
      entityType: 'fiscal_year',
      entityId: year.end,
      after: { startDate: year.start, endDate: year.end, closeEntryId, netIncome: net },
    });
    return {
      startDate: year.start,
      endDate: year.end,
      status: 'closed' as const,
      closeEntryId,
      closedAt: new Date().toISOString(),
    };
  });

/** Reopens the latest closed year by reversing its closing entry. */
export const reopenFiscalYear = (
  db: Executor,
  input: { organizationId: string; endDate: string; actorUserId: string | null },
) =>
  inTransaction(db, async (trx) => {
    const { organizationId, endDate } = input;
    const closes = await lockedYearEnds(trx, organizationId);
    const close = closes.find((c) => c.end_date === endDate);
    if (!close) throw conflict('fiscal_year_not_closed', `The fiscal year ending ${endDate} is not closed.`);
    const later = closes.find((c) => c.end_date > endDate);
    if (later) {
      throw conflict(
        'reopen_later_year_first',
        `Reopen the fiscal year ending ${later.end_date} first; years reopen newest first.`,
      );
    }
    let reopenEntryId: string | null = null;
    if (close.close_entry_id) {
      const reversal = await reverseJournalEntry(
        trx,
        {
          organizationId,
          entryId: close.close_entry_id,
          date: endDate,
          memo: `Reopen fiscal year ${close.start_date} to ${close.end_date}`,
          actorUserId: input.actorUserId,
        },
        { allowClosedYear: true },
      );
      reopenEntryId = reversal.id;
    }
    await trx
      .updateTable('fiscal_year_closes')
      .set({ reopen_entry_id: reopenEntryId, reopened_by: input.actorUserId, reopened_at: new Date() })
      .where('organization_id', '=', organizationId)
      .where('id', '=', close.id)
      .execute();
    await recordAudit(trx, {
      organizationId,
      actorUserId: input.actorUserId,
      action: 'fiscal_year.reopened',
      entityType: 'fiscal_year',
      entityId: endDate,
      before: { closeEntryId: close.close_entry_id },
      after: { reopenEntryId },
    });
    return {
      startDate: close.start_date,
      endDate: close.end_date,
      status: 'open' as const,
      closeEntryId: null,
      closedAt: null,
    };
  });

/**
 * Posts opening balances brought over from another system. Whatever does not balance goes
 * to Opening balance equity, as QuickBooks and Xero do.
 */
export const postOpeningBalances = (
  db: Executor,
  input: {
    organizationId: string;
    date: string;
    memo?: string;
    lines: { accountId: string; debit?: number; credit?: number }[];
    actorUserId: string | null;
  },
) =>
  inTransaction(db, async (trx) => {
    const equity = await findSystemAccount(trx, input.organizationId, 'opening_balance_equity');
    const lines: PostingLineInput[] = input.lines.filter(
      (l) => (l.debit ?? 0) !== 0 || (l.credit ?? 0) !== 0,
    );
    if (lines.length === 0) throw badRequest('entry_too_few_lines', 'Enter at least one opening balance.');
    const net = lines.reduce((s, l) => s + (l.debit ?? 0) - (l.credit ?? 0), 0);
    if (net !== 0)
      lines.push(net > 0 ? { accountId: equity.id, credit: net } : { accountId: equity.id, debit: -net });
    return postJournalEntry(trx, {
      organizationId: input.organizationId,
      date: input.date,
      memo: input.memo ?? 'Opening balances',
      source: 'opening_balance',
      lines,
      actorUserId: input.actorUserId,
    });
  });
