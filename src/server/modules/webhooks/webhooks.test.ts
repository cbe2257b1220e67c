import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { WEBHOOK_EVENT_TYPES } from '../../../shared/webhooks.ts';
import { createTestApp } from '../../testing/app.ts';
import { type TestCompany, addTestMember, createTestCompany } from '../../testing/companies.ts';
import { type InvoicingFixture, api, setUpInvoicing } from '../../testing/invoices.ts';
import { createJobQueue } from '../jobs/queue.ts';
import { RETRY_SCHEDULE_SECONDS, deliverWebhook, registerWebhookWorker } from './deliver.ts';
import { emitWebhookEvent } from './emit.ts';
import { createWebhookEndpoint, getWebhookDelivery, sendWebhookTest } from './service.ts';
import { checkWebhookUrl, isPublicAddress } from './ssrf.ts';

// Outgoing webhooks end to end inside one app: a local receiver, the delivery worker on its own
// queue, the clock moved for retries. Events exist only if their change commits; signatures
// verify with the standardwebhooks library; a 500 is retried on the schedule; a delivery can be
// sent again; an endpoint failing for 3 days is disabled and its admins emailed; a deployed
// server refuses private, loopback and plain-http URLs, at creation and at delivery.

type Received = { headers: IncomingHttpHeaders; body: string };
const received: Received[] = [];
let answer = 200;
let server: Server;
let receiverUrl = '';

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString('utf8');
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(answer, { 'content-type': 'text/plain', 'x-receiver': 'test' });
      res.end(answer === 200 ? 'ok' : 'receiver is down');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('webhooks', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let company: TestCompany;
  let fx: InvoicingFixture;
  let client: ReturnType<typeof api>;
  let queue: ReturnType<typeof createJobQueue>;
  beforeAll(async () => {
    t = await createTestApp();
    company = await createTestCompany(t.app, { name: 'Hooked Ltd' });
    fx = await setUpInvoicing(t.app, t.database, company);
    client = api(t.app, company);
    queue = createJobQueue({ db: t.database.db, now: t.ctx.now });
    registerWebhookWorker(queue, t.ctx);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(() => {
    received.length = 0;
    answer = 200;
  });

  const count = async (table: 'webhook_events' | 'webhook_deliveries') =>
    Number(
      (
        await sql<{
          n: number;
        }>`select count(*)::int as n from ${sql.table(table)} where organization_id = ${company.id}`.execute(
          t.database.db,
        )
      ).rows[0]!.n,
    );
  const webhookJobs = async () =>
    Number(
      (
        await sql<{ n: number }>`select count(*)::int as n from jobs where queue = 'webhook.deliver'`.execute(
          t.database.db,
        )
      ).rows[0]!.n,
    );
  const newEndpoint = async (body: Record<string, unknown> = {}) => {
    const res = await client.post('/webhooks/endpoints', { url: receiverUrl, ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { id: string; secret: string };
  };
  const createInvoice = () =>
    client.post('/invoices', {
      customerId: fx.customerId,
      issueDate: '2026-03-01',
      lines: [{ description: 'Consulting', quantity: '1', unitPrice: 10_000 }],
    });

  it('creates an endpoint with a Standard Webhooks secret; members read, only owners and admins manage', async () => {
    const ep = await newEndpoint({ description: 'All events' });
    expect(ep.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    const list = await client.get('/webhooks/endpoints');
    expect(list.status).toBe(200);
    expect(list.body.endpoints.map((e: { id: string }) => e.id)).toContain(ep.id);
    expect(JSON.stringify(list.body)).not.toContain(ep.secret);
    const member = await addTestMember(t.app, company, 'member');
    const asMember = api(t.app, company, member.cookie);
    expect((await asMember.get('/webhooks/endpoints')).status).toBe(200);
    expect((await asMember.post('/webhooks/endpoints', { url: receiverUrl })).status).toBe(403);
    expect((await asMember.post(`/webhooks/endpoints/${ep.id}/rotate-secret`)).status).toBe(403);
    expect((await asMember.get(`/webhooks/endpoints/${ep.id}/secret`)).status).toBe(403);
    const rotated = await client.post(`/webhooks/endpoints/${ep.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(ep.secret);
    expect((await client.delete(`/webhooks/endpoints/${ep.id}`)).status).toBe(204);
    expect((await client.get(`/webhooks/endpoints/${ep.id}`)).status).toBe(404);
  });

  it('documents every event payload in the OpenAPI document (x-webhooks and WebhookEvent_<type> schemas)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    const doc = res.json();
    expect(Object.keys(doc['x-webhooks']).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    const paid = doc.components.schemas.WebhookEvent_invoice_paid;
    expect(paid.properties.type.enum ?? [paid.properties.type.const]).toEqual(['invoice.paid']);
    expect(paid.properties.data.required).toContain('amountDue');
    expect(doc['x-webhooks']['invoice.paid'].post.requestBody.content['application/json'].schema.$ref).toBe(
      '#/components/schemas/WebhookEvent_invoice_paid',
    );
  });

  it('refuses bad endpoint input with a 400 and keeps nothing', async () => {
    const before = (await client.get('/webhooks/endpoints')).body.endpoints.length;
    for (const body of [
      { url: 'not a url' },
      { url: 'ftp://example.com/x' },
      { url: 'https://user:pw@example.com/x' },
      { url: receiverUrl, eventTypes: ['invoice.nope'] },
      { url: receiverUrl, eventTypes: [] },
      { url: receiverUrl, eventTypes: ['webhook.test'] },
    ]) {
      const res = await client.post('/webhooks/endpoints', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toBeTruthy();
    }
    expect((await client.get('/webhooks/endpoints')).body.endpoints.length).toBe(before);
  });

  it('delivers a signed event for a committed change, which the standardwebhooks library verifies', async () => {
    const ep = await newEndpoint({ eventTypes: ['invoice.created'] });
    const invoice = await createInvoice();
    expect(invoice.status).toBe(201);
    await queue.runDue();
    expect(received).toHaveLength(1);
    const got = received[0]!;
    const verified = new Webhook(ep.secret).verify(got.body, {
      'webhook-id': String(got.headers['webhook-id']),
      'webhook-timestamp': String(got.headers['webhook-timestamp']),
      'webhook-signature': String(got.headers['webhook-signature']),
    }) as { type: string; timestamp: string; data: { id: string; total: number; currency: string } };
    expect(verified.type).toBe('invoice.created');
    expect(verified.data.id).toBe(invoice.body.id);
    expect(verified.data.total).toBe(10_000);
    expect(verified.data.currency).toBe('USD');
    expect(String(got.headers['webhook-id'])).toMatch(/^msg_/);
    // A tampered body or another secret does not verify.
    expect(() =>
      new Webhook(ep.secret).verify(
        got.body.replace('10000', '99999'),
        got.headers as Record<string, string>,
      ),
    ).toThrow();
    // The log: succeeded after one attempt, with the request and the answer.
    const log = await client.get(`/webhooks/endpoints/${ep.id}/deliveries`);
    expect(log.status).toBe(200);
    expect(log.body.deliveries).toHaveLength(1);
    const d = log.body.deliveries[0];
    expect(d).toMatchObject({
      status: 'succeeded',
      attempts: 1,
      responseStatus: 200,
      eventType: 'invoice.created',
    });
    const detail = await client.get(`/webhooks/deliveries/${d.id}`);
    expect(detail.body.request.body).toBe(got.body);
    expect(detail.body.request.headers['webhook-signature']).toBe(got.headers['webhook-signature']);
    expect(detail.body.response).toMatchObject({ status: 200, body: 'ok' });
    expect(detail.body.response.headers['x-receiver']).toBe('test');
    await client.post(`/webhooks/endpoints/${ep.id}/disable`);
  });

  it('writes nothing when the change rolls back or is refused', async () => {
    const ep = await newEndpoint();
    const [events, deliveries, jobs] = [
      await count('webhook_events'),
      await count('webhook_deliveries'),
      await webhookJobs(),
    ];
    await expect(
      inTransaction(t.database.db, async (trx) => {
        const sent = await emitWebhookEvent(
          trx,
          { organizationId: company.id, now: t.ctx.now() },
          'member.joined',
          {
            userId: 'u1',
            email: 'x@example.com',
            role: 'member',
          },
        );
        expect(sent?.deliveryIds).toHaveLength(1);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    // A refused request (unknown customer) writes no event either.
    const bad = await client.post('/invoices', {
      customerId: 'no-such-customer',
      issueDate: '2026-03-01',
      lines: [{ description: 'x', quantity: '1', unitPrice: 1 }],
    });
    expect(bad.status).toBeGreaterThanOrEqual(400);
    expect(bad.status).toBeLessThan(500);
    expect(await count('webhook_events')).toBe(events);
    expect(await count('webhook_deliveries')).toBe(deliveries);
    expect(await webhookJobs()).toBe(jobs);
    await queue.runDue();
    expect(received).toHaveLength(0);
    await client.post(`/webhooks/endpoints/${ep.id}/disable`);
  });

  it('retries a 500 on the schedule, and a later 2xx succeeds; a delivery can be sent again', async () => {
    const ep = await newEndpoint({ eventTypes: ['invoice.sent'] });
    answer = 500;
    const test = await client.post(`/webhooks/endpoints/${ep.id}/test`);
    expect(test.status).toBe(201);
    expect(test.body).toMatchObject({ eventType: 'webhook.test', status: 'pending', attempts: 0 });
    await queue.runDue();
    let d = (await client.get(`/webhooks/deliveries/${test.body.id}`)).body;
    expect(d).toMatchObject({ status: 'pending', attempts: 1, responseStatus: 500 });
    expect(d.response.body).toBe('receiver is down');
    expect(new Date(d.nextAttemptAt).getTime() - new Date(d.lastAttemptAt).getTime()).toBe(
      RETRY_SCHEDULE_SECONDS[0]! * 1000,
    );
    // Not before its time.
    await queue.runDue();
    expect(received).toHaveLength(1);
    t.clock.advance(RETRY_SCHEDULE_SECONDS[0]! * 1000);
    await queue.runDue();
    expect(received).toHaveLength(2);
    d = (await client.get(`/webhooks/deliveries/${test.body.id}`)).body;
    expect(d).toMatchObject({ status: 'pending', attempts: 2 });
    expect(new Date(d.nextAttemptAt).getTime() - new Date(d.lastAttemptAt).getTime()).toBe(
      RETRY_SCHEDULE_SECONDS[1]! * 1000,
    );
    const streak = (await client.get(`/webhooks/endpoints/${ep.id}`)).body;
    expect(streak.failureStreak).toBe(2);
    answer = 200;
    t.clock.advance(RETRY_SCHEDULE_SECONDS[1]! * 1000);
    await queue.runDue();
    d = (await client.get(`/webhooks/deliveries/${test.body.id}`)).body;
    expect(d).toMatchObject({ status: 'succeeded', attempts: 3, responseStatus: 200, nextAttemptAt: null });
    expect((await client.get(`/webhooks/endpoints/${ep.id}`)).body.failureStreak).toBe(0);
    // Every attempt carried the same event id.
    expect(new Set(received.map((r) => r.headers['webhook-id'])).size).toBe(1);

    const again = await client.post(`/webhooks/deliveries/${test.body.id}/redeliver`);
    expect(again.status).toBe(200);
    expect(again.body.status).toBe('pending');
    await queue.runDue();
    expect(received).toHaveLength(4);
    expect(received[3]!.headers['webhook-id']).toBe(received[0]!.headers['webhook-id']);
    d = (await client.get(`/webhooks/deliveries/${test.body.id}`)).body;
    expect(d).toMatchObject({ status: 'succeeded', attempts: 4 });
    // Running the queue again sends nothing more (stale jobs do nothing).
    await queue.runDue();
    expect(received).toHaveLength(4);
    expect((await client.post('/webhooks/deliveries/nope/redeliver')).status).toBe(404);
    await client.post(`/webhooks/endpoints/${ep.id}/disable`);
  });

  it('emits the catalogue events where the changes happen: invoice created, sent, paid; payment received; member joined', async () => {
    const ep = await newEndpoint();
    const invoice = await createInvoice();
    expect((await client.post(`/invoices/${invoice.body.id}/send`)).status).toBe(200);
    const paid = await client.post(`/invoices/${invoice.body.id}/payments`, {
      date: '2026-03-05',
      amount: 10_000,
      depositAccountId: fx.bankId,
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    await addTestMember(t.app, company, 'viewer');
    await queue.runDue();
    const types = received.map((r) => JSON.parse(r.body).type as string);
    expect(types.sort()).toEqual(
      ['invoice.created', 'invoice.sent', 'invoice.paid', 'payment.received', 'member.joined'].sort(),
    );
    const payment = received.map((r) => JSON.parse(r.body)).find((p) => p.type === 'payment.received');
    expect(payment.data).toMatchObject({ invoiceId: invoice.body.id, amount: 10_000, currency: 'USD' });
    const paidEvent = received.map((r) => JSON.parse(r.body)).find((p) => p.type === 'invoice.paid');
    expect(paidEvent.data).toMatchObject({ id: invoice.body.id, status: 'paid', amountDue: 0 });
    await client.post(`/webhooks/endpoints/${ep.id}/disable`);
  });

  it('pages the delivery log by cursor and refuses a forged cursor', async () => {
    const ep = await newEndpoint({ eventTypes: ['transaction.created'] });
    for (let i = 0; i < 3; i += 1) await client.post(`/webhooks/endpoints/${ep.id}/test`);
    const first = await client.get(`/webhooks/endpoints/${ep.id}/deliveries?limit=2`);
    expect(first.body.deliveries).toHaveLength(2);
    expect(first.body.nextCursor).toBeTruthy();
    const second = await client.get(
      `/webhooks/endpoints/${ep.id}/deliveries?limit=2&cursor=${first.body.nextCursor}`,
    );
    expect(second.body.deliveries).toHaveLength(1);
    expect(second.body.nextCursor).toBeNull();
    const ids = [...first.body.deliveries, ...second.body.deliveries].map((d: { id: string }) => d.id);
    expect(new Set(ids).size).toBe(3);
    expect((await client.get(`/webhooks/endpoints/${ep.id}/deliveries?cursor=bm9wZQ`)).status).toBe(400);
    await queue.runDue();
    await client.post(`/webhooks/endpoints/${ep.id}/disable`);
  });

  it('disables an endpoint that fails for 3 days and emails the owners and admins', async () => {
    const ep = await newEndpoint({ eventTypes: ['bill.paid'] });
    answer = 500;
    const test = await client.post(`/webhooks/endpoints/${ep.id}/test`);
    await queue.runDue();
    for (const seconds of RETRY_SCHEDULE_SECONDS) {
      t.clock.advance(seconds * 1000);
      await queue.runDue();
    }
    const endpoint = (await client.get(`/webhooks/endpoints/${ep.id}`)).body;
    expect(endpoint.enabled).toBe(false);
    expect(endpoint.disabledReason).toMatch(/3 days/);
    const d = (await client.get(`/webhooks/deliveries/${test.body.id}`)).body;
    expect(d.status).toBe('failed');
    expect(d.attempts).toBeLessThanOrEqual(RETRY_SCHEDULE_SECONDS.length + 1);
    const mails = await t.database.db
      .selectFrom('mail_outbox')
      .select(['to_address', 'subject', 'text_body'])
      .where('subject', 'like', 'Webhook endpoint disabled%')
      .execute();
    expect(mails.map((m) => m.to_address)).toContain(company.owner.email.toLowerCase());
    expect(mails[0]!.text_body).toContain(receiverUrl);
    // A disabled endpoint gets no new events and refuses a test or a redelivery (409).
    expect((await client.post(`/webhooks/endpoints/${ep.id}/test`)).status).toBe(409);
    expect((await client.post(`/webhooks/deliveries/${test.body.id}/redeliver`)).status).toBe(409);
    // Enabled again, it starts with a clean streak.
    const enabled = await client.post(`/webhooks/endpoints/${ep.id}/enable`);
    expect(enabled.body).toMatchObject({ enabled: true, failureStreak: 0, disabledReason: null });
    await client.post(`/webhooks/endpoints/${ep.id}/disable`);
  });
});

describe('webhook URLs on a deployed server (SSRF)', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let company: TestCompany;
  beforeAll(async () => {
    t = await createTestApp({
      env: { APP_ENV: 'production', AUTH_SECRET: 'a-production-secret-for-the-ssrf-tests-0123456789-abcdef' },
    });
    company = await createTestCompany(t.app, { name: 'Deployed Ltd' });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('refuses plain http, and loopback, private, link-local and metadata addresses, with a 400', async () => {
    const client = api(t.app, company);
    for (const url of [
      'http://example.com/hooks',
      'https://127.0.0.1/hooks',
      'https://10.1.2.3/hooks',
      'https://192.168.0.10/hooks',
      'https://172.16.5.5/hooks',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/hooks',
      'https://[fd00::1]/hooks',
      'https://[::ffff:127.0.0.1]/hooks',
      'https://0.0.0.0/hooks',
      'https://100.64.0.1/hooks',
      'https://localhost/hooks',
      'https://metadata.google.internal/computeMetadata',
    ]) {
      const res = await client.post('/webhooks/endpoints', { url });
      expect(res.status, url).toBe(400);
      expect(res.body.error.code, url).toBe('webhook_url_not_allowed');
    }
    expect((await client.get('/webhooks/endpoints')).body.endpoints).toHaveLength(0);
    // A public address passes (no DNS needed for a literal address).
    expect((await client.post('/webhooks/endpoints', { url: 'https://93.184.215.14/hooks' })).status).toBe(
      201,
    );
  });

  it('classifies addresses with ipaddr.js: only public unicast is allowed', () => {
    expect(isPublicAddress('8.8.8.8')).toBe(true);
    expect(isPublicAddress('2606:4700:4700::1111')).toBe(true);
    for (const a of [
      '127.0.0.1',
      '10.0.0.1',
      '169.254.169.254',
      '::1',
      'fe80::1',
      '::ffff:10.0.0.1',
      '224.0.0.1',
      'x',
    ])
      expect(isPublicAddress(a), a).toBe(false);
  });

  it('checks again at delivery time: an endpoint saved while allowed is not sent to a private address', async () => {
    // Saved by a development server, delivered by a deployed one (e.g. the DNS answer changed).
    const devCtx = {
      ...t.ctx,
      config: { ...t.ctx.config, app: { ...t.ctx.config.app, ENVIRONMENT: 'development' } },
    } as AppContext;
    const owner = { organizationId: company.id, userId: company.owner.id, role: 'owner' } as MemberContext;
    const ep = await createWebhookEndpoint(devCtx, owner, { url: receiverUrl });
    const test = await sendWebhookTest(devCtx, owner, { endpointId: ep.id });
    const deployed: AppContext = t.ctx;
    await expect(checkWebhookUrl(deployed, receiverUrl)).rejects.toThrow(/https/);
    received.length = 0;
    await deliverWebhook(deployed, { organizationId: company.id, deliveryId: test.id, attempt: 0 });
    expect(received).toHaveLength(0);
    const d = await getWebhookDelivery(t.ctx, owner, { deliveryId: test.id });
    expect(d).toMatchObject({ status: 'pending', attempts: 1, responseStatus: null });
    expect(d.error).toMatch(/https/);
  });
});
