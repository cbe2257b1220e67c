import webPush from 'web-push';
import { beforeAll, describe, expect, it } from 'vitest';
import { authPost, mailsTo } from '../../testing/auth-helpers.ts';
import { addTestMember, createTestCompany, type TestCompany } from '../../testing/companies.ts';
import { createTestApp } from '../../testing/app.ts';
import { api, setUpTestInvoicing } from '../../testing/invoices.ts';
import { signUpTestUser, type TestUser } from '../../testing/users.ts';
import { runOverdueInvoiceCheck } from './overdue.ts';
import { notify } from './service.ts';
import { deviceLabel } from './sign-ins.ts';

// Notifications through the HTTP API and the services: the profile's matrix decides the bell
// and the email, a dedupe key notifies once, a user sees only their own, a company event
// reaches that company's acting members only, the overdue runner notifies once per invoice, and
// the sign-in history decides "new device".

const fixture = setUpTestInvoicing({ name: 'Notify Co', now: '2026-03-10T12:00:00Z' });
let accountant: TestUser;
let viewer: TestUser;
let other: TestCompany;

const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';
const SAFARI_IOS =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

const as = (cookie: string) => ({
  call: async (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: unknown) => {
    const res = await fixture.t.app.inject({
      method,
      url: `/api${url}`,
      headers: { cookie, origin: 'http://localhost:3000' },
      ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
    });
    return { status: res.statusCode, body: res.body ? res.json() : null };
  },
});

