import { conflict, notFound } from '../../../shared/errors.ts';
import type { Updateable } from 'kysely';
import { inTransaction } from '../../db/transaction.ts';
import type { JournalEntriesTable } from '../../db/types.ts';
import type { AuditAction } from '../audit/actions.ts';
import { type EntryRow, auditEntry, loadEntry } from './entry-view.ts';
import { newEntryId } from './ids.ts';
import { checkDate, checkOpenPeriod, loadSettingsOrThrow, takeNumberInOpenPeriod } from './posting-checks.ts';
import {
  type PostingLineInput,
  type ValidLine,
  checkAccounts,
  insertDraftLines,
  insertPostedLines,
  normalizeLines,
  toPostingLine,
} from './posting-lines.ts';
import { type Executor, selectDraftLines, selectEntryForUpdate } from './queries.ts';

// Manual entries saved as drafts, edited, deleted, submitted for approval, approved and
// posted. Called with the executor first, like the rest of posting (decision 0030).

export type DraftInput = {
  organizationId: string;
  date: string;
  memo?: string;
  reference?: string | null;
  lines: PostingLineInput[];
  actorUserId: string | null;
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
    await auditEntry(trx, input, 'journal_entry.created', id, { after: entry });
    return entry;
  });

const updateEntryRow = (
  db: Executor,
  organizationId: string,
  id: string,
  set: Updateable<JournalEntriesTable>,
) =>
  db
    .updateTable('journal_entries')
    .set(set)
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .execute();

const deleteDraftLines = (db: Executor, organizationId: string, entryId: string) =>
  db
    .deleteFrom('journal_draft_lines')
    .where('organization_id', '=', organizationId)
    .where('entry_id', '=', entryId)
    .execute();

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
    await updateEntryRow(trx, input.organizationId, row.id, {
      ...(input.date !== undefined ? { date: input.date } : {}),
      ...(input.memo !== undefined ? { memo: input.memo.trim() } : {}),
      ...(input.reference !== undefined ? { reference: input.reference?.trim() || null } : {}),
      // An edit sends a pending entry back to draft: the approver approves what they see.
      status: 'draft',
      updated_at: new Date(),
    });
    if (input.lines !== undefined) {
      const lines = normalizeLines(input.lines, settings.base_currency, { requireBalanced: false });
      await checkAccounts(trx, input.organizationId, settings.base_currency, lines, { allowArchived: false });
      await deleteDraftLines(trx, input.organizationId, row.id);
      await insertDraftLines(trx, input.organizationId, row.id, lines);
    }
    const after = await loadEntry(trx, input.organizationId, row.id);
    await auditEntry(trx, input, 'journal_entry.updated', row.id, { before, after });
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
    await auditEntry(trx, input, 'journal_entry.deleted', row.id, { before });
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
      await updateEntryRow(trx, input.organizationId, row.id, {
        status: 'pending_approval',
        updated_at: new Date(),
      });
      const entry = await loadEntry(trx, input.organizationId, row.id);
      await auditEntry(trx, input, 'journal_entry.submitted', row.id, { after: entry });
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
  // Everything that needs no number first: the counter row is locked from the number to the
  // commit (decision 0046).
  const before = await loadEntry(trx, row.organization_id, row.id, row);
  await deleteDraftLines(trx, row.organization_id, row.id);
  const number = await takeNumberInOpenPeriod(trx, row.organization_id, row.date);
  await updateEntryRow(trx, row.organization_id, row.id, {
    status: 'posted',
    number,
    posted_by: meta.actorUserId,
    approved_by: meta.approvedBy,
    posted_at: new Date(),
    updated_at: new Date(),
  });
  await insertPostedLines(
    trx,
    { organizationId: row.organization_id, id: row.id, date: row.date, number, isClosing: false },
    lines,
  );
  const entry = await loadEntry(trx, row.organization_id, row.id);
  await auditEntry(
    trx,
    { organizationId: row.organization_id, actorUserId: meta.actorUserId },
    meta.action,
    row.id,
    { before, after: entry },
  );
  return entry;
};
