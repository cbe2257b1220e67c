import { authErrorCode, authErrorMessage } from '../../../../shared/auth/errors.ts';
import { MESSAGES, isValidEmail, normalizeEmail } from '../../../../shared/auth/rules.ts';

// Asking to move the account to a new email address (Better Auth's /change-email with our
// password check, src/server/auth/change-email.ts): what the form checks first, the call, and
// the words for the server's refusals and for the link's outcome when it lands back here.

export const EMAIL_CHANGE_CALLBACK = '/settings?tab=profile&emailChanged=1';

export const EMAIL_CHANGE_MESSAGES = {
  same: 'This is already your email address.',
  passwordRequired: 'Enter your current password to change your email address.',
  linkFailed: 'That confirmation link has expired or was already used. Ask for a new one below.',
} as const;

/** The first problem with the form, or null. */
export const emailChangeProblem = (form: { newEmail: string; password: string }, currentEmail: string) => {
  if (!isValidEmail(form.newEmail)) return MESSAGES.emailInvalid;
  if (normalizeEmail(form.newEmail) === normalizeEmail(currentEmail)) return EMAIL_CHANGE_MESSAGES.same;
  if (!form.password) return EMAIL_CHANGE_MESSAGES.passwordRequired;
  return null;
};

/** The text for a refused request, from its status and Better Auth's code and message. */
export const emailChangeError = (status: number, body: { code?: string; message?: string } | null) => {
  if (body?.code === 'PASSWORD_REQUIRED') return EMAIL_CHANGE_MESSAGES.passwordRequired;
  if (body?.message === 'Email is the same') return EMAIL_CHANGE_MESSAGES.same;
  if (status === 400 && (body?.code === 'VALIDATION_ERROR' || /email/i.test(body?.message ?? '')))
    return MESSAGES.emailInvalid;
  return authErrorMessage(authErrorCode(status, body?.code ?? null));
};

/** Sends the confirmation link to the new address; throws an Error with the text to show. */
export const requestEmailChange = async (newEmail: string, password: string) => {
  let response: Response;
  try {
    response = await fetch('/api/auth/change-email', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        newEmail: normalizeEmail(newEmail),
        password,
        callbackURL: EMAIL_CHANGE_CALLBACK,
      }),
    });
  } catch {
    throw new Error(authErrorMessage('network-request-failed'));
  }
  if (response.ok) return;
  const body = (await response.json().catch(() => null)) as { code?: string; message?: string } | null;
  throw new Error(emailChangeError(response.status, body));
};
