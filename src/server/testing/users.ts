import type { App } from '../app.ts';
import { TRIAL_DAYS } from '../../shared/plans.ts';
import type { Executor } from '../db/transaction.ts';
import { testContextOf } from './app.ts';

// Signs a user up through the real auth routes and returns the session cookie, for
// integration tests of routes that need a signed-in user.

let counter = 0;

/** A distinct client address per test user (10.x.y.z). */
export const testClientIp = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

export type TestUser = { id: string; email: string; password: string; cookie: string; verified?: boolean };

export const cookieFrom = (setCookie: string | string[] | undefined) =>
  (Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [])
    .map((c) => c.split(';')[0])
    .join('; ');

export const signUpTestUser = async (
  app: App,
  overrides: {
    email?: string;
    password?: string;
    name?: string;
    profile?: Record<string, unknown>;
    /** Open the confirmation link from the sign-up mail right away. */
    verified?: boolean;
    /** 'trial' keeps the plain 14-day trial a real sign-up gets; default: see grantTestPlan. */
    billing?: TestBilling;
  } = {},
): Promise<TestUser> => {
  counter += 1;
  const email = overrides.email ?? `user${counter}-${Date.now().toString(36)}@example.com`;
  const password = overrides.password ?? 'Correct-Horse-9';
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/sign-up/email',
    // Each test user signs up from its own address, as real users do, so the per-IP auth
    // rate limits apply to each as they would in production.
    headers: { origin: 'http://localhost:3000', 'x-forwarded-for': testClientIp(counter) },
    payload: {
      email,
      password,
      name: overrides.name ?? 'Test User',
      ...(overrides.profile ? { profile: overrides.profile } : {}),
    },
  });
  if (res.statusCode !== 200) throw new Error(`sign-up failed: ${res.statusCode} ${res.body}`);
  const body = res.json() as { user: { id: string } };
  const user: TestUser = { id: body.user.id, email, password, cookie: cookieFrom(res.headers['set-cookie']) };
  if (overrides.billing !== 'trial') {
    const ctx = testContextOf(app);
    if (ctx) await grantTestPlan(ctx.database.db, user.id, ctx.now());
  }
  return overrides.verified ? verifyTestUser(app, user) : user;
};

/**
 * How a test user's billing account starts: 'granted' (the default) with Enterprise granted
 * without end, 'trial' with the 14-day trial of a real sign-up. Why a grant: since issue 16 a
 * trial ends after 14 days and the account turns read-only (402 on every change), and plan
 * limits apply (companies, members, invoices a month, storage). Many tests move the clock
 * weeks or months ahead (overdue invoices, recurring runs, aging) or make several companies,
 * and they test those features, not billing; billing's own tests ask for { billing: 'trial' }.
 */
export type TestBilling = 'granted' | 'trial';

/** Gives a user Enterprise without end (a plan-access grant), making the billing row if needed. */
export const grantTestPlan = async (db: Executor, userId: string, now: Date) => {
  await db
    .insertInto('billing_accounts')
    .values({
      user_id: userId,
      plan: 'business',
      interval: 'monthly',
      status: 'trialing',
      trial_ends_at: new Date(now.getTime() + TRIAL_DAYS * 86_400_000),
      granted_plan: 'enterprise',
      granted_until: null,
    })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ granted_plan: 'enterprise', granted_until: null }))
    .execute();
};

/** The confirmation link of the newest verification mail to an address (development mailbox). */
export const verificationLinkFor = async (app: App, email: string) => {
  const list = await app.inject({ method: 'GET', url: `/api/dev/mailbox?to=${encodeURIComponent(email)}` });
  const messages = (list.json() as { messages: { id: string; subject: string }[] }).messages;
  const mail = messages.find((m) => m.subject === 'Confirm your email address for Kontor');
  if (!mail) throw new Error(`no verification mail to ${email}`);
  const one = await app.inject({ method: 'GET', url: `/api/dev/mailbox/${mail.id}` });
  const match = /https?:\/\/\S+\/api\/auth\/verify-email\?\S+/.exec((one.json() as { text: string }).text);
  if (!match) throw new Error(`no verification link in the mail to ${email}`);
  const url = new URL(match[0]);
  return `${url.pathname}${url.search}`;
};

/**
 * Verifies a test user's address the way the user does: opens the link from the mail
 * Kontor sent at sign-up (through the development mailbox), nothing written behind the API.
 */
export const verifyTestUser = async <U extends { email: string; verified?: boolean }>(app: App, user: U) => {
  if (user.verified) return user;
  const res = await app.inject({ method: 'GET', url: await verificationLinkFor(app, user.email) });
  if (res.statusCode !== 302 && res.statusCode !== 200) {
    throw new Error(`verification failed: ${res.statusCode} ${res.body}`);
  }
  const location = String(res.headers.location ?? '');
  if (location.includes('error=')) throw new Error(`verification refused: ${location}`);
  user.verified = true;
  return user;
};
