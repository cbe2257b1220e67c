import { z } from 'zod';
import { publicRoutePlugin } from '../../http/routes.ts';

const healthy = z.object({
  healthy: z.literal(true),
  environment: z.string(),
  apiUrl: z.string(),
  plaidEnv: z.string(),
  version: z.string(),
  database: z.object({ ok: z.literal(true), kind: z.enum(['pglite', 'postgres']), latencyMs: z.number() }),
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
