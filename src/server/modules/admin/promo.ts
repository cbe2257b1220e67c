import type { Selectable } from 'kysely';
import type { AdminPromo, AdminPromoCreate, AdminPromoUpdate } from '../../../shared/admin.ts';
import { badRequest, notFound } from '../../../shared/errors.ts';
import type { AppContext } from '../../context.ts';
import { type Executor, inTransaction } from '../../db/transaction.ts';
import type { PromoCodesTable } from '../../db/types.ts';
import { createPromoCode } from '../promo/service.ts';
import { recordAdminAction } from './actions.ts';
import type { AdminActor } from './guard.ts';

// Promo codes in the admin console (docs/admin.md, "Promo codes"): the list with each code's
// state and use, create (through the promo module's createPromoCode, then its kind), edit,
// expire now, and who redeemed it. A code's kind needs its figure: a trial extension its
// days, a discount its percent; anything else is a 400 and nothing is written.

type PromoRow = Selectable<PromoCodesTable>;

const stateOf = (row: PromoRow, now: Date): AdminPromo['state'] => {
  if (row.expires_at !== null && new Date(row.expires_at).getTime() <= now.getTime()) return 'expired';
  if (row.max_redemptions !== null && row.redemption_count >= row.max_redemptions) return 'used_up';
  return 'active';
};

const toPromo = (row: PromoRow, now: Date): AdminPromo => ({
  code: row.code,
  kind: row.kind,
  planAccess: row.plan_access as AdminPromo['planAccess'],
  description: row.description,
  trialDays: row.trial_days,
  percentOff: row.percent_off,
  accessDays: row.access_days,
  expiresAt: row.expires_at ? new Date(row.expires_at).toISOString() : null,
  maxRedemptions: row.max_redemptions,
  redemptionCount: row.redemption_count,
  createdAt: new Date(row.created_at).toISOString(),
  state: stateOf(row, now),
});

/** The end of the given day (UTC): a code works through its last day. */
const endOfDay = (date: string) => new Date(`${date}T23:59:59.999Z`);

/** The kind's figures as columns; refuses a kind without its figure. */
const kindColumns = (p: {
  kind: AdminPromo['kind'];
  trialDays: number | null;
  percentOff: number | null;
  accessDays: number | null;
}) => {
  if (p.kind === 'trial_extension' && p.trialDays === null)
    throw badRequest('promo_trial_days', 'A trial extension needs its number of days (1 to 365).');
  if (p.kind === 'discount' && p.percentOff === null)
    throw badRequest('promo_percent_off', 'A discount needs its percent off (1 to 100).');
  return {
    kind: p.kind,
    trial_days: p.kind === 'trial_extension' ? p.trialDays : null,
    percent_off: p.kind === 'discount' ? p.percentOff : null,
    access_days: p.kind === 'plan_access' ? p.accessDays : null,
  };
};

const findPromo = async (db: Executor, code: string) => {
  const row = await db
    .selectFrom('promo_codes')
    .selectAll()
    .where('code', '=', code.trim().toUpperCase())
    .executeTakeFirst();
  if (!row) throw notFound('No promo code with this code.');
  return row;
};

export const listPromoCodes = async (ctx: AppContext) => {
  const rows = await ctx.database.db
    .selectFrom('promo_codes')
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('code')
    .execute();
  const now = ctx.now();
  return { promoCodes: rows.map((r) => toPromo(r, now)) };
};

export const createAdminPromo = async (ctx: AppContext, admin: AdminActor, input: AdminPromoCreate) => {
  const columns = kindColumns({
    kind: input.kind,
    trialDays: input.trialDays ?? null,
    percentOff: input.percentOff ?? null,
    accessDays: input.accessDays ?? null,
  });
  return inTransaction(ctx.database.db, async (trx) => {
    const created = await createPromoCode(
      { ...ctx, database: { ...ctx.database, db: trx } },
      {
        code: input.code,
        planAccess: input.planAccess,
        description: input.description ?? null,
        expiresAt: input.expiresOn ? endOfDay(input.expiresOn) : null,
        maxRedemptions: input.maxRedemptions ?? null,
      },
    );
    const row = await trx
      .updateTable('promo_codes')
      .set({ ...columns, updated_at: ctx.now() })
      .where('code', '=', created.code)
      .returningAll()
      .executeTakeFirstOrThrow();
    const promo = toPromo(row, ctx.now());
    await recordAdminAction(trx, admin, 'promo.created', ['promo_code', row.code], promo);
    return promo;
  });
};

export const updateAdminPromo = async (
  ctx: AppContext,
  admin: AdminActor,
  { code, ...input }: { code: string } & AdminPromoUpdate,
) =>
  inTransaction(ctx.database.db, async (trx) => {
    const before = await findPromo(trx, code);
    const kind = input.kind ?? before.kind;
    const columns = kindColumns({
      kind,
      trialDays: input.trialDays !== undefined ? input.trialDays : before.trial_days,
      percentOff: input.percentOff !== undefined ? input.percentOff : before.percent_off,
      accessDays: input.accessDays !== undefined ? input.accessDays : before.access_days,
    });
    const row = await trx
      .updateTable('promo_codes')
      .set({
        ...columns,
        ...(input.planAccess !== undefined && { plan_access: input.planAccess }),
        ...(input.description !== undefined && { description: input.description || null }),
        ...(input.expiresOn !== undefined && {
          expires_at: input.expiresOn === null ? null : endOfDay(input.expiresOn),
        }),
        ...(input.maxRedemptions !== undefined && { max_redemptions: input.maxRedemptions }),
        updated_at: ctx.now(),
      })
      .where('code', '=', before.code)
      .returningAll()
      .executeTakeFirstOrThrow();
    const now = ctx.now();
    const promo = toPromo(row, now);
    await recordAdminAction(trx, admin, 'promo.updated', ['promo_code', row.code], {
      before: toPromo(before, now),
      after: promo,
    });
    return promo;
  });

/** Ends a code now (it stops working at once; its redemptions stay). */
export const expireAdminPromo = async (ctx: AppContext, admin: AdminActor, { code }: { code: string }) =>
  inTransaction(ctx.database.db, async (trx) => {
    const before = await findPromo(trx, code);
    const now = ctx.now();
    if (stateOf(before, now) === 'expired') return toPromo(before, now);
    const row = await trx
      .updateTable('promo_codes')
      .set({ expires_at: now, updated_at: now })
      .where('code', '=', before.code)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAdminAction(trx, admin, 'promo.expired', ['promo_code', row.code], {
      previousExpiresAt: before.expires_at ? new Date(before.expires_at).toISOString() : null,
    });
    return toPromo(row, now);
  });

export const listRedemptions = async (ctx: AppContext, { code }: { code: string }) => {
  const promo = await findPromo(ctx.database.db, code);
  const rows = await ctx.database.db
    .selectFrom('promo_redemptions as r')
    .leftJoin('user as u', 'u.id', 'r.user_id')
    .select(['r.user_id', 'u.email', 'r.kind', 'r.redeemed_at'])
    .where('r.code', '=', promo.code)
    .orderBy('r.redeemed_at', 'desc')
    .orderBy('r.user_id')
    .execute();
  return {
    redemptions: rows.map((r) => ({
      userId: r.user_id,
      email: r.email ?? null,
      kind: r.kind,
      redeemedAt: new Date(r.redeemed_at).toISOString(),
    })),
  };
};
