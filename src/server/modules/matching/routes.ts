import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  matchInputSchema,
  matchStateSchema,
  matchSuggestionsSchema,
  statementSuggestionsQuerySchema,
  statementSuggestionsSchema,
} from '../../../shared/matching.ts';
import type { AppContext } from '../../context.ts';
import { replyIdempotent } from '../../http/idempotency.ts';
import { memberOf, requirePermission } from '../../http/tenancy.ts';
import {
  getMatch,
  matchTransaction,
  suggestionsForStatement,
  suggestionsForTransaction,
  unmatchTransaction,
} from './service.ts';

// Matching bank lines to open invoices and recorded payments (docs/transactions.md, "Matching").

const orgParams = z.object({ organizationId: z.string().min(1) });
const idParams = orgParams.extend({ id: z.string().min(1).max(100) });
const importParams = orgParams.extend({ importId: z.string().min(1).max(100) });
const tags = ['matching'];

export const matchingRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/orgs/:organizationId/transactions/:id/match-suggestions',
      {
        schema: {
          tags,
          summary: 'Open invoices and recorded payments this bank line may be, best first',
          params: idParams,
          response: { 200: matchSuggestionsSchema },
        },
        preHandler: requirePermission(ctx, 'read'),
      },
      async (request) => suggestionsForTransaction(ctx, memberOf(request), request.params.id),
    );

    app.get(
      '/orgs/:organizationId/statement-imports/:importId/match-suggestions',
      {
        schema: {
          tags,
          summary: 'Suggestions for every uncategorised money-in line of one imported statement',
          params: importParams,
          querystring: statementSuggestionsQuerySchema.omit({ importId: true }),
          response: { 200: statementSuggestionsSchema },
        },
        preHandler: requirePermission(ctx, 'read'),
      },
      async (request) =>
        suggestionsForStatement(ctx, memberOf(request), request.params.importId, request.query.limit),
    );

    app.get(
      '/orgs/:organizationId/transactions/:id/match',
      {
        schema: {
          tags,
          summary: 'What this bank line is matched to (null when it is not)',
          params: idParams,
          response: { 200: matchStateSchema },
        },
        preHandler: requirePermission(ctx, 'read'),
      },
      async (request) => getMatch(ctx, memberOf(request), request.params.id),
    );

    app.post(
      '/orgs/:organizationId/transactions/:id/match',
      {
        schema: {
          tags,
          summary:
            'Match a bank line to open invoices (records their payments) or to a recorded payment; Idempotency-Key honoured',
          params: idParams,
          body: matchInputSchema,
          response: { 200: matchStateSchema },
        },
        preHandler: requirePermission(ctx, 'post'),
      },
      // An Idempotency-Key makes a retried confirmation answer as the first one did.
      async (request, reply) =>
        replyIdempotent(
          ctx,
          request,
          reply,
          { scope: `POST /transactions/${request.params.id}/match`, statusCode: 200 },
          (trxCtx, member) => matchTransaction(trxCtx, member, request.params.id, request.body),
        ),
    );

    app.delete(
      '/orgs/:organizationId/transactions/:id/match',
      {
        schema: {
          tags,
          summary: 'Unmatch a bank line: the payments it recorded are removed and it waits to be categorised',
          params: idParams,
          response: { 200: matchStateSchema },
        },
        preHandler: requirePermission(ctx, 'post'),
      },
      async (request) => unmatchTransaction(ctx, memberOf(request), request.params.id),
    );
  };
