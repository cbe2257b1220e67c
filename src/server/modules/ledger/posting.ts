import { conflict, notFound } from '../../../shared/errors.ts';
import type { JournalEntry } from '../../../shared/ledger.ts';
import { LEDGER_VOLUME_LIMIT } from '../../../shared/money.ts';
import { inTransaction } from '../../db/transaction.ts';
import { auditEntry, normalizeRate, toEntry } from './entry-view.ts';
import { newEntryId } from './ids.ts';
import {
  checkDate,
  checkOpenPeriod,
  checkSource,
  loadSettingsOrThrow,
  lockedError,
} from './posting-checks.ts';
import {
  type PostJournalEntryInput,
  checkAccounts,
  insertNumberedEntry,
  normalizeLines,
  toPostingLine,
} from './posting-lines.ts';
import { type Executor, selectEntryForUpdate, selectPostedLines, selectReversalsOf } from './queries.ts';

// Posting to the ledger. Other modules call postJournalEntry / reverseJournalEntry (and
// postJournalEntries for a batch) inside their own transaction; these functions never open
// one when handed a transaction, and open one themselves only when handed the plain
// database. This file is the ledger's posting entry point for other modules; the pieces
// live by use case: line checks (posting-lines.ts), period and date checks
// (posting-checks.ts), drafts and approval (drafts.ts), batches (posting-batch.ts) and
// reading an entry (entry-view.ts).

export { postJournalEntries } from './posting-batch.ts';
export { checkDate, checkSource, lockedError } from './posting-checks.ts';
export {
  type PostJournalEntryInput,
  type PostingLineInput,
  type ValidLine,
  checkAccounts,
  normalizeLines,
} from './posting-lines.ts';
// Kept here for the modules that import it from the ledger; it lives in db/ (plumbing).
export { inTransaction };

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
    // The number last of all, with the entry and its lines in the same statement: the
    // company's counter row stays locked only from here to the commit (decision 0046).
    const id = newEntryId();
    const row = await insertNumberedEntry(
      trx,
      {
        organizationId,
        id,
        date: input.date,
        memo: (input.memo ?? '').trim(),
        reference: input.reference?.trim() || null,
        source: input.source,
        sourceId: input.sourceId ?? null,
        reversesEntryId: options.reversesEntryId ?? null,
        isClosing: options.isClosing ?? false,
        createdBy: input.actorUserId,
        approvedBy: options.approvedBy ?? null,
        postedBy: input.actorUserId,
        postedAt: new Date(),
      },
      lines,
    );
    if (!row) throw lockedError((await loadSettingsOrThrow(trx, organizationId)).lock_date ?? input.date);
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
    await auditEntry(
      trx,
      input,
      options.reversesEntryId ? 'journal_entry.reversed' : 'journal_entry.posted',
      id,
      { after: entry },
    );
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
        lines: lines.map((l) => ({ ...toPostingLine(l), debit: l.credit, credit: l.debit })),
        actorUserId: input.actorUserId,
      },
      { ...options, allowArchived: true, isClosing: original.is_closing, reversesEntryId: original.id },
    );
  });
