import type { z } from 'zod';
import { conflict, forbidden, notFound } from '../../../shared/errors.ts';
import type {
  AccountCreate,
  AccountUpdate,
  ManualEntryCreate,
  draftUpdateSchema,
  ledgerSettingsUpdateSchema,
  openingBalancesSchema,
  reverseEntrySchema,
} from '../../../shared/ledger.ts';
import { documentOwnerOfEntry } from '../../../shared/ledger.ts';
import type { AppContext } from '../../context.ts';
import { roleCan } from '../../http/permissions.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import type { CheckedUpload } from '../attachments/policy.ts';
import { receiptsOf } from '../attachments/receipts.ts';
import {
  createAccount,
  deleteAccount,
  getLedgerSettings,
  listAccounts,
  updateAccount,
  updateLedgerSettings,
} from './accounts.ts';
import { importChartCsv } from './chart-import.ts';
import { listEntries } from './entries.ts';
import { closeFiscalYear, listFiscalYears, postOpeningBalances, reopenFiscalYear } from './fiscal.ts';
import { exportJournal } from './journal-export.ts';
import { importJournal } from './journal-import.ts';
import {
  approveEntry,
  createDraftEntry,
  deleteDraftEntry,
  postDraftEntry,
  updateDraftEntry,
} from './drafts.ts';
import { loadEntry } from './entry-view.ts';
import { postJournalEntry, reverseJournalEntry } from './posting.ts';

// What the ledger's routes call: one function per use case, each `(ctx, member, input)` —
// the app context (database or the request's transaction, clock, config), the member the
// tenancy guard resolved, and the parsed body or parameters. Rules that depend on who asks
// (a recorder may draft but not post, an import posts) live here, not in the routes. Other
// modules post through posting.ts inside their own transaction instead (executor first).

const db = (ctx: AppContext) => ctx.database.db;
const actor = (member: MemberContext) => ({
  organizationId: member.organizationId,
  actorUserId: member.userId,
});

// --- Settings and the chart of accounts ---------------------------------------------------

export const readLedgerSettings = (ctx: AppContext, member: MemberContext) =>
  getLedgerSettings(db(ctx), member.organizationId);

export const changeLedgerSettings = (
  ctx: AppContext,
  member: MemberContext,
  input: z.infer<typeof ledgerSettingsUpdateSchema>,
) => updateLedgerSettings(db(ctx), member.organizationId, member.userId, input);

export const chartOfAccounts = async (ctx: AppContext, member: MemberContext) => ({
  accounts: await listAccounts(db(ctx), member.organizationId),
});

export const addAccount = (ctx: AppContext, member: MemberContext, input: AccountCreate) =>
  createAccount(db(ctx), member.organizationId, member.userId, input);

export const changeAccount = (
  ctx: AppContext,
  member: MemberContext,
  { accountId, ...input }: AccountUpdate & { accountId: string },
) => updateAccount(db(ctx), member.organizationId, accountId, member.userId, input);

export const removeAccount = (ctx: AppContext, member: MemberContext, input: { accountId: string }) =>
  deleteAccount(db(ctx), member.organizationId, input.accountId, member.userId);

export const importChart = (ctx: AppContext, member: MemberContext, input: { csv: string }) =>
  importChartCsv(db(ctx), member.organizationId, member.userId, input.csv);

// --- Journal entries ----------------------------------------------------------------------

export const listJournalEntries = (
  ctx: AppContext,
  member: MemberContext,
  query: Parameters<typeof listEntries>[2],
) => listEntries(db(ctx), member.organizationId, query);

export const readJournalEntry = (ctx: AppContext, member: MemberContext, input: { entryId: string }) =>
  loadEntry(db(ctx), member.organizationId, input.entryId);

/**
 * A manual entry: saved as a draft when asked, posted when the member may post — unless the
 * company requires approval and the member cannot approve, in which case it waits for it.
 */
export const createManualEntry = async (ctx: AppContext, member: MemberContext, input: ManualEntryCreate) => {
  const { status, ...entry } = input;
  if (status === 'posted' && !roleCan(member.role, 'post')) {
    throw forbidden(`Your role (${member.role}) can save drafts but not post. Save it as a draft instead.`);
  }
  const canApprove = roleCan(member.role, 'approve');
  // Whether approval is required matters only to a member who cannot approve (posting reads
  // the settings again in its transaction): one query less on every posting by one who can.
  const waitsForApproval =
    status !== 'draft' &&
    !canApprove &&
    (await getLedgerSettings(db(ctx), member.organizationId)).approvalRequired;
  const base = { ...actor(member), ...entry };
  if (status === 'draft' || waitsForApproval) {
    const draft = await createDraftEntry(db(ctx), base);
    if (status === 'draft') return draft;
    return postDraftEntry(db(ctx), { ...actor(member), entryId: draft.id, canApprove });
  }
  return postJournalEntry(db(ctx), { ...base, source: 'manual' });
};

