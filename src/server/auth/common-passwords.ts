import { dictionary } from '@zxcvbn-ts/language-common';

// Passwords people pick most often (about 49,000, from @zxcvbn-ts/language-common's
// "passwords-common" list, the one zxcvbn's strength estimate uses). A new password on
// sign-up, reset or change that is one of them, ignoring case, is refused (decision 0011).
// The set is built on first use: about 10 ms, once per process.

let common: Set<string> | null = null;

export const isCommonPassword = (password: string) => {
  common ??= new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
  return common.has(password.trim().toLowerCase());
};
