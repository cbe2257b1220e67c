import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { type FakeOtlpCollector, type ReceivedSpan, startFakeOtlpCollector } from './testing/fake-otlp.ts';
import { EXPORTED_ATTRIBUTES, otlpEndpointProblem, redactSpan, serviceNameOf } from './tracing.ts';

// OpenTelemetry tracing (issue 20 §8, docs/operations.md "Tracing"): a real server process
// exporting to a fake OTLP/HTTP collector. Spans name the route's template, carry the status
// and the request id, database statements and job runs are spans, and nothing personal leaves
// — no query string, no id from the path, no SQL parameter, no request body. With the variable
// unset, no OpenTelemetry module is loaded at all.

// Records every module the server process resolves through the ESM loader whose URL names
// OpenTelemetry or its module patchers, into KONTOR_MODULE_LOG (a loader hook; runs off-thread).
const MODULE_LOG_HOOK = `data:text/javascript,${encodeURIComponent(`
import fs from 'node:fs';
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (/opentelemetry|in-the-middle/.test(result.url)) fs.appendFileSync(process.env.KONTOR_MODULE_LOG, result.url + '\\n');
  return result;
}`)}`;
const MODULE_LOG_PRELOAD = `data:text/javascript,${encodeURIComponent(
  `import { register } from 'node:module'; register(${JSON.stringify(MODULE_LOG_HOOK)});`,
)}`;

const root = path.resolve(import.meta.dirname, '../..');

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = net.createServer();
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });

