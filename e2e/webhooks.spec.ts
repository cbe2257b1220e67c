import { type IncomingHttpHeaders, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { shot, signUpWithCompany } from './auth-helpers.ts';

// Issue 19 item 3, as an integrator tries it: a local receiver listens; the owner adds it as an
// endpoint in Settings → Webhooks, copies the signing secret, sends the test event; the
// receiver gets a POST whose signature the standardwebhooks library verifies with that secret;
// the delivery shows in the log as succeeded with the receiver's 200, and its detail shows the
// request and the response. Then a real change (an invoice) arrives too, and a redelivery.

const PASSWORD = 'Correct-Horse-9';

type Received = { headers: IncomingHttpHeaders; body: string };
const received: Received[] = [];
let server: Server;
let receiverUrl = '';

test.beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString('utf8');
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('thanks');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/kontor-hooks`;
});
test.afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const verify = (secret: string, r: Received) =>
  new Webhook(secret).verify(r.body, {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  }) as { type: string; timestamp: string; data: Record<string, unknown> };

test('add an endpoint in Settings, send the test event, verify its signature, see it in the log', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const company = await signUpWithCompany(page, {
    tag: 'hooks',
    name: 'Hana Hooks',
    company: 'Hooked Ltd',
    password: PASSWORD,
  });

  await page.goto('/settings?tab=webhooks');
  await expect(page.getByText('No webhook endpoints')).toBeVisible();
  await page.getByRole('button', { name: 'Add endpoint' }).first().click();
  const add = page.getByRole('dialog', { name: 'Add endpoint' });
  await add.getByLabel('Endpoint URL').fill(receiverUrl);
  await add.getByLabel('Description (optional)').fill('Local receiver');
  await expect(add.getByRole('checkbox', { name: /All events/ })).toBeChecked();
  await add.getByRole('button', { name: 'Add endpoint' }).click();

  const secretDialog = page.getByRole('dialog', { name: 'Signing secret' });
  const secret = await secretDialog.getByLabel('Signing secret').inputValue();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
  await secretDialog.getByRole('button', { name: 'Copy secret' }).click();
  await expect(secretDialog.getByText('Copied.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await secretDialog.getByRole('button', { name: 'Done' }).click();
  await expect(secretDialog).toBeHidden();

  const row = page.getByRole('row', {
    name: new RegExp(receiverUrl.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')),
  });
  await expect(row).toContainText('All events');
  await expect(row).toContainText('Enabled');

  await page.getByRole('button', { name: `Send a test event to ${receiverUrl}` }).click();
  await expect(page.getByText(/Sent a test event/)).toBeVisible();
  await expect.poll(() => received.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
  const test1 = received.find((r) => JSON.parse(r.body).type === 'webhook.test')!;
  const payload = verify(secret, test1);
  expect(payload.type).toBe('webhook.test');
  expect(String(test1.headers['webhook-id'])).toMatch(/^msg_/);
  expect(() =>
    new Webhook(`whsec_${Buffer.from('another secret').toString('base64')}`).verify(
      test1.body,
      test1.headers as Record<string, string>,
    ),
  ).toThrow();

  const log = page.getByRole('table', { name: `Deliveries to ${receiverUrl}` });
  const testRow = log.getByRole('row', { name: /webhook\.test/ });
  await expect(testRow).toContainText('Succeeded', { timeout: 10_000 });
  await expect(testRow).toContainText('200');
  await shot(page, 'webhooks-log');
  await testRow.getByRole('button', { name: /Details of webhook\.test/ }).click();
  const detail = page.getByRole('dialog', { name: 'Delivery' });
  await expect(detail.getByText('Request headers')).toBeVisible();
  await expect(detail).toContainText('webhook-signature: v1,');
  await expect(detail).toContainText('Response 200');
  await expect(detail).toContainText('thanks');
  await page.keyboard.press('Escape');
  await expect(detail).toBeHidden();

  // A real change: an invoice created through the API reaches the receiver, signed.
  const customer = await company.post('/customers', { name: 'Northwind', email: 'n@example.com' });
  const invoice = await company.post('/invoices', {
    customerId: customer.id,
    issueDate: '2026-11-02',
    lines: [{ description: 'Design work', quantity: '1', unitPrice: 25_000 }],
  });
  await expect
    .poll(() => received.filter((r) => JSON.parse(r.body).type === 'invoice.created').length, {
      timeout: 10_000,
    })
    .toBe(1);
  const created = verify(secret, received.find((r) => JSON.parse(r.body).type === 'invoice.created')!);
  expect(created.data).toMatchObject({ id: invoice.id, total: 25_000, currency: 'USD' });

  // Redelivery sends the same event (same webhook-id) again.
  const before = received.length;
  await log
    .getByRole('row', { name: /webhook\.test/ })
    .getByRole('button', { name: /Redeliver webhook\.test/ })
    .click();
  await expect.poll(() => received.length, { timeout: 10_000 }).toBe(before + 1);
  expect(received.at(-1)!.headers['webhook-id']).toBe(test1.headers['webhook-id']);
});
