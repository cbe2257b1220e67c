import { beforeEach, describe, expect, it } from 'vitest';
import { setUpTestApp } from '../../testing/per-file-app.ts';
import { type TestUser, cookieFrom, signUpTestUser, testClientIp } from '../../testing/users.ts';
import { applyBillingEvent } from './events.ts';
import type { BillingEvent, SubscriptionSnapshot } from './provider.ts';

// Billing through the API with the local provider: the trial from sign-up, checkout with the
// test cards, proration, cancel and resume, the period's end, invoices and their PDFs, the
// webhook without Stripe, and events applied once, in order.

const DAY = 86_400_000;
const T0 = new Date('2027-01-15T12:00:00.000Z');

describe('billing (local provider)', () => {
  const t = setUpTestApp();
  beforeEach(() => t.clock.set(T0));

  const call = async (user: TestUser, method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await t.app.inject({
      method,
      url: `/api${url}`,
      headers: { cookie: user.cookie },
      ...(payload ? { payload } : {}),
    });
    return { status: res.statusCode, body: res.body ? res.json() : undefined };
  };
  const ok = async (user: TestUser, method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await call(user, method, url, payload);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const refused = async (
    user: TestUser,
    method: 'GET' | 'POST',
    url: string,
    payload: object | undefined,
    status: number,
    code?: string,
  ) => {
    const res = await call(user, method, url, payload);
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    if (code) expect(res.body.error.code).toBe(code);
    return res.body;
  };
  const accountRow = (userId: string) =>
    t.database.db
      .selectFrom('billing_accounts')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
  const card = (cardNumber: string, expiry = '12/30') => ({ cardNumber, expiry, cvc: '123' });
  const trialUser = () => signUpTestUser(t.app, { billing: 'trial' });

  /** A user subscribed to `plan`/`interval` through the local checkout with 4242…. */
  const subscribed = async (plan = 'business', interval = 'monthly') => {
    const user = await trialUser();
    const { url } = await ok(user, 'POST', '/billing/checkout', { plan, interval });
    const id = new URL(url, 'http://x').searchParams.get('checkout')!;
    const paid = await ok(user, 'POST', `/billing/checkout-sessions/${id}/pay`, card('4242 4242 4242 4242'));
    expect(paid.status).toBe('complete');
    return { user, sessionId: id };
  };

  it('starts the trial on the plan chosen at sign-up (personal yearly), 14 days long', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: { origin: 'http://localhost:3000', 'x-forwarded-for': testClientIp(9001) },
      payload: {
        email: `planned-${Date.now()}@example.com`,
        password: 'Correct-Horse-9',
        name: 'Pat Planner',
        plan: { plan: 'personal', interval: 'yearly' },
      },
    });
    expect(res.statusCode).toBe(200);
    const user = { cookie: cookieFrom(res.headers['set-cookie']) } as TestUser;
    const overview = await ok(user, 'GET', '/billing');
    expect(overview).toMatchObject({
      plan: 'personal',
      interval: 'yearly',
      status: 'trialing',
      onTrial: true,
      access: 'full',
      trialDaysLeft: 14,
      trialEndsAt: new Date(T0.getTime() + 14 * DAY).toISOString(),
      hasSubscription: false,
      paymentMethod: null,
    });
    expect(overview.usage.map((u: { key: string }) => u.key)).toEqual([
      'companies',
      'members',
      'invoicesPerMonth',
      'bankFeeds',
      'storageBytes',
    ]);
    expect(overview.usage[0]).toMatchObject({ used: 0, limit: 1 });
  });

  it('gives Business monthly when sign-up names no plan or an unknown one', async () => {
    for (const [n, plan] of [
      [9002, undefined],
      [9003, { plan: 'gold', interval: 'weekly' }],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/sign-up/email',
        headers: { origin: 'http://localhost:3000', 'x-forwarded-for': testClientIp(n) },
        payload: {
          email: `default-${n}-${Date.now()}@example.com`,
          password: 'Correct-Horse-9',
          name: 'Dee Fault',
          ...(plan ? { plan } : {}),
        },
      });
      expect(res.statusCode).toBe(200);
      const row = await accountRow(res.json().user.id);
      expect([row.plan, row.interval, row.status]).toEqual(['business', 'monthly', 'trialing']);
    }
  });

  it('is read-only once the trial ends without a subscription, and the billing routes still work', async () => {
    const user = await trialUser();
    t.clock.advance(14 * DAY + 1000);
    const overview = await ok(user, 'GET', '/billing');
    expect(overview).toMatchObject({ access: 'read_only', onTrial: false, trialDaysLeft: 0 });
    expect(overview.readOnlyReason).toMatch(/read-only/);
    expect(
      (await ok(user, 'POST', '/billing/checkout', { plan: 'personal', interval: 'monthly' })).url,
    ).toMatch(/^\/billing\?checkout=lcs_/);
  });

  it('changes the trial plan and interval; an unknown plan is a 400 that changes nothing', async () => {
    const user = await trialUser();
    const changed = await ok(user, 'POST', '/billing/change', { plan: 'enterprise', interval: 'yearly' });
    expect(changed).toMatchObject({ plan: 'enterprise', interval: 'yearly', status: 'trialing' });
    const before = await accountRow(user.id);
    await refused(user, 'POST', '/billing/change', { plan: 'gold', interval: 'monthly' }, 400);
    await refused(user, 'POST', '/billing/change', { plan: 'personal', interval: 'weekly' }, 400);
    await refused(user, 'POST', '/billing/checkout', { plan: 'gold', interval: 'monthly' }, 400);
    await refused(
      user,
      'POST',
      '/billing/change',
      { plan: 'enterprise', interval: 'yearly' },
      409,
      'plan_unchanged',
    );
    expect(await accountRow(user.id)).toEqual(before);
  });

  it('refuses cancel and resume without a subscription, changing nothing', async () => {
    const user = await trialUser();
    const before = await accountRow(user.id);
    await refused(user, 'POST', '/billing/cancel', undefined, 409, 'no_subscription');
    await refused(user, 'POST', '/billing/resume', undefined, 409, 'no_subscription');
    expect(await accountRow(user.id)).toEqual(before);
  });

  it('subscribes through the checkout with 4242…: active, a month, the first invoice and the card', async () => {
    const user = await trialUser();
    const { url } = await ok(user, 'POST', '/billing/checkout', { plan: 'business', interval: 'monthly' });
    const id = new URL(url, 'http://x').searchParams.get('checkout')!;
    expect(await ok(user, 'GET', `/billing/checkout-sessions/${id}`)).toEqual({
      id,
      plan: 'business',
      interval: 'monthly',
      currency: 'USD',
      amount: 4900,
      percentOff: null,
      status: 'open',
      failure: null,
    });
    const paid = await ok(user, 'POST', `/billing/checkout-sessions/${id}/pay`, card('4242-4242-4242-4242'));
    expect(paid.status).toBe('complete');
    const overview = await ok(user, 'GET', '/billing');
    expect(overview).toMatchObject({
      plan: 'business',
      interval: 'monthly',
      status: 'active',
      access: 'full',
      onTrial: false,
      hasSubscription: true,
      cancelAtPeriodEnd: false,
      currentPeriodEnd: '2027-02-15T12:00:00.000Z',
      paymentMethod: { brand: 'visa', last4: '4242', expMonth: 12, expYear: 2030 },
    });
    const { invoices } = await ok(user, 'GET', '/billing/invoices');
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({
      status: 'paid',
      currency: 'USD',
      amountDue: 4900,
      amountPaid: 4900,
      periodStart: T0.toISOString(),
      periodEnd: '2027-02-15T12:00:00.000Z',
      pdfUrl: `/api/billing/invoices/${invoices[0].id}/pdf`,
    });
    expect(invoices[0].number).toMatch(/^KB-\d{6}$/);
    const pdf = await t.app.inject({
      method: 'GET',
      url: invoices[0].pdfUrl,
      headers: { cookie: user.cookie },
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.rawPayload.toString('latin1')).toContain(invoices[0].number);

    // Paying it again, or starting another checkout while subscribed: refused, nothing changes.
    const before = await accountRow(user.id);
    await refused(
      user,
      'POST',
      `/billing/checkout-sessions/${id}/pay`,
      card('4242424242424242'),
      409,
      'checkout_complete',
    );
    await refused(
      user,
      'POST',
      '/billing/checkout',
      { plan: 'enterprise', interval: 'monthly' },
      409,
      'already_subscribed',
    );
    expect(await accountRow(user.id)).toEqual(before);
    expect((await ok(user, 'GET', '/billing/invoices')).invoices).toHaveLength(1);

    // Another user sees neither the session nor the invoice.
    const other = await trialUser();
    await refused(other, 'GET', `/billing/checkout-sessions/${id}`, undefined, 404);
    await refused(other, 'POST', `/billing/checkout-sessions/${id}/pay`, card('4242424242424242'), 404);
    await refused(other, 'GET', `/billing/invoices/${invoices[0].id}/pdf`, undefined, 404);
    expect((await ok(other, 'GET', '/billing')).status).toBe('trialing');
  });

  it('declines 4000 0000 0000 0002 and lets the customer try again', async () => {
    const user = await trialUser();
    const { url } = await ok(user, 'POST', '/billing/checkout', { plan: 'personal', interval: 'yearly' });
    const id = new URL(url, 'http://x').searchParams.get('checkout')!;
    const declined = await ok(
      user,
      'POST',
      `/billing/checkout-sessions/${id}/pay`,
      card('4000 0000 0000 0002'),
    );
    expect(declined).toMatchObject({ status: 'failed', failure: 'Your card was declined.', amount: 19000 });
    expect((await ok(user, 'GET', '/billing')).status).toBe('trialing');
    expect((await ok(user, 'GET', '/billing/invoices')).invoices).toEqual([]);
    expect(
      (await ok(user, 'POST', `/billing/checkout-sessions/${id}/pay`, card('4242424242424242'))).status,
    ).toBe('complete');
    expect(await ok(user, 'GET', '/billing')).toMatchObject({
      status: 'active',
      plan: 'personal',
      interval: 'yearly',
    });
  });

  it('asks 4000 0025 0000 3155 to authenticate: refusing fails it, approving completes it', async () => {
    const user = await trialUser();
    const { url } = await ok(user, 'POST', '/billing/checkout', { plan: 'business', interval: 'yearly' });
    const id = new URL(url, 'http://x').searchParams.get('checkout')!;
    await refused(
      user,
      'POST',
      `/billing/checkout-sessions/${id}/authenticate`,
      { approve: true },
      409,
      'checkout_state',
    );
    const pending = await ok(
      user,
      'POST',
      `/billing/checkout-sessions/${id}/pay`,
      card('4000002500003155', '04/31'),
    );
    expect(pending).toMatchObject({ status: 'requires_action', failure: null });
    await refused(
      user,
      'POST',
      `/billing/checkout-sessions/${id}/pay`,
      card('4242424242424242'),
      409,
      'checkout_state',
    );
    const failed = await ok(user, 'POST', `/billing/checkout-sessions/${id}/authenticate`, {
      approve: false,
    });
    expect(failed).toMatchObject({
      status: 'failed',
      failure: 'Authentication failed. Try again or use another card.',
    });
    expect((await ok(user, 'GET', '/billing')).status).toBe('trialing');
    await ok(user, 'POST', `/billing/checkout-sessions/${id}/pay`, card('4000002500003155', '04/31'));
    expect(
      (await ok(user, 'POST', `/billing/checkout-sessions/${id}/authenticate`, { approve: true })).status,
    ).toBe('complete');
    expect(await ok(user, 'GET', '/billing')).toMatchObject({
      status: 'active',
      interval: 'yearly',
      currentPeriodEnd: '2028-01-15T12:00:00.000Z',
      paymentMethod: { brand: 'visa', last4: '3155', expMonth: 4, expYear: 2031 },
    });
  });

  it('refuses bad cards with a 400 that changes nothing, and expires sessions after a day', async () => {
    const user = await trialUser();
    const { url } = await ok(user, 'POST', '/billing/checkout', { plan: 'business', interval: 'monthly' });
    const id = new URL(url, 'http://x').searchParams.get('checkout')!;
    await refused(user, 'POST', `/billing/checkout-sessions/${id}/pay`, card('1234'), 400);
    await refused(
      user,
      'POST',
      `/billing/checkout-sessions/${id}/pay`,
      { ...card('4242424242424242'), expiry: '13/30' },
      400,
    );
    await refused(
      user,
      'POST',
      `/billing/checkout-sessions/${id}/pay`,
      card('4242424242424242', '12/26'),
      400,
      'card_expired',
    );
    await refused(
      user,
      'POST',
      `/billing/checkout-sessions/${id}/pay`,
      card('5555555555554444'),
      400,
      'card_unknown',
    );
    await refused(user, 'POST', `/billing/checkout-sessions/${id}/pay`, {}, 400);
    await refused(user, 'GET', '/billing/checkout-sessions/lcs_nosuchsession', undefined, 404);
    expect((await ok(user, 'GET', `/billing/checkout-sessions/${id}`)).status).toBe('open');
    t.clock.advance(DAY + 1000);
    expect((await ok(user, 'GET', `/billing/checkout-sessions/${id}`)).status).toBe('expired');
    await refused(
      user,
      'POST',
      `/billing/checkout-sessions/${id}/pay`,
      card('4242424242424242'),
      409,
      'checkout_expired',
    );
    expect((await ok(user, 'GET', '/billing')).status).toBe('trialing');
  });

  it('prorates a plan change to the cent: credit for unused time, charge for the new plan', async () => {
    const { user } = await subscribed('business', 'monthly');
    // 10 of the 31 days used: 21/31 left. credit = round(4900 × 21/31) = 3319,
    // charge = round(14900 × 21/31) = 10094, net 6775.
    t.clock.advance(10 * DAY);
    const changed = await ok(user, 'POST', '/billing/change', { plan: 'enterprise', interval: 'monthly' });
    expect(changed).toMatchObject({
      plan: 'enterprise',
      interval: 'monthly',
      status: 'active',
      currentPeriodEnd: '2027-02-15T12:00:00.000Z',
    });
    const { invoices } = await ok(user, 'GET', '/billing/invoices');
    expect(invoices[0]).toMatchObject({ amountDue: 6775, amountPaid: 6775 });
    expect(invoices[0].description).toContain('$100.94 for the new plan less $33.19 for unused time');

    // Monthly to yearly: a new year from now; credit = round(14900 × 21/31) = 10094 → 149000 − 10094.
    const yearly = await ok(user, 'POST', '/billing/change', { plan: 'enterprise', interval: 'yearly' });
    expect(yearly.currentPeriodEnd).toBe('2028-01-25T12:00:00.000Z');
    const all = (await ok(user, 'GET', '/billing/invoices')).invoices;
    const toYearly = all.find((i: { periodEnd: string }) => i.periodEnd === '2028-01-25T12:00:00.000Z');
    expect(toYearly.amountDue).toBe(149000 - 10094);
  });

  it('cancels at period end, resumes, and ends the subscription when the period passes', async () => {
    const { user } = await subscribed('personal', 'monthly');
    const canceling = await ok(user, 'POST', '/billing/cancel');
    expect(canceling).toMatchObject({ status: 'active', cancelAtPeriodEnd: true, access: 'full' });
    await refused(user, 'POST', '/billing/cancel', undefined, 409, 'already_canceling');
    expect(await ok(user, 'POST', '/billing/resume')).toMatchObject({ cancelAtPeriodEnd: false });
    await refused(user, 'POST', '/billing/resume', undefined, 409, 'not_canceling');
    await ok(user, 'POST', '/billing/cancel');
    t.clock.set('2027-02-15T12:00:01.000Z');
    const ended = await ok(user, 'GET', '/billing');
    expect(ended).toMatchObject({
      status: 'canceled',
      hasSubscription: false,
      access: 'read_only',
      cancelAtPeriodEnd: false,
    });
    await refused(
      user,
      'POST',
      '/billing/change',
      { plan: 'business', interval: 'monthly' },
      409,
      'no_subscription',
    );
    // A new subscription starts fresh.
    const { url } = await ok(user, 'POST', '/billing/checkout', { plan: 'business', interval: 'monthly' });
    const id = new URL(url, 'http://x').searchParams.get('checkout')!;
    await ok(user, 'POST', `/billing/checkout-sessions/${id}/pay`, card('4242424242424242'));
    expect(await ok(user, 'GET', '/billing')).toMatchObject({
      status: 'active',
      plan: 'business',
      access: 'full',
    });
  });

  it('renews a local subscription for each period that passed, once', async () => {
    const { user } = await subscribed('business', 'monthly');
    t.clock.set('2027-04-20T00:00:00.000Z');
    const [a, b] = await Promise.all([ok(user, 'GET', '/billing'), ok(user, 'GET', '/billing/invoices')]);
    expect(a.currentPeriodEnd).toBe('2027-05-15T12:00:00.000Z');
    const { invoices } = await ok(user, 'GET', '/billing/invoices');
    expect(invoices.map((i: { amountDue: number }) => i.amountDue)).toEqual([4900, 4900, 4900, 4900]);
    expect(b.invoices.length).toBeGreaterThan(0);
  });

  it('puts a new card on file through the payment-method route; a declined card changes nothing', async () => {
    const { user } = await subscribed();
    expect((await ok(user, 'POST', '/billing/portal')).url).toBe('/billing?tab=payment');
    await refused(user, 'POST', '/billing/payment-method', card('4000000000000002'), 400, 'card_declined');
    expect((await ok(user, 'GET', '/billing')).paymentMethod.last4).toBe('4242');
    const updated = await ok(user, 'POST', '/billing/payment-method', card('4000002500003155', '09/29'));
    expect(updated.paymentMethod).toEqual({ brand: 'visa', last4: '3155', expMonth: 9, expYear: 2029 });
  });

  it('answers the webhook 400 without Stripe and records nothing; signed out is 401', async () => {
    const count = async () =>
      Number(
        (
          await t.database.db
            .selectFrom('billing_events')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/billing/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=forged' },
      payload: JSON.stringify({ id: 'evt_forged', type: 'customer.subscription.updated' }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('webhook_unavailable');
    const noType = await t.app.inject({ method: 'POST', url: '/api/billing/webhook', payload: 'x' });
    expect(noType.statusCode).toBe(400);
    expect(await count()).toBe(before);
    expect((await t.app.inject({ method: 'GET', url: '/api/billing' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/billing/cancel' })).statusCode).toBe(401);
  });

  describe('events', () => {
    const snapshot = (over: Partial<SubscriptionSnapshot>): SubscriptionSnapshot => ({
      subscriptionId: 'lsub_events',
      customerId: 'lcus_events',
      status: 'active',
      plan: 'business',
      interval: 'monthly',
      currentPeriodEnd: new Date('2027-02-15T12:00:00Z'),
      cancelAtPeriodEnd: false,
      canceledAt: null,
      trialEnd: null,
      paymentMethod: null,
      ...over,
    });
    let n = 0;
    const event = (
      userId: string,
      at: string,
      over: Partial<SubscriptionSnapshot>,
      kind: 'subscription' | 'subscription_deleted' = 'subscription',
    ): BillingEvent => {
      n += 1;
      return {
        provider: 'local',
        id: `evt_test_${n}_${Date.now()}`,
        type: 'customer.subscription.updated',
        createdAt: new Date(at),
        customerId: null,
        userId,
        kind,
        subscription: snapshot({ subscriptionId: `lsub_${userId}`, customerId: `lcus_${userId}`, ...over }),
      };
    };
    const outcomeOf = async (id: string) =>
      (
        await t.database.db
          .selectFrom('billing_events')
          .select('outcome')
          .where('event_id', '=', id)
          .executeTakeFirst()
      )?.outcome;

    it('applies an event once; a replay answers duplicate', async () => {
      const user = await trialUser();
      await ok(user, 'GET', '/billing');
      const e = event(user.id, '2027-01-15T12:00:00Z', { status: 'active' });
      expect(await applyBillingEvent(t.ctx, e)).toBe('applied');
      expect(await applyBillingEvent(t.ctx, e)).toBe('duplicate');
      const [a, b] = await Promise.all([
        applyBillingEvent(t.ctx, { ...e, id: `${e.id}_race` }),
        applyBillingEvent(t.ctx, { ...e, id: `${e.id}_race` }),
      ]);
      expect([a, b].sort()).toEqual(['applied', 'duplicate']);
      expect((await accountRow(user.id)).status).toBe('active');
    });

    it('records an older event as stale and does not apply it (out of order)', async () => {
      const user = await trialUser();
      await ok(user, 'GET', '/billing');
      const later = event(user.id, '2027-01-15T12:05:00Z', { status: 'past_due' });
      const earlier = event(user.id, '2027-01-15T12:00:00Z', { status: 'active' });
      expect(await applyBillingEvent(t.ctx, later)).toBe('applied');
      expect(await applyBillingEvent(t.ctx, earlier)).toBe('stale');
      expect(await outcomeOf(earlier.id)).toBe('stale');
      expect((await accountRow(user.id)).status).toBe('past_due');
    });

    it('ignores a refused transition and an unknown account, and logs no error answer', async () => {
      const user = await trialUser();
      await ok(user, 'GET', '/billing');
      expect(
        await applyBillingEvent(t.ctx, event(user.id, '2027-01-15T12:00:00Z', {}, 'subscription_deleted')),
      ).toBe('applied');
      const revive = event(user.id, '2027-01-15T12:01:00Z', { status: 'active' });
      expect(await applyBillingEvent(t.ctx, revive)).toBe('ignored');
      expect(await outcomeOf(revive.id)).toBe('ignored');
      expect((await accountRow(user.id)).status).toBe('canceled');
      const stranger = {
        ...event(user.id, '2027-01-15T12:02:00Z', {}),
        userId: null,
        customerId: 'lcus_nobody',
      };
      expect(await applyBillingEvent(t.ctx, stranger)).toBe('ignored');
    });
  });
});
