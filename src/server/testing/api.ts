import { afterAll, beforeAll, expect } from 'vitest';
import type { App } from '../app.ts';
import { createTestApp } from './app.ts';
import { type TestCompany, createTestCompany } from './companies.ts';
import type { TestUser } from './users.ts';

// Requests to a company's routes as a signed-in member, and the per-file set-up most route
// tests start with (a fresh app and one company), so each test file does not write its own.

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;
export type TestMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
export type TestAnswer = { status: number; body: any };

/** One request to `/api/orgs/<company><url>` as `user` (the owner by default); the JSON body parsed. */
export const callCompanyRoute = async (
  app: App,
  company: TestCompany,
  method: TestMethod,
  url: string,
  payload?: unknown,
  user: TestUser = company.owner,
): Promise<TestAnswer> => {
  const res = await app.inject({
    method,
    url: `/api/orgs/${company.id}${url}`,
    headers: { cookie: user.cookie },
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
  return { status: res.statusCode, body: res.body ? res.json() : undefined };
};

/** As `callCompanyRoute`, for a request that must succeed: throws with the answer on a status of 300 or more. */
export const okCompanyRoute = async <T = any>(
  app: App,
  company: TestCompany,
  method: TestMethod,
  url: string,
  payload?: unknown,
): Promise<T> => {
  const res = await callCompanyRoute(app, company, method, url, payload);
  if (res.status >= 300) throw new Error(`${method} ${url} → ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as T;
};

/**
 * `call`/`ok` for a file that makes its app in beforeAll and talks to several companies:
 * `const { call, ok } = companyCalls(() => t.app)`.
 */
export const companyCalls = (app: () => App) => ({
  call: (company: TestCompany, method: TestMethod, url: string, payload?: unknown, user?: TestUser) =>
    callCompanyRoute(app(), company, method, url, payload, user),
  ok: <T = any>(company: TestCompany, method: TestMethod, url: string, payload?: unknown) =>
    okCompanyRoute<T>(app(), company, method, url, payload),
});

/** A refused request: its status and error code (the answer is shown when the status is not). */
export const expectRefusal = (res: TestAnswer, status: number, code: string) => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.code).toBe(code);
};

/** Posts a file the way the web page does: multipart/form-data with the file's raw bytes and the fields. */
export const uploadToCompanyRoute = async (
  app: App,
  company: TestCompany,
  url: string,
  fields: Record<string, string>,
  file: { name: string; bytes: Uint8Array },
): Promise<TestAnswer> => {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(file.bytes)]), file.name);
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  const res = await app.inject({
    method: 'POST',
    url: `/api/orgs/${company.id}${url}`,
    headers: { cookie: company.owner.cookie, 'content-type': request.headers.get('content-type')! },
    payload: Buffer.from(await request.arrayBuffer()),
  });
  return { status: res.statusCode, body: res.body ? res.json() : undefined };
};

export type TestCompanyFixture = {
  /** The app, its database and clock (set in beforeAll). */
  t: TestApp;
  /** The company and its signed-in owner (set in beforeAll). */
  company: TestCompany;
  call: (method: TestMethod, url: string, payload?: unknown) => Promise<TestAnswer>;
  ok: <T = any>(method: TestMethod, url: string, payload?: unknown) => Promise<T>;
  upload: (
    url: string,
    fields: Record<string, string>,
    file: { name: string; bytes: Uint8Array },
  ) => Promise<TestAnswer>;
};

/**
 * Registers this file's beforeAll/afterAll: a fresh test app (its clock set to `now` when
 * given) and one company; the fixture's `t` and `company` are set once beforeAll has run, and
 * `call`/`ok`/`upload` send requests to that company's routes as its owner.
 */
export const setUpTestCompany = (options: { now?: string } = {}): TestCompanyFixture => {
  const fixture: TestCompanyFixture = {
    t: undefined as unknown as TestApp,
    company: undefined as unknown as TestCompany,
    call: (method, url, payload) => callCompanyRoute(fixture.t.app, fixture.company, method, url, payload),
    ok: (method, url, payload) => okCompanyRoute(fixture.t.app, fixture.company, method, url, payload),
    upload: (url, fields, file) => uploadToCompanyRoute(fixture.t.app, fixture.company, url, fields, file),
  };
  beforeAll(async () => {
    fixture.t = await createTestApp();
    if (options.now) fixture.t.clock.set(options.now);
    fixture.company = await createTestCompany(fixture.t.app);
  });
  afterAll(async () => {
    await fixture.t?.close();
  });
  return fixture;
};
