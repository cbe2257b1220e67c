import { badRequest, conflict, notFound } from '../../../shared/errors.ts';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import { recordAdminAction } from './actions.ts';
import { type AdminActor, activeAdminIds } from './guard.ts';

// Granting and revoking platform admin (`npm run admin -- grant EMAIL` / `revoke EMAIL`). The
// CLI acts as the operator at the shell, recorded in admin_audit_log as `cli`. Admins named in
// ADMIN_EMAILS come from the environment: revoking one means editing that variable.

export const CLI_ACTOR: AdminActor = { id: 'cli', email: 'npm run admin' };

const userByEmail = async (ctx: AppContext, email: string) => {
  const user = await ctx.database.db
    .selectFrom('user')
    .select(['id', 'email'])
    .where('email', '=', email.trim().toLowerCase())
    .executeTakeFirst();
  if (!user) throw notFound(`No user with the email ${email.trim()}: they sign up first.`);
  return user;
};

/** Makes a user a platform admin; false when they already had the grant. */
export const grantAdmin = async (ctx: AppContext, email: string, actor: AdminActor = CLI_ACTOR) => {
  const user = await userByEmail(ctx, email);
  return inTransaction(ctx.database.db, async (trx) => {
    const inserted = await trx
      .insertInto('platform_admins')
      .values({ user_id: user.id, granted_by: actor.email })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .returning('user_id')
      .executeTakeFirst();
    if (inserted)
      await recordAdminAction(trx, actor, 'admin.granted', ['user', user.id], { email: user.email });
    return inserted !== undefined;
  });
};

/** Takes a grant away; refuses the last admin who can still sign in, and ADMIN_EMAILS admins. */
export const revokeAdmin = async (ctx: AppContext, email: string, actor: AdminActor = CLI_ACTOR) => {
  const user = await userByEmail(ctx, email);
  if (ctx.config.adminEmails.includes(user.email.toLowerCase()))
    throw badRequest(
      'admin_from_environment',
      `${user.email} is an admin through ADMIN_EMAILS: remove it there and restart the server.`,
    );
  return inTransaction(ctx.database.db, async (trx) => {
    const row = await trx
      .selectFrom('platform_admins')
      .select('user_id')
      .where('user_id', '=', user.id)
      .executeTakeFirst();
    if (!row) return false;
    const others = (await activeAdminIds(ctx, trx)).filter((id) => id !== user.id);
    if (others.length === 0)
      throw conflict('last_admin', `${user.email} is the last platform admin: grant another admin first.`);
    const deleted = await trx.deleteFrom('platform_admins').where('user_id', '=', user.id).executeTakeFirst();
    const revoked = Number(deleted.numDeletedRows) > 0;
    if (revoked)
      await recordAdminAction(trx, actor, 'admin.revoked', ['user', user.id], { email: user.email });
    return revoked;
  });
};
