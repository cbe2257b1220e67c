import { notFound } from '../../../shared/errors.ts';
import type { JournalEntry, JournalLine } from '../../../shared/ledger.ts';
import type { JournalEntriesTable } from '../../db/types.ts';
import type { AuditAction } from '../audit/actions.ts';
import { recordAudit } from '../audit/record.ts';
import {
  type Executor,
  selectAttachments,
  selectDraftLines,
  selectEntry,
  selectPostedLines,
  selectReversalsOf,
} from './queries.ts';

// Reading one journal entry as the API shows it, and the compact form the audit log keeps.

type Selectable<T> = { [K in keyof T]: T[K] extends { __select__: infer S } ? S : T[K] };
export type EntryRow = NonNullable<Awaited<ReturnType<typeof selectEntry>>>;

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
export const normalizeRate = (rate: string) =>
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

/** Rows grouped by their entry id, in the order read. */
const byEntryId = <T extends { entry_id: string }>(rows: T[]) => {
  const grouped = new Map<string, T[]>();
  for (const r of rows) {
    const list = grouped.get(r.entry_id);
    if (list) list.push(r);
    else grouped.set(r.entry_id, [r]);
  }
  return grouped;
};

/**
 * Entries with their lines (posted or draft), reversal links and attachments, in the order of
 * `rows`: at most four set queries whatever the number of entries (a list page costs the same
 * at 10 entries as at 50; issue 20 §3).
 */
export const loadEntries = async (db: Executor, organizationId: string, rows: EntryRow[]) => {
  const ids = rows.map((r) => r.id);
  const posted = rows.filter((r) => r.status === 'posted').map((r) => r.id);
  const drafts = rows.filter((r) => r.status !== 'posted').map((r) => r.id);
  const [postedLines, draftLines, reversals, attachments] = [
    await selectPostedLines(db, organizationId, posted),
    await selectDraftLines(db, organizationId, drafts),
    await selectReversalsOf(db, organizationId, posted),
    await selectAttachments(db, organizationId, ids),
  ];
  const lines = byEntryId([...postedLines, ...draftLines]);
  const reversedBy = new Map(reversals.map((r) => [r.reverses_entry_id!, r.id]));
  const files = byEntryId(attachments);
  return rows.map((row) => ({
    ...toEntry(row, (lines.get(row.id) ?? []).map(toLine), reversedBy.get(row.id) ?? null),
    attachments: (files.get(row.id) ?? []).map((a) => ({
      id: a.id,
      fileName: a.file_name,
      contentType: a.content_type,
      sizeBytes: a.size_bytes,
      createdAt: iso(a.created_at as Date)!,
    })),
  }));
};

/** One entry with its lines (posted or draft), reversal link and attachments. */
export const loadEntry = async (db: Executor, organizationId: string, id: string, known?: EntryRow) => {
  const row = known ?? (await selectEntry(db, organizationId, id));
  if (!row) throw notFound('Journal entry not found.');
  return (await loadEntries(db, organizationId, [row]))[0]!;
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

/** The audit row of a change to one entry, with the entry before and after in compact form. */
export const auditEntry = (
  db: Executor,
  who: { organizationId: string; actorUserId: string | null },
  action: AuditAction,
  entityId: string,
  change: { before?: JournalEntry; after?: JournalEntry },
) =>
  recordAudit(db, {
    organizationId: who.organizationId,
    actorUserId: who.actorUserId,
    action,
    entityType: 'journal_entry',
    entityId,
    before: change.before && auditView(change.before),
    after: change.after && auditView(change.after),
  });
