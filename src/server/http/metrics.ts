import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import client from 'prom-client';
import { sql } from 'kysely';
import type { AppContext } from '../context.ts';
import { isLoopbackAddress } from './origins.ts';

// GET /metrics in Prometheus's text format (issue 20 §8, prom-client; docs/operations.md):
// the process (CPU, memory, event loop, garbage collection — prom-client's defaults), request
// latency by route, the database pool, the job queue and statement import rows.
//
// Who may read it: with METRICS_TOKEN set, a scraper sending `Authorization: Bearer <token>`;
// without it, only clients on this machine (loopback), so a default start exposes nothing.
// Anyone else gets the same 404 as any unknown path.

// Process-wide series: one Node process is one scrape target, however many apps a test builds.
const processRegistry = new client.Registry();
client.collectDefaultMetrics({ register: processRegistry, prefix: 'kontor_' });

const httpDuration = new client.Histogram({
  name: 'kontor_http_request_duration_seconds',
  help: 'Time from request to response, by method, route template and status.',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [processRegistry],
});

const importRows = new client.Counter({
  name: 'kontor_import_rows_total',
  help: 'Statement rows read by imports in this process, by outcome (imported, duplicate).',
  labelNames: ['outcome'] as const,
  registers: [processRegistry],
});

/** Counts a finished statement import's rows (called by the statement import after commit). */
export const countImportedRows = (imported: number, duplicates: number) => {
  if (imported > 0) importRows.inc({ outcome: 'imported' }, imported);
  if (duplicates > 0) importRows.inc({ outcome: 'duplicate' }, duplicates);
};

/** The pool's counters, when the database is PostgreSQL (pg's Pool). */
export type PoolStats = { totalCount: number; idleCount: number; waitingCount: number };

const JOB_STATES = ['created', 'retry', 'active', 'dead'] as const;

// Series read when scraped, for one app's database: the pool and the job queue.
const appRegistry = (ctx: AppContext, pool: PoolStats | null) => {
  const registry = new client.Registry();
  if (pool) {
    new client.Gauge({
      name: 'kontor_db_pool_connections',
      help: 'PostgreSQL pool connections by state (idle, busy) and requests waiting for one.',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'busy' }, pool.totalCount - pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });
  }
  new client.Gauge({
    name: 'kontor_jobs',
    help: 'Jobs in the queue by queue and state (created and retry: waiting; active; dead: failed for good). The whole database, not this process.',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const { rows } = await sql<{ queue: string; state: string; count: string | number }>`
        select queue, state, count(*) as count from jobs where state <> 'completed' group by queue, state`.execute(
        ctx.database.db,
      );
      for (const row of rows) {
        if ((JOB_STATES as readonly string[]).includes(row.state))
          this.set({ queue: row.queue, state: row.state }, Number(row.count));
      }
    },
  });
  return registry;
};

const sameSecret = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

const mayRead = (token: string | undefined, request: FastifyRequest) => {
  if (token) {
    const header = request.headers.authorization ?? '';
    return header.startsWith('Bearer ') && sameSecret(header.slice('Bearer '.length), token);
  }
  return isLoopbackAddress(request.socket.remoteAddress ?? '');
};

export const registerMetrics = (
  app: FastifyInstance,
  ctx: AppContext,
  options: { token?: string; pool?: PoolStats | null },
) => {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url;
    if (route === '/metrics') return;
    httpDuration.observe(
      { method: request.method, route: route ?? 'unmatched', status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
  const registry = client.Registry.merge([processRegistry, appRegistry(ctx, options.pool ?? null)]);
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!mayRead(options.token, request)) {
      return reply
        .status(404)
        .send({ error: { code: 'not_found', message: `Route GET:${request.url} not found` } });
    }
    return reply
      .type(registry.contentType)
      .header('cache-control', 'no-store')
      .send(await registry.metrics());
  });
};
