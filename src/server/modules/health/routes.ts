import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { publicRoutePlugin } from '../../http/routes.ts';

// With a read replica (DATABASE_REPLICA_URL) the health answer says where reads go now and
// why: a replica that is down or lagging leaves the service healthy (reads fall back to the
// primary), so it is reported, not failed on. No error text: the route is public.
const replicaState = z.object({
  reads: z.enum(['replica', 'primary']),
  reason: z.enum(['replica', 'down', 'not_standby', 'lag', 'own_write', 'unknown']),
  lagMs: z.number().nullable(),
});

const replicaOf = async (ctx: AppContext) => {
  const router = ctx.database.replica;
  if (!router) return {};
  const choice = await router
    .choose(null)
    .catch(() => ({ target: 'primary' as const, reason: 'down' as const }));
  return { replica: { reads: choice.target, reason: choice.reason, lagMs: router.status().lagMs } };
};

const healthy = z.object({
  healthy: z.literal(true),
  environment: z.string(),
  apiUrl: z.string(),
  plaidEnv: z.string(),
  version: z.string(),
  database: z.object({ ok: z.literal(true), kind: z.enum(['pglite', 'postgres']), latencyMs: z.number() }),
  replica: replicaState.optional(),
});

const unhealthy = z.object({
  healthy: z.literal(false),
  environment: z.string(),
  apiUrl: z.string(),
  plaidEnv: z.string(),
  version: z.string(),
  error: z.string(),
  database: z.object({ ok: z.literal(false), kind: z.enum(['pglite', 'postgres']), latencyMs: z.number() }),
});

export const healthRoutes = publicRoutePlugin(['system'], (route) => {
  route.get(
    '/health',
    {
      summary: 'Service and database health',
      response: healthy,
      otherResponses: { 503: unhealthy },
      config: { rateLimit: false },
    },
    async (ctx, _input, { reply }) => {
      const { app: cfg, version } = ctx.config;
      const base = { environment: cfg.ENVIRONMENT, apiUrl: cfg.API_URL, plaidEnv: cfg.PLAID_ENV, version };
      const ping = await ctx.database.ping();
      if (ping.ok) {
        return {
          ...base,
          healthy: true as const,
          database: { ok: true as const, kind: ctx.database.kind, latencyMs: ping.latencyMs },
          ...(await replicaOf(ctx)),
        };
      }
      return reply.status(503).send({
        ...base,
        healthy: false as const,
        error: `Database did not answer: ${ping.error}`,
        database: { ok: false as const, kind: ctx.database.kind, latencyMs: ping.latencyMs },
      });
    },
  );
});