const waitForHealth = async (url: string, server: ChildProcess, seconds: number) => {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the server did not become healthy within ${seconds} s`);
};

type Started = { server: ChildProcess; url: string; moduleLog: string; startMs: number };

const temporary: string[] = [];
const servers: ChildProcess[] = [];
const collectors: FakeOtlpCollector[] = [];
const databases: string[] = [];

afterAll(async () => {
  for (const server of servers) if (server.exitCode === null) server.kill('SIGKILL');
  for (const collector of collectors) await collector.close();
  for (const dir of temporary) fs.rmSync(dir, { recursive: true, force: true });
  const admin = process.env.TEST_DATABASE_URL;
  if (admin && databases.length > 0) {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    for (const name of databases) await client.query(`drop database if exists ${name} with (force)`);
    await client.end();
  }
}, 60_000);

/** A fresh PostgreSQL database beside TEST_DATABASE_URL's, dropped after the file. */
const freshPostgresDatabase = async (admin: string) => {
  const name = `kontor_trace_${randomBytes(5).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  databases.push(name);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
};

const startServer = async (env: Record<string, string>): Promise<Started> => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kontor-tracing-'));
  temporary.push(dataDir);
  const moduleLog = path.join(dataDir, 'modules.log');
  fs.writeFileSync(moduleLog, '');
  const port = await freePort();
  const started = performance.now();
  const server = spawn(
    process.execPath,
    ['--import', 'tsx', '--import', MODULE_LOG_PRELOAD, 'src/server/main.ts'],
    {
      cwd: root,
      env: {
        ...process.env,
        OTEL_EXPORTER_OTLP_ENDPOINT: '',
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        WEB_DIR: '/nonexistent',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        DATABASE_URL: '',
        APP_ENV: 'test',
        LOG_LEVEL: 'warn',
        NODE_OPTIONS: '',
        KONTOR_MODULE_LOG: moduleLog,
        ...env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  servers.push(server);
  const url = `http://127.0.0.1:${port}`;
  await waitForHealth(url, server, 150);
  return { server, url, moduleLog, startMs: performance.now() - started };
};

const stopServer = async (server: ChildProcess) => {
  if (server.exitCode !== null) return server.exitCode;
  const exited = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
  server.kill('SIGTERM');
  return exited;
};

const loadedModules = (log: string) => fs.readFileSync(log, 'utf8').split('\n').filter(Boolean);

const SERVER = 2; // OTLP SpanKind: SPAN_KIND_SERVER
const CLIENT = 3;

/** The spans of one trace, and whether `span` descends from `ancestor` in it. */
const descendsFrom = (spans: ReceivedSpan[], span: ReceivedSpan, ancestor: ReceivedSpan) => {
  const byId = new Map(spans.filter((s) => s.traceId === span.traceId).map((s) => [s.spanId, s]));
  for (let at: ReceivedSpan | undefined = span; at; at = byId.get(at.parentSpanId)) {
    if (at.spanId === ancestor.spanId) return true;
  }
  return false;
};

const databaseKinds = [
  { kind: 'pglite' as const },
  ...(process.env.TEST_DATABASE_URL ? [{ kind: 'postgres' as const }] : []),
];

describe.each(databaseKinds)('tracing on $kind', ({ kind }) => {
  it('exports request, database and job spans with route templates, statuses and request ids, and nothing personal', async () => {
    const collector = await startFakeOtlpCollector();
    collectors.push(collector);
    const databaseUrl =
      kind === 'postgres' ? await freshPostgresDatabase(process.env.TEST_DATABASE_URL!) : '';
    const { server, url, moduleLog } = await startServer({
      OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-token=token-for-the-collector',
      OTEL_SERVICE_NAME: 'kontor-under-test',
      OTEL_BSP_SCHEDULE_DELAY: '100',
      DATABASE_URL: databaseUrl,
    });
    expect(loadedModules(moduleLog).some((m) => m.includes('@opentelemetry/sdk-trace-node'))).toBe(true);

    const secret = randomBytes(6).toString('hex');
    const email = `traced-${secret}@example.com`;
    const password = `Pass-${secret}-9`;
    // A sign-up: a body with personal data, and database statements with it as parameters.
    const signUp = await fetch(`${url}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: url },
      body: JSON.stringify({ email, password, name: `Name ${secret}` }),
    });
    expect(signUp.status, await signUp.clone().text()).toBe(200);
    const cookie = (signUp.headers.getSetCookie() ?? []).map((c) => c.split(';')[0]).join('; ');
    const signUpId = signUp.headers.get('x-request-id')!;
    // A company route with an id in the path and personal data in the query string.
    const orgId = `org-${secret}`;
    const list = await fetch(`${url}/api/orgs/${orgId}/invoices?search=${encodeURIComponent(email)}`, {
      headers: { cookie },
    });
    const listId = list.headers.get('x-request-id')!;
    expect(list.status).toBeGreaterThanOrEqual(400);
    expect(list.status).toBeLessThan(500);
    const health = await fetch(`${url}/api/health?note=${secret}`);
    expect(health.status).toBe(200);
    const healthId = health.headers.get('x-request-id')!;
    expect((await fetch(`${url}/metrics`)).status).toBe(200);

    const signUpSpan = await collector.waitFor((s) => s.attributes['kontor.request_id'] === signUpId);
    expect(signUpSpan.kind).toBe(SERVER);
    expect(
      signUpSpan.attributes['http.response.status_code'] ?? signUpSpan.attributes['http.status_code'],
    ).toBe(200);
    expect(signUpSpan.name).toBe(`POST ${signUpSpan.attributes['http.route']}`);
    expect(String(signUpSpan.attributes['http.route'])).toMatch(/^\/api\/auth/);

    const listSpan = await collector.waitFor((s) => s.attributes['kontor.request_id'] === listId);
    expect(listSpan.name).toBe('GET /api/orgs/:organizationId/invoices');
    expect(listSpan.attributes['http.route']).toBe('/api/orgs/:organizationId/invoices');
    expect(listSpan.attributes['http.response.status_code'] ?? listSpan.attributes['http.status_code']).toBe(
      list.status,
    );
    const healthSpan = await collector.waitFor((s) => s.attributes['kontor.request_id'] === healthId);
    expect(healthSpan.name).toBe('GET /api/health');

    // The sign-up's statements are spans inside its request's trace, with their SQL text.
    const statement = await collector.waitFor(
      (s) =>
        s.kind === CLIENT &&
        s.traceId === signUpSpan.traceId &&
        /insert/i.test(String(s.attributes['db.query.text'])),
    );
    expect(descendsFrom(collector.spans, statement, signUpSpan)).toBe(true);
    expect(statement.attributes['db.system.name']).toBe('postgresql');
    if (kind === 'pglite') expect(statement.name).toMatch(/^pglite\.query:/);

    // The scheduled jobs run at start: each run is a root span with the queue's statements.
    const job = await collector.waitFor((s) => s.name.startsWith('job ') && s.parentSpanId === '');
    expect(job.attributes['kontor.job.queue']).toBe(job.name.slice('job '.length));
    expect(typeof job.attributes['kontor.job.id']).toBe('string');
    expect(job.attributes['kontor.job.attempt']).toBe(1);

    expect(await stopServer(server)).toBe(0);

    // Who and what: the service name, the collector's header.
    expect(signUpSpan.resource['service.name']).toBe('kontor-under-test');
    expect(collector.headers[0]?.['x-collector-token']).toBe('token-for-the-collector');
    // Nothing personal left the process: not the body, not a parameter, not the URL.
    const exported = collector.bodies.join('\n');
    for (const leak of [secret, email, password, orgId, '?search', '?note', cookie.slice(0, 40)]) {
      expect(exported, `exported spans contain ${leak}`).not.toContain(leak);
    }
    for (const span of collector.spans) {
      for (const key of Object.keys(span.attributes)) expect(EXPORTED_ATTRIBUTES.has(key), key).toBe(true);
      expect(span.status.message ?? '').toBe('');
    }
    // The metrics scrape is not a span.
    expect(collector.spans.some((s) => s.attributes['http.route'] === '/metrics')).toBe(false);
  }, 240_000);
});

describe('tracing off', () => {
  it('loads no OpenTelemetry module when OTEL_EXPORTER_OTLP_ENDPOINT is unset', async () => {
    const { server, url, moduleLog, startMs } = await startServer({});
    expect((await fetch(`${url}/api/health`)).status).toBe(200);
    expect(loadedModules(moduleLog)).toEqual([]);
    expect(await stopServer(server)).toBe(0);
    expect(startMs).toBeGreaterThan(0);
  }, 180_000);

  it('refuses an endpoint that is not an http(s) URL, and names the service kontor by default', () => {
    expect(otlpEndpointProblem('http://localhost:4318')).toBeNull();
    expect(otlpEndpointProblem('localhost:4318')).toMatch(/OTEL_EXPORTER_OTLP_ENDPOINT must be/);
    expect(otlpEndpointProblem('grpc://collector:4317')).toMatch(/http:\/\/ or https:\/\//);
    expect(serviceNameOf({})).toBe('kontor');
    expect(serviceNameOf({ OTEL_SERVICE_NAME: ' books ' })).toBe('books');
  });

  it('drops every attribute outside the allowlist, status messages and exception details', () => {
    const span = {
      name: 'GET /api/x',
      kind: 1,
      spanContext: () => ({ traceId: 't', spanId: 's', traceFlags: 1 }),
      startTime: [0, 0],
      endTime: [0, 1],
      status: { code: 2, message: 'duplicate key (email)=(a@b.example)' },
      attributes: { 'http.route': '/api/x', 'url.query': 'email=a@b.example', 'http.target': '/api/x?q=1' },
      links: [],
      events: [
        {
          name: 'exception',
          time: [0, 0],
          attributes: { 'exception.type': 'Error', 'exception.message': 'a@b' },
        },
        { name: 'log', time: [0, 0], attributes: { text: 'a@b' } },
      ],
      duration: [0, 1],
      ended: true,
      resource: {},
      instrumentationScope: { name: 'x' },
      droppedAttributesCount: 0,
      droppedEventsCount: 0,
      droppedLinksCount: 0,
    } as unknown as Parameters<typeof redactSpan>[0];
    const out = redactSpan(span);
    expect(out.attributes).toEqual({ 'http.route': '/api/x' });
    expect(out.status).toEqual({ code: 2 });
    expect(out.events).toEqual([
      { name: 'exception', time: [0, 0], attributes: { 'exception.type': 'Error' } },
    ]);
    expect(out.spanContext().spanId).toBe('s');
  });
});
