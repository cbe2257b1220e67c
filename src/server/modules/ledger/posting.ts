import { sql } from 'kysely';
import { AppError, badRequest, conflict, notFound } from '../../../shared/errors.ts';
import type { JournalEntry, JournalLine, JournalSourceName } from '../../../shared/ledger.ts';
import { JOURNAL_SOURCES } from '../../../shared/ledger.ts';
import {
  AMOUNT_LIMIT_MESSAGE,
  LEDGER_VOLUME_LIMIT,
  MAX_AMOUNT_MINOR,
  MoneyParseError,
  convertMinorExact,
  isAmountWithinLimit,
  isCurrencyCode,
  parseRate,
} from '../../../shared/money.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { JournalEntriesTable } from '../../db/types.ts';
import { recordAudit } from '../audit/record.ts';
import type { AuditAction } from '../audit/actions.ts';
import { isIsoDate } from './dates.ts';
import { newEntryId } from './ids.ts';
import {
  type Executor,
  selectAccountsByIds,
  selectAttachments,
  selectClosedYearContaining,
  selectDraftLines,
  selectEntry,
  selectEntryForUpdate,
  selectOpenCloses,
  selectPostedLines,
  selectReversalsOf,
  selectSettings,
  takeEntryNumber,
  takeEntryNumbers,
} from './queries.ts';

// Posting to the ledger. Other modules call postJournalEntry / reverseJournalEntry inside
// their own transaction; these functions never open one when handed a transaction, and
// open one themselves only when handed the plain database.

export type PostingLineInput = {
  accountId: string;
  /** Base-currency minor units; exactly one of debit and credit is positive. */
  debit?: number;
  credit?: number;
  /** A foreign-currency line: currency, amount in its minor units, rate to the base currency. */
  currency?: string;
  amount?: number;
  rate?: string | number;
  description?: string | null;
  contactId?: string | null;
};

export type PostJournalEntryInput = {
  organizationId: string;
  date: string;
  memo?: string;
  reference?: string | null;
  source: JournalSourceName;
  sourceId?: string | null;
  lines: PostingLineInput[];
  actorUserId: string | null;
};

type Selectable<T> = { [K in keyof T]: T[K] extends { __select__: infer S } ? S : T[K] };
type EntryRow = NonNullable<Awaited<ReturnType<typeof selectEntry>>>;
export type { EntryRow };

// Kept here for the modules that import it from the ledger; it lives in db/ (plumbing).
export { inTransaction };

const lineError = (index: number, message: string, code = 'invalid_line') =>
  badRequest(code, `Line ${index + 1}: ${message}`, { line: index + 1 });

export type ValidLine = {
  accountId: string;
  debit: number;
  credit: number;
  currency: string | null;
  amount: number | null;
  rate: string | null;
  description: string | null;
  contactId: string | null;
};

const isMinor = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/**
 * Checks the shape of each line. A foreign-currency line carries currency, amount and rate
 * besides its base-currency debit or credit, which must agree with amount x rate (rounded
 * half away from zero) to within one minor unit, so callers can place a rounding cent.
 */
