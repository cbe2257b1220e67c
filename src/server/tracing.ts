import { createRequire } from 'node:module';
import type { Attributes, Span, Tracer } from '@opentelemetry/api';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';

// OpenTelemetry tracing (issue 20 §8; docs/operations.md "Tracing", decision 0045). Off unless
// OTEL_EXPORTER_OTLP_ENDPOINT is set: then, and only then, the SDK and its instrumentations are
// imported (this file imports none of them itself, so a default start loads nothing of it).
//
// What is traced:
// - every HTTP request: one server span (instrumentation-http, incoming only) named by the
//   route's template, e.g. `GET /api/orgs/:organizationId/invoices`, with the status code and
//   Kontor's request id (`kontor.request_id`, the x-request-id the answer carries);
// - every database statement inside a request or a job: pg's spans (instrumentation-pg) on
//   PostgreSQL, this file's `pglite.query` spans on the embedded database;
// - every job run (`withSpan` around the handler in modules/jobs/queue.ts).
// Never exported: SQL parameters, request or response bodies, the raw URL (its ids and query
// string), headers, error messages. Every span passes an allowlist of attributes on its way out
// (`redactSpan`), so an attribute a future instrumentation adds is dropped, not leaked.
//
// Loading order: pg is loaded by the server's own imports before main() runs. Its patching is
// prototype-based, so it is enough that require-in-the-middle sees one `require('pg')` after the
// instrumentations are enabled — `startTracing` makes that require itself (and pg-pool's, and
// http's), which patches the module objects the server already holds. No ESM loader hook
// (import-in-the-middle) is registered: pg and Fastify are CommonJS packages.

/** Span attributes that may leave the process; everything else is dropped before export. */
export const EXPORTED_ATTRIBUTES: ReadonlySet<string> = new Set([
  // HTTP server spans (both generations of the semantic conventions)
  'http.request.method',
  'http.method',
  'http.route',
  'http.response.status_code',
  'http.status_code',
  'network.protocol.version',
  'http.flavor',
  'url.scheme',
  'http.scheme',
  'kontor.request_id',
  // database spans: the statement's text (placeholders only, never its values)
  'db.system.name',
  'db.system',
  'db.namespace',
  'db.name',
  'db.query.text',
  'db.statement',
  'db.operation.name',
  'db.client.connection.pool.name',
  'server.address',
  'server.port',
  'error.type',
  // job runs
  'kontor.job.queue',
  'kontor.job.id',
  'kontor.job.attempt',
]);

const pick = (attributes: Attributes, keep: (key: string) => boolean): Attributes => {
  const out: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) if (keep(key)) out[key] = value;
  return out;
};

/**
 * The span as it may be exported: allowed attributes only, no status message (a database
 * error's message can quote a value), exception events reduced to their type, no links.
 */
export const redactSpan = (span: ReadableSpan): ReadableSpan => ({
  name: span.name,
  kind: span.kind,
  spanContext: () => span.spanContext(),
  ...(span.parentSpanContext ? { parentSpanContext: span.parentSpanContext } : {}),
  startTime: span.startTime,
  endTime: span.endTime,
  status: { code: span.status.code },
  attributes: pick(span.attributes, (key) => EXPORTED_ATTRIBUTES.has(key)),
  links: [],
  events: span.events
    .filter((event) => event.name === 'exception')
    .map((event) => ({
      name: event.name,
      time: event.time,
      attributes: pick(event.attributes ?? {}, (key) => key === 'exception.type'),
    })),
  duration: span.duration,
  ended: span.ended,
  resource: span.resource,
  instrumentationScope: span.instrumentationScope,
  droppedAttributesCount: 0,
  droppedEventsCount: 0,
  droppedLinksCount: 0,
});

/** An exporter that sends only redacted copies of the spans to `inner`. */
export const redactingExporter = (inner: SpanExporter): SpanExporter => ({
  export: (spans, done) => inner.export(spans.map(redactSpan), done),
  shutdown: () => inner.shutdown(),
  forceFlush: () => inner.forceFlush?.() ?? Promise.resolve(),
});

type Api = typeof import('@opentelemetry/api');

/** An OpenTelemetry warning's text: its error's message (the SDK hands errors over as JSON text). */
const messageOf = (value: unknown): string => {
  if (value instanceof Error) return value.message;
  const text = String(value);
  try {
    const parsed = JSON.parse(text) as { message?: unknown };
    if (parsed && typeof parsed.message === 'string') return parsed.message;
  } catch {
    // plain text
  }
  return text;
};

