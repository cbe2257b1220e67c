import { conflict, notFound } from '../../../shared/errors.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { AuditAction } from '../audit/actions.ts';
import { recordAudit } from '../audit/record.ts';
import { type EntryRow, auditView, loadEntry } from './entry-view.ts';
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
  const number = await takeNumberInOpenPeriod(trx, row.organization_id, row.date);
  const before = await loadEntry(trx, row.organization_id, row.id, row);
  await trx
    .updateTable('journal_entries')
    .set({
      status: 'posted',
      number,
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
    { organizationId: row.organization_id, id: row.id, date: row.date, number, isClosing: false },
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