export const normalizeLines = (
  lines: PostingLineInput[],
  baseCurrency: string,
  options: {
    requireBalanced: boolean;
    /**
     * Largest line amount: the field bound (MAX_AMOUNT_MINOR) for anything a person or a file
     * gives; a year-end close (and its reopening) carries whole-year balances, which the
     * ledger's volume limit bounds instead (decision 0013).
     */
    lineLimit?: number;
  },
): ValidLine[] => {
  const lineLimit = options.lineLimit ?? MAX_AMOUNT_MINOR;
  if (!Array.isArray(lines) || (options.requireBalanced && lines.length < 2)) {
    throw badRequest('entry_too_few_lines', 'An entry needs at least two lines: one debit and one credit.');
  }
  if (lines.length > 500) throw badRequest('entry_too_many_lines', 'An entry can have at most 500 lines.');
  const result = lines.map((line, i): ValidLine => {
    if (!line || typeof line.accountId !== 'string' || line.accountId === '') {
      throw lineError(i, 'choose an account.');
    }
    for (const [name, value] of [
      ['debit', line.debit],
      ['credit', line.credit],
      ['amount', line.amount],
    ] as const) {
      if (isMinor(value) && value > lineLimit) {
        throw lineError(i, `${name} is too large. ${AMOUNT_LIMIT_MESSAGE}`, 'amount_too_large');
      }
      if (value !== undefined && value !== null && !isMinor(value)) {
        throw lineError(
          i,
          typeof value === 'number' && value < 0
            ? `${name} cannot be negative; put the amount on the other side instead.`
            : `${name} must be a whole number of minor units (cents).`,
          typeof value === 'number' && value < 0 ? 'negative_amount' : 'invalid_line',
        );
      }
    }
    let debit = line.debit ?? 0;
    let credit = line.credit ?? 0;
    let currency: string | null = null;
    let amount: number | null = null;
    let rate: string | null = null;
    if (line.currency !== undefined && line.currency !== null && line.currency !== baseCurrency) {
      if (!isCurrencyCode(line.currency)) throw lineError(i, `"${line.currency}" is not a currency code.`);
      if (line.amount === undefined || line.rate === undefined) {
        throw lineError(
          i,
          `a ${line.currency} line needs its amount and the exchange rate to ${baseCurrency}.`,
        );
      }
      try {
        rate = String(line.rate).trim();
        parseRate(rate);
      } catch (error) {
        if (error instanceof MoneyParseError) throw lineError(i, error.message);
        throw error;
      }
      currency = line.currency;
      amount = line.amount;
      const exact = convertMinorExact(line.amount, line.currency, rate, baseCurrency);
      if (!isAmountWithinLimit(exact)) {
        throw lineError(
          i,
          `${line.amount} ${line.currency} at ${rate} is ${exact} ${baseCurrency} minor units. ${AMOUNT_LIMIT_MESSAGE}`,
          'amount_too_large',
        );
      }
      const converted = Number(exact);
      if (debit === 0 && credit === 0) {
        throw lineError(
          i,
          'say whether the line is a debit or a credit (give that side, even as the converted amount).',
        );
      }
      const given = debit > 0 ? debit : credit;
      if (Math.abs(given - converted) > 1) {
        throw lineError(
          i,
          `the base amount ${given} does not match ${line.amount} ${line.currency} at ${rate} (${converted}).`,
          'rate_mismatch',
        );
      }
    }
    if (debit > 0 && credit > 0) throw lineError(i, 'a line is either a debit or a credit, not both.');
    if (debit === 0 && credit === 0) throw lineError(i, 'enter a debit or a credit greater than zero.');
    debit = debit || 0;
    credit = credit || 0;
    const description = line.description?.trim() || null;
    if (description && description.length > 500)
      throw lineError(i, 'the description is longer than 500 characters.');
    return {
      accountId: line.accountId,
      debit,
      credit,
      currency,
      amount,
      rate,
      description,
      contactId: line.contactId ?? null,
    };
  });
  if (options.requireBalanced) {
    const debits = result.reduce((s, l) => s + l.debit, 0);
    const credits = result.reduce((s, l) => s + l.credit, 0);
    if (!Number.isSafeInteger(debits) || !Number.isSafeInteger(credits)) {
      throw badRequest('entry_too_large', 'The entry total is too large.');
    }
    if (debits !== credits) {
      throw badRequest(
        'entry_unbalanced',
        `Debits (${debits}) and credits (${credits}) must be equal; they differ by ${Math.abs(debits - credits)} minor units.`,
        { debits, credits, difference: debits - credits },
      );
    }
  }
  return result;
};

/** Checks every line's account belongs to the company, takes postings and fits the line's currency. */
export const checkAccounts = async (
  db: Executor,
  organizationId: string,
  baseCurrency: string,
  lines: ValidLine[],
  options: { allowArchived: boolean },
) => {
  const ids = [...new Set(lines.map((l) => l.accountId))];
  const accounts = await selectAccountsByIds(db, organizationId, ids);
  const byId = new Map(accounts.map((a) => [a.id, a]));
  lines.forEach((line, i) => {
    const account = byId.get(line.accountId);
    if (!account) throw lineError(i, 'the account does not exist in this company.', 'account_not_found');
    if (account.archived_at && !options.allowArchived) {
      throw lineError(
        i,
        `account ${account.code} ${account.name} is archived and takes no new postings.`,
        'account_archived',
      );
    }
    const accountCurrency = account.currency.trim();
    if (accountCurrency !== baseCurrency && line.currency !== accountCurrency) {
      throw lineError(
        i,
        `account ${account.code} ${account.name} is kept in ${accountCurrency}; give the line's ${accountCurrency} amount and rate.`,
        'currency_mismatch',
      );
    }
  });
  return byId;
};

