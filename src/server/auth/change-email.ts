import { APIError, getSessionFromCtx } from 'better-auth/api';
import type { AppContext } from '../context.ts';
import { syncProfileEmail } from '../modules/profile/email.ts';
import { deliverAuthMail } from './delivery.ts';
import { changeEmailMail, emailChangedMail, verificationMail } from './mails.ts';
import { verifyPassword } from './password.ts';

// Changing the sign-in email (Better Auth's /change-email, docs/auth.md): the new address gets
// a link and the address changes only when it is opened. We add two things: the request needs
// the current password (a session left open on a shared computer must not be enough to move
// the account to another mailbox), and opening the link proves the new address, so it counts
// as confirmed.

export const EMAIL_CHANGE_PASSWORD_REQUIRED = 'Enter your current password to change your email address.';

/** What a Better Auth email token is for: the new address when it changes one. */
export const emailTokenPurpose = (token: string | undefined) => {
  try {
    const payload = JSON.parse(
      Buffer.from(String(token).split('.')[1] ?? '', 'base64url').toString('utf8'),
    ) as {
      email?: unknown;
      updateTo?: unknown;
      requestType?: unknown;
    };
    return {
      email: typeof payload.email === 'string' ? payload.email : null,
      updateTo: typeof payload.updateTo === 'string' ? payload.updateTo : null,
      requestType: typeof payload.requestType === 'string' ? payload.requestType : null,
    };
  } catch {
    return { email: null, updateTo: null, requestType: null };
  }
};

type HookContext = Parameters<typeof getSessionFromCtx>[0];

/** Refuses /change-email without the signed-in user's current password (400, nothing sent). */
export const requirePasswordForEmailChange = async (hook: HookContext) => {
  const session = await getSessionFromCtx(hook);
  // Signed out: the endpoint answers 401 itself.
  if (!session) return;
  const password = (hook.body as { password?: unknown } | undefined)?.password;
  if (typeof password !== 'string' || password.length === 0) {
    throw APIError.from('BAD_REQUEST', {
      code: 'PASSWORD_REQUIRED',
      message: EMAIL_CHANGE_PASSWORD_REQUIRED,
    });
  }
  const account = await hook.context.internalAdapter.findCredentialAccount(session.user.id);
  const ok =
    password.length <= 128 && account?.password
      ? await verifyPassword({ hash: account.password, password })
      : false;
  if (!ok) throw APIError.from('BAD_REQUEST', { code: 'INVALID_PASSWORD', message: 'Invalid password' });
};

/** The confirmation link's mail: a new sign-in address, or the address given at sign-up. */
export const verificationLinkMail = (user: { email: string }, url: string, token: string) => {
  const purpose = emailTokenPurpose(token);
  return purpose.updateTo && purpose.email
    ? changeEmailMail(user.email, url, { from: purpose.email })
    : verificationMail(user.email, url);
};

/**
 * Better Auth's user-update hooks for the email change: opening the link to the new address
 * confirms it (the library keeps the old flag), and afterwards the profile's email follows
 * the account's and the old address is told.
 */
export const emailChangeUserHooks = (ctx: AppContext) => ({
  before: async (
    data: Record<string, unknown>,
    endpoint: { path?: string; query?: unknown } | null,
  ): Promise<void | { data: Record<string, unknown> }> => {
    if (endpoint?.path !== '/verify-email' || typeof data.email !== 'string') return;
    const purpose = emailTokenPurpose((endpoint.query as { token?: string } | undefined)?.token);
    if (purpose.requestType === 'change-email-verification' && purpose.updateTo === data.email) {
      return { data: { ...data, emailVerified: true } };
    }
  },
  after: async (user: { id: string; email: string }, endpoint: { path?: string } | null) => {
    const previous = await syncProfileEmail(ctx, user.id, user.email);
    // Told only when the change link did it (not for any other way a row may differ).
    if (previous && endpoint?.path === '/verify-email') {
      await deliverAuthMail(
        ctx,
        emailChangedMail(previous, {
          newEmail: user.email,
          settingsUrl: `${ctx.config.publicUrl}/settings?tab=profile`,
        }),
      ).catch((error: unknown) => console.warn('kontor: email-changed notice not sent', error));
    }
  },
});
