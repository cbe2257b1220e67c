import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  MAX_STATEMENT_CHARS,
  csvSniffSchema,
  statementImportInputSchema,
  statementImportResultSchema,
  statementImportSchema,
  statementPreviewSchema,
} from '../../../shared/transactions.ts';
import type { AppContext } from '../../context.ts';
import { memberOf, requirePermission } from '../companies/guard.ts';
import { runIdempotentRequest } from '../idempotency/idempotency.ts';
import { commitStatement, listImports, previewStatement, sniffStatement } from './service.ts';

const orgParams = z.object({ organizationId: z.string().min(1) });
const tags = ['statement import'];
// A 100,000-line statement is about 8 MB of JSON; leave room for larger exports.
const bodyLimit = MAX_STATEMENT_CHARS * 1.1;

export const statementImportRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/orgs/:organizationId/statement-imports/sniff',
      {
        bodyLimit,
        schema: {
          tags,
          summary: "A CSV's columns and first rows, with a suggested and the remembered mapping",
          params: orgParams,
          body: z.object({
            moneyAccountId: z.string().min(1),
            content: statementImportInputSchema.shape.content,
          }),
          response: { 200: csvSniffSchema },
        },
        preHandler: requirePermission(ctx, 'record'),
      },
      async (request) => sniffStatement(ctx, memberOf(request), request.body),
    );

    app.post(
      '/orgs/:organizationId/statement-imports/preview',
      {
        bodyLimit,
        schema: {
          tags,
          summary:
            'Parse a statement and show what would be imported (duplicates marked, rules applied); writes nothing',
          params: orgParams,
          body: statementImportInputSchema,
          response: { 200: statementPreviewSchema },
        },
        preHandler: requirePermission(ctx, 'record'),
      },
      async (request) => previewStatement(ctx, memberOf(request), request.body),
    );

    app.post(
      '/orgs/:organizationId/statement-imports',
      {
        bodyLimit,
        schema: {
          tags,
          summary: 'Import a statement: all new rows are posted in one transaction, or nothing is',
          params: orgParams,
          body: statementImportInputSchema,
          response: { 200: statementImportResultSchema },
        },
        preHandler: requirePermission(ctx, 'post'),
      },
      async (request, reply) => {
        const member = memberOf(request);
        const result = await runIdempotentRequest(
          ctx,
          request,
          {
            organizationId: member.organizationId,
            scope: 'POST /statement-imports',
            statusCode: 200,
            payload: {
              ...request.body,
              content: createHash('sha256').update(request.body.content).digest('hex'),
            },
          },
          (trxCtx) => commitStatement(trxCtx, member, request.body),
        );
        return reply.status(result.statusCode as 200).send(result.body);
      },
    );

    app.get(
      '/orgs/:organizationId/statement-imports',
      {
        schema: {
          tags,
          summary: 'Recent statement imports',
          params: orgParams,
          querystring: z.object({ moneyAccountId: z.string().max(100).optional() }),
          response: { 200: z.object({ imports: z.array(statementImportSchema) }) },
        },
        preHandler: requirePermission(ctx, 'read'),
      },
      async (request) => ({
        imports: await listImports(ctx, memberOf(request), request.query.moneyAccountId),
      }),
    );
  };
