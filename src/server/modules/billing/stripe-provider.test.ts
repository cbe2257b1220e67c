import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/errors.ts';
import type { StripeSettings } from '../../config.ts';
import { type FakeStripe, parseStripeForm, startFakeStripe } from '../../testing/fake-stripe.ts';
import type { BillingCustomer, BillingEvent, BillingProvider } from './provider.ts';
import { couponIdFor, createStripeProvider } from './stripe-provider.ts';

// The Stripe provider drives the real `stripe` SDK against the local fake Stripe API
// (src/server/testing/fake-stripe.ts): what the SDK sends, what Kontor makes of Stripe's
// answers and webhooks, and how refusals reach the person as 4xx.

const caught = async (run: () => unknown): Promise<AppError> => {
  try {
    await run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('expected an AppError');
};

describe('parseStripeForm', () => {
  it('reads bracketed keys back into objects and arrays', () => {
    expect(
      parseStripeForm(
        new URLSearchParams(
          'mode=subscription&line_items[0][price]=p&line_items[0][quantity]=1&expand[0]=a&expand[1]=b&subscription_data[metadata][userId]=u',
        ),
      ),
    ).toEqual({
      mode: 'subscription',
      line_items: [{ price: 'p', quantity: '1' }],
      expand: ['a', 'b'],
      subscription_data: { metadata: { userId: 'u' } },
    });
  });
});

describe('Stripe provider (real SDK, fake Stripe API)', () => {
  let fake: FakeStripe;
  let provider: BillingProvider;
  const warnings: { message: string; details: Record<string, unknown> }[] = [];
  let n = 0;
  const user = (): BillingCustomer => {
    n += 1;
    return {
      userId: `user-${n}`,
      email: `user${n}@example.test`,
      name: `User ${n}`,
      customerId: null,
      subscriptionId: null,
    };
  };
  const urls = {
    successUrl: 'http://localhost:3000/billing?checkout=done',
    cancelUrl: 'http://localhost:3000/billing',
  };

  /** A customer with a paid checkout on `plan`/`interval`: the fake's objects. */
  const subscribed = async (
    plan: 'personal' | 'business' | 'enterprise' = 'business',
    interval: 'monthly' | 'yearly' = 'monthly',
  ) => {
    const u = user();
    const customerId = await provider.ensureCustomer(u);
    const { url } = await provider.createCheckout(
      { ...u, customerId },
      { plan, interval, percentOff: null, ...urls },
    );
    const sessionId = url.split('/').pop()!;
    return { user: u, customerId, ...fake.completeCheckout(sessionId) };
  };

  const parse = (
    type: string,
    object: Record<string, unknown>,
    options?: Parameters<FakeStripe['webhook']>[2],
  ) => {
    const hook = fake.webhook(type, object, options);
    return provider.parseWebhook(Buffer.from(hook.payload), hook.headers) as Promise<BillingEvent>;
  };

  beforeAll(async () => {
    fake = await startFakeStripe();
    provider = createStripeProvider(fake.settings, {
      log: { warn: (details, message) => warnings.push({ message, details }) },
    });
  });
  afterAll(async () => {
    await fake.close();
  });
  beforeEach(() => {
    warnings.length = 0;
  });

  it('describes itself: test mode, six prices and the webhook secret', () => {
    expect(provider.name).toBe('stripe');
    expect(provider.describe()).toEqual({
      ready: true,
      detail: 'Stripe (test mode), 6 of 6 prices, webhook signing secret set',
      pricesConfigured: 6,
      webhookSecretSet: true,
    });
    const partial = createStripeProvider({
      ...fake.settings,
      webhookSecret: null,
      prices: { ...fake.settings.prices, enterprise: { monthly: 'price_x', yearly: null } },
    });
    const described = partial.describe();
    expect(described.ready).toBe(false);
    expect(described.pricesConfigured).toBe(5);
    expect(described.webhookSecretSet).toBe(false);
    expect(described.detail).toContain('STRIPE_PRICE_ENTERPRISE_YEARLY');
    expect(described.detail).toContain('STRIPE_WEBHOOK_SECRET');
  });

  it('makes one customer per user, carrying the user id, and reuses an existing one', async () => {
    const u = user();
    const before = fake.requestsTo('POST', '/v1/customers').length;
    const [a, b] = await Promise.all([provider.ensureCustomer(u), provider.ensureCustomer(u)]);
    expect(a).toMatch(/^cus_/);
    expect(b).toBe(a);
    const sent = fake.requestsTo('POST', '/v1/customers').slice(before);
    expect(sent).toHaveLength(2);
    expect(sent[0]!.params).toEqual({ email: u.email, name: u.name, metadata: { userId: u.userId } });
    expect(sent[0]!.headers['idempotency-key']).toBe(`kontor-customer-${u.userId}`);
    expect([...fake.customers.values()].filter((c) => c.metadata.userId === u.userId)).toHaveLength(1);
    expect(await provider.ensureCustomer({ ...u, customerId: a })).toBe(a);
    expect(fake.requestsTo('POST', '/v1/customers').length).toBe(before + 2);
  });

  it('starts a subscription Checkout Session on the configured price', async () => {
    const u = user();
    const customerId = await provider.ensureCustomer(u);
    const { url } = await provider.createCheckout(
      { ...u, customerId },
      { plan: 'enterprise', interval: 'yearly', percentOff: null, ...urls },
    );
    const sent = fake.requestsTo('POST', '/v1/checkout/sessions').at(-1)!;
    expect(sent.params).toEqual({
      mode: 'subscription',
      customer: customerId,
      client_reference_id: u.userId,
      line_items: [{ price: 'price_enterprise_yearly', quantity: '1' }],
      success_url: urls.successUrl,
      cancel_url: urls.cancelUrl,
      subscription_data: { metadata: { userId: u.userId } },
      metadata: { userId: u.userId, plan: 'enterprise', interval: 'yearly' },
    });
    const session = [...fake.checkoutSessions.values()].at(-1)!;
    expect(url).toBe(session.url);
    expect(url).toMatch(/\/c\/pay\/cs_test_/);
  });

  it('applies a discount through one forever coupon per percentage, reused by later checkouts', async () => {
    const before = fake.requestsTo('POST', '/v1/coupons').length;
    for (let i = 0; i < 2; i += 1) {
      const u = user();
      const customerId = await provider.ensureCustomer(u);
      await provider.createCheckout(
        { ...u, customerId },
        { plan: 'personal', interval: 'monthly', percentOff: 25, ...urls },
      );
      const sent = fake.requestsTo('POST', '/v1/checkout/sessions').at(-1)!;
      expect(sent.params.discounts).toEqual([{ coupon: couponIdFor(25) }]);
    }
    const couponCalls = fake.requestsTo('POST', '/v1/coupons').slice(before);
    expect(couponCalls).toHaveLength(2);
    expect(couponCalls[0]!.params).toMatchObject({
      id: couponIdFor(25),
      percent_off: '25',
      duration: 'forever',
    });
    expect([...fake.coupons.keys()].filter((id) => id === couponIdFor(25))).toHaveLength(1);
    // The paid first invoice is discounted.
    const session = [...fake.checkoutSessions.values()].at(-1)!;
    expect(fake.completeCheckout(session.id).invoice.amount_paid).toBe(1425);
  });

  it('refuses a plan without a price with a 400 naming the variable, and calls nothing', async () => {
    const partial = createStripeProvider({
      ...fake.settings,
      prices: { ...fake.settings.prices, business: { monthly: 'price_business_monthly', yearly: null } },
    });
    const u = user();
    const customerId = await partial.ensureCustomer(u);
    const before = fake.requests.length;
    const error = await caught(() =>
      partial.createCheckout(
        { ...u, customerId },
        { plan: 'business', interval: 'yearly', percentOff: null, ...urls },
      ),
    );
    expect(error.status).toBe(400);
    expect(error.code).toBe('price_not_configured');
    expect(error.message).toContain('STRIPE_PRICE_BUSINESS_YEARLY');
    const changeError = await caught(() => partial.changePlan('sub_whatever', 'business', 'yearly'));
    expect(changeError.status).toBe(400);
    expect(changeError.message).toContain('STRIPE_PRICE_BUSINESS_YEARLY');
    expect(fake.requests.length).toBe(before);
  });

  it('refuses a discount that is not a whole percentage from 1 to 100', async () => {
    const u = user();
    const customerId = await provider.ensureCustomer(u);
    const before = fake.requests.length;
    for (const percentOff of [0, 101, 12.5]) {
      const error = await caught(() =>
        provider.createCheckout(
          { ...u, customerId },
          { plan: 'personal', interval: 'monthly', percentOff, ...urls },
        ),
      );
      expect(error.status).toBe(400);
    }
    expect(fake.requests.length).toBe(before);
  });

  it('opens the Customer Portal for the customer with the return URL', async () => {
    const u = user();
    const customerId = await provider.ensureCustomer(u);
    const { url } = await provider.createPortal({ ...u, customerId }, 'http://localhost:3000/billing');
    expect(fake.requestsTo('POST', '/v1/billing_portal/sessions').at(-1)!.params).toEqual({
      customer: customerId,
      return_url: 'http://localhost:3000/billing',
    });
    expect(url).toMatch(/\/p\/session\/bps_/);
    const unknown = await caught(() =>
      provider.createPortal({ ...u, customerId: 'cus_nosuch' }, 'http://x/'),
    );
    expect(unknown.status).toBe(400);
    expect(unknown.code).toBe('stripe_request');
  });

  it('changes plan by swapping the item price with prorations, and answers the new state', async () => {
    const { subscription } = await subscribed('business', 'monthly');
    const itemId = subscription.items.data[0].id;
    const snapshot = await provider.changePlan(subscription.id, 'enterprise', 'monthly');
    const sent = fake.requestsTo('POST', `/v1/subscriptions/${subscription.id}`).at(-1)!;
    expect(sent.params).toEqual({
      items: [{ id: itemId, price: 'price_enterprise_monthly' }],
      proration_behavior: 'create_prorations',
      expand: ['default_payment_method'],
    });
    expect(fake.prorations.at(-1)).toEqual({
      subscription: subscription.id,
      fromPrice: 'price_business_monthly',
      toPrice: 'price_enterprise_monthly',
      behavior: 'create_prorations',
    });
    expect(snapshot).toMatchObject({
      subscriptionId: subscription.id,
      customerId: subscription.customer,
      status: 'active',
      plan: 'enterprise',
      interval: 'monthly',
      cancelAtPeriodEnd: false,
      paymentMethod: { brand: 'Visa', last4: '4242', expMonth: 12, expYear: 2034 },
    });
    const yearly = await provider.changePlan(subscription.id, 'enterprise', 'yearly');
    expect(yearly.interval).toBe('yearly');
    expect(yearly.currentPeriodEnd!.getTime() - Date.now()).toBeGreaterThan(300 * 24 * 3600 * 1000);
  });

  it('cancels at the period end and resumes', async () => {
    const { subscription } = await subscribed('personal', 'yearly');
    const canceled = await provider.setCancelAtPeriodEnd(subscription.id, true);
    expect(fake.requestsTo('POST', `/v1/subscriptions/${subscription.id}`).at(-1)!.params).toEqual({
      cancel_at_period_end: 'true',
      expand: ['default_payment_method'],
    });
    expect(canceled).toMatchObject({
      status: 'active',
      plan: 'personal',
      interval: 'yearly',
      cancelAtPeriodEnd: true,
    });
    expect(canceled.currentPeriodEnd).toEqual(new Date(subscription.items.data[0].current_period_end * 1000));
    const resumed = await provider.setCancelAtPeriodEnd(subscription.id, false);
    expect(
      fake.requestsTo('POST', `/v1/subscriptions/${subscription.id}`).at(-1)!.params.cancel_at_period_end,
    ).toBe('false');
    expect(resumed.cancelAtPeriodEnd).toBe(false);
    expect(fake.subscriptions.get(subscription.id)!.cancel_at_period_end).toBe(false);
  });

  it('says why Stripe refused: a declined card is 402, a refused request 400, Stripe down 503', async () => {
    const { subscription } = await subscribed();
    fake.failNext({
      status: 402,
      type: 'card_error',
      code: 'card_declined',
      message: 'Your card was declined.',
    });
    const card = await caught(() => provider.setCancelAtPeriodEnd(subscription.id, true));
    expect(card).toMatchObject({ status: 402, code: 'card_declined', message: 'Your card was declined.' });
    const missing = await caught(() => provider.setCancelAtPeriodEnd('sub_nosuch', true));
    expect(missing.status).toBe(400);
    expect(missing.message).toContain("No such subscription: 'sub_nosuch'");
    fake.updateSubscription(subscription.id, { status: 'canceled' });
    const ended = await caught(() => provider.changePlan(subscription.id, 'personal', 'monthly'));
    expect(ended.status).toBe(400);
    fake.failNext({ status: 500, type: 'api_error', message: 'Something went wrong.' }, 2);
    const down = await caught(() => provider.ensureCustomer(user()));
    expect(down).toMatchObject({ status: 503, code: 'billing_unavailable' });
    const wrongKey = createStripeProvider({ ...fake.settings, secretKey: 'sk_test_wrong' });
    expect(await caught(() => wrongKey.ensureCustomer(user()))).toMatchObject({
      status: 503,
      code: 'billing_unavailable',
    });
  });

  describe('webhooks', () => {
    it('reads a subscription event into a snapshot, with the card and the user from metadata', async () => {
      const { subscription, user: u, customerId } = await subscribed('business', 'yearly');
      const created = Math.floor(Date.now() / 1000) - 30;
      const event = await parse('customer.subscription.updated', subscription, { id: 'evt_sub_1', created });
      expect(event).toEqual({
        provider: 'stripe',
        id: 'evt_sub_1',
        type: 'customer.subscription.updated',
        createdAt: new Date(created * 1000),
        customerId,
        userId: u.userId,
        kind: 'subscription',
        subscription: {
          subscriptionId: subscription.id,
          customerId,
          status: 'active',
          plan: 'business',
          interval: 'yearly',
          currentPeriodEnd: new Date(subscription.items.data[0].current_period_end * 1000),
          cancelAtPeriodEnd: false,
          canceledAt: null,
          trialEnd: null,
          paymentMethod: { brand: 'Visa', last4: '4242', expMonth: 12, expYear: 2034 },
        },
      });
      // The card id was read from Stripe.
      expect(
        fake.requestsTo('GET', `/v1/payment_methods/${subscription.default_payment_method}`).length,
      ).toBeGreaterThan(0);
      const deleted = await parse('customer.subscription.deleted', { ...subscription, status: 'canceled' });
      expect(deleted.kind).toBe('subscription_deleted');
      if (deleted.kind === 'subscription_deleted') expect(deleted.subscription.status).toBe('canceled');
    });

    it('maps every Stripe status, incomplete_expired to canceled and paused to unpaid', async () => {
      const { subscription } = await subscribed();
      const expected: Record<string, string> = {
        trialing: 'trialing',
        active: 'active',
        past_due: 'past_due',
        canceled: 'canceled',
        unpaid: 'unpaid',
        incomplete: 'incomplete',
        incomplete_expired: 'canceled',
        paused: 'unpaid',
      };
      for (const [stripeStatus, status] of Object.entries(expected)) {
        const event = await parse('customer.subscription.updated', { ...subscription, status: stripeStatus });
        expect(event.kind === 'subscription' && event.subscription.status).toBe(status);
      }
    });

    it('reads a portal cancellation given as cancel_at at the period end as cancel at period end', async () => {
      const { subscription } = await subscribed();
      const end = subscription.items.data[0].current_period_end;
      const event = await parse('customer.subscription.updated', { ...subscription, cancel_at: end });
      expect(event.kind === 'subscription' && event.subscription.cancelAtPeriodEnd).toBe(true);
    });

    it('makes an event on an unknown price kind other, with a warning, never a crash', async () => {
      const { subscription } = await subscribed();
      const foreign = structuredClone(subscription);
      foreign.items.data[0].price.id = 'price_from_another_product';
      const event = await parse('customer.subscription.updated', foreign);
      expect(event.kind).toBe('other');
      expect(event.customerId).toBe(subscription.customer);
      expect(warnings.map((w) => w.message).join('\n')).toContain('STRIPE_PRICE_');
    });

    it('reads a completed checkout by retrieving its subscription', async () => {
      const { session, subscription, user: u } = await subscribed('personal', 'monthly');
      const before = fake.requestsTo('GET', `/v1/subscriptions/${subscription.id}`).length;
      const event = await parse('checkout.session.completed', session);
      expect(fake.requestsTo('GET', `/v1/subscriptions/${subscription.id}`).length).toBe(before + 1);
      expect(fake.requestsTo('GET', `/v1/subscriptions/${subscription.id}`).at(-1)!.params).toEqual({
        expand: ['default_payment_method'],
      });
      expect(event).toMatchObject({
        kind: 'subscription',
        userId: u.userId,
        customerId: subscription.customer,
        subscription: {
          subscriptionId: subscription.id,
          plan: 'personal',
          interval: 'monthly',
          status: 'active',
        },
      });
      const payment = await parse('checkout.session.completed', {
        ...session,
        mode: 'payment',
        subscription: null,
      });
      expect(payment.kind).toBe('other');
    });

    it('reads invoices, payment methods and the customer’s default card; other types are kind other', async () => {
      const { invoice, paymentMethod, user: u, customerId } = await subscribed('enterprise', 'monthly');
      for (const type of ['invoice.paid', 'invoice.payment_failed', 'invoice.finalized']) {
        const event = await parse(type, invoice);
        expect(event).toMatchObject({ kind: 'invoice', customerId, userId: u.userId, type });
      }
      const paid = await parse('invoice.paid', invoice);
      expect(paid.kind === 'invoice' && paid.invoice).toEqual({
        invoiceId: invoice.id,
        customerId,
        number: invoice.number,
        status: 'paid',
        currency: 'USD',
        amountDue: 14900,
        amountPaid: 14900,
        description: '1 × Kontor Enterprise (monthly)',
        periodStart: new Date(invoice.lines.data[0].period.start * 1000),
        periodEnd: new Date(invoice.lines.data[0].period.end * 1000),
        createdAt: new Date(invoice.created * 1000),
        hostedUrl: invoice.hosted_invoice_url,
        pdfUrl: invoice.invoice_pdf,
      });
      const attached = await parse('payment_method.attached', {
        ...paymentMethod,
        card: { ...paymentMethod.card, brand: 'mastercard', last4: '4444', exp_month: 3, exp_year: 2031 },
      });
      expect(attached).toMatchObject({
        kind: 'payment_method',
        customerId,
        paymentMethod: { brand: 'Mastercard', last4: '4444', expMonth: 3, expYear: 2031 },
      });
      const noDefault = await parse('customer.updated', fake.snapshot(fake.customers.get(customerId)!));
      expect(noDefault).toMatchObject({ kind: 'other', customerId });
      // The portal made the card the customer's default.
      fake.customers.get(customerId)!.invoice_settings.default_payment_method = paymentMethod.id;
      const customer = fake.snapshot(fake.customers.get(customerId)!);
      const updated = await parse('customer.updated', customer);
      expect(updated).toMatchObject({
        kind: 'payment_method',
        customerId,
        userId: u.userId,
        paymentMethod: { brand: 'Visa', last4: '4242' },
      });
      const other = await parse('charge.refunded', { id: 'ch_1', object: 'charge' }, { id: 'evt_other' });
      expect(other).toMatchObject({
        kind: 'other',
        id: 'evt_other',
        type: 'charge.refunded',
        customerId: null,
      });
    });

    it('refuses a missing, forged or old signature and a malformed body with 400 webhook_signature', async () => {
      const { subscription } = await subscribed();
      const hook = fake.webhook('customer.subscription.updated', subscription);
      const body = Buffer.from(hook.payload);
      const noHeader = await caught(() => provider.parseWebhook(body, {}));
      expect(noHeader).toMatchObject({ status: 400, code: 'webhook_signature' });
      const forged = fake.webhook('customer.subscription.updated', subscription, { secret: 'whsec_forged' });
      expect(
        await caught(() => provider.parseWebhook(Buffer.from(forged.payload), forged.headers)),
      ).toMatchObject({
        status: 400,
        code: 'webhook_signature',
      });
      // The body changed after signing.
      const tampered = Buffer.from(hook.payload.replace('"active"', '"canceled"'));
      expect(await caught(() => provider.parseWebhook(tampered, hook.headers))).toMatchObject({
        status: 400,
        code: 'webhook_signature',
      });
      const old = fake.webhook('customer.subscription.updated', subscription, {
        timestamp: Math.floor(Date.now() / 1000) - 600,
      });
      const oldError = await caught(() => provider.parseWebhook(Buffer.from(old.payload), old.headers));
      expect(oldError).toMatchObject({ status: 400, code: 'webhook_signature' });
      expect(oldError.message).toContain('timestamp');
      const garbage = await caught(() =>
        provider.parseWebhook(Buffer.from(hook.payload), { 'stripe-signature': 'garbage' }),
      );
      expect(garbage).toMatchObject({ status: 400, code: 'webhook_signature' });
      expect(garbage.message).toContain('signature does not match');
      // Still accepted when untouched.
      expect((await provider.parseWebhook(body, hook.headers)).kind).toBe('subscription');
    });

    it('refuses every webhook, explaining why, when STRIPE_WEBHOOK_SECRET is not set', async () => {
      const unsigned = createStripeProvider({
        ...fake.settings,
        webhookSecret: null,
      } satisfies StripeSettings);
      const hook = fake.webhook('customer.updated', { id: 'cus_1', object: 'customer' });
      const error = await caught(() => unsigned.parseWebhook(Buffer.from(hook.payload), hook.headers));
      expect(error).toMatchObject({ status: 400, code: 'webhook_not_configured' });
      expect(error.message).toContain('STRIPE_WEBHOOK_SECRET');
    });

    it('refuses a signed body that is not a Stripe event', async () => {
      const payload = JSON.stringify({ hello: 'world' });
      const { headers } = fake.webhook('x', {});
      const header = (await import('stripe')).default.webhooks.generateTestHeaderString({
        payload,
        secret: fake.webhookSecret,
      });
      const error = await caught(() =>
        provider.parseWebhook(Buffer.from(payload), { ...headers, 'stripe-signature': header }),
      );
      expect(error).toMatchObject({ status: 400, code: 'webhook_payload' });
      const notJson = 'not json at all';
      const signed = (await import('stripe')).default.webhooks.generateTestHeaderString({
        payload: notJson,
        secret: fake.webhookSecret,
      });
      expect(
        await caught(() => provider.parseWebhook(Buffer.from(notJson), { 'stripe-signature': signed })),
      ).toMatchObject({ status: 400, code: 'webhook_payload' });
    });
  });
});