type Active = { api: Api; tracer: Tracer };
let active: Active | null = null;

export type TracingLog = (message: string) => void;

export type TracingHandle = {
  /** Where OpenTelemetry's own warnings (an unreachable collector…) go from now on. */
  logTo: (log: TracingLog) => void;
  /** Exports what is still buffered and stops. */
  shutdown: () => Promise<void>;
};

/** Whether `startTracing` has turned tracing on in this process. */
export const tracingEnabled = () => active !== null;

/** Runs `run` inside a new span when tracing is on (a root span with `root`), else just runs it. */
export const withSpan = async <T>(
  name: string,
  attributes: Attributes,
  run: () => Promise<T>,
  options: { root?: boolean } = {},
): Promise<T> => {
  if (!active) return run();
  const { api, tracer } = active;
  return tracer.startActiveSpan(name, { attributes, root: options.root ?? false }, async (span: Span) => {
    try {
      return await run();
    } catch (error) {
      span.setStatus({ code: api.SpanStatusCode.ERROR });
      span.recordException({ name: error instanceof Error ? error.name : 'Error', message: '' });
      throw error;
    } finally {
      span.end();
    }
  });
};

/** The problem with OTEL_EXPORTER_OTLP_ENDPOINT, or null when it is a usable http(s) URL. */
export const otlpEndpointProblem = (endpoint: string): string | null => {
  try {
    const url = new URL(endpoint);
    if (url.protocol === 'http:' || url.protocol === 'https:') return null;
  } catch {
    // reported below
  }
  return `OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL (the collector's OTLP/HTTP address, e.g. http://localhost:4318), not "${endpoint}".`;
};

/** The service name spans are reported under: OTEL_SERVICE_NAME, else `kontor`. */
export const serviceNameOf = (env: NodeJS.ProcessEnv) => env.OTEL_SERVICE_NAME?.trim() || 'kontor';

const ignoredPaths = new Set(['/metrics']);

/**
 * Turns tracing on when `env.OTEL_EXPORTER_OTLP_ENDPOINT` is set (answers null and loads
 * nothing otherwise). Throws with a readable message when the endpoint is not a URL.
 * Exports OTLP/HTTP JSON to `<endpoint>/v1/traces` (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT),
 * with OTEL_EXPORTER_OTLP_HEADERS; OTEL_SERVICE_NAME (default `kontor`), OTEL_RESOURCE_ATTRIBUTES,
 * OTEL_TRACES_SAMPLER(_ARG) and OTEL_BSP_* are honoured as the SDK reads them.
 */
export const startTracing = async (
  options: { env?: NodeJS.ProcessEnv; version?: string; databaseKind?: 'pglite' | 'postgres' } = {},
): Promise<TracingHandle | null> => {
  const env = options.env ?? process.env;
  const endpoint = (
    env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() ||
    env.OTEL_EXPORTER_OTLP_ENDPOINT ||
    ''
  ).trim();
  if (!endpoint) return null;
  const problem = otlpEndpointProblem(endpoint);
  if (problem) throw new Error(problem);
  if (active) throw new Error('Tracing is already started in this process.');

  const [api, { NodeTracerProvider }, { BatchSpanProcessor }, resources, { OTLPTraceExporter }] =
    await Promise.all([
      import('@opentelemetry/api'),
      import('@opentelemetry/sdk-trace-node'),
      import('@opentelemetry/sdk-trace-base'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/exporter-trace-otlp-http'),
    ]);
  const [{ registerInstrumentations }, { HttpInstrumentation }, { PgInstrumentation }] = await Promise.all([
    import('@opentelemetry/instrumentation'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-pg'),
  ]);

  // OpenTelemetry's own complaints (an export that failed…), at most one a minute.
  let log: TracingLog = (message) => process.stderr.write(`kontor: tracing: ${message}\n`);
  let lastWarning = 0;
  const warn = (...args: unknown[]) => {
    const now = Date.now();
    if (now - lastWarning < 60_000) return;
    lastWarning = now;
    log(args.map(messageOf).join(' '));
  };
  api.diag.setLogger(
    { error: warn, warn, info: () => {}, debug: () => {}, verbose: () => {} },
    { logLevel: api.DiagLogLevel.WARN, suppressOverrideMessage: true },
  );

  const detected = resources.detectResources({ detectors: [resources.envDetector] });
  const resource = resources
    .resourceFromAttributes({
      'service.name': serviceNameOf(env),
      ...(options.version ? { 'service.version': options.version } : {}),
    })
    // OTEL_RESOURCE_ATTRIBUTES, then OTEL_SERVICE_NAME over its service.name (the env detector).
    .merge(detected);
  const provider = new NodeTracerProvider({
    resource,
    spanProcessors: [new BatchSpanProcessor(redactingExporter(new OTLPTraceExporter()))],
  });
  provider.register();

  const unregister = registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        // Outgoing calls (webhook receivers, Plaid, Stripe) are not traced: their URLs can
        // carry secrets, and a job's span already times them.
        disableOutgoingRequestInstrumentation: true,
        ignoreIncomingRequestHook: (request) => ignoredPaths.has((request.url ?? '').split('?')[0] ?? ''),
      }),
      new PgInstrumentation({
        // Only statements inside a request or a job: the job queue's idle polls are not spans.
        requireParentSpan: true,
        enhancedDatabaseReporting: false,
      }),
    ],
  });
  // The server's modules were loaded before this ran; these requires let require-in-the-middle
  // patch them now (see the note at the top). pg-pool is resolved from pg, as pg loads it.
  const require = createRequire(import.meta.url);
  require('node:http');
  if (options.databaseKind !== 'pglite') {
    require('pg');
    createRequire(require.resolve('pg'))('pg-pool');
  }

  const tracer = provider.getTracer('kontor', options.version);
  active = { api, tracer };
  const unsubscribeFastify = await traceFastifyRoutes(api);
  const unpatchPglite = options.databaseKind === 'pglite' ? await tracePglite(api, tracer) : () => {};

  return {
    logTo: (next) => {
      log = next;
    },
    shutdown: async () => {
      unsubscribeFastify();
      unpatchPglite();
      unregister();
      active = null;
      await provider.shutdown();
    },
  };
};

