import type { App } from '../app.ts';

// Signs a user up through the real auth routes and returns the session cookie, for
// integration tests of routes that need a signed-in user.

let counter = 0;

/** A distinct client address per test user (10.x.y.z). */
export const testClientIp = (n: number) => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

export type TestUser = { id: string; email: string; password: string; cookie: string };

export const cookieFrom = (setCookie: string | string[] | undefined) =>
  (Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [])
    .map((c) => c.split(';')[0])
    .join('; ');

export const signUpTestUser = async (
  app: App,
  overrides: { email?: string; password?: string; name?: string; profile?: Record<string, unknown> } = {},
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
  return { id: body.user.id, email, password, cookie: cookieFrom(res.headers['set-cookie']) };
};
