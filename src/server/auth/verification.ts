import { AppError } from '../../shared/errors.ts';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';

// Email verification guards (issue 11 §1). An address counts as the user's only once they
// opened the confirmation link mailed to it (Better Auth's `emailVerified`, read from the
// user row every time, never from the client). Until then the user can sign in and work in
// their own company, but cannot act on an address they have not proven: accept an
// invitation sent to it, or send mail from Kontor to other people.

export const EMAIL_NOT_VERIFIED = 'email_not_verified';

const RESEND_HINT =
  'open the confirmation link we emailed you, or send a new one from the banner at the top of the app or from Settings > Security';

export const isEmailVerified = async (db: Db, userId: string) =>
  (await db.selectFrom('user').select('emailVerified').where('id', '=', userId).executeTakeFirst())
    ?.emailVerified === true;

/** 403 unless the user has verified their address: sending mail to other people needs it. */
export const requireVerifiedSender = async (
  ctx: AppContext,
  userId: string | null,
  db: Db = ctx.database.db,
) => {
  if (userId && (await isEmailVerified(db, userId))) return;
  throw new AppError(
    403,
    EMAIL_NOT_VERIFIED,
    `Confirm your email address before Kontor sends email to other people for you: ${RESEND_HINT}. Then try again.`,
  );
};

/** 403 unless the user has verified the address an invitation was sent to. */
export const refuseUnverifiedInvitee = (email: string) =>
  new AppError(
    403,
    EMAIL_NOT_VERIFIED,
    `Confirm your email address ${email} before answering this invitation: ${RESEND_HINT}. Then accept again.`,
  );
