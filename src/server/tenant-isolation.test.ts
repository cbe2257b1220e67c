import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notify } from './modules/notifications/service.ts';
import { callWithApiKey, createTestApiKey } from './testing/api-keys.ts';
import { createTestApp } from './testing/app.ts';
import { type TestCompany, createTestCompany } from './testing/companies.ts';
import { seedTestPayables } from './testing/payables-seed.ts';
import { verifyTestUser } from './testing/users.ts';

// Walks every /api route registered on the app and proves that a member of company A gets
// 403 or 404 — never data — for company B's resources. A new route must either live under
// /api/orgs/:organizationId (and so pass the permission guard) or be named below as a route
// that holds no company data.

const NOT_COMPANY_DATA = new Set([
  'GET /api/health',
  'GET /api/openapi.json',
  'GET /api/orgs',
  'POST /api/orgs',
  'GET /api/me/invitations',
  'POST /api/invitations/:invitationId/:answer',
  'GET /api/me/profile',
  'PATCH /api/me/profile',
  // The signed-in user's own photo, notifications, sign-in history and push subscriptions:
  // no user id in the path, the user is the session's (walked below, "keeps one user's own
  // things to themselves").
  'PUT /api/me/profile/photo',
  'GET /api/me/profile/photo',
  'DELETE /api/me/profile/photo',
  'GET /api/me/notifications',
  'GET /api/me/notifications/unread-count',
  'POST /api/me/notifications/read-all',
  'POST /api/me/notifications/:id/read',
  'GET /api/me/sign-ins',
  'GET /api/me/push/config',
  'POST /api/me/push/subscriptions',
  'POST /api/me/push/unsubscribe',
  'POST /api/promo-codes/validate',
  'POST /api/promo-codes/redeem',
  'POST /api/contact',
  // Billing's routes answer for the signed-in user's own account (walked below, "keeps one
  // account's billing to itself"); the webhook is Stripe's, verified by its signature.
  'GET /api/billing',
  'POST /api/billing/checkout',
  'POST /api/billing/portal',
  'POST /api/billing/change',
  'POST /api/billing/cancel',
  'POST /api/billing/resume',
  'GET /api/billing/invoices',
  'GET /api/billing/invoices/:id/pdf',
  'GET /api/billing/checkout-sessions/:id',
  'POST /api/billing/checkout-sessions/:id/pay',
  'POST /api/billing/checkout-sessions/:id/authenticate',
  'POST /api/billing/payment-method',
  'POST /api/billing/webhook',
  // Plaid's webhook: verified by its Plaid-Verification JWT, acts on the item it names.
  'POST /api/plaid/webhook',
  'GET /api/admin/me',
]);

/** The platform admin console: every route answers 403 to anyone who is not a platform admin. */
const isAdminConsole = (url: string) => url.startsWith('/api/admin/') && url !== '/api/admin/me';

const TEST_CARD = { cardNumber: '4242 4242 4242 4242', expiry: '12/30', cvc: '123' };

const isInfrastructure = (url: string) =>
  !url.startsWith('/api') ||
  url.startsWith('/api/docs') ||
  url.startsWith('/api/auth/') ||
  url.startsWith('/api/dev/');

const collectIds = (value: unknown, into: Set<string>) => {
  if (typeof value === 'string' && /^[0-9a-f-]{36}$/i.test(value)) into.add(value);
  else if (Array.isArray(value)) for (const v of value) collectIds(v, into);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) collectIds(v, into);
};

