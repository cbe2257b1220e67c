import { z } from 'zod';

// Validation rules of SPEC section 5, shared by the sign-in, sign-up and reset forms and
// the server. Messages are SPEC's exact texts.

export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 128;
export const NAME_MIN_LENGTH = 2;
export const PROMO_MIN_LENGTH = 6;
export const PROMO_DEBOUNCE_MS = 500;
export const RESET_LINK_HOURS = 24;

export const MESSAGES = {
  emailValidLive: 'Valid email format',
  emailInvalidLive: 'Please enter a valid email address',
  emailTaken: 'This email is already registered',
  emailAvailable: 'Email is available',
  emailChecking: 'Checking email availability...',
  emailRequired: 'Email address is required.',
  emailInvalid: 'Please enter a valid email address.',
  passwordRequired: 'Password is required.',
  passwordTooShort: 'Password must be at least 6 characters long.',
  passwordsDoNotMatch: 'Passwords do not match.',
  passwordsMatchLive: 'Passwords match',
  passwordsDifferLive: "Passwords don't match",
  firstNameInvalid: 'First name must be at least 2 characters and contain only letters.',
  lastNameInvalid: 'Last name must be at least 2 characters and contain only letters.',
  promoInvalid: 'Invalid or expired promo code.',
  promoValid: 'Valid Promo Code!',
} as const;

// "{email} shape, no spaces": something@something.tld with no whitespace anywhere.
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export const isValidEmail = (email: string) => EMAIL_SHAPE.test(email.trim()) && !/\s/.test(email.trim());

// Letters in any script, spaces, apostrophes (straight or typographic) and hyphens.
const NAME_SHAPE = /^[\p{L}\p{M}' \u2019-]+$/u;

export const isValidName = (name: string) => {
  const trimmed = name.trim();
  return trimmed.length >= NAME_MIN_LENGTH && NAME_SHAPE.test(trimmed);
};

export const normalizePromoCode = (code: string) => code.trim().toUpperCase();

export type LoginForm = { email: string; password: string };

/** The first problem with a sign-in form, in SPEC's order, or null. */
export const validateLogin = (form: LoginForm): string | null => {
  if (!form.email.trim()) return MESSAGES.emailRequired;
  if (!form.password) return MESSAGES.passwordRequired;
  if (!isValidEmail(form.email)) return MESSAGES.emailInvalid;
  return null;
};

/** The sign-up form: what sign-in asks for, the names, the password again and a promo code. */
export type SignupForm = LoginForm & {
  firstName: string;
  lastName: string;
  confirmPassword: string;
  promoCode: string;
};

/** The first problem with a sign-up form, in field order, or null. */
export const validateSignup = (form: SignupForm): string | null => {
  if (!isValidName(form.firstName)) return MESSAGES.firstNameInvalid;
  if (!isValidName(form.lastName)) return MESSAGES.lastNameInvalid;
  if (!isValidEmail(form.email)) return MESSAGES.emailInvalid;
  return validateNewPassword(form.password, form.confirmPassword);
};

/** Password rules for sign-up, reset and change: required, at least 6, confirmed. */
export const validateNewPassword = (password: string, confirm: string): string | null => {
  if (!password) return MESSAGES.passwordRequired;
  if (password.length < PASSWORD_MIN_LENGTH) return MESSAGES.passwordTooShort;
  if (password !== confirm) return MESSAGES.passwordsDoNotMatch;
  return null;
};

export const emailSchema = z
  .string()
  .transform(normalizeEmail)
  .refine(isValidEmail, { message: MESSAGES.emailInvalid });

export const promoCodeSchema = z
  .string()
  .max(64)
  .transform(normalizePromoCode)
  .refine((c) => c.length >= PROMO_MIN_LENGTH, { message: MESSAGES.promoInvalid });
