import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJob } from '../modules/jobs/queue.ts';
import { createTestApp } from '../testing/app.ts';

// GET /metrics (issue 20 §8, docs/operations.md): Prometheus text, latency by route template,
// the job queue's depth; loopback only without METRICS_TOKEN, the token's bearer with it.

type TestApp = Awaited<ReturnType<typeof createTestApp>>;

describe('metrics without a token', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('answers loopback clients with request latency by route template and the job queue', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    await sendJob(t.ctx.database.db, 'metrics.test', { n: 1 }, { now: new Date() });
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.body).toMatch(
      /kontor_http_request_duration_seconds_count\{method="GET",route="\/api\/health",status_code="200"\} [1-9]/,
    );
    expect(res.body).toContain('kontor_jobs{queue="metrics.test",state="created"} 1');
    expect(res.body).toContain('kontor_process_resident_memory_bytes');
    expect(res.body).toContain('# TYPE kontor_import_rows_total counter');
  });

  it('is a 404 to a client that is not on this machine', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.5' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('kontor_');
  });

  it('counts an unknown path under one label, not by its URL', async () => {
    await t.app.inject({ method: 'GET', url: '/api/no-such-thing-1234' });
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.body).not.toContain('no-such-thing-1234');
  });
});

describe('metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { METRICS_TOKEN: 'scrape-secret-0123456789' } });
  });
  afterAll(async () => t?.close());

  it('needs the token, even from loopback', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    const wrong = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer scrape-secret-0123456788' },
    });
    expect(wrong.statusCode).toBe(404);
    const right = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '203.0.113.5',
      headers: { authorization: 'Bearer scrape-secret-0123456789' },
    });
    expect(right.statusCode).toBe(200);
    expect(right.body).toContain('kontor_http_request_duration_seconds');
  });
});

describe('request ids', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('every answer names its request, errors too, each with its own id', async () => {
    const ok = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(ok.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const missing = await t.app.inject({ method: 'GET', url: '/api/nope' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(missing.headers['x-request-id']).not.toBe(ok.headers['x-request-id']);
  });

  it("keeps a trusted proxy's id when it is sane, and makes its own otherwise", async () => {
    // Test apps trust one proxy hop (testing/app.ts).
    const kept = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'lb-7f3a.91' },
    });
    expect(kept.headers['x-request-id']).toBe('lb-7f3a.91');
    const odd = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'a b<script>' },
    });
    expect(odd.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
