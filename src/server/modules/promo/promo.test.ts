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
    expect(first.json()).toEqual({ success: true, planAccess: 'business' });
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
      expect(res.json()).toEqual({ code: 'DEVCODE1', planAccess: 'personal' });
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
