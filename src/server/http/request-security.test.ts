import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../testing/app.ts';
import { createTestDatabase } from '../testing/db.ts';
import { signUpTestUser } from '../testing/users.ts';

// Issue 11 §3 (development-only routes), §4 (trusted origins), §5 (cross-site refusal,
// no-store) and the global /api rate limit keyed by session. docs/security.md lists them.

const SECRET = 'Jx7pQ2vN9rT4wY6zB1cD3fG5hK8mL0sA';
const errorShape = { error: { code: expect.any(String), message: expect.any(String) } };

type T = Awaited<ReturnType<typeof createTestApp>>;

describe('development-only routes', () => {
  let dev: T;
  beforeAll(async () => {
    dev = await createTestApp({ env: { APP_ENV: 'development', TRUST_PROXY: 'false' } });
  });
  afterAll(async () => {
    await dev.close();
  });

  const mailbox = (t: T, options: { remoteAddress?: string; headers?: Record<string, string> } = {}) =>
    t.app.inject({ method: 'GET', url: '/api/dev/mailbox', ...options });

  it('answers a client on this machine (IPv4, IPv6, IPv4-mapped loopback)', async () => {
    for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '127.0.0.2']) {
      const res = await mailbox(dev, { remoteAddress });
      expect(res.statusCode, remoteAddress).toBe(200);
    }
    const viaVite = await mailbox(dev, { headers: { host: 'localhost:5173' } });
    expect(viaVite.statusCode).toBe(200);
  });

  it('refuses any other client with 403 in the standard shape, however it dresses up', async () => {
    const cases: [string, Parameters<typeof mailbox>[1]][] = [
      ['a LAN address', { remoteAddress: '192.168.1.20' }],
      [
        'a public address claiming loopback',
        { remoteAddress: '203.0.113.9', headers: { 'x-forwarded-for': '127.0.0.1' } },
      ],
      ['a local proxy relaying someone', { headers: { 'x-forwarded-for': '203.0.113.9' } }],
      ['a proxy chain with an outsider', { headers: { 'x-forwarded-for': '203.0.113.9, 127.0.0.1' } }],
      ['an RFC 7239 proxy', { headers: { forwarded: 'for=198.51.100.7;proto=https' } }],
      ['a tunnel', { headers: { 'cf-connecting-ip': '198.51.100.8' } }],
      ['a rebinding page', { headers: { host: 'attacker.example:3000' } }],
    ];
    for (const [what, options] of cases) {
      const res = await mailbox(dev, options);
      expect(res.statusCode, what).toBe(403);
      expect(res.json(), what).toEqual(errorShape);
      expect(res.json().error.message, what).toMatch(/only requests made on the machine running Kontor/);
    }
    const promo = await dev.app.inject({
      method: 'POST',
      url: '/api/dev/promo-codes',
      remoteAddress: '10.1.2.3',
      payload: { code: 'LANCODE1', planAccess: 'personal' },
    });
    expect(promo.statusCode).toBe(403);
    expect(await dev.database.db.selectFrom('promo_codes').selectAll().execute()).toEqual([]);
  });

  it('does not trust X-Forwarded-For even with TRUST_PROXY', async () => {
    const t = await createTestApp({ env: { APP_ENV: 'development' } });
    try {
      const spoofed = await mailbox(t, {
        remoteAddress: '203.0.113.9',
        headers: { 'x-forwarded-for': '127.0.0.1' },
      });
      expect(spoofed.statusCode).toBe(403);
      // A proxy on this machine appends the real client: refused too.
      const relayed = await mailbox(t, { headers: { 'x-forwarded-for': '127.0.0.1, 198.51.100.1' } });
      expect(relayed.statusCode).toBe(403);
    } finally {
      await t.app.close();
    }
  });

  it('does not exist in production: 404 in the standard shape, even from this machine', async () => {
    const prod = await createTestApp({
      database: dev.database,
      env: { APP_ENV: 'production', AUTH_SECRET: SECRET },
    });
    try {
      const res = await mailbox(prod);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: { code: 'not_found', message: 'No route GET /api/dev/mailbox.' } });
      const promo = await prod.app.inject({
        method: 'POST',
        url: '/api/dev/promo-codes',
        payload: { code: 'PRODCODE1', planAccess: 'personal' },
      });
      expect(promo.statusCode).toBe(404);
      expect(promo.json()).toEqual(errorShape);
    } finally {
      await prod.app.close();
    }
  });
});

