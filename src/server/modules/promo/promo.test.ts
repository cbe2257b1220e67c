import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../testing/app.ts';
import { setUpTestApp } from '../../testing/per-file-app.ts';
import { signUpTestUser } from '../../testing/users.ts';
import { createPromoCode } from './service.ts';

// Promo codes (SPEC section 7): anonymous validation, authenticated once-per-user
// redemption, expiry and maximum uses, and an atomic last use.

describe('promo codes', () => {
  const t = setUpTestApp();
  const redemptionCount = async (c: string) =>
    (
      await t.database.db
        .selectFrom('promo_codes')
        .select('redemption_count')
        .where('code', '=', c)
        .executeTakeFirstOrThrow()
    ).redemption_count;
  let n = 0;
  const code = (prefix = 'PROMO') => {
    n += 1;
    return `${prefix}${n}${Date.now().toString(36).toUpperCase()}`;
  };

  const validate = (c: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/promo-codes/validate',
      headers: { 'x-forwarded-for': `198.51.100.${(n % 200) + 1}` },
      payload: { code: c },
    });
  const redeem = (c: string, headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: '/api/promo-codes/redeem', headers, payload: { code: c } });

  it('validates without authorisation, case-insensitively, with plan access and description', async () => {
    const c = code('LAUNCH');
    await createPromoCode(t.ctx, {
      code: c.toLowerCase(),
      planAccess: 'business',
      description: 'Three months of Business',
    });
    const res = await validate(c.toLowerCase());
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      valid: true,
      data: { planAccess: 'business', description: 'Three months of Business' },
    });
  });

  it('says invalid for unknown, short, expired and used-up codes', async () => {
    expect((await validate('NOSUCHCODE')).json()).toEqual({ success: true, valid: false });
    expect((await validate('ABC')).json()).toEqual({ success: true, valid: false });
    const expired = code('OLD');
    await createPromoCode(t.ctx, {
      code: expired,
      planAccess: 'personal',
      expiresAt: new Date(t.clock.now().getTime() - 1000),
    });
    expect((await validate(expired)).json().valid).toBe(false);
    const single = code('ONCE');
    await createPromoCode(t.ctx, { code: single, planAccess: 'personal', maxRedemptions: 1 });
    const user = await signUpTestUser(t.app);
    expect((await redeem(single, { cookie: user.cookie })).statusCode).toBe(200);
    expect((await validate(single)).json().valid).toBe(false);
  });

  it('follows the clock for expiry', async () => {
    const c = code('SOON');
    await createPromoCode(t.ctx, {
      code: c,
      planAccess: 'enterprise',
      expiresAt: new Date(t.clock.now().getTime() + 60_000),
    });
    expect((await validate(c)).json().valid).toBe(true);
    t.clock.advance(61_000);
    expect((await validate(c)).json().valid).toBe(false);
    const user = await signUpTestUser(t.app);
    const r = await redeem(c, { cookie: user.cookie });
    expect(r.statusCode).toBe(400);
    expect(r.json()).toEqual({
      success: false,
      error: { code: 'promo_invalid', message: 'Invalid or expired promo code.' },
    });
  });

  it('redeems with a session cookie or a bearer token, once per user', async () => {
    const c = code('TEAM');
    await createPromoCode(t.ctx, { code: c, planAccess: 'business' });
    const anon = await redeem(c, {});
    expect(anon.statusCode).toBe(401);

    const signUp = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: { origin: 'http://localhost:3000', 'x-forwarded-for': '198.51.100.201' },
      payload: { email: `bearer-${n}@example.com`, password: 'Quiet-River-71', name: 'Bea Rer' },
    });
    const token = signUp.headers['set-auth-token'] as string;
    const first = await redeem(c.toLowerCase(), { authorization: `Bearer ${token}` });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({
      success: true,
      planAccess: 'business',
      kind: 'plan_access',
      effect: 'You have Business with no end date.',
    });
    const again = await redeem(c, { authorization: `Bearer ${token}` });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      success: false,
      error: { code: 'promo_already_redeemed', message: 'You have already redeemed this promo code.' },
    });
    const other = await signUpTestUser(t.app);
    expect((await redeem(c, { cookie: other.cookie })).statusCode).toBe(200);
    expect(await redemptionCount(c)).toBe(2);
  });

  it('gives the last use to exactly one of two concurrent redemptions', async () => {
    for (let round = 0; round < 3; round++) {
      const c = code('LAST');
      await createPromoCode(t.ctx, { code: c, planAccess: 'business', maxRedemptions: 1 });
      const [a, b] = await Promise.all([signUpTestUser(t.app), signUpTestUser(t.app)]);
      const results = await Promise.all([redeem(c, { cookie: a.cookie }), redeem(c, { cookie: b.cookie })]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
      expect(await redemptionCount(c)).toBe(1);
      const redemptions = await t.database.db
        .selectFrom('promo_redemptions')
        .select('user_id')
        .where('code', '=', c)
        .execute();
      expect(redemptions).toHaveLength(1);
    }
  });

  it('refuses badly formed codes and plans at creation', async () => {
    await expect(createPromoCode(t.ctx, { code: 'AB', planAccess: 'business' })).rejects.toThrow(/6 to 64/);
    await expect(
      createPromoCode(t.ctx, { code: 'GOODCODE1', planAccess: 'gold' as 'business' }),
    ).rejects.toThrow(/Plan access/);
    const c = code('DUP');
    await createPromoCode(t.ctx, { code: c, planAccess: 'business' });
    await expect(createPromoCode(t.ctx, { code: c, planAccess: 'business' })).rejects.toThrow(
      /already exists/,
    );
  });

  const account = (userId: string) =>
    t.database.db
      .selectFrom('billing_accounts')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
  const billing = async (user: { cookie: string }) =>
    (await t.app.inject({ method: 'GET', url: '/api/billing', headers: { cookie: user.cookie } })).json();
  const DAY = 86_400_000;

  it('grants plan access for its days, or without end', async () => {
    const c = code('ACCESS');
    await createPromoCode(t.ctx, { code: c, planAccess: 'enterprise', accessDays: 30 });
    const user = await signUpTestUser(t.app, { billing: 'trial' });
    const now = t.clock.now();
    const res = await redeem(c, { cookie: user.cookie });
    expect(res.statusCode).toBe(200);
    const until = new Date(now.getTime() + 30 * DAY);
    expect(res.json()).toEqual({
      success: true,
      planAccess: 'enterprise',
      kind: 'plan_access',
      effect: `You have Enterprise until ${until.toISOString().slice(0, 10)}.`,
    });
    expect(await billing(user)).toMatchObject({
      plan: 'enterprise',
      grantedPlan: 'enterprise',
      grantedUntil: until.toISOString(),
    });
    const redemption = await t.database.db
      .selectFrom('promo_redemptions')
      .select('kind')
      .where('code', '=', c)
      .executeTakeFirstOrThrow();
    expect(redemption.kind).toBe('plan_access');
  });

  it('extends a trial by its days, only while never subscribed', async () => {
    const c = code('LONGER');
    await createPromoCode(t.ctx, { code: c, planAccess: 'business', kind: 'trial_extension', trialDays: 7 });
    const user = await signUpTestUser(t.app, { billing: 'trial' });
    const before = await account(user.id);
    const res = await redeem(c, { cookie: user.cookie });
    expect(res.statusCode).toBe(200);
    const ends = new Date(new Date(before.trial_ends_at).getTime() + 7 * DAY);
    expect(res.json()).toMatchObject({
      kind: 'trial_extension',
      effect: `Your trial now ends on ${ends.toISOString().slice(0, 10)}.`,
    });
    expect(new Date((await account(user.id)).trial_ends_at).toISOString()).toBe(ends.toISOString());
    expect((await billing(user)).trialDaysLeft).toBe(21);

    // A subscribed account is refused, and neither the use nor the redemption is kept.
    const subscriber = await signUpTestUser(t.app, { billing: 'trial' });
    await t.database.db
      .updateTable('billing_accounts')
      .set({ status: 'active', subscription_id: `lsub_promo_${subscriber.id}`, provider: 'local' })
      .where('user_id', '=', subscriber.id)
      .execute();
    const rowBefore = await account(subscriber.id);
    const refused = await redeem(c, { cookie: subscriber.cookie });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      success: false,
      error: { code: 'promo_not_applicable', message: expect.stringContaining('extends a free trial') },
    });
    expect(await account(subscriber.id)).toEqual(rowBefore);
    expect(await redemptionCount(c)).toBe(1);
  });

  it('keeps a discount for the next checkout, whose first charge it lowers', async () => {
    const c = code('SAVE');
    await createPromoCode(t.ctx, { code: c, planAccess: 'business', kind: 'discount', percentOff: 25 });
    const user = await signUpTestUser(t.app, { billing: 'trial' });
    const res = await redeem(c, { cookie: user.cookie });
    expect(res.json()).toMatchObject({
      kind: 'discount',
      effect: '25% off your first payment when you subscribe.',
    });
    expect((await billing(user)).discount).toEqual({ code: c, percentOff: 25 });
    const checkout = await t.app.inject({
      method: 'POST',
      url: '/api/billing/checkout',
      headers: { cookie: user.cookie },
      payload: { plan: 'business', interval: 'yearly' },
    });
    const id = new URL(checkout.json().url, 'http://x').searchParams.get('checkout');
    const session = await t.app.inject({
      method: 'GET',
      url: `/api/billing/checkout-sessions/${id}`,
      headers: { cookie: user.cookie },
    });
    // 49000 less 25% = 36750.
    expect(session.json()).toMatchObject({ amount: 36750, percentOff: 25 });
    const paid = await t.app.inject({
      method: 'POST',
      url: `/api/billing/checkout-sessions/${id}/pay`,
      headers: { cookie: user.cookie },
      payload: { cardNumber: '4242424242424242', expiry: '12/40', cvc: '123' },
    });
    expect(paid.json().status).toBe('complete');
    const invoices = await t.app.inject({
      method: 'GET',
      url: '/api/billing/invoices',
      headers: { cookie: user.cookie },
    });
    expect(invoices.json().invoices[0].amountPaid).toBe(36750);
    // Used by that checkout.
    expect((await billing(user)).discount).toBeNull();
  });

  it('refuses kinds without their numbers at creation', async () => {
    await expect(
      createPromoCode(t.ctx, { code: code('NODAYS'), planAccess: 'business', kind: 'trial_extension' }),
    ).rejects.toThrow(/1 to 365/);
    await expect(
      createPromoCode(t.ctx, {
        code: code('NOPCT'),
        planAccess: 'business',
        kind: 'discount',
        percentOff: 101,
      }),
    ).rejects.toThrow(/1 to 100/);
  });

  it('answers a missing code field with 400', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/promo-codes/validate', payload: {} });
    expect(res.statusCode).toBe(400);
  });
});

describe('development promo endpoint', () => {
  it('creates codes in test and does not exist in production', async () => {
    const t = await createTestApp();
    try {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/dev/promo-codes',
        payload: { code: 'devcode1', planAccess: 'personal' },
      });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({ code: 'DEVCODE1', planAccess: 'personal', kind: 'plan_access' });
      const prod = await createTestApp({
        database: t.database,
        env: { APP_ENV: 'production', AUTH_SECRET: 'y'.repeat(40) },
      });
      const refused = await prod.app.inject({
        method: 'POST',
        url: '/api/dev/promo-codes',
        payload: { code: 'devcode2', planAccess: 'personal' },
      });
      expect(refused.statusCode).toBe(404);
      await prod.app.close();
    } finally {
      await t.close();
    }
  });
});
