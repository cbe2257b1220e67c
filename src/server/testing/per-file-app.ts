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
