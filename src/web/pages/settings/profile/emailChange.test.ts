import { describe, expect, it } from 'vitest';
import { emailChangeError, emailChangeProblem } from './emailChange.ts';

describe('email change form', () => {
  it('checks the address, that it is new, and the password, in that order', () => {
    expect(emailChangeProblem({ newEmail: 'nope', password: '' }, 'a@example.com')).toBe(
      'Please enter a valid email address.',
    );
    expect(emailChangeProblem({ newEmail: ' A@Example.com ', password: 'x' }, 'a@example.com')).toBe(
      'This is already your email address.',
    );
    expect(emailChangeProblem({ newEmail: 'b@example.com', password: '' }, 'a@example.com')).toBe(
      'Enter your current password to change your email address.',
    );
    expect(emailChangeProblem({ newEmail: 'b@example.com', password: 'pw' }, 'a@example.com')).toBeNull();
  });

  it('words the server’s refusals', () => {
    expect(emailChangeError(400, { code: 'INVALID_PASSWORD', message: 'Invalid password' })).toBe(
      'Incorrect password. Please try again.',
    );
    expect(emailChangeError(400, { message: 'Email is the same' })).toBe(
      'This is already your email address.',
    );
    expect(emailChangeError(429, null)).toBe('Too many failed attempts. Please try again later.');
    expect(emailChangeError(0, null)).toBe('Network error. Please check your internet connection.');
  });
});
