import type { Db } from '../../db/client.ts';

// SQL for promo codes. Codes are global (not company data): they are redeemed by a user
// before any company exists.

export const findPromoCode = (db: Db, code: string) =>
  db.selectFrom('promo_codes').selectAll().where('code', '=', code).executeTakeFirst();

export const insertPromoCode = (
  db: Db,
  row: {
    code: string;
    planAccess: string;
    kind: string;
    description: string | null;
    expiresAt: Date | null;
    maxRedemptions: number | null;
    trialDays: number | null;
    percentOff: number | null;
    accessDays: number | null;
  },
) =>
  db
    .insertInto('promo_codes')
    .values({
      code: row.code,
      plan_access: row.planAccess,
      description: row.description,
      expires_at: row.expiresAt,
      max_redemptions: row.maxRedemptions,
      kind: row.kind,
      trial_days: row.trialDays,
      percent_off: row.percentOff,
      access_days: row.accessDays,
    })
    .onConflict((oc) => oc.column('code').doNothing())
    .returningAll()
    .executeTakeFirst();

/** Records one user's redemption; false when this user already redeemed the code. */
export const insertRedemption = async (
  db: Db,
  row: { code: string; userId: string; planAccess: string; kind: string },
) => {
  const inserted = await db
    .insertInto('promo_redemptions')
    .values({ code: row.code, user_id: row.userId, plan_access: row.planAccess, kind: row.kind })
    .onConflict((oc) => oc.columns(['code', 'user_id']).doNothing())
    .returning('code')
    .executeTakeFirst();
  return inserted !== undefined;
};

/**
 * Takes one use of a code if it is still redeemable. The row lock of UPDATE serialises
 * concurrent redemptions and PostgreSQL re-checks the WHERE after waiting, so two racing
 * for the last use cannot both succeed.
 */
export const takePromoUse = (db: Db, code: string, now: Date) =>
  db
    .updateTable('promo_codes')
    .set((eb) => ({ redemption_count: eb('redemption_count', '+', 1) }))
    .where('code', '=', code)
    .where((eb) =>
      eb.and([
        eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]),
        eb.or([eb('max_redemptions', 'is', null), eb('redemption_count', '<', eb.ref('max_redemptions'))]),
      ]),
    )
    .returning(['plan_access'])
    .executeTakeFirst();

export const findRedemptionsOfUser = (db: Db, userId: string) =>
  db
    .selectFrom('promo_redemptions')
    .select(['code', 'plan_access', 'redeemed_at'])
    .where('user_id', '=', userId)
    .orderBy('redeemed_at', 'desc')
    .execute();
