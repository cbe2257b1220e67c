import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  bulkCategorizeSchema,
  reconciliationSchema,
  reconciliationStartSchema,
  reconciliationTickSchema,
  ruleInputSchema,
  ruleSchema,
  transactionCreateSchema,
  transactionListQuerySchema,
  transactionPageSchema,
  transactionSchema,
  transactionTotalsSchema,
  transactionUpdateSchema,
} from '../../../shared/transactions.ts';
import type { AppContext } from '../../context.ts';
import { csvReply } from '../../http/csv.ts';
import { BASE64_BODY_LIMIT, decodeBase64Upload, sendAttachment } from '../attachments/http.ts';
import { checkUpload } from '../attachments/policy.ts';
import {
  legacyAttachmentsDir,
  listAttachments,
  readAttachment,
  removeAttachment,
  storeAttachment,
} from '../attachments/store.ts';
import { memberOf, requirePermission } from '../../http/tenancy.ts';
import { runIdempotentRequest } from '../../http/idempotency.ts';
import {
  cancelReconciliation,
  finishReconciliation,
  getReconciliation,
  listReconciliations,
  startReconciliation,
  tickTransactions,
  undoLastReconciliation,
} from './reconciliation.ts';
import { createRule, deleteRule, listRules, updateRule } from './rules-service.ts';
import {
  applyRulesNow,
  bulkCategorize,
  deleteTransaction,
  exportTransactionsCsv,
  getTransaction,
  listTransactions,
  recordTransaction,
  transactionTotals,
  updateTransaction,
} from './service.ts';

const orgParams = z.object({ organizationId: z.string().min(1) });
const idParams = orgParams.extend({ id: z.string().min(1).max(100) });
const tags = ['transactions'];

