import type { AppContext } from '../../context.ts';
import { updateProfileRow } from './queries.ts';

// The profile's email follows the account's: when the sign-in address changes (the email
// change link was opened, src/server/auth/change-email.ts), the profile row is updated too.

/** Writes the account's new address into the profile; the old one when it changed, else null. */
export const syncProfileEmail = async (ctx: AppContext, userId: string, email: string) => {
  const db = ctx.database.db;
  const next = email.trim().toLowerCase();
  const row = await db
    .selectFrom('user_profiles')
    .select('email')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row || row.email === next) return null;
  await updateProfileRow(db, userId, { email: next, updated_at: ctx.now() });
  return row.email;
};
