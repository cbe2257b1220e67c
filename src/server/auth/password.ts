import { hash, verify } from '@node-rs/argon2';

// Argon2id at OWASP's recommended parameters (m = 19 MiB, t = 2, p = 1), replacing the
// auth library's default scrypt (DESIGN.md, known traps).

const ARGON2ID = 2;
export const ARGON2_OPTIONS = {
  algorithm: ARGON2ID,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

export const hashPassword = (password: string) => hash(password, ARGON2_OPTIONS);

export const verifyPassword = async ({ hash: stored, password }: { hash: string; password: string }) => {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
};