export const transactionRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/orgs/:organizationId/transactions',
      {
        schema: {
          tags,
          summary: 'Bank transactions, filtered and sorted, a page at a time (keyset cursor)',
          params: orgParams,
          querystring: transactionListQuerySchema,
          response: { 200: transactionPageSchema },
        },
        preHandler: requirePermission(ctx, 'read'),
      },
      async (request) => listTransactions(ctx, memberOf(request), request.query),
    );

    app.get(
      '/orgs/:organizationId/transactions/totals',
      {
        schema: {
          tags,
          summary: 'Count, money in and money out of what the filter shows, per currency',
          params: orgParams,
          querystring: transactionListQuerySchema,
          response: { 200: transactionTotalsSchema },
        },
        preHandler: requirePermission(ctx, 'read'),
      },
      async (request) => transactionTotals(ctx, memberOf(request), request.query),
    );

    app.get(
      '/orgs/:organizationId/transactions/export.csv',
      {
        schema: {
          tags,
          summary: 'The filtered list as CSV',
          params: orgParams,
          querystring: transactionListQuerySchema,
        },
        preHandler: requirePermission(ctx, 'read'),
      },
      async (request, reply) => {
        const member = memberOf(request);
        const stream = Readable.from(exportTransactionsCsv(ctx, member, request.query));
        return csvReply(reply, `transactions-${ctx.now().toISOString().slice(0, 10)}.csv`).send(stream);
      },
    );

    app.post(
      '/orgs/:organizationId/transactions',
      {
        schema: {
          tags,
          summary: 'Record a transaction (posts it to the ledger)',
          params: orgParams,
          body: transactionCreateSchema,
          response: { 201: transactionSchema },
        },
        preHandler: requirePermission(ctx, 'post'),
      },
      async (request, reply) => {
        const member = memberOf(request);
        const result = await runIdempotentRequest(
          ctx,
          request,
          { organizationId: member.organizationId, scope: 'POST /transactions', statusCode: 201 },
          (trxCtx) => recordTransaction(trxCtx, member, request.body),
        );
        return reply.status(result.statusCode as 201).send(result.body);
      },
    );

    app.post(
      '/orgs/:organizationId/transactions/bulk-categorize',
      {
        schema: {
          tags,
          summary: 'Categorise many transactions at once',
          params: orgParams,
          body: bulkCategorizeSchema,
          response: { 200: z.object({ updated: z.number(), unchanged: z.number() }) },
        },
        preHandler: requirePermission(ctx, 'post'),
      },
      async (request) => bulkCategorize(ctx, memberOf(request), request.body),
    );

    app.post(
      '/orgs/:organizationId/transactions/apply-rules',
      {
        schema: {
          tags,
          summary: 'Run the categorisation rules over uncategorised transactions now',
          params: orgParams,
          body: z.object({ moneyAccountId: z.string().min(1).nullable().optional() }),
          response: { 200: z.object({ categorized: z.number(), checked: z.number() }) },
        },
        preHandler: requirePermission(ctx, 'post'),
      },
      async (request) => applyRulesNow(ctx, memberOf(request), request.body),
    );

    app.get(
      '/orgs/:organizationId/transactions/:id',
      {
        schema: { tags, summary: 'One transaction', params: idParams, response: { 200: transactionSchema } },
        preHandler: requirePermission(ctx, 'read'),
      },
      async (request) => getTransaction(ctx, memberOf(request), request.params.id),
    );

    app.patch(
      '/orgs/:organizationId/transactions/:id',
      {
        schema: {
          tags,
          summary: 'Edit, categorise or split a transaction (reverses and reposts its entry)',
          params: idParams,
          body: transactionUpdateSchema,
          response: { 200: transactionSchema },
        },
        preHandler: requirePermission(ctx, 'post'),
      },
      async (request) => updateTransaction(ctx, memberOf(request), request.params.id, request.body),
    );

    app.delete(
      '/orgs/:organizationId/transactions/:id',
      {
        schema: {
          tags,
          summary: 'Delete a transaction (its entry is reversed)',
          params: idParams,
          response: { 204: z.null() },
        },
        preHandler: requirePermission(ctx, 'post'),
      },
      async (request, reply) => {
        await deleteTransaction(ctx, memberOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    // --- Attachments (receipts) -----------------------------------------------------------

    const attachmentSchema = z.object({
      id: z.string(),
      fileName: z.string(),
      contentType: z.string(),
      sizeBytes: z.number(),
      createdAt: z.string(),
    });
    const attachmentParams = idParams.extend({ attachmentId: z.string().min(1).max(100) });

    app.get(
      '/orgs/:organizationId/transactions/:id/attachments',
      {
        schema: {
          tags,
          summary: 'Files attached to a transaction',
          params: idParams,
          response: { 200: z.object({ attachments: z.array(attachmentSchema) }) },
        },
        preHandler: requirePermission(ctx, 'read'),
      },
      async (request) => ({
        attachments: await listAttachments(
          ctx.database.db,
          'bank_transaction',
          memberOf(request).organizationId,
          request.params.id,
        ),
      }),
    );

    app.post(
      '/orgs/:organizationId/transactions/:id/attachments',
      {
        bodyLimit: BASE64_BODY_LIMIT,
        schema: {
          tags,
          summary:
            'Attach a receipt (base64; PDF, PNG, JPEG, GIF, WebP, HEIC or plain text, at most 10 MB; the type is read from the bytes, contentType is ignored)',
          params: idParams,
          body: z.object({
            fileName: z.string().max(1000),
            contentType: z.string().max(200).optional(),
            dataBase64: z.string().min(1, 'The file is empty.'),
          }),
          response: { 201: attachmentSchema },
        },
        preHandler: requirePermission(ctx, 'record'),
      },
      async (request, reply) => {
        const m = memberOf(request);
        const file = await checkUpload({
          fileName: request.body.fileName,
          data: decodeBase64Upload(request.body.dataBase64),
        });
        const attachment = await storeAttachment(ctx.database.db, 'bank_transaction', {
          organizationId: m.organizationId,
          ownerId: request.params.id,
          actorUserId: m.userId,
          file,
        });
        return reply.status(201).send(attachment);
      },
    );

    app.get(
      '/orgs/:organizationId/transactions/:id/attachments/:attachmentId',
      {
        schema: { tags, summary: 'Download an attached file', params: attachmentParams },
        preHandler: requirePermission(ctx, 'read'),
      },
      async (request, reply) => {
        const file = await readAttachment(ctx.database.db, 'bank_transaction', {
          organizationId: memberOf(request).organizationId,
          ownerId: request.params.id,
          attachmentId: request.params.attachmentId,
          legacyDir: legacyAttachmentsDir(ctx.config.dataDir),
        });
        return sendAttachment(reply, file);
      },
    );

    app.delete(
      '/orgs/:organizationId/transactions/:id/attachments/:attachmentId',
      {
        schema: {
          tags,
          summary: 'Remove an attached file',
          params: attachmentParams,
          response: { 204: z.null() },
        },
        preHandler: requirePermission(ctx, 'record'),
      },
      async (request, reply) => {
        const m = memberOf(request);
        await removeAttachment(ctx.database.db, 'bank_transaction', {
          organizationId: m.organizationId,
          ownerId: request.params.id,
          attachmentId: request.params.attachmentId,
          actorUserId: m.userId,
          legacyDir: legacyAttachmentsDir(ctx.config.dataDir),
        });
        return reply.status(204).send(null);
      },
    );

    // --- Rules ---------------------------------------------------------------------------

    app.get(
      '/orgs/:organizationId/transaction-rules',
      {
        schema: {
          tags,
          summary: 'Categorisation rules in priority order',
          params: orgParams,
          response: { 200: z.object({ rules: z.array(ruleSchema) }) },
        },
        preHandler: requirePermission(ctx, 'read'),
      },
      async (request) => ({ rules: await listRules(ctx, memberOf(request)) }),
    );

    app.post(
      '/orgs/:organizationId/transaction-rules',
      {
        schema: {
          tags,
          summary: 'Add a categorisation rule',
          params: orgParams,
          body: ruleInputSchema,
          response: { 201: ruleSchema },
        },
        preHandler: requirePermission(ctx, 'post'),
      },
      async (request, reply) =>
        reply.status(201).send(await createRule(ctx, memberOf(request), request.body)),
    );

    app.put(
      '/orgs/:organizationId/transaction-rules/:id',
      {
        schema: {
          tags,
          summary: 'Change a categorisation rule',
          params: idParams,
          body: ruleInputSchema,
          response: { 200: ruleSchema },
        },
        preHandler: requirePermission(ctx, 'post'),
      },
      async (request) => updateRule(ctx, memberOf(request), request.params.id, request.body),
    );

    app.delete(
      '/orgs/:organizationId/transaction-rules/:id',
      {
        schema: {
          tags,
          summary: 'Delete a categorisation rule',
          params: idParams,
          response: { 204: z.null() },
        },
        preHandler: requirePermission(ctx, 'post'),
      },
      async (request, reply) => {
        await deleteRule(ctx, memberOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    // --- Reconciliation ---------------------------------------------------------------------

    app.get(
      '/orgs/:organizationId/reconciliations',
      {
        schema: {
          tags,
          summary: 'Reconciliations, newest first',
          params: orgParams,
          querystring: z.object({ moneyAccountId: z.string().max(100).optional() }),
          response: { 200: z.object({ reconciliations: z.array(reconciliationSchema) }) },
        },
        preHandler: requirePermission(ctx, 'read'),
      },
      async (request) => ({
        reconciliations: await listReconciliations(ctx, memberOf(request), request.query.moneyAccountId),
      }),
    );

    app.post(
      '/orgs/:organizationId/reconciliations',
      {
        schema: {
          tags,
          summary: 'Start reconciling an account against a statement',
          params: orgParams,
          body: reconciliationStartSchema,
          response: { 201: reconciliationSchema },
        },
        preHandler: requirePermission(ctx, 'post'),
      },
      async (request, reply) =>
        reply.status(201).send(await startReconciliation(ctx, memberOf(request), request.body)),
    );

    app.get(
      '/orgs/:organizationId/reconciliations/:id',
      {
        schema: {
          tags,
          summary: 'One reconciliation with its difference',
          params: idParams,
          response: { 200: reconciliationSchema },
        },
        preHandler: requirePermission(ctx, 'read'),
      },
      async (request) => getReconciliation(ctx, memberOf(request), request.params.id),
    );

    app.post(
      '/orgs/:organizationId/reconciliations/:id/tick',
      {
        schema: {
          tags,
          summary: 'Tick or untick transactions',
          params: idParams,
          body: reconciliationTickSchema,
          response: { 200: reconciliationSchema },
        },
        preHandler: requirePermission(ctx, 'post'),
      },
      async (request) => tickTransactions(ctx, memberOf(request), request.params.id, request.body),
    );

    app.post(
      '/orgs/:organizationId/reconciliations/:id/finish',
      {
        schema: {
          tags,
          summary: 'Finish at a zero difference; the ticked transactions lock',
          params: idParams,
          response: { 200: reconciliationSchema },
        },
        preHandler: requirePermission(ctx, 'post'),
      },
      async (request) => finishReconciliation(ctx, memberOf(request), request.params.id),
    );

    app.delete(
      '/orgs/:organizationId/reconciliations/:id',
      {
        schema: {
          tags,
          summary: 'Cancel a reconciliation in progress',
          params: idParams,
          response: { 204: z.null() },
        },
        preHandler: requirePermission(ctx, 'post'),
      },
      async (request, reply) => {
        await cancelReconciliation(ctx, memberOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/orgs/:organizationId/reconciliations/undo-last',
      {
        schema: {
          tags,
          summary: "Undo an account's latest finished reconciliation",
          params: orgParams,
          body: z.object({ moneyAccountId: z.string().min(1) }),
          response: { 200: reconciliationSchema },
        },
        preHandler: requirePermission(ctx, 'post'),
      },
      async (request) => undoLastReconciliation(ctx, memberOf(request), request.body.moneyAccountId),
    );
  };
