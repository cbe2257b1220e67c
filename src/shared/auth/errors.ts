// The error catalogue of SPEC section 8: every message the sign-in, sign-up and reset
// screens show comes from here. The server answers Better Auth's upper-case codes
// (plus our own for enumeration-protected sign-in); `authErrorCode` turns an answer into
// SPEC's code and `authErrorMessage` into its text.

export const AUTH_ERROR_MESSAGES = {
  'user-not-found': 'No account found with this email address.',
  'wrong-password': 'Incorrect password. Please try again.',
  // Not in SPEC: with enumeration protection on, an unknown email and a wrong password
  // must get the same answer (DESIGN.md, errors).
  'invalid-credential': 'Incorrect email or password. Please try again.',
  'invalid-email': 'Please enter a valid email address.',
  'user-disabled': 'This account has been disabled. Please contact support.',
  'too-many-requests': 'Too many failed attempts. Please try again later.',
  'network-request-failed': 'Network error. Please check your internet connection.',
  'email-already-in-use': 'An account with this email already exists. Try logging in instead.',
  'weak-password': 'Password is too weak. Please use at least 6 characters.',
  // Not in SPEC: new passwords are also checked against a list of common ones (decision 0011).
  'common-password': 'This password is one of the most common ones and easy to guess. Please choose another.',
  'internal-error': 'Internal authentication error. Please try again.',
  'invalid-totp': 'Invalid verification code. Please try again.',
  'invalid-reset-link': 'This reset link is invalid or has expired. Please request a new one.',
  // Not in SPEC: the server refused the page's origin (issue 11 §4); see untrustedOriginMessage.
  'untrusted-origin':
    'This page was opened at an address the server does not trust, so it refused the request. Open Kontor at the address it is configured with (PUBLIC_URL), or add this address to CORS_ORIGINS.',
} as const;

/** The refusal of an untrusted origin, naming the address the page was opened at. */
export const untrustedOriginMessage = (origin: string) =>
  `This page was opened at ${origin}, an address the server does not trust, so it refused the request. Open Kontor at the address it is configured with (PUBLIC_URL), or add ${origin} to CORS_ORIGINS.`;

export type AuthErrorCode = keyof typeof AUTH_ERROR_MESSAGES | 'unknown';

export const AUTH_FALLBACK_MESSAGE = 'Authentication failed. Please try again.';

export const AUTH_OTHER_MESSAGES = {
  notInitialized: 'Authentication system not initialized. Please refresh the page.',
  loginNoUser: 'Login successful but user data not available. Please refresh and try again.',
  signupNoUser: 'Account creation successful but user data not available. Please refresh and try again.',
} as const;

export const RESET_ERROR_MESSAGES = {
  'user-not-found': 'No account found with this email address.',
  'invalid-email': 'Please enter a valid email address.',
  'too-many-requests': 'Too many reset attempts. Please try again later.',
  'network-request-failed': 'Network error. Please check your connection.',
} as const;

export const RESET_FALLBACK_MESSAGE = 'Failed to send password reset email. Please try again.';

export const GUARD_MESSAGES = {
  checking: 'Checking authentication...',
  errorHeading: 'Authentication Error',
  errorFallback: 'An authentication error occurred. Please try logging in again.',
  goToLogin: 'Go to Login',
  systemHeading: 'Authentication System Error',
  systemText: 'The authentication system is not properly initialized. Please refresh the page and try again.',
  refresh: 'Refresh Page',
} as const;

// Better Auth's codes (and ours from src/server/auth/routes.ts) to SPEC's codes.
const SERVER_CODES: Record<string, AuthErrorCode> = {
  USER_NOT_FOUND: 'user-not-found',
  WRONG_PASSWORD: 'wrong-password',
  INVALID_PASSWORD: 'wrong-password',
  INVALID_EMAIL_OR_PASSWORD: 'invalid-credential',
  INVALID_EMAIL: 'invalid-email',
  BANNED_USER: 'user-disabled',
  USER_DISABLED: 'user-disabled',
  USER_ALREADY_EXISTS: 'email-already-in-use',
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: 'email-already-in-use',
  PASSWORD_TOO_SHORT: 'weak-password',
  PASSWORD_TOO_COMMON: 'common-password',
  INVALID_CODE: 'invalid-totp',
  INVALID_TWO_FACTOR_COOKIE: 'invalid-totp',
  INVALID_BACKUP_CODE: 'invalid-totp',
  INVALID_TOKEN: 'invalid-reset-link',
  FAILED_TO_CREATE_USER: 'internal-error',
  FAILED_TO_CREATE_SESSION: 'internal-error',
  // The auth library's origin check, and the API's own cross-site refusal (docs/security.md).
  INVALID_ORIGIN: 'untrusted-origin',
  MISSING_OR_NULL_ORIGIN: 'untrusted-origin',
  untrusted_origin: 'untrusted-origin',
};

/** SPEC's code for an auth API answer: HTTP status (0 = unreachable) and its code. */
export const authErrorCode = (status: number, serverCode?: string | null): AuthErrorCode => {
  if (status === 0) return 'network-request-failed';
  if (status === 429) return 'too-many-requests';
  if (serverCode && SERVER_CODES[serverCode]) return SERVER_CODES[serverCode];
  if (status >= 500) return 'internal-error';
  return 'unknown';
};

export const authErrorMessage = (code: AuthErrorCode): string =>
  code === 'unknown' ? AUTH_FALLBACK_MESSAGE : AUTH_ERROR_MESSAGES[code];

export const resetErrorMessage = (code: AuthErrorCode): string =>
  code in RESET_ERROR_MESSAGES
    ? RESET_ERROR_MESSAGES[code as keyof typeof RESET_ERROR_MESSAGES]
    : RESET_FALLBACK_MESSAGE;
