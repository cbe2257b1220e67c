import { attachmentSchema } from '../../../shared/attachments.ts';
import {
  draftUpdateSchema,
  journalEntrySchema,
  journalListQuerySchema,
  journalListSchema,
  manualEntryCreateSchema,
  openingBalancesSchema,
  reverseEntrySchema,
} from '../../../shared/ledger.ts';
import { companyRoutePlugin } from '../../http/routes.ts';
import { onReplica } from '../../http/read-replica.ts';
import { readMultipartUpload, sendAttachment } from '../attachments/http.ts';
import { checkUpload } from '../attachments/policy.ts';
import { errorBody } from '../../http/errors.ts';
import { attachmentParams, entryParams } from './routes-common.ts';
import {
  approveDraft,
  attachReceipt,
  changeDraftEntry,
  createManualEntry,
  listJournalEntries,
  openingBalances,
  postDraft,
  readJournalEntry,
  readReceipt,
  removeDraftEntry,
  removeReceipt,
  reverseEntry,
} from './service.ts';

// Journal entries (drafts, posting, approval, reversal), opening balances and the receipts
// on an entry. The posting routes accept an Idempotency-Key; their scopes and payloads are
// part of the stored keys, so they stay as they are.

export const ledgerEntryRoutes = companyRoutePlugin(['ledger'], (route) => {
  route.get(
    '/journal-entries',
    {
      summary: 'Journal entries, newest first',
      permission: 'read',
      query: journalListQuerySchema,
      response: journalListSchema,
    },
    onReplica(listJournalEntries),
  );
  route.get(
    '/journal-entries/:entryId',
    {
      summary: 'One journal entry with its lines',
      permission: 'read',
      params: entryParams,
      response: journalEntrySchema,
    },
    readJournalEntry,
  );
  route.post(
    '/journal-entries',
    {
      summary: 'Create a manual entry as a draft or post it (accepts Idempotency-Key)',
      permission: 'record',
      body: manualEntryCreateSchema,
      response: journalEntrySchema,
      status: 201,
      otherResponses: { 200: journalEntrySchema, 409: errorBody },
      idempotent: 'POST /journal-entries',
      idempotentPayload: (input, member) => ({ ...input, userId: member.userId }),
    },
    createManualEntry,
  );
  route.patch(
    '/journal-entries/:entryId',
    {
      summary: 'Edit a draft or pending entry',
      permission: 'record',
      params: entryParams,
      body: draftUpdateSchema,
      response: journalEntrySchema,
    },
    changeDraftEntry,
  );
  route.delete(
    '/journal-entries/:entryId',
    { summary: 'Delete a draft or pending entry', permission: 'record', params: entryParams, response: null },
    removeDraftEntry,
  );
  route.post(
    '/journal-entries/:entryId/post',
    {
      summary: 'Post a draft (or submit it for approval); accepts Idempotency-Key',
      permission: 'post',
      params: entryParams,
      response: journalEntrySchema,
      idempotent: ({ entryId }) => `POST /journal-entries/${entryId}/post`,
      idempotentPayload: (_input, member) => ({ userId: member.userId }),
    },
    postDraft,
  );
  route.post(
    '/journal-entries/:entryId/approve',
    {
      summary: 'Approve and post an entry waiting for approval',
      permission: 'approve',
      params: entryParams,
      response: journalEntrySchema,
    },
    approveDraft,
  );
  route.post(
    '/journal-entries/:entryId/reverse',
    {
      summary: 'Post the reversing entry of a posted entry; accepts Idempotency-Key',
      permission: 'post',
      params: entryParams,
      body: reverseEntrySchema.optional(),
      response: journalEntrySchema,
      status: 201,
      idempotent: ({ entryId }) => `POST /journal-entries/${entryId}/reverse`,
      // The body, or {} when there is none.
      idempotentPayload: ({ entryId: _, ...body }) => body,
    },
    reverseEntry,
  );
  route.post(
    '/opening-balances',
    {
      summary:
        'Post opening balances (the difference goes to Opening balance equity); accepts Idempotency-Key',
      permission: 'post',
      body: openingBalancesSchema,
      response: journalEntrySchema,
      status: 201,
      idempotent: 'POST /opening-balances',
    },
    openingBalances,
  );

  // --- Receipts -----------------------------------------------------------------------
  route.post(
    '/journal-entries/:entryId/attachments',
    {
      summary:
        'Attach a receipt (multipart field "file"; PDF, PNG, JPEG, GIF, WebP, HEIC or plain text, at most 10 MB; the type is read from the bytes)',
      permission: 'record',
      params: entryParams,
      consumes: ['multipart/form-data'],
      response: attachmentSchema,
      status: 201,
    },
    async (c, member, { entryId }, { request }) => {
      const file = await checkUpload(await readMultipartUpload(request));
      return attachReceipt(c, member, { entryId, file });
    },
  );
  route.get(
    '/journal-entries/:entryId/attachments/:attachmentId',
    {
      summary: 'Download an attachment',
      permission: 'read',
      params: attachmentParams,
      produces: ['application/pdf', 'image/*', 'text/plain'],
    },
    async (c, member, input, { reply }) => sendAttachment(reply, await readReceipt(c, member, input)),
  );
  route.delete(
    '/journal-entries/:entryId/attachments/:attachmentId',
    { summary: 'Remove an attachment', permission: 'record', params: attachmentParams, response: null },
    removeReceipt,
  );
});
