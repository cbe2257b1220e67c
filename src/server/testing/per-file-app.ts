import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { DatabaseHandle } from '../db/client.ts';
import { createTestApp } from './app.ts';
import { createTestDatabase } from './db.ts';

// The set-up of a test file that needs only the app (auth, profile, mail, promo, contact):
// `const t = setUpTestApp();` registers beforeAll/afterAll and hands back the test app, whose
// fields (`app`, `ctx`, `clock`, `database`, `close`) are filled in once beforeAll has run.
// Route tests that need a company use setUpTestCompany (api.ts) instead; service tests that
// need only a database use `const handle = setUpTestDatabase();` the same way.

type TestAppOptions = Parameters<typeof createTestApp>[0];
export type PerFileTestApp = Awaited<ReturnType<typeof createTestApp>>;

export const setUpTestApp = (options?: TestAppOptions): PerFileTestApp => {
  const t = {} as PerFileTestApp;
  beforeAll(async () => {
    Object.assign(t, await createTestApp(options));
  });
  afterAll(async () => {
    await t.close?.();
  });
  return t;
};

/**
 * As setUpTestApp, with DATA_DIR (where attachments are stored) a fresh temporary folder named
 * `kontor-<label>-…`, removed after the file; `t.dataDir` names it once beforeAll has run.
 */
export const setUpTestAppWithDataDir = (label: string): PerFileTestApp & { dataDir: string } => {
  const t = {} as PerFileTestApp & { dataDir: string };
  beforeAll(async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `kontor-${label}-`));
    Object.assign(t, { dataDir }, await createTestApp({ env: { DATA_DIR: dataDir } }));
  });
  afterAll(async () => {
    await t.close?.();
    if (t.dataDir) fs.rmSync(t.dataDir, { recursive: true, force: true });
  });
  return t;
};

/** A fresh test database for the file (PGlite, or a schema of TEST_DATABASE_URL), closed after it. */
export const setUpTestDatabase = (): DatabaseHandle => {
  const handle = {} as DatabaseHandle;
  beforeAll(async () => {
    Object.assign(handle, await createTestDatabase());
  });
  afterAll(async () => {
    await handle.close?.();
  });
  return handle;
};
