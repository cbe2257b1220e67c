import { sql } from 'kysely';
import { conflict, notFound } from '../../../shared/errors.ts';
import type { JournalSourceName } from '../../../shared/ledger.ts';
import { copyRows } from '../../db/copy.ts';
import { recordAudit } from '../audit/record.ts';
import type { AuditAction } from '../audit/actions.ts';
import { newEntryId } from './ids.ts';
import {
  checkAccounts,
  checkDate,
  checkSource,
  normalizeLines,
  type PostingLineInput,
  type ValidLine,
} from './posting.ts';
import { type Executor, selectPostedLines, selectReversalsOf, selectSettings } from './queries.ts';
import { checkOpenPeriods, takeNumbersInOpenPeriod } from './posting-checks.ts';

// Posting many bank entries at once. A statement of 100,000 lines cannot take the ledger's
// one-entry-at-a-time path (a dozen round trips each) and still finish in seconds, so this
// posts the same entries with the ledger's own validation (normalizeLines, checkAccounts,
// lock date, closed years) and writes them in batches: one number range taken with a single
// row-locking update, entries and lines inserted a few thousand rows per statement. The
// database keeps the last word exactly as for single postings: its triggers refuse an
// unbalanced entry at commit, a line on or before the lock date, and any change to a posted
// line. One audit row records the batch. It is the ledger's bulk call: entry ids come from the
// same time-ordered generator as single postings (ids.ts).

export type BulkEntryInput = {
  date: string;
  memo: string;
  source: JournalSourceName;
  sourceId: string | null;
  lines: PostingLineInput[];
  reversesEntryId?: string | null;
};

const ENTRY_CHUNK = 5000;
const ENTRY_COLUMNS = [
  'organization_id',
  'id',
  'number',
  'date',
  'memo',
  'source',
  'source_id',
  'status',
  'reverses_entry_id',
  'is_closing',
  'created_by',
  'posted_by',
  'posted_at',
];
const LINE_COLUMNS = [
  'organization_id',
  'entry_id',
  'line_no',
  'account_id',
  'date',
  'entry_number',
  'is_closing',
  'debit',
  'credit',
  'currency',
  'amount',
  'rate',
  'description',
  'contact_id',
];
const LINE_CHUNK = 10_000;

/**
 * Runs `work` (plain JavaScript) while the database executes a statement already handed to the
 * driver, then waits for the statement. On PostgreSQL the two run on different cores; on PGlite
 * (same thread) it changes nothing. The statement's error, if any, is the one thrown.
 */
export const whileWriting = async <T>(statement: Promise<unknown>, work: () => T): Promise<T> => {
  statement.catch(() => {}); // awaited below; no unhandled rejection while `work` runs
  await new Promise((resolve) => setImmediate(resolve)); // the driver sends the statement
  const result = work();
  await statement;
  return result;
};

/** The lines of every entry as one array per column, in entry order. */
const lineColumnsOf = (
  entries: BulkEntryInput[],
  normalized: ValidLine[][],
  ids: string[],
  first: number,
) => {
  const c = {
    entryId: [] as string[],
    lineNo: [] as number[],
    accountId: [] as string[],
    date: [] as string[],
    number: [] as number[],
    debit: [] as number[],
    credit: [] as number[],
    currency: [] as (string | null)[],
    amount: [] as (number | null)[],
    rate: [] as (string | null)[],
    description: [] as (string | null)[],
    contactId: [] as (string | null)[],
  };
  for (let i = 0; i < entries.length; i += 1) {
    const lines = normalized[i]!;
    for (let j = 0; j < lines.length; j += 1) {
      const l = lines[j]!;
      c.entryId.push(ids[i]!);
      c.lineNo.push(j + 1);
      c.accountId.push(l.accountId);
      c.date.push(entries[i]!.date);
      c.number.push(first + i);
      c.debit.push(l.debit);
      c.credit.push(l.credit);
      c.currency.push(l.currency);
      c.amount.push(l.amount);
      c.rate.push(l.rate);
      c.description.push(l.description);
      c.contactId.push(l.contactId);
    }
  }
  return c;
};