describe('tenant isolation over every route', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let a: TestCompany;
  let b: TestCompany;
  let routes: { method: string; url: string }[];
  const idsOfB = new Set<string>();

  beforeAll(async () => {
    t = await createTestApp();
    a = await createTestCompany(t.app, { name: 'Company A' });
    b = await createTestCompany(t.app, { name: 'Company B' });
    // A verified owner, so routes that mail (invoice email, invitations) reach their lookups
    // instead of stopping at the verified-sender check.
    await verifyTestUser(t.app, a.owner);
    // B holds one of every payables resource, so its lists hand the walk real ids of each kind.
    await seedTestPayables(t.app, t.database, b);
    routes = t.app.registeredRoutes.filter(
      (r) => r.method !== 'HEAD' && r.method !== 'OPTIONS' && !isInfrastructure(r.url),
    );
    // Harvest B's resource ids from every list B's owner can read.
    for (const r of routes) {
      if (r.method !== 'GET' || !r.url.startsWith('/api/orgs/:organizationId')) continue;
      if ((r.url.match(/:/g) ?? []).length !== 1) continue;
      const res = await t.app.inject({
        method: 'GET',
        url: r.url.replace(':organizationId', b.id),
        headers: { cookie: b.owner.cookie },
      });
      if (res.statusCode === 200 && String(res.headers['content-type'] ?? '').includes('json'))
        collectIds(res.json(), idsOfB);
    }
    idsOfB.delete(b.owner.id);
  });
  afterAll(async () => {
    await t.close();
  });

  it('knows every route: each is company-scoped or named as holding no company data', () => {
    const unknown = routes
      .filter(
        (r) =>
          !r.url.startsWith('/api/orgs/:organizationId') &&
          !NOT_COMPANY_DATA.has(`${r.method} ${r.url}`) &&
          !isAdminConsole(r.url),
      )
      .map((r) => `${r.method} ${r.url}`);
    expect(unknown).toEqual([]);
  });

  /** A request by A's owner, with an empty body where the method takes one. */
  const asOwnerOfA = (method: string, url: string) =>
    t.app.inject({
      method: method as 'GET',
      url,
      headers: { cookie: a.owner.cookie },
      payload: method === 'GET' || method === 'DELETE' ? undefined : {},
    });

  it("refuses a member of A every company route of B's", async () => {
    const leaks: string[] = [];
    for (const r of routes.filter((x) => x.url.startsWith('/api/orgs/:organizationId'))) {
      const someId = [...idsOfB][0] ?? randomUUID();
      const url = r.url.replace(':organizationId', b.id).replace(/:[A-Za-z]+/g, someId);
      const res = await asOwnerOfA(r.method, url);
      if (![403, 404].includes(res.statusCode)) leaks.push(`${r.method} ${r.url} answered ${res.statusCode}`);
      if (res.body.includes(b.id)) leaks.push(`${r.method} ${r.url} mentioned company B`);
    }
    expect(leaks).toEqual([]);
  });

  it("refuses an API key of A's every company route of B's, whatever its scopes", async () => {
    const { secret } = await createTestApiKey(t.app, a, ['read', 'write']);
    const leaks: string[] = [];
    for (const r of routes.filter((x) => x.url.startsWith('/api/orgs/:organizationId'))) {
      const someId = [...idsOfB][0] ?? randomUUID();
      const url = r.url.replace(':organizationId', b.id).replace(/:[A-Za-z]+/g, someId);
      const res = await callWithApiKey(
        t.app,
        secret,
        r.method as 'GET',
        url,
        r.method === 'GET' || r.method === 'DELETE' ? undefined : {},
      );
      if (![403, 404].includes(res.status)) leaks.push(`${r.method} ${r.url} answered ${res.status}`);
      if (JSON.stringify(res.body ?? '').includes(b.id))
        leaks.push(`${r.method} ${r.url} mentioned company B`);
    }
    expect(leaks).toEqual([]);
  });

  it('refuses a read-only API key every change route of its own company, and opens its reads', async () => {
    const { secret } = await createTestApiKey(t.app, a, ['read']);
    const open: string[] = [];
    const someId = randomUUID();
    for (const r of routes.filter((x) => x.url.startsWith('/api/orgs/:organizationId'))) {
      const url = r.url.replace(':organizationId', a.id).replace(/:[A-Za-z]+/g, someId);
      if (r.method === 'GET') {
        // A read reaches its route: never refused for want of a scope (only the routes that
        // manage members, keys or secrets, closed to every key, answer api_key_not_allowed).
        const res = await callWithApiKey(t.app, secret, 'GET', url);
        const code = (res.body as { error?: { code?: string } } | undefined)?.error?.code;
        if (res.status === 401 || (res.status === 403 && code !== 'api_key_not_allowed'))
          open.push(`GET ${r.url} refused a read key: ${res.status} ${JSON.stringify(res.body)}`);
        continue;
      }
      const res = await callWithApiKey(
        t.app,
        secret,
        r.method as 'POST',
        url,
        r.method === 'DELETE' ? undefined : {},
      );
      if (res.status !== 403) open.push(`${r.method} ${r.url} answered ${res.status} to a read-only key`);
    }
    expect(open).toEqual([]);
  });

  it("never shows B's resources through A's own company routes", { timeout: 400_000 }, async () => {
    const leaks: string[] = [];
    const withIds = routes.filter(
      (x) => x.url.startsWith('/api/orgs/:organizationId') && (x.url.match(/:/g) ?? []).length > 1,
    );
    for (const r of withIds) {
      for (const id of idsOfB.size ? idsOfB : new Set([randomUUID()])) {
        const url = r.url.replace(':organizationId', a.id).replace(/:[A-Za-z]+/g, id);
        const res = await asOwnerOfA(r.method, url);
        if (res.statusCode < 300 && [...idsOfB].some((bId) => res.body.includes(bId))) {
          leaks.push(`${r.method} ${r.url} with B's id ${id} answered ${res.statusCode} with B's data`);
        }
      }
    }
    expect(leaks).toEqual([]);
  });

  it('keeps the admin console to platform admins: 403 for a company owner, 401 signed out', async () => {
    const open: string[] = [];
    for (const r of routes.filter((x) => isAdminConsole(x.url))) {
      const url = r.url.replace(/:[A-Za-z]+/g, b.owner.id);
      const asOwner = await asOwnerOfA(r.method, url);
      if (asOwner.statusCode !== 403)
        open.push(`${r.method} ${r.url} answered ${asOwner.statusCode} to an owner`);
      const signedOut = await t.app.inject({
        method: r.method as 'GET',
        url,
        payload: r.method === 'GET' ? undefined : {},
      });
      if (signedOut.statusCode !== 401)
        open.push(`${r.method} ${r.url} answered ${signedOut.statusCode} signed out`);
    }
    expect(open).toEqual([]);
  });

  it("keeps one account's billing to itself: B's checkout and invoices are 404 to A", async () => {
    const asUser = (cookie: string, method: string, url: string, payload?: object) =>
      t.app.inject({ method: method as 'GET', url, headers: { cookie }, payload });
    // B opens a checkout and leaves it open, then subscribes through a second one, which
    // leaves a paid invoice.
    const open = await asUser(b.owner.cookie, 'POST', '/api/billing/checkout', {
      plan: 'enterprise',
      interval: 'yearly',
    });
    const openId = new URL(open.json().url, 'http://x').searchParams.get('checkout')!;
    const paid = await asUser(b.owner.cookie, 'POST', '/api/billing/checkout', {
      plan: 'business',
      interval: 'monthly',
    });
    expect(paid.statusCode).toBe(200);
    const paidId = new URL(paid.json().url, 'http://x').searchParams.get('checkout')!;
    const pay = await asUser(
      b.owner.cookie,
      'POST',
      `/api/billing/checkout-sessions/${paidId}/pay`,
      TEST_CARD,
    );
    expect(pay.json().status).toBe('complete');
    const invoices = (await asUser(b.owner.cookie, 'GET', '/api/billing/invoices')).json().invoices as {
      id: string;
    }[];
    expect(invoices.length).toBeGreaterThan(0);

    const leaks: string[] = [];
    const tries: [string, string, object?][] = [
      ['GET', `/api/billing/checkout-sessions/${openId}`],
      ['POST', `/api/billing/checkout-sessions/${openId}/pay`, TEST_CARD],
      ['POST', `/api/billing/checkout-sessions/${openId}/authenticate`, { approve: true }],
      ['GET', `/api/billing/checkout-sessions/${paidId}`],
      ...invoices.map((invoice): [string, string] => ['GET', `/api/billing/invoices/${invoice.id}/pdf`]),
    ];
    for (const [method, url, body] of tries) {
      const res = await asUser(a.owner.cookie, method, url, body);
      if (res.statusCode !== 404) leaks.push(`${method} ${url} answered ${res.statusCode} to A`);
    }
    const aInvoices = await asUser(a.owner.cookie, 'GET', '/api/billing/invoices');
    for (const invoice of invoices)
      if (aInvoices.body.includes(invoice.id)) leaks.push(`A's invoices list ${invoice.id}`);
    const aOverview = await asUser(a.owner.cookie, 'GET', '/api/billing');
    expect(aOverview.json().hasSubscription).toBe(false);
    // B's open checkout is still open: A's tries changed nothing.
    const still = await asUser(b.owner.cookie, 'GET', `/api/billing/checkout-sessions/${openId}`);
    expect(still.json().status).toBe('open');
    expect(leaks).toEqual([]);
  });

  it("keeps one user's own things to themselves: B's photo, notifications and sign-ins never reach A", async () => {
    const asUser = (cookie: string, method: string, url: string) =>
      t.app.inject({ method: method as 'GET', url, headers: { cookie } });
    // B has a photo and a notification; A has neither.
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    const boundary = 'isolation-boundary';
    const upload = await t.app.inject({
      method: 'PUT',
      url: '/api/me/profile/photo',
      headers: { cookie: b.owner.cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="b.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        png,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
    expect(upload.statusCode).toBe(200);
    await notify(
      t.ctx,
      t.database.db,
      {
        kind: 'payment_received',
        organizationId: b.id,
        title: "B's payment",
        body: 'Only for B',
        link: '/invoices',
        dedupeKey: 'isolation-walk',
      },
      [b.owner.id],
    );
    const bList = (await asUser(b.owner.cookie, 'GET', '/api/me/notifications')).json();
    const bNotification = bList.notifications[0]?.id;
    expect(typeof bNotification).toBe('string');

    const leaks: string[] = [];
    const photo = await asUser(a.owner.cookie, 'GET', '/api/me/profile/photo');
    if (photo.statusCode !== 404) leaks.push(`A's photo answered ${photo.statusCode}`);
    const read = await asUser(a.owner.cookie, 'POST', `/api/me/notifications/${bNotification}/read`);
    if (read.statusCode !== 404) leaks.push(`marking B's notification read answered ${read.statusCode} to A`);
    for (const url of ['/api/me/notifications', '/api/me/notifications/unread-count', '/api/me/sign-ins']) {
      const res = await asUser(a.owner.cookie, 'GET', url);
      if (
        res.body.includes(bNotification) ||
        res.body.includes("B's payment") ||
        res.body.includes(b.owner.id)
      )
        leaks.push(`${url} showed B's data to A`);
    }
    const unreadOf = async (cookie: string) =>
      (await asUser(cookie, 'GET', '/api/me/notifications/unread-count')).json().unread;
    const aUnread = await unreadOf(a.owner.cookie);
    // A's tries changed nothing of B's: the notification is still unread, the photo still there.
    expect(await unreadOf(b.owner.cookie)).toBeGreaterThan(0);
    if (aUnread > 0) {
      const aList = (await asUser(a.owner.cookie, 'GET', '/api/me/notifications')).json();
      if (aList.notifications.some((n: { title: string }) => n.title === "B's payment"))
        leaks.push("A's unread count includes B's notification");
    }
    expect((await asUser(b.owner.cookie, 'GET', '/api/me/profile/photo')).statusCode).toBe(200);
    expect(leaks).toEqual([]);
  });
});
