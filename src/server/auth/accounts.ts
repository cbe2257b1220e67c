import type { AppContext } from '../context.ts';

// Disabling an account (the admin plugin's ban): the user cannot sign in any more
// ('This account has been disabled. Please contact support.') and every session ends now.

export const disableUser = async (ctx: AppContext, userId: string, reason = 'Disabled by an administrator') =>
  ctx.database.db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable('user')
      .set({ banned: true, banReason: reason, updatedAt: ctx.now() })
      .where('id', '=', userId)
      .executeTakeFirst();
    await trx.deleteFrom('session').where('userId', '=', userId).execute();
    return Number(updated.numUpdatedRows) > 0;
  });

export const enableUser = async (ctx: AppContext, userId: string) => {
  const updated = await ctx.database.db
    .updateTable('user')
    .set({ banned: false, banReason: null, updatedAt: ctx.now() })
    .where('id', '=', userId)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
};

export const findUserIdByEmail = async (ctx: AppContext, email: string) =>
  (
    await ctx.database.db
      .selectFrom('user')
      .select('id')
      .where('email', '=', email.trim().toLowerCase())
      .executeTakeFirst()
  )?.id ?? null;