export const changeDraftEntry = (
  ctx: AppContext,
  member: MemberContext,
  { entryId, ...input }: z.infer<typeof draftUpdateSchema> & { entryId: string },
) => updateDraftEntry(db(ctx), { ...actor(member), entryId, ...input });

export const removeDraftEntry = (ctx: AppContext, member: MemberContext, input: { entryId: string }) =>
  deleteDraftEntry(db(ctx), { ...actor(member), entryId: input.entryId });

/** Posts a draft, or submits it for approval when the company requires it and the member cannot approve. */
export const postDraft = (ctx: AppContext, member: MemberContext, input: { entryId: string }) =>
  postDraftEntry(db(ctx), {
    ...actor(member),
    entryId: input.entryId,
    canApprove: roleCan(member.role, 'approve'),
  });

export const approveDraft = (ctx: AppContext, member: MemberContext, input: { entryId: string }) =>
  approveEntry(db(ctx), { ...actor(member), entryId: input.entryId });

// Entries a document posted are undone where the document lives: reversing them here would leave
// the invoice, the register or the wallet pointing at an entry that no longer counts.
export const reverseEntry = async (
  ctx: AppContext,
  member: MemberContext,
  { entryId, ...input }: z.infer<typeof reverseEntrySchema> & { entryId: string },
) => {
  const entry = await db(ctx)
    .selectFrom('journal_entries')
    .select(['number', 'source', 'source_id'])
    .where('organization_id', '=', member.organizationId)
    .where('id', '=', entryId)
    .executeTakeFirst();
  if (!entry) throw notFound('Journal entry not found.');
  const owner = documentOwnerOfEntry(entry.source, entry.source_id);
  if (owner) {
    throw conflict(
      'entry_owned_by_document',
      `Entry ${entry.number} was posted by ${owner}; undo it there so the document and the ledger stay one.`,
      { source: entry.source, sourceId: entry.source_id },
    );
  }
  return reverseJournalEntry(db(ctx), { ...actor(member), entryId, ...input });
};

export const openingBalances = (
  ctx: AppContext,
  member: MemberContext,
  input: z.infer<typeof openingBalancesSchema>,
) => postOpeningBalances(db(ctx), { ...actor(member), ...input });

// --- Receipts on entries (the attachment module, owner 'journal_entry') -------------------

type ReceiptRef = { entryId: string; attachmentId: string };

// Stored, read and removed by the attachment module, wherever the server keeps the bytes.
const entryReceipts = receiptsOf('journal_entry');

export const attachReceipt = (
  ctx: AppContext,
  member: MemberContext,
  input: { entryId: string; file: CheckedUpload },
) => entryReceipts.attach(ctx, member, { id: input.entryId, file: input.file });

export const readReceipt = (ctx: AppContext, member: MemberContext, input: ReceiptRef) =>
  entryReceipts.read(ctx, member, { id: input.entryId, attachmentId: input.attachmentId });

export const removeReceipt = (ctx: AppContext, member: MemberContext, input: ReceiptRef) =>
  entryReceipts.remove(ctx, member, { id: input.entryId, attachmentId: input.attachmentId });

// --- Fiscal years -------------------------------------------------------------------------

export const fiscalYears = async (ctx: AppContext, member: MemberContext) => ({
  years: await listFiscalYears(db(ctx), member.organizationId, ctx.now().toISOString().slice(0, 10)),
});

export const closeYear = (ctx: AppContext, member: MemberContext, input: { endDate: string }) =>
  closeFiscalYear(db(ctx), { ...actor(member), endDate: input.endDate });

export const reopenYear = (ctx: AppContext, member: MemberContext, input: { endDate: string }) =>
  reopenFiscalYear(db(ctx), { ...actor(member), endDate: input.endDate });

// --- Plain-text accounting ----------------------------------------------------------------

/** The journal as hledger text, streamed chunk by chunk. */
export const journalFile = (ctx: AppContext, member: MemberContext, range: { from?: string; to?: string }) =>
  exportJournal(db(ctx), member.organizationId, range);

/** Imports an hledger/ledger journal; it posts entries, so the member must be able to post. */
export const importJournalFile = (ctx: AppContext, member: MemberContext, input: { journal: string }) => {
  if (!roleCan(member.role, 'post')) throw forbidden('Importing posts entries; your role cannot post.');
  return importJournal(db(ctx), member.organizationId, member.userId, input.journal);
};
