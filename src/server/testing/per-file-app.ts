import { afterAll, beforeAll } from 'vitest';
import { createTestApp } from './app.ts';

// The set-up of a test file that needs only the app (auth, profile, mail, promo, contact):
// `const t = setUpTestApp();` registers beforeAll/afterAll and hands back the test app, whose
// fields (`app`, `ctx`, `clock`, `database`, `close`) are filled in once beforeAll has run.
// Route tests that need a company use setUpTestCompany (api.ts) instead.

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
