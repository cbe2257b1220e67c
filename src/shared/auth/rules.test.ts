import { describe, expect, it } from 'vitest';
import {
  MESSAGES,
  isValidEmail,
  isValidName,
  normalizeEmail,
  normalizePromoCode,
  validateLogin,
  validateNewPassword,
  validateSignup,
} from './rules.ts';

const goodSignup = {
  firstName: 'Ada',
  lastName: "O'Neil-Byron",
  email: 'ada@example.com',
  password: 'secret1',
  confirmPassword: 'secret1',
  promoCode: '',
};

describe('email rule', () => {
  it('accepts {email} shapes and refuses spaces or missing parts', () => {
    expect(isValidEmail('a@b.co')).toBe(true);
    expect(isValidEmail('  a.b+c@example.org  ')).toBe(true);
    for (const bad of ['', 'a', 'a@b', 'a@b.', '@b.co', 'a b@c.de', 'a@b c.de', 'a@@b.co'])
      expect(isValidEmail(bad), bad).toBe(false);
  });
  it('lowercases and trims before use', () => {
    expect(normalizeEmail('  Ada@Example.COM ')).toBe('ada@example.com');
  });
});

describe('name rule', () => {
  it('needs 2+ letters, spaces, apostrophes or hyphens after trimming', () => {
    expect(isValidName('Al')).toBe(true);
    expect(isValidName("D'Arcy")).toBe(true);
    expect(isValidName('Anne-Marie')).toBe(true);
    expect(isValidName('José María')).toBe(true);
    expect(isValidName(' A ')).toBe(false);
    expect(isValidName('R2D2')).toBe(false);
    expect(isValidName('Ann!')).toBe(false);
  });
});

describe('login form', () => {
  it("gives SPEC's messages in order", () => {
    expect(validateLogin({ email: '', password: '' })).toBe('Email address is required.');
    expect(validateLogin({ email: 'a@b.co', password: '' })).toBe('Password is required.');
    expect(validateLogin({ email: 'nope', password: 'x' })).toBe('Please enter a valid email address.');
    expect(validateLogin({ email: 'a@b.co', password: 'x' })).toBeNull();
  });
});

describe('signup form', () => {
  it('accepts a good form', () => {
    expect(validateSignup(goodSignup)).toBeNull();
  });
  it("gives SPEC's messages", () => {
    expect(validateSignup({ ...goodSignup, firstName: 'A' })).toBe(
      'First name must be at least 2 characters and contain only letters.',
    );
    expect(validateSignup({ ...goodSignup, lastName: 'B4' })).toBe(
      'Last name must be at least 2 characters and contain only letters.',
    );
    expect(validateSignup({ ...goodSignup, email: 'x@' })).toBe('Please enter a valid email address.');
    expect(validateSignup({ ...goodSignup, password: '', confirmPassword: '' })).toBe(
      'Password is required.',
    );
    expect(validateSignup({ ...goodSignup, password: '12345', confirmPassword: '12345' })).toBe(
      'Password must be at least 6 characters long.',
    );
    expect(validateSignup({ ...goodSignup, confirmPassword: 'secret2' })).toBe('Passwords do not match.');
  });
  it('enforces only the 6-character minimum', () => {
    expect(validateNewPassword('aaaaaa', 'aaaaaa')).toBeNull();
    expect(validateNewPassword('aaaaa', 'aaaaa')).toBe(MESSAGES.passwordTooShort);
  });
});

describe('promo code', () => {
  it('is upper-cased and trimmed', () => {
    expect(normalizePromoCode(' launch2026 ')).toBe('LAUNCH2026');
  });
});
