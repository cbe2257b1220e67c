import { PROMO_MIN_LENGTH, normalizePromoCode } from '../../../shared/auth/rules.ts';
import { AppError, badRequest } from '../../../shared/errors.ts';
import type { AppContext } from '../../context.ts';
import {
  findPromoCode,
  findRedemptionsOfUser,
  insertPromoCode,
  insertRedemption,
  takePromoUse,
} from './queries.ts';

// Promo codes (SPEC section 7): validated by anyone, redeemed once per user by a signed-in
// user, never past their expiry or their maximum number of redemptions.

export const PLAN_ACCESS = ['personal', 'business', 'enterprise'] as const;
export type PlanAccess = (typeof PLAN_ACCESS)[number];

export const PROMO_INVALID_MESSAGE = 'Invalid or expired promo code.';
export const PROMO_ALREADY_REDEEMED_MESSAGE = 'You have already redeemed this promo code.';

export type PromoValidation =
  | { valid: true; planAccess: PlanAccess; description: string | null }
  | { valid: false };

const usable = (
  row: { expires_at: Date | string | null; max_redemptions: number | null; redemption_count: number },
  now: Date,
) =>
  (row.expires_at === null || new Date(row.expires_at).getTime() > now.getTime()) &&
  (row.max_redemptions === null || row.redemption_count < row.max_redemptions);

export const validatePromoCode = async (ctx: AppContext, input: string): Promise<PromoValidation> => {
  const code = normalizePromoCode(input);
  if (code.length < PROMO_MIN_LENGTH) return { valid: false };
  const row = await findPromoCode(ctx.database.db, code);
  if (!row || !usable(row, ctx.now())) return { valid: false };
  return { valid: true, planAccess: row.plan_access as PlanAccess, description: row.description };
};

/** Redeems a code for a user in one transaction: the use and the user's record together. */
export const redeemPromoCode = async (ctx: AppContext, userId: string, input: string) => {
  const code = normalizePromoCode(input);
  if (code.length < PROMO_MIN_LENGTH) throw badRequest('promo_invalid', PROMO_INVALID_MESSAGE);
  return ctx.database.db.transaction().execute(async (trx) => {
    const row = await findPromoCode(trx, code);
    if (!row) throw badRequest('promo_invalid', PROMO_INVALID_MESSAGE);
    const fresh = await insertRedemption(trx, { code, userId, planAccess: row.plan_access });
    if (!fresh) throw new AppError(409, 'promo_already_redeemed', PROMO_ALREADY_REDEEMED_MESSAGE);
    const taken = await takePromoUse(trx, code, ctx.now());
    // Throwing rolls back the redemption row written above.
    if (!taken) throw badRequest('promo_invalid', PROMO_INVALID_MESSAGE);
    return { code, planAccess: taken.plan_access as PlanAccess };
  });
};

export type NewPromoCode = {
  code: string;
  planAccess: PlanAccess;
  description?: string | null;
  expiresAt?: Date | null;
  maxRedemptions?: number | null;
};

export const createPromoCode = async (ctx: AppContext, input: NewPromoCode) => {
  const code = normalizePromoCode(input.code);
  if (!/^[A-Z0-9_-]{6,64}$/.test(code)) {
    throw badRequest(
      'promo_code_format',
      'A promo code has 6 to 64 characters: letters, digits, hyphens and underscores.',
    );
  }
  if (!PLAN_ACCESS.includes(input.planAccess)) {
    throw badRequest('promo_plan', `Plan access must be one of: ${PLAN_ACCESS.join(', ')}.`);
  }
  if (input.maxRedemptions != null && (!Number.isInteger(input.maxRedemptions) || input.maxRedemptions < 1)) {
    throw badRequest('promo_max', 'Maximum redemptions must be a whole number of at least 1.');
  }
  const row = await insertPromoCode(ctx.database.db, {
    code,
    planAccess: input.planAccess,
    description: input.description?.trim() || null,
    expiresAt: input.expiresAt ?? null,
    maxRedemptions: input.maxRedemptions ?? null,
  });
  if (!row) throw new AppError(409, 'promo_exists', `The promo code ${code} already exists.`);
  return row;
};

/** Plans a user unlocked with promo codes, newest first (billing reads this). */
export const promoRedemptionsOfUser = (ctx: AppContext, userId: string) =>
  findRedemptionsOfUser(ctx.database.db, userId);
