import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { transferInputSchema, transferSchema } from '../../../shared/wallet.ts';
import type { AppContext } from '../../context.ts';
import { memberOf, requirePermission } from '../../http/tenancy.ts';
import { runIdempotentRequest } from '../../http/idempotency.ts';
import { createTransfer, deleteTransfer } from './service.ts';

// Transfers keep their place under /wallet in the API (and the wallet tag in the docs).

const orgParams = z.object({ organizationId: z.string().min(1) });
const idParams = orgParams.extend({ id: z.string().min(1).max(100) });
const tags = ['wallet'];

export const transferRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/orgs/:organizationId/wallet/transfers',
      {
        schema: {
          tags,
          summary: 'Move money between two accounts (same or different currency), posted as one entry',
          params: orgParams,
          body: transferInputSchema,
          response: { 201: transferSchema },
        },
        preHandler: requirePermission(ctx, 'post'),
      },
      async (request, reply) => {
        const member = memberOf(request);
        const result = await runIdempotentRequest(
          ctx,
          request,
          { organizationId: member.organizationId, scope: 'POST /wallet/transfers', statusCode: 201 },
          (trxCtx) => createTransfer(trxCtx, member, request.body),
        );
        return reply.status(result.statusCode as 201).send(result.body);
      },
    );

    app.delete(
      '/orgs/:organizationId/wallet/transfers/:id',
      {
        schema: {
          tags,
          summary: 'Delete a transfer (its entry is reversed)',
          params: idParams,
          response: { 204: z.null() },
        },
        preHandler: requirePermission(ctx, 'post'),
      },
      async (request, reply) => {
        await deleteTransfer(ctx, memberOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
