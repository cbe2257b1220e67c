import type { AppContext } from '../context.ts';
import { inTransaction } from '../db/transaction.ts';

// Disabling an account (the admin plugin's ban): the user cannot sign in any more and every
// session ends now. Signing in answers 403 BANNED_USER with disabledAccountMessage, the reason
// included ('This account has been disabled: <reason>. Please contact support.').

/** What a disabled user is told at sign-in. */
export const disabledAccountMessage = (reason: string | null | undefined) => {
  const why = reason?.trim().replace(/[.!\s]+$/, '');
  return why
    ? `This account has been disabled: ${why}. Please contact support.`
    : 'This account has been disabled. Please contact support.';
};

/** Without a reason, sign-in says only that the account is disabled. */
export const disableUser = async (ctx: AppContext, userId: string, reason: string | null = null) =>
  inTransaction(ctx.database.db, async (trx) => {
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