describe('state-changing requests from another site', () => {
  let t: T;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const contact = (headers: Record<string, string>, ip: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/contact',
      headers: { 'x-forwarded-for': ip, ...headers },
      payload: {
        name: 'Ann Example',
        email: 'ann@example.com',
        subject: 'Hello',
        message: 'Hello there, Kontor.',
      },
    });
  const stored = async () =>
    (await t.database.db.selectFrom('contact_messages').select('id').execute()).length;

  it('refuses them with 403 in the standard shape and stores nothing', async () => {
    const before = await stored();
    const cases: Record<string, string>[] = [
      { origin: 'https://attacker.example' },
      { origin: 'http://localhost:3000.attacker.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'https://attacker.example', 'sec-fetch-site': 'same-origin' },
    ];
    for (const [i, headers] of cases.entries()) {
      const res = await contact(headers, `198.51.100.${10 + i}`);
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.json().error.code).toBe('untrusted_origin');
      expect(res.json().error.message).toMatch(/so it was refused\. Open Kontor at http:\/\/localhost:3000/);
      expect(res.headers['cache-control']).toBe('no-store');
    }
    expect(await stored()).toBe(before);
  });

  it('lets through same-origin, trusted and header-less (curl) requests', async () => {
    const cases: Record<string, string>[] = [
      {},
      { origin: 'http://localhost:3000', 'sec-fetch-site': 'same-origin' },
      { origin: 'http://localhost' }, // the request's own address (inject's Host: localhost:80)
      { 'sec-fetch-site': 'none' },
    ];
    for (const [i, headers] of cases.entries()) {
      const res = await contact(headers, `198.51.100.${40 + i}`);
      expect(res.statusCode, JSON.stringify(headers)).toBe(201);
    }
  });

  it('guards every /api route and every state-changing method, signed in or not', async () => {
    const owner = await signUpTestUser(t.app);
    const evil = { origin: 'https://attacker.example', cookie: owner.cookie };
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      for (const url of ['/api/orgs', '/api/me/profile', '/api/auth/sign-out', '/api/nope']) {
        const res = await t.app.inject({ method, url, headers: evil, payload: {} });
        expect(res.statusCode, `${method} ${url}`).toBe(403);
        expect(res.json(), `${method} ${url}`).toMatchObject({ error: { code: 'untrusted_origin' } });
      }
    }
    const orgs = await t.database.db.selectFrom('organizations').select('id').execute();
    expect(orgs).toEqual([]);
    // Reading is not changing: a cross-site GET gets its normal answer (CORS keeps it unreadable).
    const read = await t.app.inject({ method: 'GET', url: '/api/me/profile', headers: evil });
    expect(read.statusCode).toBe(200);
  });
});

