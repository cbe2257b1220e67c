import { PROMO_MIN_LENGTH, normalizePromoCode } from '../../../shared/auth/rules.ts';
import { AppError, badRequest } from '../../../shared/errors.ts';
import { PROMO_KINDS, type PromoKind } from '../../../shared/billing.ts';
import { findPlan } from '../../../shared/plans.ts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/transaction.ts';
import { billingStateOf } from '../billing/account.ts';
import { accountForPromo, grantPlanAccess, setTrialEnd, storeDiscount } from '../billing/queries.ts';
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
export const PROMO_TRIAL_ONLY_MESSAGE =
  'This code extends a free trial, and your account already has (or had) a subscription.';
export const PROMO_DISCOUNT_LATE_MESSAGE =
  'This discount applies when you subscribe, and you already have a subscription.';

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

const DAY_MS = 24 * 60 * 60 * 1000;
const day = (d: Date) => d.toISOString().slice(0, 10);
const planName = (plan: PlanAccess) => findPlan(plan).name;

export type PromoRedemption = { code: string; planAccess: PlanAccess; kind: PromoKind; effect: string };

/**
 * What a code does to the account (issue 16 §5; docs/billing.md, "Promo codes"), inside the
 * redemption's transaction: a refusal here rolls the redemption and the use back too.
 * - plan_access: the plan without paying, for access_days from now or with no end;
 * - trial_extension: the trial ends trial_days later (counted from now if it already ended),
 *   only while the account has never subscribed;
 * - discount: percent_off kept on the account for the next checkout, only before subscribing.
 */
const applyPromoEffect = async (
  trx: Executor,
  userId: string,
  now: Date,
  promo: {
    code: string;
    kind: PromoKind;
    planAccess: PlanAccess;
    trialDays: number | null;
    percentOff: number | null;
    accessDays: number | null;
  },
): Promise<string> => {
  const account = await accountForPromo(trx, userId, now);
  const state = billingStateOf(account, now);
  if (promo.kind === 'plan_access') {
    const until = promo.accessDays ? new Date(now.getTime() + promo.accessDays * DAY_MS) : null;
    await grantPlanAccess(trx, userId, promo.planAccess, until, now);
    return until
      ? `You have ${planName(promo.planAccess)} until ${day(until)}.`
      : `You have ${planName(promo.planAccess)} with no end date.`;
  }
  if (promo.kind === 'trial_extension') {
    if (state.hasSubscription || account.status !== 'trialing') {
      throw new AppError(409, 'promo_not_applicable', PROMO_TRIAL_ONLY_MESSAGE);
    }
    const from = Math.max(new Date(account.trial_ends_at).getTime(), now.getTime());
    const ends = new Date(from + (promo.trialDays ?? 0) * DAY_MS);
    await setTrialEnd(trx, userId, ends, now);
    return `Your trial now ends on ${day(ends)}.`;
  }
  if (state.hasSubscription) throw new AppError(409, 'promo_not_applicable', PROMO_DISCOUNT_LATE_MESSAGE);
  await storeDiscount(trx, userId, promo.code, promo.percentOff ?? 0, now);
  return `${promo.percentOff}% off your first payment when you subscribe.`;
};

/**
 * Redeems a code for a user in one transaction: the redemption row, the use and the code's
 * effect on the account together, once per account.
 */
export const redeemPromoCode = async (
  ctx: AppContext,
  userId: string,
  input: string,
): Promise<PromoRedemption> => {
  const code = normalizePromoCode(input);
  if (code.length < PROMO_MIN_LENGTH) throw badRequest('promo_invalid', PROMO_INVALID_MESSAGE);
  return ctx.database.db.transaction().execute(async (trx) => {
    const row = await findPromoCode(trx, code);
    if (!row) throw badRequest('promo_invalid', PROMO_INVALID_MESSAGE);
    const fresh = await insertRedemption(trx, { code, userId, planAccess: row.plan_access, kind: row.kind });
    if (!fresh) throw new AppError(409, 'promo_already_redeemed', PROMO_ALREADY_REDEEMED_MESSAGE);
    const taken = await takePromoUse(trx, code, ctx.now());
    // Throwing rolls back the redemption row written above.
    if (!taken) throw badRequest('promo_invalid', PROMO_INVALID_MESSAGE);
    const planAccess = taken.plan_access as PlanAccess;
    const effect = await applyPromoEffect(trx, userId, ctx.now(), {
      code,
      kind: row.kind,
      planAccess,
      trialDays: row.trial_days,
      percentOff: row.percent_off,
      accessDays: row.access_days,
    });
    return { code, planAccess, kind: row.kind, effect };
  });
};

export type NewPromoCode = {
  code: string;
  planAccess: PlanAccess;
  kind?: PromoKind;
  description?: string | null;
  expiresAt?: Date | null;
  maxRedemptions?: number | null;
  trialDays?: number | null;
  percentOff?: number | null;
  accessDays?: number | null;
};

const wholeIn = (value: number | null | undefined, min: number, max: number) =>
  value == null || (Number.isInteger(value) && value >= min && value <= max);

export const createPromoCode = async (ctx: AppContext, input: NewPromoCode) => {
  const code = normalizePromoCode(input.code);
  const kind = input.kind ?? 'plan_access';
  if (!/^[A-Z0-9_-]{6,64}$/.test(code)) {
    throw badRequest(
      'promo_code_format',
      'A promo code has 6 to 64 characters: letters, digits, hyphens and underscores.',
    );
  }
  if (!PLAN_ACCESS.includes(input.planAccess)) {
    throw badRequest('promo_plan', `Plan access must be one of: ${PLAN_ACCESS.join(', ')}.`);
  }
  if (!PROMO_KINDS.includes(kind)) {
    throw badRequest('promo_kind', `The kind must be one of: ${PROMO_KINDS.join(', ')}.`);
  }
  if (input.maxRedemptions != null && (!Number.isInteger(input.maxRedemptions) || input.maxRedemptions < 1)) {
    throw badRequest('promo_max', 'Maximum redemptions must be a whole number of at least 1.');
  }
  if (!wholeIn(input.trialDays, 1, 365) || (kind === 'trial_extension' && input.trialDays == null)) {
    throw badRequest('promo_trial_days', 'A trial extension needs its days: a whole number from 1 to 365.');
  }
  if (!wholeIn(input.percentOff, 1, 100) || (kind === 'discount' && input.percentOff == null)) {
    throw badRequest('promo_percent_off', 'A discount needs its percentage: a whole number from 1 to 100.');
  }
  if (!wholeIn(input.accessDays, 1, 3650)) {
    throw badRequest(
      'promo_access_days',
      'Access days must be a whole number from 1 to 3650 (or none: no end).',
    );
  }
  const row = await insertPromoCode(ctx.database.db, {
    code,
    planAccess: input.planAccess,
    kind,
    description: input.description?.trim() || null,
    expiresAt: input.expiresAt ?? null,
    maxRedemptions: input.maxRedemptions ?? null,
    trialDays: kind === 'trial_extension' ? (input.trialDays ?? null) : null,
    percentOff: kind === 'discount' ? (input.percentOff ?? null) : null,
    accessDays: kind === 'plan_access' ? (input.accessDays ?? null) : null,
  });
  if (!row) throw new AppError(409, 'promo_exists', `The promo code ${code} already exists.`);
  return row;
};

/** Plans a user unlocked with promo codes, newest first (billing reads this). */
export const promoRedemptionsOfUser = (ctx: AppContext, userId: string) =>
  findRedemptionsOfUser(ctx.database.db, userId);
