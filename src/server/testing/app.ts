import { loadServerConfig } from '../config.ts';
import { buildApp } from '../app.ts';
import type { AppContext } from '../context.ts';
import type { DatabaseHandle } from '../db/client.ts';
import { createTestDatabase } from './db.ts';

// Builds the app on a fresh test database. `clock` lets a test move time forward.

export type TestClock = { now: () => Date; set: (d: Date | string) => void; advance: (ms: number) => void };

export const createClock = (start: Date = new Date()): TestClock => {
  let t = start.getTime();
  return {
    now: () => new Date(t),
    set: (d) => {
      t = new Date(d).getTime();
    },
    advance: (ms) => {
      t += ms;
    },
  };
};

// The context each test app was built with, so helpers that get only the app (signUpTestUser)
// can reach its database and clock.
const testContexts = new WeakMap<object, AppContext>();

/** The context a test app was built with (createTestApp), or undefined for another app. */
export const testContextOf = (app: object): AppContext | undefined => testContexts.get(app);

export const createTestApp = async (
  options: { env?: Record<string, string>; database?: DatabaseHandle; webDir?: string } = {},
) => {
  const database = options.database ?? (await createTestDatabase());
  // Tests stand in for many clients behind one proxy: X-Forwarded-For names each one.
  const config = loadServerConfig({
    APP_ENV: 'test',
    LOG_LEVEL: 'silent',
    TRUST_PROXY: 'true',
    ...options.env,
  });
  const clock = createClock();
  const ctx: AppContext = { config, database, now: clock.now };
  const app = await buildApp(ctx, { webDir: options.webDir ?? '/nonexistent' });
  await app.ready();
  testContexts.set(app, ctx);
  return {
    app,
    ctx,
    clock,
    database,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
};