const loadSettingsOrThrow = async (db: Executor, organizationId: string) => {
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

const checkOpenPeriod = async (
  db: Executor,
  organizationId: string,
  date: string,
  lockDate: string | null,
  options: { allowClosedYear: boolean },
) => {
  if (lockDate && date <= lockDate) throw lockedError(lockDate);
  if (!options.allowClosedYear) {
    const closed = await selectClosedYearContaining(db, organizationId, date);
    if (closed) {
      throw conflict(
        'fiscal_year_closed',
        `The fiscal year ${closed.start_date} to ${closed.end_date} is closed. Reopen it to post there, or post on a later date.`,
        { startDate: closed.start_date, endDate: closed.end_date },
      );
    }
  }
};

const insertPostedLines = async (
  db: Executor,
  entry: { organizationId: string; id: string; date: string; number: number; isClosing: boolean },
  lines: ValidLine[],
) => {
  await db
    .insertInto('journal_lines')
    .values(
      lines.map((l, i) => ({
        organization_id: entry.organizationId,
        entry_id: entry.id,
        line_no: i + 1,
        account_id: l.accountId,
        date: entry.date,
        entry_number: entry.number,
        is_closing: entry.isClosing,
        debit: l.debit,
        credit: l.credit,
        currency: l.currency,
        amount: l.amount,
        rate: l.rate,
        description: l.description,
        contact_id: l.contactId,
      })),
    )
    .execute();
};

export type PostOptions = {
  /** Reversals may touch archived accounts: correcting a mistake needs no un-archiving. */
  allowArchived?: boolean;
  /** Only the year-end close and its reopening post inside a closed year. */
  allowClosedYear?: boolean;
  isClosing?: boolean;
  reversesEntryId?: string | null;
  approvedBy?: string | null;
};

/** Validates and posts a new entry in the caller's transaction; returns it with its lines. */
export const postJournalEntry = (db: Executor, input: PostJournalEntryInput, options: PostOptions = {}) =>
  inTransaction(db, async (trx) => {
    const { organizationId } = input;
    checkDate(input.date);
    checkSource(input.source);
    const settings = await loadSettingsOrThrow(trx, organizationId);
    const lines = normalizeLines(input.lines, settings.base_currency, {
      requireBalanced: true,
      ...(options.isClosing ? { lineLimit: LEDGER_VOLUME_LIMIT } : {}),
    });
    const accountsById = await checkAccounts(trx, organizationId, settings.base_currency, lines, {
      allowArchived: options.allowArchived ?? false,
    });
    await checkOpenPeriod(trx, organizationId, input.date, settings.lock_date, {
      allowClosedYear: options.allowClosedYear ?? false,
    });
    // The number comes last: the row lock it takes makes a racing lock-date change wait,
    // and the lock date it returns is the one in force at commit.
    const taken = await takeEntryNumber(trx, organizationId);
    if (!taken) throw notFound('Company not found.');
    if (taken.lock_date && input.date <= taken.lock_date) throw lockedError(taken.lock_date);
    const id = newEntryId();
    const row = await trx
      .insertInto('journal_entries')
      .values({
        organization_id: organizationId,
        id,
        number: taken.number,
        date: input.date,
        memo: (input.memo ?? '').trim(),
        reference: input.reference?.trim() || null,
        source: input.source,
        source_id: input.sourceId ?? null,
        status: 'posted',
        reverses_entry_id: options.reversesEntryId ?? null,
        is_closing: options.isClosing ?? false,
        created_by: input.actorUserId,
        approved_by: options.approvedBy ?? null,
        posted_by: input.actorUserId,
        posted_at: new Date(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await insertPostedLines(
      trx,
      { organizationId, id, date: input.date, number: taken.number, isClosing: options.isClosing ?? false },
      lines,
    );
    // Built from what was just written rather than read back: a new entry has no reversal
    // and no attachments yet, and every round trip counts when postings come one by one.
    const entry: JournalEntry = {
      ...toEntry(
        row,
        lines.map((l, i) => {
          const account = accountsById.get(l.accountId)!;
          return {
            lineNo: i + 1,
            accountId: l.accountId,
            accountCode: account.code,
            accountName: account.name,
            debit: l.debit,
            credit: l.credit,
            currency: l.currency,
            amount: l.amount,
            rate: l.rate === null ? null : normalizeRate(l.rate),
            description: l.description,
            contactId: l.contactId,
          };
        }),
        null,
      ),
      attachments: [],
    };
    await recordAudit(trx, {
      organizationId,
      actorUserId: input.actorUserId,
      action: options.reversesEntryId ? 'journal_entry.reversed' : 'journal_entry.posted',
      entityType: 'journal_entry',
      entityId: id,
      after: auditView(entry),
    });
    return entry;
  });

export type ReverseJournalEntryInput = {
  organizationId: string;
  entryId: string;
  /** Defaults to the original entry's date. */
  date?: string;
  memo?: string;
  actorUserId: string | null;
};

/** Posts the mirror image of a posted entry, linked to it. An entry is reversed at most once. */
export const reverseJournalEntry = (
  db: Executor,
  input: ReverseJournalEntryInput,
  options: PostOptions = {},
) =>
  inTransaction(db, async (trx) => {
    const original = await selectEntryForUpdate(trx, input.organizationId, input.entryId);
    if (!original) throw notFound('Journal entry not found.');
    if (original.status !== 'posted') {
      throw conflict('entry_not_posted', 'Only posted entries are reversed; edit or delete a draft instead.');
    }
    if (original.is_closing && !options.allowClosedYear) {
      throw conflict('closing_entry', 'A year-end close is undone by reopening the fiscal year.');
    }
    const existing = await selectReversalsOf(trx, input.organizationId, [original.id]);
    if (existing.length > 0) {
      throw conflict('entry_already_reversed', `Entry ${original.number} is already reversed.`, {
        reversalEntryId: existing[0]!.id,
      });
    }
    const lines = await selectPostedLines(trx, input.organizationId, [original.id]);
    return postJournalEntry(
      trx,
      {
        organizationId: input.organizationId,
        date: input.date ?? original.date,
        memo:
          input.memo ?? `Reversal of entry ${original.number}${original.memo ? `: ${original.memo}` : ''}`,
        reference: original.reference,
        source: 'reversal',
        sourceId: original.id,
        lines: lines.map((l) => ({
          accountId: l.account_id,
          debit: l.credit,
          credit: l.debit,
          ...(l.currency ? { currency: l.currency.trim(), amount: l.amount ?? 0, rate: l.rate ?? '1' } : {}),
          description: l.description,
          contactId: l.contact_id,
        })),
        actorUserId: input.actorUserId,
      },
      { ...options, allowArchived: true, isClosing: original.is_closing, reversesEntryId: original.id },
    );
  });

// --- Drafts and approval -------------------------------------------------------------

export type DraftInput = {
  organizationId: string;
  date: string;
  memo?: string;
  reference?: string | null;
  lines: PostingLineInput[];
  actorUserId: string | null;
};

const insertDraftLines = async (
  db: Executor,
  organizationId: string,
  entryId: string,
  lines: ValidLine[],
) => {
  if (lines.length === 0) return;
  await db
    .insertInto('journal_draft_lines')
    .values(
      lines.map((l, i) => ({
        organization_id: organizationId,
        entry_id: entryId,
        line_no: i + 1,
        account_id: l.accountId,
        debit: l.debit,
        credit: l.credit,
        currency: l.currency,
        amount: l.amount,
        rate: l.rate,
        description: l.description,
        contact_id: l.contactId,
      })),
    )
    .execute();
};

/** Saves a manual entry as an editable draft; drafts may be unbalanced while being worked on. */
export const createDraftEntry = (db: Executor, input: DraftInput) =>
  inTransaction(db, async (trx) => {
    checkDate(input.date);
    const settings = await loadSettingsOrThrow(trx, input.organizationId);
    const lines = normalizeLines(input.lines, settings.base_currency, { requireBalanced: false });
    await checkAccounts(trx, input.organizationId, settings.base_currency, lines, { allowArchived: false });
    const id = newEntryId();
    await trx
      .insertInto('journal_entries')
      .values({
        organization_id: input.organizationId,
        id,
        number: null,
        date: input.date,
        memo: (input.memo ?? '').trim(),
        reference: input.reference?.trim() || null,
        source: 'manual',
        status: 'draft',
        created_by: input.actorUserId,
      })
      .execute();
    await insertDraftLines(trx, input.organizationId, id, lines);
    const entry = await loadEntry(trx, input.organizationId, id);
    await recordAudit(trx, {
      organizationId: input.organizationId,
      actorUserId: input.actorUserId,
      action: 'journal_entry.created',
      entityType: 'journal_entry',
      entityId: id,
      after: auditView(entry),
    });
    return entry;
  });

const lockUnpostedEntry = async (db: Executor, organizationId: string, entryId: string) => {
  const entry = await selectEntryForUpdate(db, organizationId, entryId);
  if (!entry) throw notFound('Journal entry not found.');
  if (entry.status === 'posted') {
    throw conflict('entry_posted', 'Posted entries cannot be changed or deleted; reverse the entry instead.');
  }
  return entry;
};

export const updateDraftEntry = (
  db: Executor,
  input: { organizationId: string; entryId: string; actorUserId: string | null } & Partial<
    Omit<DraftInput, 'organizationId' | 'actorUserId'>
  >,
) =>
  inTransaction(db, async (trx) => {
    const row = await lockUnpostedEntry(trx, input.organizationId, input.entryId);
    const before = await loadEntry(trx, input.organizationId, row.id, row);
    if (input.date !== undefined) checkDate(input.date);
    const settings = await loadSettingsOrThrow(trx, input.organizationId);
    await trx
      .updateTable('journal_entries')
      .set({
        ...(input.date !== undefined ? { date: input.date } : {}),
        ...(input.memo !== undefined ? { memo: input.memo.trim() } : {}),
        ...(input.reference !== undefined ? { reference: input.reference?.trim() || null } : {}),
        // An edit sends a pending entry back to draft: the approver approves what they see.
        status: 'draft',
        updated_at: new Date(),
      })
      .where('organization_id', '=', input.organizationId)
      .where('id', '=', row.id)
      .execute();
    if (input.lines !== undefined) {
      const lines = normalizeLines(input.lines, settings.base_currency, { requireBalanced: false });
      await checkAccounts(trx, input.organizationId, settings.base_currency, lines, { allowArchived: false });
      await trx
        .deleteFrom('journal_draft_lines')
        .where('organization_id', '=', input.organizationId)
        .where('entry_id', '=', row.id)
        .execute();
      await insertDraftLines(trx, input.organizationId, row.id, lines);
    }
    const after = await loadEntry(trx, input.organizationId, row.id);
    await recordAudit(trx, {
      organizationId: input.organizationId,
      actorUserId: input.actorUserId,
      action: 'journal_entry.updated',
      entityType: 'journal_entry',
      entityId: row.id,
      before: auditView(before),
      after: auditView(after),
    });
    return after;
  });

export const deleteDraftEntry = (
  db: Executor,
  input: { organizationId: string; entryId: string; actorUserId: string | null },
) =>
  inTransaction(db, async (trx) => {
    const row = await lockUnpostedEntry(trx, input.organizationId, input.entryId);
    const before = await loadEntry(trx, input.organizationId, row.id, row);
    await trx
      .deleteFrom('journal_entries')
      .where('organization_id', '=', input.organizationId)
      .where('id', '=', row.id)
      .execute();
    await recordAudit(trx, {
      organizationId: input.organizationId,
      actorUserId: input.actorUserId,
      action: 'journal_entry.deleted',
      entityType: 'journal_entry',
      entityId: row.id,
      before: auditView(before),
    });
  });

/**
 * Posts a draft. With approval on, an actor who cannot approve only submits it: the entry
 * waits as pending_approval for an accountant or admin.
 */
export const postDraftEntry = (
  db: Executor,
  input: { organizationId: string; entryId: string; actorUserId: string | null; canApprove: boolean },
) =>
  inTransaction(db, async (trx) => {
    const row = await lockUnpostedEntry(trx, input.organizationId, input.entryId);
    const settings = await loadSettingsOrThrow(trx, input.organizationId);
    const draftLines = await selectDraftLines(trx, input.organizationId, [row.id]);
    const lines = normalizeLines(draftLines.map(toPostingLine), settings.base_currency, {
      requireBalanced: true,
    });
    await checkAccounts(trx, input.organizationId, settings.base_currency, lines, { allowArchived: false });
    await checkOpenPeriod(trx, input.organizationId, row.date, settings.lock_date, {
      allowClosedYear: false,
    });
    if (settings.approval_required && !input.canApprove) {
      if (row.status === 'pending_approval') {
        throw conflict('entry_pending_approval', 'This entry is already waiting for approval.');
      }
      await trx
        .updateTable('journal_entries')
        .set({ status: 'pending_approval', updated_at: new Date() })
        .where('organization_id', '=', input.organizationId)
        .where('id', '=', row.id)
        .execute();
      const entry = await loadEntry(trx, input.organizationId, row.id);
      await recordAudit(trx, {
        organizationId: input.organizationId,
        actorUserId: input.actorUserId,
        action: 'journal_entry.submitted',
        entityType: 'journal_entry',
        entityId: row.id,
        after: auditView(entry),
      });
      return entry;
    }
    return postExistingEntry(trx, row, lines, {
      actorUserId: input.actorUserId,
      approvedBy: settings.approval_required ? input.actorUserId : null,
      action: row.status === 'pending_approval' ? 'journal_entry.approved' : 'journal_entry.posted',
    });
  });

/** Approves and posts an entry waiting for approval. */
export const approveEntry = (
  db: Executor,
  input: { organizationId: string; entryId: string; actorUserId: string | null },
) =>
  inTransaction(db, async (trx) => {
    const row = await lockUnpostedEntry(trx, input.organizationId, input.entryId);
    if (row.status !== 'pending_approval') {
      throw conflict('entry_not_pending', 'Only entries waiting for approval can be approved.');
    }
    return postDraftEntry(trx, { ...input, canApprove: true });
  });

const postExistingEntry = async (
  trx: Executor,
  row: EntryRow,
  lines: ValidLine[],
  meta: { actorUserId: string | null; approvedBy: string | null; action: AuditAction },
) => {
  const taken = await takeEntryNumber(trx, row.organization_id);
  if (!taken) throw notFound('Company not found.');
  if (taken.lock_date && row.date <= taken.lock_date) throw lockedError(taken.lock_date);
  const before = await loadEntry(trx, row.organization_id, row.id, row);
  await trx
    .updateTable('journal_entries')
    .set({
      status: 'posted',
      number: taken.number,
      posted_by: meta.actorUserId,
      approved_by: meta.approvedBy,
      posted_at: new Date(),
      updated_at: new Date(),
    })
    .where('organization_id', '=', row.organization_id)
    .where('id', '=', row.id)
    .execute();
  await insertPostedLines(
    trx,
    {
      organizationId: row.organization_id,
      id: row.id,
      date: row.date,
      number: taken.number,
      isClosing: false,
    },
    lines,
  );
  await trx
    .deleteFrom('journal_draft_lines')
    .where('organization_id', '=', row.organization_id)
    .where('entry_id', '=', row.id)
    .execute();
  const entry = await loadEntry(trx, row.organization_id, row.id);
  await recordAudit(trx, {
    organizationId: row.organization_id,
    actorUserId: meta.actorUserId,
    action: meta.action,
    entityType: 'journal_entry',
    entityId: row.id,
    before: auditView(before),
    after: auditView(entry),
  });
  return entry;
};

const toPostingLine = (l: Awaited<ReturnType<typeof selectDraftLines>>[number]): PostingLineInput => ({
  accountId: l.account_id,
  debit: l.debit,
  credit: l.credit,
  ...(l.currency ? { currency: l.currency.trim(), amount: l.amount ?? 0, rate: l.rate ?? '1' } : {}),
  description: l.description,
  contactId: l.contact_id,
});

// --- Reading entries -----------------------------------------------------------------

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

type LineRow = Awaited<ReturnType<typeof selectPostedLines>>[number];

const toLine = (l: LineRow): JournalLine => ({
  lineNo: l.line_no,
  accountId: l.account_id,
  accountCode: l.account_code,
  accountName: l.account_name,
  debit: l.debit,
  credit: l.credit,
  currency: l.currency?.trim() ?? null,
  amount: l.amount,
  rate: l.rate === null ? null : normalizeRate(l.rate),
  description: l.description,
  contactId: l.contact_id,
});

/** numeric(24,10) comes back padded with zeros; show the rate as it was given. */
const normalizeRate = (rate: string) =>
  rate.includes('.') ? rate.replace(/0+$/, '').replace(/\.$/, '') : rate;

export const toEntry = (
  row: Selectable<JournalEntriesTable> | EntryRow,
  lines: JournalLine[],
  reversedByEntryId: string | null,
): JournalEntry => ({
  id: row.id,
  number: row.number,
  date: row.date,
  memo: row.memo,
  reference: row.reference,
  source: row.source,
  sourceId: row.source_id,
  status: row.status,
  reversesEntryId: row.reverses_entry_id,
  reversedByEntryId,
  isClosing: row.is_closing,
  createdBy: row.created_by,
  approvedBy: row.approved_by,
  postedBy: row.posted_by,
  postedAt: iso(row.posted_at as Date | null),
  createdAt: iso(row.created_at as Date)!,
  totalDebit: lines.reduce((s, l) => s + l.debit, 0),
  lines,
});

/** One entry with its lines (posted or draft), reversal link and attachments. */
export const loadEntry = async (db: Executor, organizationId: string, id: string, known?: EntryRow) => {
  const row = known ?? (await selectEntry(db, organizationId, id));
  if (!row) throw notFound('Journal entry not found.');
  const lines =
    row.status === 'posted'
      ? await selectPostedLines(db, organizationId, [id])
      : await selectDraftLines(db, organizationId, [id]);
  const reversals = await selectReversalsOf(db, organizationId, [id]);
  const attachments = await selectAttachments(db, organizationId, id);
  return {
    ...toEntry(row, lines.map(toLine), reversals[0]?.id ?? null),
    attachments: attachments.map((a) => ({
      id: a.id,
      fileName: a.file_name,
      contentType: a.content_type,
      sizeBytes: a.size_bytes,
      createdAt: iso(a.created_at as Date)!,
    })),
  };
};

/** The compact form of an entry kept in the audit log. */
export const auditView = (entry: JournalEntry) => ({
  number: entry.number,
  date: entry.date,
  memo: entry.memo,
  reference: entry.reference,
  source: entry.source,
  status: entry.status,
  reversesEntryId: entry.reversesEntryId,
  lines: entry.lines.map((l) => ({
    accountId: l.accountId,
    debit: l.debit,
    credit: l.credit,
    currency: l.currency,
    amount: l.amount,
  })),
});

// --- Batches ---------------------------------------------------------------------------

/**
 * Posts many entries of one company at once (bank-statement imports, data moves, the seed):
 * the same rules as postJournalEntry, one number range, multi-row inserts and one audit row
 * for the batch. All or nothing.
 */
export const postJournalEntries = (
  db: Executor,
  organizationId: string,
  entries: Omit<PostJournalEntryInput, 'organizationId'>[],
  actorUserId: string | null,
) =>
  inTransaction(db, async (trx) => {
    if (entries.length === 0)
      return { count: 0, firstNumber: null as number | null, lastNumber: null as number | null };
    const settings = await loadSettingsOrThrow(trx, organizationId);
    const normalized = entries.map((e, i) => {
      checkDate(e.date);
      checkSource(e.source);
      try {
        return normalizeLines(e.lines, settings.base_currency, { requireBalanced: true });
      } catch (error) {
        if (error instanceof AppError) error.message = `Entry ${i + 1} (${e.date}): ${error.message}`;
        throw error;
      }
    });
    await checkAccounts(trx, organizationId, settings.base_currency, normalized.flat(), {
      allowArchived: false,
    });
    const closes = await selectOpenCloses(trx, organizationId);
    for (const e of entries) {
      if (settings.lock_date && e.date <= settings.lock_date) throw lockedError(settings.lock_date);
      const closed = closes.find((c) => c.start_date <= e.date && e.date <= c.end_date);
      if (closed) {
        throw conflict(
          'fiscal_year_closed',
          `The fiscal year ${closed.start_date} to ${closed.end_date} is closed. Reopen it to post there, or post on a later date.`,
          { startDate: closed.start_date, endDate: closed.end_date },
        );
      }
    }
    const taken = await takeEntryNumbers(trx, organizationId, entries.length);
    if (!taken) throw notFound('Company not found.');
    if (taken.lock_date) {
      const early = entries.find((e) => e.date <= taken.lock_date!);
      if (early) throw lockedError(taken.lock_date);
    }
    const now = new Date();
    const rows = entries.map((e, i) => ({
      organization_id: organizationId,
      id: newEntryId(),
      number: taken.first + i,
      date: e.date,
      memo: (e.memo ?? '').trim(),
      reference: e.reference?.trim() || null,
      source: e.source,
      source_id: e.sourceId ?? null,
      status: 'posted' as const,
      created_by: e.actorUserId ?? actorUserId,
      posted_by: e.actorUserId ?? actorUserId,
      posted_at: now,
    }));
    // unnest() over array parameters: one statement with a few parameters per chunk, far
    // cheaper to send and plan than a multi-row VALUES list with tens of thousands of them.
    for (let i = 0; i < rows.length; i += 5000) {
      const chunk = rows.slice(i, i + 5000);
      await sql`
        insert into journal_entries (organization_id, id, number, date, memo, reference, source, source_id, status,
                                     created_by, posted_by, posted_at)
        select ${organizationId}, u.id, u.number, u.date, u.memo, u.reference, u.source, u.source_id, 'posted',
               u.actor, u.actor, ${now}::timestamptz
          from unnest(${chunk.map((r) => r.id)}::text[], ${chunk.map((r) => r.number)}::bigint[],
                      ${chunk.map((r) => r.date)}::date[], ${chunk.map((r) => r.memo)}::text[],
                      ${chunk.map((r) => r.reference)}::text[], ${chunk.map((r) => r.source)}::text[],
                      ${chunk.map((r) => r.source_id)}::text[], ${chunk.map((r) => r.created_by)}::text[])
            as u(id, number, date, memo, reference, source, source_id, actor)`.execute(trx);
    }
    const lineRows = rows.flatMap((r, i) =>
      normalized[i]!.map((l, j) => ({ entry: r, lineNo: j + 1, line: l })),
    );
    for (let i = 0; i < lineRows.length; i += 20_000) {
      const chunk = lineRows.slice(i, i + 20_000);
      await sql`
        insert into journal_lines (organization_id, entry_id, line_no, account_id, date, entry_number, is_closing,
                                   debit, credit, currency, amount, rate, description, contact_id)
        select ${organizationId}, u.entry_id, u.line_no, u.account_id, u.date, u.entry_number, false,
               u.debit, u.credit, u.currency, u.amount, u.rate, u.description, u.contact_id
          from unnest(${chunk.map((x) => x.entry.id)}::text[], ${chunk.map((x) => x.lineNo)}::smallint[],
                      ${chunk.map((x) => x.line.accountId)}::text[], ${chunk.map((x) => x.entry.date)}::date[],
                      ${chunk.map((x) => x.entry.number)}::bigint[], ${chunk.map((x) => x.line.debit)}::bigint[],
                      ${chunk.map((x) => x.line.credit)}::bigint[], ${chunk.map((x) => x.line.currency)}::text[],
                      ${chunk.map((x) => x.line.amount)}::bigint[], ${chunk.map((x) => x.line.rate)}::numeric[],
                      ${chunk.map((x) => x.line.description)}::text[], ${chunk.map((x) => x.line.contactId)}::text[])
            as u(entry_id, line_no, account_id, date, entry_number, debit, credit, currency, amount, rate,
                 description, contact_id)`.execute(trx);
    }
    const result = {
      count: rows.length,
      firstNumber: taken.first,
      lastNumber: taken.first + rows.length - 1,
    };
    await recordAudit(trx, {
      organizationId,
      actorUserId,
      action: 'journal_entry.batch_posted',
      entityType: 'journal_entry',
      entityId: `${result.firstNumber}-${result.lastNumber}`,
      after: { ...result, sources: [...new Set(entries.map((e) => e.source))] },
    });
    return result;
  });