const list = async (user: TestUser, query = '') => {
  const res = await as(user.cookie).call('GET', `/me/notifications${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as {
    notifications: { id: string; kind: string; title: string; readAt: string | null; link: string }[];
    nextCursor: string | null;
  };
};
const kinds = async (user: TestUser) => (await list(user, '?limit=100')).notifications.map((n) => n.kind);
const unread = async (user: TestUser) =>
  (await as(user.cookie).call('GET', '/me/notifications/unread-count')).body.unread as number;
const subjects = async (user: TestUser) => (await mailsTo(fixture.t.app, user.email)).map((m) => m.subject);
const setMatrix = async (user: TestUser, notifications: Record<string, Record<string, boolean>>) => {
  const res = await as(user.cookie).call('PATCH', '/me/profile', { preferences: { notifications } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};
const rowsOf = (userId: string) =>
  fixture.t.database.db.selectFrom('notifications').selectAll().where('user_id', '=', userId).execute();

const sentInvoice = async (issueDate = '2026-03-01') => {
  const d = await fixture.client.post('/invoices', {
    customerId: fixture.fx.customerId,
    issueDate,
    lines: [{ description: 'Audit', quantity: '1', unitPrice: 100_00 }],
  });
  expect(d.status, JSON.stringify(d.body)).toBe(201);
  const s = await fixture.client.post(`/invoices/${d.body.id}/send`);
  expect(s.status, JSON.stringify(s.body)).toBe(200);
  return s.body as { id: string; number: string; total: number };
};
const pay = async (invoiceId: string, amount: number, headers?: Record<string, string>) => {
  const res = await fixture.client.post(
    `/invoices/${invoiceId}/payments`,
    { date: '2026-03-05', amount, depositAccountId: fixture.fx.bankId },
    headers,
  );
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return res.body as { paymentId: string };
};

beforeAll(async () => {
  accountant = await addTestMember(fixture.t.app, fixture.company, 'accountant');
  viewer = await addTestMember(fixture.t.app, fixture.company, 'viewer');
  other = await createTestCompany(fixture.t.app, { name: 'Elsewhere Ltd' });
}, 60_000);

describe('company events and the matrix', () => {
  it('a payment notifies the acting members of that company only, each as their matrix says', async () => {
    const owner = fixture.company.owner;
    const inv = await sentInvoice();
    const ownerMailsBefore = (await subjects(owner)).length;
    await pay(inv.id, 40_00);
    // Defaults: push on for payments, so a bell item; email on for payments.
    expect(await kinds(owner)).toEqual(['payment_received']);
    expect(await kinds(accountant)).toEqual(['payment_received']);
    expect(await subjects(owner)).toContain('Payment received: $40.00');
    expect((await subjects(owner)).length).toBe(ownerMailsBefore + 1);
    // A viewer acts on nothing, another company's owner is another company.
    expect(await rowsOf(viewer.id)).toHaveLength(0);
    expect(await rowsOf(other.owner.id)).toHaveLength(0);
    expect(await kinds(other.owner)).toEqual([]);

    // Paying the rest: "paid" is an invoices event, push off by default → email only, no bell item.
    await pay(inv.id, inv.total - 40_00);
    expect(await kinds(owner)).toEqual(['payment_received', 'payment_received']);
    expect(await subjects(owner)).toContain(`Invoice ${inv.number} is paid`);
    const paidRow = (await rowsOf(owner.id)).find((r) => r.kind === 'invoice_paid');
    expect(paidRow).toMatchObject({ in_app: false, emailed: true });
    expect((await list(owner)).notifications[0]!.link).toBe(`/invoices?invoice=${inv.id}`);
  });

  it('email off → no mail; push off → no bell item', async () => {
    const owner = fixture.company.owner;
    await setMatrix(owner, { email: { payments: false } });
    const mailsBefore = await subjects(owner);
    const bellBefore = (await kinds(owner)).length;
    const inv = await sentInvoice();
    await pay(inv.id, 10_00);
    expect(await subjects(owner)).toEqual(mailsBefore);
    expect((await kinds(owner)).length).toBe(bellBefore + 1);

    await setMatrix(owner, { push: { payments: false }, email: { payments: true } });
    await pay(inv.id, 10_00);
    expect((await kinds(owner)).length).toBe(bellBefore + 1);
    expect((await subjects(owner)).length).toBe(mailsBefore.length + 1);
    // The accountant kept the defaults and got both payments in the bell.
    expect((await kinds(accountant)).filter((k) => k === 'payment_received').length).toBe(4);

    await setMatrix(owner, { push: { payments: true } });
  });

  it('a replayed payment (same Idempotency-Key) notifies nobody twice', async () => {
    const inv = await sentInvoice();
    const before = (await rowsOf(accountant.id)).length;
    await pay(inv.id, 5_00, { 'idempotency-key': 'notify-replay-1' });
    await pay(inv.id, 5_00, { 'idempotency-key': 'notify-replay-1' });
    expect((await rowsOf(accountant.id)).length).toBe(before + 1);
  });
});

describe('notify()', () => {
  it('notifies each user once per dedupe key, also when asked again', async () => {
    const user = await signUpTestUser(fixture.t.app);
    const event = {
      kind: 'payment_received' as const,
      organizationId: null,
      title: 'Once only',
      body: 'b',
      link: '/dashboard',
      dedupeKey: 'test:once',
    };
    const first = await notify(fixture.t.ctx, fixture.t.database.db, event, [user.id, user.id]);
    const second = await notify(fixture.t.ctx, fixture.t.database.db, event, [user.id]);
    expect(first).toEqual([{ userId: user.id, inApp: true, emailed: true }]);
    expect(second).toEqual([]);
    expect(await rowsOf(user.id)).toHaveLength(1);
    expect((await subjects(user)).filter((s) => s === 'Once only')).toHaveLength(1);
  });

  it("writes each recipient's amounts and dates in their own formats", async () => {
    const us = await signUpTestUser(fixture.t.app);
    const de = await signUpTestUser(fixture.t.app);
    const prefs = await as(de.cookie).call('PATCH', '/me/profile', {
      timezone: 'Europe/Berlin',
      preferences: { dateFormat: 'DD.MM.YYYY' },
    });
    expect(prefs.status, JSON.stringify(prefs.body)).toBe(200);
    await notify(
      fixture.t.ctx,
      fixture.t.database.db,
      {
        kind: 'payment_received',
        organizationId: null,
        title: (f) => `Paid ${f.amount(123_456, 'EUR')}`,
        body: (f) => `Due ${f.date('2026-03-31')}`,
        link: '/dashboard',
        dedupeKey: 'test:formats',
      },
      [us.id, de.id],
    );
    expect((await list(us)).notifications[0]).toMatchObject({ title: 'Paid €1,234.56' });
    expect((await rowsOf(us.id))[0]?.body).toBe('Due 03/31/2026');
    expect((await rowsOf(de.id))[0]?.body).toBe('Due 31.03.2026');
  });

  it('writes nothing for a category with both channels off', async () => {
    const user = await signUpTestUser(fixture.t.app);
    await setMatrix(user, { email: { invoices: false }, push: { invoices: false } });
    const told = await notify(
      fixture.t.ctx,
      fixture.t.database.db,
      {
        kind: 'invoice_overdue',
        organizationId: null,
        title: 'x',
        body: 'y',
        link: '/invoices',
        dedupeKey: 'test:off',
      },
      [user.id],
    );
    expect(told).toEqual([]);
    expect(await rowsOf(user.id)).toHaveLength(0);
  });
});

describe('my notifications', () => {
  let me: TestUser;
  let someoneElse: TestUser;
  const event = (n: number) => ({
    kind: 'large_transaction' as const,
    organizationId: null,
    title: `Item ${n}`,
    body: 'b',
    link: '/transactions',
    dedupeKey: `test:item:${n}`,
  });

  beforeAll(async () => {
    me = await signUpTestUser(fixture.t.app);
    someoneElse = await signUpTestUser(fixture.t.app);
    for (let n = 1; n <= 5; n += 1) {
      fixture.t.clock.advance(1000);
      await notify(fixture.t.ctx, fixture.t.database.db, event(n), [me.id]);
    }
    await notify(fixture.t.ctx, fixture.t.database.db, event(99), [someoneElse.id]);
  });

  it('pages newest first with a cursor, and unread first once some are read', async () => {
    const titles: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await list(me, `?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      titles.push(...page.notifications.map((n) => n.title));
      cursor = page.nextCursor;
    } while (cursor);
    expect(titles).toEqual(['Item 5', 'Item 4', 'Item 3', 'Item 2', 'Item 1']);
    expect(await unread(me)).toBe(5);

    const all = (await list(me)).notifications;
    const item4 = all.find((n) => n.title === 'Item 4')!;
    const item5 = all.find((n) => n.title === 'Item 5')!;
    const marked = await as(me.cookie).call('POST', `/me/notifications/${item5.id}/read`);
    expect(marked.status).toBe(200);
    expect(marked.body.readAt).toBe(fixture.t.clock.now().toISOString());
    await as(me.cookie).call('POST', `/me/notifications/${item4.id}/read`);
    expect(await unread(me)).toBe(3);

    const unreadFirst: string[] = [];
    cursor = null;
    do {
      const page = await list(me, `?order=unread_first&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      unreadFirst.push(...page.notifications.map((n) => n.title));
      cursor = page.nextCursor;
    } while (cursor);
    expect(unreadFirst).toEqual(['Item 3', 'Item 2', 'Item 1', 'Item 5', 'Item 4']);
    expect((await list(me, '?unread=true')).notifications.map((n) => n.title)).toEqual([
      'Item 3',
      'Item 2',
      'Item 1',
    ]);
  });

  it('another user never sees mine, nor marks them read (404)', async () => {
    expect((await list(someoneElse)).notifications.map((n) => n.title)).toEqual(['Item 99']);
    const mine = (await list(me)).notifications[0]!;
    const refused = await as(someoneElse.cookie).call('POST', `/me/notifications/${mine.id}/read`);
    expect(refused.status).toBe(404);
    expect((await list(me)).notifications[0]!.readAt).toBe(mine.readAt);
    expect((await as(me.cookie).call('POST', '/me/notifications/no-such-id/read')).status).toBe(404);
  });

  it('refuses a bad cursor, order, flag or limit with 400, and a signed-out call with 401', async () => {
    for (const query of [
      '?cursor=not-a-cursor',
      `?cursor=${Buffer.from('{"t":"x","id":"y"}').toString('base64url')}`,
      '?order=oldest',
      '?unread=yes',
      '?limit=0',
      '?limit=101',
    ]) {
      const res = await as(me.cookie).call('GET', `/me/notifications${query}`);
      expect(res.status, query).toBe(400);
    }
    const badUnreadFlag = Buffer.from(
      JSON.stringify({ u: 7, t: '2026-03-10T12:00:00.000000Z', id: 'x' }),
    ).toString('base64url');
    expect(
      (await as(me.cookie).call('GET', `/me/notifications?order=unread_first&cursor=${badUnreadFlag}`))
        .status,
    ).toBe(400);
    expect((await as('').call('GET', '/me/notifications')).status).toBe(401);
    expect((await as('').call('GET', '/me/notifications/unread-count')).status).toBe(401);
  });

  it('marks all read', async () => {
    const res = await as(me.cookie).call('POST', '/me/notifications/read-all');
    expect(res.body).toEqual({ marked: 3 });
    expect(await unread(me)).toBe(0);
    expect(await unread(someoneElse)).toBe(1);
  });
});

describe('the overdue runner', () => {
  it('notifies once per newly overdue invoice, not before it is due', async () => {
    const owner = fixture.company.owner;
    await setMatrix(owner, { push: { invoices: true } });
    const inv = await sentInvoice('2026-03-02'); // 14 days' terms: due 2026-03-16
    await runOverdueInvoiceCheck(fixture.t.ctx, new Date('2026-03-16T12:00:00Z'));
    const forThis = async () =>
      (await rowsOf(owner.id)).filter(
        (r) => r.kind === 'invoice_overdue' && r.link === `/invoices?invoice=${inv.id}`,
      );
    expect(await forThis()).toHaveLength(0);
    await runOverdueInvoiceCheck(fixture.t.ctx, new Date('2026-03-17T12:00:00Z'));
    await runOverdueInvoiceCheck(fixture.t.ctx, new Date('2026-03-18T12:00:00Z'));
    const overdue = (await rowsOf(owner.id)).filter((r) => r.kind === 'invoice_overdue');
    expect(overdue.map((r) => r.link)).toContain(`/invoices?invoice=${inv.id}`);
    expect(overdue.filter((r) => r.link === `/invoices?invoice=${inv.id}`)).toHaveLength(1);
    expect(overdue.find((r) => r.link.endsWith(inv.id))).toMatchObject({ in_app: true, emailed: true });
    expect(await rowsOf(viewer.id)).toHaveLength(0);
    // Paid invoices are never overdue: the ones paid in full above (due 2026-03-15) did not notify.
    const paid = await fixture.t.database.db
      .selectFrom('invoices')
      .select('id')
      .where('organization_id', '=', fixture.company.id)
      .where('status', '=', 'paid')
      .execute();
    expect(paid.length).toBeGreaterThan(0);
    for (const p of paid) expect(overdue.map((r) => r.link)).not.toContain(`/invoices?invoice=${p.id}`);
  });
});

describe('sign-in history and new devices', () => {
  const signIn = (user: TestUser, userAgent: string) => {
    fixture.t.clock.advance(1000);
    return authPost(
      fixture.t.app,
      '/sign-in/email',
      { email: user.email, password: user.password },
      { headers: { 'user-agent': userAgent } },
    );
  };

  it('labels devices', () => {
    expect(deviceLabel(CHROME_LINUX)).toBe('Chrome on Linux');
    expect(deviceLabel(SAFARI_IOS)).toBe('Safari on iOS');
    expect(deviceLabel('')).toBe('Unknown browser');
  });

  it('alerts on the first sign-in from each device while login alerts are on', async () => {
    const user = await signUpTestUser(fixture.t.app);
    const alerts = async () =>
      (await subjects(user)).filter((s) => s === 'New sign-in to your Kontor account').length;
    const first = await signIn(user, CHROME_LINUX);
    expect(first.status).toBe(200);
    expect(await alerts()).toBe(1);
    expect(await kinds(user)).toEqual(['new_sign_in']);
    await signIn(user, CHROME_LINUX.replace('130.0', '131.0'));
    expect(await alerts()).toBe(1); // same browser and system, a newer version
    const phone = await signIn(user, SAFARI_IOS);
    expect(await alerts()).toBe(2);

    const history = await as(phone.cookie).call('GET', '/me/sign-ins');
    expect(history.status).toBe(200);
    expect(
      history.body.signIns.map((s: { device: string; newDevice: boolean; current: boolean }) => [
        s.device,
        s.newDevice,
        s.current,
      ]),
    ).toEqual([
      ['Safari on iOS', true, true],
      ['Chrome on Linux', false, false],
      ['Chrome on Linux', true, false],
    ]);
    expect((await as(phone.cookie).call('GET', '/me/sign-ins?cursor=%%%')).status).toBe(400);

    const off = await as(phone.cookie).call('PATCH', '/me/profile', { security: { loginAlerts: false } });
    expect(off.status).toBe(200);
    await signIn(user, 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0');
    expect(await alerts()).toBe(2);
    expect(await kinds(user)).toEqual(['new_sign_in', 'new_sign_in']);
    const latest = (await as(phone.cookie).call('GET', '/me/sign-ins?limit=1')).body;
    expect(latest.signIns[0]).toMatchObject({ device: 'Firefox on Windows', newDevice: true });
    expect(latest.nextCursor).toEqual(expect.any(String));
    // Someone else's history is not in mine.
    const stranger = await signUpTestUser(fixture.t.app);
    expect((await as(stranger.cookie).call('GET', '/me/sign-ins')).body.signIns).toEqual([]);
  });
});

describe('large transactions and the company threshold', () => {
  it('notifies at or above the threshold, which a settings manager changes', async () => {
    const owner = fixture.company.owner;
    const count = async () =>
      (await rowsOf(accountant.id)).filter((r) => r.kind === 'large_transaction').length;
    const account = await fixture.client.post('/wallet/accounts', {
      name: 'Operating',
      kind: 'bank',
      currency: 'USD',
      openingDate: '2026-01-01',
    });
    expect(account.status, JSON.stringify(account.body)).toBe(201);
    const post = async (amount: number) => {
      const res = await fixture.client.post('/transactions', {
        moneyAccountId: account.body.id,
        date: '2026-03-06',
        description: 'Wire',
        amount,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    };
    const before = await count();
    await post(9_999_99);
    expect(await count()).toBe(before);
    await post(-10_000_00);
    expect(await count()).toBe(before + 1);

    expect((await fixture.client.get('/notification-settings')).body).toEqual({
      largeTransactionUnits: 10_000,
    });
    expect(
      (await api(fixture.t.app, fixture.company, viewer.cookie).get('/notification-settings')).status,
    ).toBe(200);
    for (const bad of [
      { largeTransactionUnits: 0 },
      { largeTransactionUnits: 1.5 },
      { largeTransactionUnits: '5' },
      {},
    ]) {
      const res = await as(owner.cookie).call(
        'PUT',
        `/orgs/${fixture.company.id}/notification-settings`,
        bad,
      );
      expect(res.status, JSON.stringify(bad)).toBe(400);
    }
    const changed = await as(owner.cookie).call('PUT', `/orgs/${fixture.company.id}/notification-settings`, {
      largeTransactionUnits: 500,
    });
    expect(changed.body).toEqual({ largeTransactionUnits: 500 });
    await post(500_00);
    expect(await count()).toBe(before + 2);
    const viewerPut = await as(viewer.cookie).call(
      'PUT',
      `/orgs/${fixture.company.id}/notification-settings`,
      { largeTransactionUnits: 5 },
    );
    expect(viewerPut.status).toBe(403);
    const outsider = await as(other.owner.cookie).call(
      'GET',
      `/orgs/${fixture.company.id}/notification-settings`,
    );
    expect(outsider.status).toBe(404);
  });
});

describe('statement imports', () => {
  it('tell how many lines need a category, and each large one', async () => {
    const account = await fixture.client.post('/wallet/accounts', {
      name: 'Imported checking',
      kind: 'bank',
      currency: 'USD',
      openingDate: '2026-01-01',
    });
    expect(account.status, JSON.stringify(account.body)).toBe(201);
    const content = [
      'Date,Description,Amount',
      '2026-03-02,Coffee,-4.50',
      '2026-03-03,Big client wire,12000.00',
      '2026-03-04,Stationery,-30.00',
    ].join('\n');
    const sniff = await fixture.client.post('/statement-imports/sniff', {
      moneyAccountId: account.body.id,
      content,
    });
    expect(sniff.status, JSON.stringify(sniff.body)).toBe(200);
    const before = await rowsOf(accountant.id);
    const imported = await fixture.client.post('/statement-imports', {
      moneyAccountId: account.body.id,
      fileName: 'march.csv',
      content,
      mapping: sniff.body.suggestedMapping,
    });
    expect(imported.status, JSON.stringify(imported.body)).toBeLessThan(300);
    expect(imported.body.imported).toBe(3);
    const added = (await rowsOf(accountant.id)).filter((r) => !before.some((b) => b.id === r.id));
    expect(added.map((r) => [r.kind, r.title]).sort()).toEqual([
      ['large_transaction', 'Large transaction: $12,000.00'],
      ['uncategorized_transactions', '3 transactions need a category'],
    ]);
    expect(added.every((r) => r.link === `/transactions?account=${account.body.id}`)).toBe(true);
    expect(await rowsOf(viewer.id)).toHaveLength(0);
  });
});

describe('browser push', () => {
  it('says push is not configured without VAPID keys and refuses a subscription', async () => {
    const me = fixture.company.owner;
    expect((await as(me.cookie).call('GET', '/me/push/config')).body).toEqual({
      configured: false,
      publicKey: null,
    });
    const res = await as(me.cookie).call('POST', '/me/push/subscriptions', {
      endpoint: 'https://push.example/abc',
      keys: { p256dh: 'k', auth: 'a' },
    });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('push_not_configured');
  });

  it('with VAPID keys, stores and removes a subscription, and refuses a bad one', async () => {
    const keys = webPush.generateVAPIDKeys();
    const t = await createTestApp({
      env: {
        VAPID_PUBLIC_KEY: keys.publicKey,
        VAPID_PRIVATE_KEY: keys.privateKey,
        VAPID_SUBJECT: 'mailto:ops@example.com',
      },
    });
    try {
      const user = await signUpTestUser(t.app);
      const call = async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
        const res = await t.app.inject({
          method,
          url: `/api${url}`,
          headers: { cookie: user.cookie, origin: 'http://localhost:3000' },
          ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
        });
        return { status: res.statusCode, body: res.body ? res.json() : null };
      };
      expect((await call('GET', '/me/push/config')).body).toEqual({
        configured: true,
        publicKey: keys.publicKey,
      });
      const sub = { endpoint: 'https://push.example/sub-1', keys: { p256dh: 'p', auth: 'a' } };
      expect((await call('POST', '/me/push/subscriptions', sub)).status).toBe(204);
      expect(
        (await call('POST', '/me/push/subscriptions', { ...sub, endpoint: 'http://insecure.example/x' }))
          .status,
      ).toBe(400);
      expect((await call('POST', '/me/push/subscriptions', { endpoint: sub.endpoint })).status).toBe(400);
      const rows = () =>
        t.database.db.selectFrom('push_subscriptions').selectAll().where('user_id', '=', user.id).execute();
      expect(await rows()).toHaveLength(1);
      expect((await call('POST', '/me/push/unsubscribe', { endpoint: sub.endpoint })).status).toBe(204);
      expect(await rows()).toHaveLength(0);
    } finally {
      await t.close();
    }
  });
});