describe('Cache-Control on API answers', () => {
  it('is no-store on every /api answer, errors included, and left alone outside /api', async () => {
    const t = await createTestApp({ webDir: undefined });
    try {
      for (const url of ['/api/health', '/api/nope', '/api/openapi.json', '/api/orgs']) {
        const res = await t.app.inject({ method: 'GET', url });
        expect(res.headers['cache-control'], url).toBe('no-store');
      }
      const page = await t.app.inject({ method: 'GET', url: '/dashboard' });
      expect(page.headers['cache-control']).not.toBe('no-store');
      // The security headers stay (helmet).
      const health = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(health.headers['x-content-type-options']).toBe('nosniff');
      expect(health.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    } finally {
      await t.close();
    }
  });
});

describe('global /api rate limit', () => {
  it('keys signed-in calls by session and anonymous ones by address, answering 429 with Retry-After', async () => {
    const t = await createTestApp({
      env: { API_LIMIT_PER_MINUTE: '5', API_ANONYMOUS_LIMIT_PER_MINUTE: '3' },
    });
    try {
      const office = '192.0.2.50';
      const ann = await signUpTestUser(t.app);
      const bob = await signUpTestUser(t.app);
      const get = (ip: string, cookie?: string) =>
        t.app.inject({
          method: 'GET',
          url: '/api/me/profile',
          headers: { 'x-forwarded-for': ip, ...(cookie ? { cookie } : {}) },
        });
      for (let i = 0; i < 5; i++) expect((await get(office, ann.cookie)).statusCode).toBe(200);
      const limited = await get(office, ann.cookie);
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toMatchObject({ error: { code: 'rate_limited' } });
      expect(limited.json().error.message).toMatch(/Too many requests/);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.headers['cache-control']).toBe('no-store');
      // Another address does not give Ann a new budget: the key is her session.
      expect((await get('192.0.2.99', ann.cookie)).statusCode).toBe(429);
      // Bob, behind the same office address, has his own.
      for (let i = 0; i < 5; i++) expect((await get(office, bob.cookie)).statusCode).toBe(200);
      // Anonymous visitors from the office share the address budget, untouched by Ann and Bob.
      for (let i = 0; i < 3; i++) expect((await get(office)).statusCode).toBe(401);
      expect((await get(office)).statusCode).toBe(429);
      // A made-up session cookie (even a well-formed one) earns no fresh budget.
      const forged = `better-auth.session_token=${'a'.repeat(32)}.${'b'.repeat(43)}=`;
      expect((await get(office, forged)).statusCode).toBe(429);
      const tampered = ann.cookie.replace(/session_token=([^.;]*)/, 'session_token=$1x');
      expect((await get(office, tampered)).statusCode).toBe(429);
    } finally {
      await t.close();
    }
  });

  it('behind a proxy, keys anonymous calls by the address the proxy saw, not what the client wrote', async () => {
    const t = await createTestApp({ env: { API_ANONYMOUS_LIMIT_PER_MINUTE: '3', TRUST_PROXY: 'true' } });
    try {
      // The proxy appends the real client (192.0.2.70); the client made up the entry before it.
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await t.app.inject({
          method: 'GET',
          url: '/api/me/profile',
          headers: { 'x-forwarded-for': `203.0.113.${i}, 192.0.2.70` },
        });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
    } finally {
      await t.close();
    }
  });

  it("lets a signed-in office's dashboard bursts through in production", async () => {
    const t = await createTestApp({ env: { APP_ENV: 'production', AUTH_SECRET: SECRET } });
    try {
      const ann = await signUpTestUser(t.app);
      // 150 calls a minute from one address: more than the old 100-per-address cap.
      const answers = await Promise.all(
        Array.from({ length: 150 }, () =>
          t.app.inject({
            method: 'GET',
            url: '/api/me/profile',
            headers: { 'x-forwarded-for': '192.0.2.60', cookie: ann.cookie },
          }),
        ),
      );
      expect(answers.filter((r) => r.statusCode !== 200)).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

describe('sign-up at every address a development server is served at (issue 11 §4)', () => {
  const signUp = (t: T, origin: string, n: number, host?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: { origin, 'x-forwarded-for': `198.18.0.${n}`, ...(host ? { host } : {}) },
      payload: {
        email: `origin-${n}-${Date.now()}@example.com`,
        password: 'Quiet-River-71',
        name: 'Ori Gin',
      },
    });

  it('works from http://127.0.0.1:PORT, http://[::1]:PORT and localhost in development', async () => {
    const t = await createTestApp({ env: { APP_ENV: 'development', PORT: '4123' } });
    try {
      for (const [i, origin] of [
        'http://127.0.0.1:4123',
        'http://[::1]:4123',
        'http://localhost:4123',
        'http://localhost:5173',
      ].entries()) {
        const res = await signUp(t, origin, i + 1);
        expect(res.statusCode, `${origin}: ${res.body}`).toBe(200);
      }
      const other = await signUp(t, 'http://127.0.0.1:9999', 9);
      expect(other.statusCode).toBe(403);
    } finally {
      await t.close();
    }
  });

  it('trusts only PUBLIC_URL (and CORS_ORIGINS) in production, even on the same host', async () => {
    const database = await createTestDatabase();
    const t = await createTestApp({
      database,
      env: {
        APP_ENV: 'production',
        AUTH_SECRET: SECRET,
        PORT: '4123',
        PUBLIC_URL: 'https://books.acme.example',
        CORS_ORIGINS: 'https://admin.acme.example',
      },
    });
    try {
      expect((await signUp(t, 'https://books.acme.example', 20)).statusCode).toBe(200);
      expect((await signUp(t, 'https://admin.acme.example', 21)).statusCode).toBe(200);
      const loopback = await signUp(t, 'http://127.0.0.1:4123', 22);
      expect(loopback.statusCode).toBe(403);
      expect(loopback.json().error.code).toBe('untrusted_origin');
      // Opened at the server's own address but not PUBLIC_URL: the auth library refuses it.
      const sameHost = await signUp(t, 'http://127.0.0.1:4123', 23, '127.0.0.1:4123');
      expect(sameHost.statusCode).toBe(403);
      expect(sameHost.json().code).toBe('INVALID_ORIGIN');
    } finally {
      await t.close();
    }
  });
});