const chunks = <T>(items: T[], size: number) => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
};

/** Who posts in bulk, and the one audit row the call records. */
type BulkActor<Audit> = {
  organizationId: string;
  actorUserId: string | null;
  audit: Audit;
};
type BulkAudit = { action: AuditAction; entityType: string; entityId: string };

/** Posts every entry in the caller's transaction and returns their ids in input order. */
export const postEntriesInBulk = async (
  trx: Executor,
  /** audit null: the caller records one audit row for several calls (an import posted in slices). */
  input: BulkActor<BulkAudit | null> & {
    /**
     * Refresh the planner's statistics of journal_entries and journal_lines after writing.
     * The database's line guard and commit-time balance check look entries and lines up by
     * key; with statistics from before a large load (a brand-new company, a fresh database)
     * the planner takes another index and reads all of the company's rows per line. A large
     * import asks for this once, on its first slice. (ANALYZE's lock is held to commit, so two
     * large imports at once take turns; ordinary writes and reads are not blocked.)
     */
    refreshStatistics?: boolean;
  },
  entries: BulkEntryInput[],
): Promise<string[]> => {
  if (entries.length === 0) return [];
  const { organizationId } = input;
  const settings = await selectSettings(trx, organizationId);
  if (!settings) throw notFound('Company not found.');
  const base = settings.base_currency.trim();
  // The same checks as a single posting (posting.ts), in the same order: date, source, lines,
  // accounts, lock date and closed years, then one number range under the company's row lock.
  const normalized = entries.map((e) => {
    checkDate(e.date);
    checkSource(e.source);
    return normalizeLines(e.lines, base, { requireBalanced: true });
  });
  // Accounts are checked once over the union of all lines.
  await checkAccounts(trx, organizationId, base, normalized.flat(), {
    allowArchived: entries.every((e) => e.reversesEntryId),
  });
  const dates = entries.map((e) => e.date);
  await checkOpenPeriods(trx, organizationId, dates, settings.lock_date, (closed, date) =>
    conflict(
      'fiscal_year_closed',
      `The fiscal year ${closed.start_date} to ${closed.end_date} is closed. Reopen it to post on ${date}.`,
      { startDate: closed.start_date, endDate: closed.end_date },
    ),
  );
  // One update takes the whole number range; its row lock serialises postings of the company.
  const first = await takeNumbersInOpenPeriod(trx, organizationId, dates);
  const now = new Date();
  const ids = entries.map(() => newEntryId());
  // COPY FROM STDIN (db/copy.ts), 5,000 entries / 10,000 lines a statement: the same rows,
  // defaults and triggers as an insert, less work per row for the server than insert … select …
  // from unnest(…) (decision 0050). The lines' columns are built while the database writes the
  // last chunk of entries.
  let lineColumns: ReturnType<typeof lineColumnsOf> | null = null;
  for (let at = 0; at < entries.length; at += ENTRY_CHUNK) {
    const part = entries.slice(at, at + ENTRY_CHUNK);
    const written = copyRows(
      trx,
      'journal_entries',
      ENTRY_COLUMNS,
      [
        { every: organizationId },
        ids.slice(at, at + part.length),
        part.map((_, k) => first + at + k),
        part.map((e) => e.date),
        part.map((e) => e.memo.trim().slice(0, 1000)),
        part.map((e) => e.source),
        part.map((e) => e.sourceId),
        { every: 'posted' },
        part.map((e) => e.reversesEntryId ?? null),
        { every: 'f' },
        { every: input.actorUserId },
        { every: input.actorUserId },
        { every: now.toISOString() },
      ],
      part.length,
    );
    if (at + ENTRY_CHUNK >= entries.length) {
      lineColumns = await whileWriting(written, () => lineColumnsOf(entries, normalized, ids, first));
    } else await written;
  }
  if (input.refreshStatistics) await sql`analyze journal_entries`.execute(trx);
  const c = lineColumns!;
  for (let at = 0; at < c.entryId.length; at += LINE_CHUNK) {
    const to = at + LINE_CHUNK;
    await copyRows(
      trx,
      'journal_lines',
      LINE_COLUMNS,
      [
        { every: organizationId },
        c.entryId.slice(at, to),
        c.lineNo.slice(at, to),
        c.accountId.slice(at, to),
        c.date.slice(at, to),
        c.number.slice(at, to),
        { every: 'f' },
        c.debit.slice(at, to),
        c.credit.slice(at, to),
        c.currency.slice(at, to),
        c.amount.slice(at, to),
        c.rate.slice(at, to),
        c.description.slice(at, to),
        c.contactId.slice(at, to),
      ],
      Math.min(to, c.entryId.length) - at,
    );
  }
  if (input.refreshStatistics) await sql`analyze journal_lines`.execute(trx);
  if (input.audit) {
    await recordAudit(trx, {
      organizationId,
      actorUserId: input.actorUserId,
      action: input.audit.action,
      entityType: input.audit.entityType,
      entityId: input.audit.entityId,
      after: { entries: entries.length, firstNumber: first, lastNumber: first + entries.length - 1 },
    });
  }
  return ids;
};

