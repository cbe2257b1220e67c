import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTACT_RATE_LIMITED_MESSAGE } from '../../../shared/contact.ts';
import { createTestApp } from '../../testing/app.ts';
import { findContactMessage } from './queries.ts';

let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

// Each test sends from its own address so the per-address limit of one never spills over.
const send = (payload: unknown, ip: string) =>
  t.app.inject({ method: 'POST', url: '/api/contact', payload: payload as object, remoteAddress: ip });

const countMessages = async () =>
  Number(
    (
      await t.database.db
        .selectFrom('contact_messages')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('POST /api/contact', () => {
  it('stores a valid message, trimmed and with the email lower-cased', async () => {
    const res = await send(
      {
        name: '  Ada Lovelace ',
        email: ' Ada@Example.COM ',
        company: 'Analytical Engines Ltd',
        message: 'We would like a demo for our finance team.',
      },
      '10.0.0.1',
    );
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(body.receivedAt).toString()).not.toBe('Invalid Date');
    const row = await findContactMessage(t.database.db, body.id);
    expect(row).toMatchObject({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      company: 'Analytical Engines Ltd',
      message: 'We would like a demo for our finance team.',
      ip: '10.0.0.1',
    });
  });

  it('accepts a message without a company', async () => {
    const res = await send(
      { name: 'Bo', email: 'bo@example.com', message: 'Hello there, Kontor!' },
      '10.0.0.2',
    );
    expect(res.statusCode).toBe(201);
    const row = await findContactMessage(t.database.db, res.json().id);
    expect(row?.company).toBe('');
  });

  it('refuses bad input with 400, field details and nothing stored', async () => {
    const before = await countMessages();
    const res = await send({ name: 'A', email: 'not an email', message: 'short' }, '10.0.0.3');
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error.code).toBe('validation_failed');
    const fields = (body.error.details as { field: string }[]).map((d) => d.field).sort();
    expect(fields).toEqual(['email', 'message', 'name']);
    expect(body.error.message).toContain('Please enter a valid email address.');
    expect(await countMessages()).toBe(before);
  });

  it('refuses a missing body', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/contact', remoteAddress: '10.0.0.4' });
    expect(res.statusCode).toBe(400);
  });

  it('allows five messages per 10 minutes from one address, then answers 429 with a clear message', async () => {
    // APP_ENV=test has the global cap off: this proves the route-level limit still applies.
    expect(t.ctx.config.app.ENVIRONMENT).toBe('test');
    const before = await countMessages();
    const ok = { name: 'Rate Test', email: 'rate@example.com', message: 'Testing the rate limit here.' };
    for (let i = 0; i < 5; i++) expect((await send(ok, '10.0.0.5')).statusCode).toBe(201);
    const limited = await send(ok, '10.0.0.5');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({
      error: { code: 'rate_limited', message: CONTACT_RATE_LIMITED_MESSAGE },
    });
    expect(await countMessages()).toBe(before + 5);
    // Another address is not affected.
    expect((await send(ok, '10.0.0.6')).statusCode).toBe(201);
  });

  it('appears in the OpenAPI document', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.json().paths['/api/contact']?.post).toBeDefined();
  });
});
