import {
  type AuthErrorCode,
  authErrorCode,
  authErrorMessage,
  untrustedOriginMessage,
} from '../../shared/auth/errors.ts';
import type { SignupProfile } from '../../shared/auth/profile.ts';
import type { PlanChoice } from '../../shared/plans.ts';

// The browser side of our own auth server (Better Auth under /api/auth). Same origin, the
// session lives in an httpOnly cookie; every failure becomes an AuthError carrying SPEC's
// code (section 8) so screens pick their text from the one catalogue.

export class AuthError extends Error {
  override name = 'AuthError';
  constructor(
    readonly code: AuthErrorCode,
    readonly status: number,
    message: string = authErrorMessage(code),
  ) {
    super(message);
  }
}

export type AuthUser = {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
  twoFactorEnabled?: boolean | null;
};

export type AuthSession = { id: string; token: string; expiresAt: string };

type Raw = { status: number; data: unknown; headers: Headers };

const call = async (path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST') => {
  let response: Response;
  try {
    response = await fetch(`/api/auth${path}`, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new AuthError('network-request-failed', 0);
  }
  const text = await response.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  const raw: Raw = { status: response.status, data, headers: response.headers };
  if (!response.ok) {
    // Better Auth answers { code, message }; the API's own refusals { error: { code, message } }.
    const body = data as { code?: string; message?: string; error?: { code?: string } } | null;
    const code = authErrorCode(response.status, body?.code ?? body?.error?.code ?? null);
    // A refused origin is not "authentication failed": say where the page is open and what to do.
    // A disabled account's answer names the reason the admin gave: shown as the server says it.
    const message =
      code === 'untrusted-origin'
        ? untrustedOriginMessage(window.location.origin)
        : code === 'user-disabled' && typeof body?.message === 'string'
          ? body.message
          : undefined;
    throw new AuthError(code, response.status, message);
  }
  return raw;
};

export type CurrentSession = { user: AuthUser; session: AuthSession } | null;

const readSession = async (): Promise<CurrentSession> => {
  const { data } = await call('/get-session');
  return (data as CurrentSession) ?? null;
};

// A signed-in page asks for the session before its first render (main.tsx): the HTML preloads
// the answer, and the first render then draws the app with the user known instead of the
// guard's spinner followed by a second render. The provider's first check takes that answer.
let early: Promise<CurrentSession> | null = null;
let earlyAnswer: { session: CurrentSession } | undefined;

/** Starts the session check now (before the first render); `fetchSession` takes it once. */
export const startSessionCheck = (): Promise<CurrentSession> => {
  if (!early) {
    const started = readSession();
    early = started;
    started.then(
      (session) => {
        earlyAnswer = { session };
      },
      () => undefined,
    );
  }
  return early;
};

/** The early check's answer when it has arrived (and succeeded), else undefined. */
export const earlySession = () => earlyAnswer;

/** The current session, null when signed out; throws AuthError('network-request-failed') when unreachable. */
export const fetchSession = async (): Promise<CurrentSession> => {
  if (early) {
    const started = early;
    early = null;
    // Read by the provider's first render only: a provider mounted later asks afresh.
    earlyAnswer = undefined;
    return started;
  }
  return readSession();
};

export type SignInResult = { twoFactorRequired: true } | { twoFactorRequired: false; user: AuthUser };

export const signInWithEmail = async (email: string, password: string): Promise<SignInResult> => {
  const { data } = await call('/sign-in/email', { email, password, rememberMe: true });
  if ((data as { twoFactorRedirect?: boolean }).twoFactorRedirect) return { twoFactorRequired: true };
  return { twoFactorRequired: false, user: (data as { user: AuthUser }).user };
};

export const verifyTwoFactorCode = async (code: string, kind: 'totp' | 'backup' = 'totp') => {
  const path = kind === 'totp' ? '/two-factor/verify-totp' : '/two-factor/verify-backup-code';
  const { data } = await call(path, { code: code.replace(/\s+/g, ''), trustDevice: false });
  return (data as { user?: AuthUser }).user ?? null;
};

/** Creates the account (the profile payload rides along) and returns the user and its bearer token. */
export const signUpWithEmail = async (
  email: string,
  password: string,
  profile: SignupProfile,
  /** The plan chosen on /pricing: the new account's 14-day trial starts on it. */
  plan?: PlanChoice,
) => {
  const { data, headers } = await call('/sign-up/email', {
    email,
    password,
    name: profile.displayName || email.split('@')[0],
    profile,
    ...(plan ? { plan } : {}),
    callbackURL: '/dashboard?verified=1',
  });
  const user = (data as { user?: AuthUser } | null)?.user ?? null;
  return { user, token: headers.get('set-auth-token') ?? (data as { token?: string } | null)?.token ?? null };
};

export const signOutSession = async () => {
  await call('/sign-out', {});
};

export const requestPasswordReset = async (email: string) => {
  await call('/request-password-reset', { email, redirectTo: '/reset-password' });
};

export const resetPasswordWithToken = async (token: string, newPassword: string) => {
  await call('/reset-password', { token, newPassword });
};

export const changePassword = async (
  currentPassword: string,
  newPassword: string,
  revokeOtherSessions: boolean,
) => {
  await call('/change-password', { currentPassword, newPassword, revokeOtherSessions });
};

export type SessionInfo = {
  id: string;
  token: string;
  createdAt: string;
  updatedAt: string;
  expiresAt: string;
  ipAddress: string | null;
  userAgent: string | null;
};

export const listSessions = async () => (await call('/list-sessions')).data as SessionInfo[];

export const revokeSession = async (token: string) => {
  await call('/revoke-session', { token });
};

export const revokeOtherSessions = async () => {
  await call('/revoke-other-sessions', {});
};

export const enableTwoFactor = async (password: string) =>
  (await call('/two-factor/enable', { password })).data as { totpURI: string; backupCodes: string[] };

export const disableTwoFactor = async (password: string) => {
  await call('/two-factor/disable', { password });
};

export const regenerateBackupCodes = async (password: string) =>
  ((await call('/two-factor/generate-backup-codes', { password })).data as { backupCodes: string[] })
    .backupCodes;

export const sendVerificationEmail = async (email: string) => {
  await call('/send-verification-email', { email, callbackURL: '/dashboard?verified=1' });
};