/**
 * Names each request's span by its route template and tags it with the request id: a hook
 * added to every Fastify instance as it is created (Fastify's `fastify.initialization`
 * diagnostics channel), so app.ts needs no tracing code.
 */
const traceFastifyRoutes = async (api: Api) => {
  const dc = await import('node:diagnostics_channel');
  type Init = {
    fastify: {
      addHook: (
        name: 'onRequest',
        hook: (
          request: { id: string; method: string; routeOptions: { url?: string } },
          reply: unknown,
          done: () => void,
        ) => void,
      ) => void;
    };
  };
  const onInit = (message: unknown) => {
    (message as Init).fastify.addHook('onRequest', (request, _reply, done) => {
      const span = api.trace.getActiveSpan();
      if (span) {
        span.setAttribute('kontor.request_id', request.id);
        const route = request.routeOptions.url;
        if (route) {
          span.setAttribute('http.route', route);
          span.updateName(`${request.method} ${route}`);
        }
      }
      done();
    });
  };
  dc.subscribe('fastify.initialization', onInit);
  return () => dc.unsubscribe('fastify.initialization', onInit);
};

/**
 * The embedded database's statements as spans (`pglite.query`), like pg's on PostgreSQL:
 * PGlite's `query` is wrapped on its prototype, inside a request or a job only, with the
 * statement's text and never its parameters.
 */
const tracePglite = async (api: Api, tracer: Tracer) => {
  const { PGlite } = await import('@electric-sql/pglite');
  let owner: object | null = PGlite.prototype;
  while (owner && !Object.hasOwn(owner, 'query')) owner = Object.getPrototypeOf(owner);
  if (!owner) return () => {};
  const target = owner as { query: (this: unknown, text: string, ...rest: unknown[]) => Promise<unknown> };
  const original = target.query;
  target.query = function tracedQuery(this: unknown, text: string, ...rest: unknown[]) {
    if (!api.trace.getSpan(api.context.active())) return original.call(this, text, ...rest);
    const operation = /^\s*([A-Za-z]+)/.exec(text)?.[1]?.toUpperCase() ?? 'QUERY';
    return tracer.startActiveSpan(
      `pglite.query:${operation}`,
      {
        kind: api.SpanKind.CLIENT,
        attributes: {
          'db.system.name': 'postgresql',
          'db.operation.name': operation,
          'db.query.text': text,
        },
      },
      async (span: Span) => {
        try {
          return await original.call(this, text, ...rest);
        } catch (error) {
          span.setStatus({ code: api.SpanStatusCode.ERROR });
          const code = (error as { code?: unknown }).code;
          if (typeof code === 'string') span.setAttribute('error.type', code);
          throw error;
        } finally {
          span.end();
        }
      },
    );
  };
  return () => {
    target.query = original;
  };
};
