// The advisory password strength meter of SPEC section 5: five checks, four labels, three
// colours. Only the 6-character minimum is enforced; this only advises.

export const SPECIAL_CHARACTERS = '!@#$%^&*(),.?":{}|<>';

/** The five checks, each with what it asks for. */
export const STRENGTH_CHECK_LABELS = {
  length: 'At least 8 characters',
  uppercase: 'An uppercase letter',
  lowercase: 'A lowercase letter',
  number: 'A number',
  special: 'A special character',
};

/** Which of the checks a password passes. */
export type StrengthChecks = Record<keyof typeof STRENGTH_CHECK_LABELS, boolean>;

export type StrengthLabel = 'Weak password' | 'Fair' | 'Good' | 'Strong';
export type StrengthColor = 'red' | 'yellow' | 'green';

export type PasswordStrength = {
  score: number;
  checks: StrengthChecks;
  label: StrengthLabel;
  color: StrengthColor;
};

export const passwordStrength = (password: string): PasswordStrength => {
  const checks: StrengthChecks = {
    length: password.length >= 8,
    uppercase: /[A-Z]/.test(password),
    lowercase: /[a-z]/.test(password),
    number: /[0-9]/.test(password),
    special: [...password].some((c) => SPECIAL_CHARACTERS.includes(c)),
  };
  const score = Object.values(checks).filter(Boolean).length;
  const label: StrengthLabel =
    score <= 2 ? 'Weak password' : score === 3 ? 'Fair' : score === 4 ? 'Good' : 'Strong';
  const color: StrengthColor = score <= 2 ? 'red' : score === 3 ? 'yellow' : 'green';
  return { score, checks, label, color };
};
