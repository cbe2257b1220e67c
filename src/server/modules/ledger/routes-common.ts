import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isoDate } from '../../../shared/ledger.ts';
import type { AppContext } from '../../context.ts';
import type { Permission } from '../../http/permissions.ts';
import { type MemberContext, memberOf, requirePermission } from '../../http/tenancy.ts';

// Parameters, error bodies and the removal route the ledger's route files share.

export const tags = ['ledger'];
export const orgParams = z.object({ organizationId: z.string().min(1) });
export const entryParams = orgParams.extend({ entryId: z.string().min(1) });
export const accountParams = orgParams.extend({ accountId: z.string().min(1) });
export const yearParams = orgParams.extend({ endDate: isoDate });
export const attachmentParams = entryParams.extend({ attachmentId: z.string().min(1) });

export const errorBody = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }),
});

type RouteApp = Parameters<FastifyPluginAsyncZod>[0];

/**
 * A DELETE route that removes one thing and answers 204 with no body: the path's parameters
 * go to the service as its input.
 */
export const removeRoute = <P extends z.ZodType<Record<string, string>>>(
  app: RouteApp,
  ctx: AppContext,
  route: { url: string; summary: string; params: P; permission: Permission },
  remove: (ctx: AppContext, member: MemberContext, params: z.infer<P>) => Promise<unknown>,
) =>
  app.delete(
    route.url,
    {
      schema: { tags, summary: route.summary, params: route.params, response: { 204: z.null() } },
      preHandler: requirePermission(ctx, route.permission),
    },
    async (request, reply) => {
      await remove(ctx, memberOf(request), request.params as z.infer<P>);
      return reply.status(204).send(null);
    },
  );
