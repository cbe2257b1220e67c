import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../testing/app.ts';
import { type FakeStripe, type StripeObject, startFakeStripe } from '../../testing/fake-stripe.ts';
import { type TestUser, signUpTestUser } from '../../testing/users.ts';

// Stripe's webhooks end to end (issue 16 §3): the app configured for Stripe (the real SDK
// against the local fake Stripe API), a user subscribing through Checkout, and signed events
// posted to /api/billing/webhook — applied when genuine, refused with 400 and no change when
// forged, applied once when replayed, kept out when older than what was applied, and
// acknowledged (200) but ignored when about a customer Kontor does not know.

describe('Stripe webhooks at /api/billing/webhook', () => {
  let fake: FakeStripe;
  let t: Awaited<ReturnType<typeof createTestApp>>;

  beforeAll(async () => {
    fake = await startFakeStripe();
    t = await createTestApp({ env: fake.env });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const seconds = (offset = 0) => Math.floor(t.clock.now().getTime() / 1000) + offset;

  const post = (hook: { payload: string; headers: Record<string, string> }) =>
    t.app.inject({
      method: 'POST',
      url: '/api/billing/webhook',
      headers: hook.headers,
      payload: hook.payload,
    });

  const send = (type: string, object: StripeObject, options?: Parameters<FakeStripe['webhook']>[2]) =>
    post(fake.webhook(type, object, options));

  const api = (user: TestUser, method: 'GET' | 'POST', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: { cookie: user.cookie, origin: 'http://localhost:3000' },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });

  const account = (userId: string) =>
    t.database.db
      .selectFrom('billing_accounts')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();

  const eventRows = (eventId: string) =>
    t.database.db.selectFrom('billing_events').selectAll().where('event_id', '=', eventId).execute();

  const eventCount = async () =>
    Number(
      (
        await t.database.db
          .selectFrom('billing_events')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  /** A trial user who subscribed through Stripe Checkout, its webhook applied. */
  const subscriber = async (plan = 'business', interval = 'monthly') => {
    const user = await signUpTestUser(t.app, { billing: 'trial' });
    const res = await api(user, 'POST', '/api/billing/checkout', { plan, interval });
    expect(res.statusCode, res.body).toBe(200);
    const url = res.json().url as string;
    expect(url.startsWith(`${fake.url}/c/pay/cs_test_`)).toBe(true);
    const paid = fake.completeCheckout(url.split('/').pop()!);
    const done = await send('checkout.session.completed', paid.session, { created: seconds() });
    expect(done.statusCode, done.body).toBe(200);
    return { user, ...paid };
  };

  it('applies a completed checkout: the account is on the paid plan with its card', async () => {
    const user = await signUpTestUser(t.app, { billing: 'trial' });
    expect((await api(user, 'GET', '/api/billing')).json()).toMatchObject({
      status: 'trialing',
      onTrial: true,
    });
    const res = await api(user, 'POST', '/api/billing/checkout', { plan: 'enterprise', interval: 'yearly' });
    expect(res.statusCode, res.body).toBe(200);
    const sent = fake.requestsTo('POST', '/v1/checkout/sessions').at(-1)!;
    expect(sent.params).toMatchObject({
      mode: 'subscription',
      client_reference_id: user.id,
      line_items: [{ price: 'price_enterprise_yearly', quantity: '1' }],
      subscription_data: { metadata: { userId: user.id } },
    });
    expect(fake.customers.get(sent.params.customer)?.metadata.userId).toBe(user.id);
    // Nothing changes until Stripe says the checkout was paid.
    expect((await api(user, 'GET', '/api/billing')).json().hasSubscription).toBe(false);
    const paid = fake.completeCheckout(res.json().url.split('/').pop());
    const hook = fake.webhook('checkout.session.completed', paid.session, { created: seconds() });
    const answer = await post(hook);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({ received: true });
    const overview = (await api(user, 'GET', '/api/billing')).json();
    expect(overview).toMatchObject({
      provider: 'stripe',
      status: 'active',
      plan: 'enterprise',
      interval: 'yearly',
      access: 'full',
      onTrial: false,
      hasSubscription: true,
      cancelAtPeriodEnd: false,
      paymentMethod: { brand: 'Visa', last4: '4242', expMonth: 12, expYear: 2034 },
    });
    expect(overview.currentPeriodEnd).toBe(
      new Date(paid.subscription.items.data[0].current_period_end * 1000).toISOString(),
    );
    expect(await eventRows(hook.id)).toMatchObject([
      { provider: 'stripe', type: 'checkout.session.completed', outcome: 'applied', user_id: user.id },
    ]);

    // Its invoice lands in the history, the PDF link going to Stripe's.
    expect((await send('invoice.paid', paid.invoice, { created: seconds() })).statusCode).toBe(200);
    const invoices = (await api(user, 'GET', '/api/billing/invoices')).json().invoices;
    expect(invoices).toEqual([
      expect.objectContaining({
        id: paid.invoice.id,
        number: paid.invoice.number,
        status: 'paid',
        currency: 'USD',
        amountPaid: 149000,
        pdfUrl: paid.invoice.invoice_pdf,
        hostedUrl: paid.invoice.hosted_invoice_url,
      }),
    ]);
    const pdf = await api(user, 'GET', `/api/billing/invoices/${paid.invoice.id}/pdf`);
    expect(pdf.statusCode).toBeGreaterThanOrEqual(300);
    expect(pdf.statusCode).toBeLessThan(400);
    expect(pdf.headers.location).toBe(paid.invoice.invoice_pdf);
  });

  it('refuses a forged, tampered, unsigned or old webhook with 400 and changes nothing', async () => {
    const { user, subscription } = await subscriber();
    const before = await account(user.id);
    const events = await eventCount();
    const canceled = { ...subscription, status: 'canceled', canceled_at: seconds() };
    const forged = fake.webhook('customer.subscription.deleted', canceled, {
      secret: 'whsec_not_the_real_one',
      created: seconds(60),
    });
    const genuine = fake.webhook('customer.subscription.deleted', canceled, { created: seconds(60) });
    const attempts = [
      forged,
      { payload: genuine.payload.replace('"canceled"', '"active"'), headers: genuine.headers },
      { payload: genuine.payload, headers: { 'content-type': 'application/json' } },
      { payload: genuine.payload, headers: { ...genuine.headers, 'stripe-signature': 't=1,v1=deadbeef' } },
      fake.webhook('customer.subscription.deleted', canceled, {
        created: seconds(60),
        timestamp: Math.floor(Date.now() / 1000) - 3600,
      }),
    ];
    for (const attempt of attempts) {
      const res = await post(attempt);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.code).toBe('webhook_signature');
      expect(res.json().error.message).toMatch(/not accepted/);
    }
    expect(await account(user.id)).toEqual(before);
    expect(await eventCount()).toBe(events);
    expect((await api(user, 'GET', '/api/billing')).json()).toMatchObject({
      status: 'active',
      hasSubscription: true,
    });
    // The genuine one is taken.
    expect((await post(genuine)).statusCode).toBe(200);
    expect((await api(user, 'GET', '/api/billing')).json()).toMatchObject({
      status: 'canceled',
      hasSubscription: false,
    });
  });

  it('applies a replayed event once', async () => {
    const { user, invoice } = await subscriber('personal', 'monthly');
    const failed = fake.webhook(
      'invoice.payment_failed',
      { ...invoice, id: 'in_replayed', status: 'open', amount_paid: 0 },
      { created: seconds(10) },
    );
    expect((await post(failed)).statusCode).toBe(200);
    const paid = fake.webhook('invoice.paid', { ...invoice, id: 'in_replayed' }, { created: seconds(20) });
    expect((await post(paid)).statusCode).toBe(200);
    // The failure delivered again (Stripe retries; an attacker replays): answered, not applied.
    const again = await post(failed);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ received: true });
    const listed = (await api(user, 'GET', '/api/billing/invoices')).json().invoices;
    expect(listed.find((i: { id: string }) => i.id === 'in_replayed')).toMatchObject({
      status: 'paid',
      amountPaid: 1900,
    });
    expect(await eventRows(failed.id)).toHaveLength(1);
  });

  it('keeps the newer state when an older subscription event arrives after it', async () => {
    const { user, subscription } = await subscriber();
    const end = subscription.items.data[0].current_period_end;
    const newer = fake.webhook(
      'customer.subscription.updated',
      { ...subscription, cancel_at_period_end: true, cancel_at: end, canceled_at: seconds(20) },
      { created: seconds(20) },
    );
    const older = fake.webhook(
      'customer.subscription.updated',
      { ...subscription, status: 'past_due' },
      { created: seconds(10) },
    );
    expect((await post(newer)).statusCode).toBe(200);
    expect((await api(user, 'GET', '/api/billing')).json()).toMatchObject({
      status: 'active',
      cancelAtPeriodEnd: true,
    });
    const late = await post(older);
    expect(late.statusCode).toBe(200);
    expect(await eventRows(older.id)).toMatchObject([{ outcome: 'stale', user_id: user.id }]);
    expect((await api(user, 'GET', '/api/billing')).json()).toMatchObject({
      status: 'active',
      cancelAtPeriodEnd: true,
    });
  });

  it('acknowledges an event about an unknown customer and ignores it', async () => {
    const { subscription } = await subscriber();
    const stranger = { ...subscription, id: 'sub_stranger', customer: 'cus_stranger', metadata: {} };
    const before = await t.database.db
      .selectFrom('billing_accounts')
      .selectAll()
      .orderBy('user_id')
      .execute();
    const hook = fake.webhook('customer.subscription.updated', stranger, { created: seconds(30) });
    const res = await post(hook);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ received: true });
    expect(await eventRows(hook.id)).toMatchObject([{ outcome: 'ignored', user_id: null }]);
    expect(
      await t.database.db.selectFrom('billing_accounts').selectAll().orderBy('user_id').execute(),
    ).toEqual(before);
    // An event type Kontor does not use is acknowledged too.
    const other = await send('charge.refunded', { id: 'ch_1', object: 'charge' });
    expect(other.statusCode).toBe(200);
  });

  it('follows Stripe through failed renewal, recovery and deletion', async () => {
    const { user, subscription } = await subscriber('business', 'yearly');
    expect(
      (
        await send(
          'customer.subscription.updated',
          { ...subscription, status: 'past_due' },
          { created: seconds(10) },
        )
      ).statusCode,
    ).toBe(200);
    expect((await api(user, 'GET', '/api/billing')).json()).toMatchObject({
      status: 'past_due',
      access: 'full',
    });
    expect(
      (
        await send(
          'customer.subscription.updated',
          { ...subscription, status: 'unpaid' },
          { created: seconds(20) },
        )
      ).statusCode,
    ).toBe(200);
    expect((await api(user, 'GET', '/api/billing')).json()).toMatchObject({
      status: 'unpaid',
      access: 'read_only',
    });
    expect(
      (
        await send(
          'customer.subscription.updated',
          { ...subscription, status: 'active' },
          { created: seconds(30) },
        )
      ).statusCode,
    ).toBe(200);
    expect((await api(user, 'GET', '/api/billing')).json()).toMatchObject({
      status: 'active',
      access: 'full',
    });
    const deleted = { ...subscription, status: 'canceled', canceled_at: seconds(40), ended_at: seconds(40) };
    expect((await send('customer.subscription.deleted', deleted, { created: seconds(40) })).statusCode).toBe(
      200,
    );
    expect((await api(user, 'GET', '/api/billing')).json()).toMatchObject({
      status: 'canceled',
      hasSubscription: false,
    });
  });

  it('changes plan, cancels and resumes through Stripe from the billing routes', async () => {
    const { user, subscription } = await subscriber('personal', 'monthly');
    t.clock.advance(5_000);
    const changed = await api(user, 'POST', '/api/billing/change', { plan: 'business', interval: 'monthly' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ plan: 'business', interval: 'monthly', status: 'active' });
    expect(fake.requestsTo('POST', `/v1/subscriptions/${subscription.id}`).at(-1)!.params).toMatchObject({
      items: [{ id: subscription.items.data[0].id, price: 'price_business_monthly' }],
      proration_behavior: 'create_prorations',
    });
    t.clock.advance(5_000);
    const cancel = await api(user, 'POST', '/api/billing/cancel');
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json()).toMatchObject({ cancelAtPeriodEnd: true, status: 'active' });
    expect(fake.subscriptions.get(subscription.id)!.cancel_at_period_end).toBe(true);
    t.clock.advance(5_000);
    const resume = await api(user, 'POST', '/api/billing/resume');
    expect(resume.statusCode, resume.body).toBe(200);
    expect(resume.json()).toMatchObject({ cancelAtPeriodEnd: false });
    expect(fake.subscriptions.get(subscription.id)!.cancel_at_period_end).toBe(false);
    const portal = await api(user, 'POST', '/api/billing/portal');
    expect(portal.statusCode, portal.body).toBe(200);
    expect(portal.json().url.startsWith(`${fake.url}/p/session/bps_`)).toBe(true);
    expect(fake.requestsTo('POST', '/v1/billing_portal/sessions').at(-1)!.params.customer).toBe(
      subscription.customer,
    );
  });
});

describe('Stripe webhooks without STRIPE_WEBHOOK_SECRET', () => {
  let fake: FakeStripe;
  let t: Awaited<ReturnType<typeof createTestApp>>;

  beforeAll(async () => {
    fake = await startFakeStripe();
    const { STRIPE_WEBHOOK_SECRET: _secret, ...env } = fake.env;
    t = await createTestApp({ env });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it('refuses every webhook with 400 saying the secret is not set', async () => {
    const hook = fake.webhook('customer.updated', { id: 'cus_1', object: 'customer', metadata: {} });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/billing/webhook',
      headers: hook.headers,
      payload: hook.payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('webhook_not_configured');
    expect(res.json().error.message).toContain('STRIPE_WEBHOOK_SECRET');
    expect(await t.database.db.selectFrom('billing_events').selectAll().execute()).toEqual([]);
  });
});
