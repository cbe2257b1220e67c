import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpTestApp } from '../../testing/per-file-app.ts';
import { createTestApp } from '../../testing/app.ts';
import { createTestDatabase } from '../../testing/db.ts';
import { sendMail } from './service.ts';

// Mail goes to the outbox without SMTP_URL, and through a real SMTP conversation with it.

describe('mail outbox (no SMTP_URL)', () => {
  const t = setUpTestApp();

  it('stores mail with attachments and lists it newest first, filtered by recipient', async () => {
    const first = await sendMail(t.ctx, { to: 'Ann@Example.com', subject: 'First', text: 'one' });
    expect(first.delivery).toBe('outbox');
    await sendMail(t.ctx, {
      to: 'ann@example.com',
      subject: 'Invoice INV-0001',
      text: 'Your invoice is attached.',
      html: '<p>Your invoice is attached.</p>',
      attachments: [
        { filename: 'INV-0001.pdf', content: Buffer.from('%PDF-1.7 test'), contentType: 'application/pdf' },
      ],
    });
    await sendMail(t.ctx, { to: 'someone-else@example.com', subject: 'Other', text: 'x' });
    const list = await t.app.inject({ method: 'GET', url: '/api/dev/mailbox?to=ANN@example.com' });
    expect(list.statusCode).toBe(200);
    const messages = list.json().messages;
    expect(messages.map((m: { subject: string }) => m.subject)).toEqual(['Invoice INV-0001', 'First']);
    const one = await t.app.inject({ method: 'GET', url: `/api/dev/mailbox/${messages[0].id}` });
    expect(one.json()).toMatchObject({
      to: 'ann@example.com',
      subject: 'Invoice INV-0001',
      text: 'Your invoice is attached.',
      html: '<p>Your invoice is attached.</p>',
      attachments: [{ filename: 'INV-0001.pdf', contentType: 'application/pdf', size: 13 }],
    });
  });

  it('answers 404 for an unknown message id and 400 for a malformed one', async () => {
    const missing = await t.app.inject({
      method: 'GET',
      url: '/api/dev/mailbox/00000000-0000-4000-8000-000000000000',
    });
    expect(missing.statusCode).toBe(404);
    const bad = await t.app.inject({ method: 'GET', url: '/api/dev/mailbox/xyz' });
    expect(bad.statusCode).toBe(400);
  });
});

describe('mailbox outside development', () => {
  it('does not exist in production or staging', async () => {
    const database = await createTestDatabase();
    for (const env of ['production', 'staging']) {
      const t = await createTestApp({ database, env: { APP_ENV: env, AUTH_SECRET: 'x'.repeat(40) } });
      const res = await t.app.inject({ method: 'GET', url: '/api/dev/mailbox' });
      expect(res.statusCode, env).toBe(404);
      await t.app.close();
    }
    await database.close();
  });
});

describe('mail over SMTP (SMTP_URL set)', () => {
  type Received = { from: string; to: string[]; data: string };
  const received: Received[] = [];
  let server: SMTPServer;
  let port = 0;

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let data = '';
        stream.on('data', (chunk: Buffer) => {
          data += chunk.toString('utf8');
        });
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            data,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('delivers through the SMTP server and writes nothing to the outbox', async () => {
    const t = await createTestApp({
      env: { SMTP_URL: `smtp://127.0.0.1:${port}?ignoreTLS=true`, MAIL_FROM: 'Kontor <books@kontor.test>' },
    });
    try {
      const sent = await sendMail(t.ctx, {
        to: 'bea@example.com',
        subject: 'Hello over SMTP',
        text: 'Plain body',
        attachments: [{ filename: 'note.txt', content: 'attached text' }],
      });
      expect(sent.delivery).toBe('smtp');
      expect(received).toHaveLength(1);
      expect(received[0]!.from).toBe('books@kontor.test');
      expect(received[0]!.to).toEqual(['bea@example.com']);
      expect(received[0]!.data).toContain('Subject: Hello over SMTP');
      expect(received[0]!.data).toContain('Plain body');
      expect(received[0]!.data).toContain('filename=note.txt');
      const list = await t.app.inject({ method: 'GET', url: '/api/dev/mailbox' });
      expect(list.json().messages).toHaveLength(0);

      // The auth flows use the same path: a reset link arrives by SMTP.
      const signUp = await t.app.inject({
        method: 'POST',
        url: '/api/auth/sign-up/email',
        headers: { origin: 'http://localhost:3000', 'x-forwarded-for': '198.51.100.9' },
        payload: { email: 'cy@example.com', password: 'Quiet-River-71', name: 'Cy Young' },
      });
      expect(signUp.statusCode).toBe(200);
      await t.app.inject({
        method: 'POST',
        url: '/api/auth/request-password-reset',
        headers: { origin: 'http://localhost:3000', 'x-forwarded-for': '198.51.100.9' },
        payload: { email: 'cy@example.com' },
      });
      // SMTP delivery of auth mail does not hold up the answer; wait for it to land.
      for (let i = 0; i < 50 && !received.some((r) => r.data.includes('Reset your Kontor password')); i++)
        await new Promise((r) => setTimeout(r, 100));
      const reset = received.find((r) => r.data.includes('Reset your Kontor password'));
      expect(reset?.to).toEqual(['cy@example.com']);
      expect(reset?.data).toMatch(/reset-password\?token=/);
    } finally {
      await t.close();
    }
  });
});
