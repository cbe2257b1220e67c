import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './db/client.ts';
import { migrateToLatest } from './db/migrate.ts';
import { createTestApp } from './testing/app.ts';
import { setUpTestApp } from './testing/per-file-app.ts';
import { testDatabaseKind } from './testing/db.ts';
import { WEB_APP_PATHS } from '../shared/web-routes.ts';

describe('the app on a fresh database', () => {
  const t = setUpTestApp();

  it('reports health with the database kind', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      healthy: true,
      environment: 'test',
      apiUrl: 'http://localhost:3000',
      plaidEnv: 'sandbox',
      version: '1.0.0',
      database: { ok: true, kind: testDatabaseKind() },
    });
    expect(typeof body.database.latencyMs).toBe('number');
    expect(body).not.toHaveProperty('replica'); // only with DATABASE_REPLICA_URL (replica.test.ts)
  });

  it('serves the OpenAPI document with the health route', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.json().paths['/api/health']).toBeDefined();
  });

  it('serves the API reference at /api/docs', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs' });
    expect([200, 302]).toContain(res.statusCode);
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: { code: 'not_found', message: 'No route GET /api/nope.' } });
  });

  it('sends security headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('applied the migrations', async () => {
    const rows = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
      t.database.db,
    );
    expect(rows.rows.map((r) => r.name)).toContain('20261121_0001_foundation');
  });
});

describe('the web app and its fallback', () => {
  const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kontor-web-'));
  fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Kontor</title>');
  fs.writeFileSync(path.join(webDir, 'big.txt'), 'x'.repeat(10_000));
  const t = setUpTestApp({ webDir });

  it('returns the app with 200 at every path it has a screen for', async () => {
    for (const url of [...WEB_APP_PATHS, '/invoices?invoice=abc', '/pricing/', '/Pricing', '/dev/mailbox']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('<title>Kontor</title>');
    }
    const head = await t.app.inject({ method: 'HEAD', url: '/dashboard' });
    expect(head.statusCode).toBe(200);
  });

  it('answers 404 with the app (its not-found page) at paths no screen matches', async () => {
    for (const url of [
      '/some/unknown/page',
      '/pricingx',
      '/invoices/abc',
      '/dashboard/x/y',
      '/login/extra',
      '/%E2%82%AC',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/text\/html/);
      expect(res.body, url).toContain('<title>Kontor</title>');
    }
    const head = await t.app.inject({ method: 'HEAD', url: '/nope' });
    expect(head.statusCode).toBe(404);
  });

  it('keeps JSON 404 for unknown API paths and non-GET requests', async () => {
    const api = await t.app.inject({ method: 'GET', url: '/api/nope' });
    expect(api.statusCode).toBe(404);
    expect(api.json().error.code).toBe('not_found');
    const post = await t.app.inject({ method: 'POST', url: '/pricing' });
    expect(post.statusCode).toBe(404);
    expect(post.json().error.code).toBe('not_found');
  });

  it('serves files of the build as they are', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/big.txt' });
    expect(res.statusCode).toBe(200);
  });

  it('compresses large answers', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/big.txt',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(res.headers['content-encoding']).toBe('gzip');
  });
});

describe('health when the database does not answer', () => {
  it('answers 503 with healthy false', async () => {
    const t = await createTestApp();
    await t.database.close();
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ healthy: false, database: { ok: false } });
    expect(res.json().error).toMatch(/^Database did not answer/);
    await t.app.close();
  });
});

describe.runIf(testDatabaseKind() === 'pglite')('embedded database on disk', () => {
  it('keeps data across a restart', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kontor-data-'));
    const first = await openDatabase({ kind: 'pglite', dataDir });
    await migrateToLatest(first.db);
    await first.db
      .insertInto('audit_log')
      .values({
        organization_id: 'org',
        actor_user_id: null,
        action: 'test',
        entity_type: 'x',
        entity_id: '1',
        before: null,
        after: null,
      })
      .execute();
    await first.close();
    const second = await openDatabase({ kind: 'pglite', dataDir });
    expect(await migrateToLatest(second.db)).toEqual([]);
    const rows = await second.db.selectFrom('audit_log').select('action').execute();
    expect(rows).toEqual([{ action: 'test' }]);
    await second.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
    // Two clusters created on disk: slow on a busy 2-core machine.
  }, 120_000);
});
