import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
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
import type { AppContext } from '../../context.ts';
import { replyIdempotent } from '../../http/idempotency.ts';
import { memberOf, requirePermission } from '../../http/tenancy.ts';
import { readMultipartUpload, sendAttachment } from '../attachments/http.ts';
import { checkUpload } from '../attachments/policy.ts';
import { attachmentParams, entryParams, errorBody, orgParams, tags, removeRoute } from './routes-common.ts';
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
// on an entry. The posting routes accept an Idempotency-Key; their scopes are part of the
// stored keys, so they stay as they are.

export const ledgerEntryRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/orgs/:organizationId/journal-entries',
      {
        schema: {
          tags,
          summary: 'Journal entries, newest first',
          params: orgParams,
          querystring: journalListQuerySchema,
          response: { 200: journalListSchema },
        },
        preHandler: requirePermission(ctx, 'read'),
      },
      async (request) => listJournalEntries(ctx, memberOf(request), request.query),
    );
    app.get(
      '/orgs/:organizationId/journal-entries/:entryId',
      {
        schema: {
          tags,
          summary: 'One journal entry with its lines',
          params: entryParams,
          response: { 200: journalEntrySchema },
        },
        preHandler: requirePermission(ctx, 'read'),
      },
      async (request) => readJournalEntry(ctx, memberOf(request), request.params),
    );
    app.post(
      '/orgs/:organizationId/journal-entries',
      {
        schema: {
          tags,
          summary: 'Create a manual entry as a draft or post it (accepts Idempotency-Key)',
          params: orgParams,
          body: manualEntryCreateSchema,
          response: { 201: journalEntrySchema, 200: journalEntrySchema, 409: errorBody },
        },
        preHandler: requirePermission(ctx, 'record'),
      },
      async (request, reply) =>
        replyIdempotent(
          ctx,
          request,
          reply,
          {
            scope: 'POST /journal-entries',
            statusCode: 201,
            payload: { ...request.body, userId: memberOf(request).userId },
          },
          (trxCtx, member) => createManualEntry(trxCtx, member, request.body),
        ),
    );
    app.patch(
      '/orgs/:organizationId/journal-entries/:entryId',
      {
        schema: {
          tags,
          summary: 'Edit a draft or pending entry',
          params: entryParams,
          body: draftUpdateSchema,
          response: { 200: journalEntrySchema },
        },
        preHandler: requirePermission(ctx, 'record'),
      },
      async (request) =>
        changeDraftEntry(ctx, memberOf(request), { ...request.body, entryId: request.params.entryId }),
    );
    removeRoute(
      app,
      ctx,
      {
        url: '/orgs/:organizationId/journal-entries/:entryId',
        summary: 'Delete a draft or pending entry',
        params: entryParams,
        permission: 'record',
      },
      removeDraftEntry,
    );
    app.post(
      '/orgs/:organizationId/journal-entries/:entryId/post',
      {
        schema: {
          tags,
          summary: 'Post a draft (or submit it for approval); accepts Idempotency-Key',
          params: entryParams,
          response: { 200: journalEntrySchema },
        },
        preHandler: requirePermission(ctx, 'post'),
      },
      async (request, reply) =>
        replyIdempotent(
          ctx,
          request,
          reply,
          {
            scope: `POST /journal-entries/${request.params.entryId}/post`,
            statusCode: 200,
            payload: { userId: memberOf(request).userId },
          },
          (trxCtx, member) => postDraft(trxCtx, member, request.params),
        ),
    );
    app.post(
      '/orgs/:organizationId/journal-entries/:entryId/approve',
      {
        schema: {
          tags,
          summary: 'Approve and post an entry waiting for approval',
          params: entryParams,
          response: { 200: journalEntrySchema },
        },
        preHandler: requirePermission(ctx, 'approve'),
      },
      async (request) => approveDraft(ctx, memberOf(request), request.params),
    );
    app.post(
      '/orgs/:organizationId/journal-entries/:entryId/reverse',
      {
        schema: {
          tags,
          summary: 'Post the reversing entry of a posted entry; accepts Idempotency-Key',
          params: entryParams,
          body: reverseEntrySchema.optional(),
          response: { 201: journalEntrySchema },
        },
        preHandler: requirePermission(ctx, 'post'),
      },
      async (request, reply) => {
        const body = request.body ?? {};
        return replyIdempotent(
          ctx,
          request,
          reply,
          {
            scope: `POST /journal-entries/${request.params.entryId}/reverse`,
            statusCode: 201,
            payload: body,
          },
          (trxCtx, member) => reverseEntry(trxCtx, member, { ...body, entryId: request.params.entryId }),
        );
      },
    );
    app.post(
      '/orgs/:organizationId/opening-balances',
      {
        schema: {
          tags,
          summary:
            'Post opening balances (the difference goes to Opening balance equity); accepts Idempotency-Key',
          params: orgParams,
          body: openingBalancesSchema,
          response: { 201: journalEntrySchema },
        },
        preHandler: requirePermission(ctx, 'post'),
      },
      async (request, reply) =>
        replyIdempotent(
          ctx,
          request,
          reply,
          { scope: 'POST /opening-balances', statusCode: 201 },
          (trxCtx, member) => openingBalances(trxCtx, member, request.body),
        ),
    );

    // --- Receipts -----------------------------------------------------------------------
    app.post(
      '/orgs/:organizationId/journal-entries/:entryId/attachments',
      {
        schema: {
          tags,
          summary:
            'Attach a receipt (multipart field "file"; PDF, PNG, JPEG, GIF, WebP, HEIC or plain text, at most 10 MB; the type is read from the bytes)',
          params: entryParams,
          consumes: ['multipart/form-data'],
          response: { 201: attachmentSchema },
        },
        preHandler: requirePermission(ctx, 'record'),
      },
      async (request, reply) => {
        const file = await checkUpload(await readMultipartUpload(request));
        const attachment = await attachReceipt(ctx, memberOf(request), {
          entryId: request.params.entryId,
          file,
        });
        return reply.status(201).send(attachment);
      },
    );
    app.get(
      '/orgs/:organizationId/journal-entries/:entryId/attachments/:attachmentId',
      {
        schema: { tags, summary: 'Download an attachment', params: attachmentParams },
        preHandler: requirePermission(ctx, 'read'),
      },
      async (request, reply) =>
        sendAttachment(reply, await readReceipt(ctx, memberOf(request), request.params)),
    );
    removeRoute(
      app,
      ctx,
      {
        url: '/orgs/:organizationId/journal-entries/:entryId/attachments/:attachmentId',
        summary: 'Remove an attachment',
        params: attachmentParams,
        permission: 'record',
      },
      removeReceipt,
    );
  };