/** Reverses posted entries (each at most once) on their own dates; returns the reversal ids in input order. */
export const reverseEntriesInBulk = async (
  trx: Executor,
  input: BulkActor<BulkAudit>,
  entryIds: string[],
): Promise<string[]> => {
  if (entryIds.length === 0) return [];
  const { organizationId } = input;
  const rows: {
    id: string;
    date: string;
    number: number | null;
    memo: string;
    status: string;
    is_closing: boolean;
  }[] = [];
  for (const part of chunks(entryIds, 5000)) {
    rows.push(
      ...(await trx
        .selectFrom('journal_entries')
        .select(['id', 'date', 'number', 'memo', 'status', 'is_closing'])
        .where('organization_id', '=', organizationId)
        .where('id', 'in', part)
        .forUpdate()
        .execute()),
    );
  }
  const byId = new Map(rows.map((r) => [r.id, r]));
  const reversed = new Set<string>();
  const linesByEntry = new Map<string, Awaited<ReturnType<typeof selectPostedLines>>>();
  for (const part of chunks(entryIds, 5000)) {
    for (const r of await selectReversalsOf(trx, organizationId, part))
      if (r.reverses_entry_id) reversed.add(r.reverses_entry_id);
    for (const l of await selectPostedLines(trx, organizationId, part)) {
      const list = linesByEntry.get(l.entry_id) ?? [];
      list.push(l);
      linesByEntry.set(l.entry_id, list);
    }
  }
  const inputs: BulkEntryInput[] = entryIds.map((id) => {
    const original = byId.get(id);
    if (original === undefined) throw notFound('Journal entry not found.');
    if (original.status !== 'posted') throw conflict('entry_not_posted', 'Only posted entries are reversed.');
    if (reversed.has(id))
      throw conflict('entry_already_reversed', `Entry ${original.number} is already reversed.`);
    return {
      date: original.date,
      memo: `Reversal of entry ${original.number}${original.memo ? `: ${original.memo}` : ''}`,
      source: 'reversal',
      sourceId: id,
      reversesEntryId: id,
      lines: (linesByEntry.get(id) ?? []).map((l) => ({
        accountId: l.account_id,
        debit: l.credit,
        credit: l.debit,
        ...(l.currency ? { currency: l.currency.trim(), amount: l.amount ?? 0, rate: l.rate ?? '1' } : {}),
        description: l.description,
        contactId: l.contact_id,
      })),
    };
  });
  return postEntriesInBulk(trx, input, inputs);
};
