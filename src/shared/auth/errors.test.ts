import { describe, expect, it } from 'vitest';
import {
  AUTH_ERROR_MESSAGES,
  AUTH_FALLBACK_MESSAGE,
  authErrorCode,
  authErrorMessage,
  resetErrorMessage,
} from './errors.ts';

describe('auth error catalogue (SPEC section 8)', () => {
  it("holds SPEC's exact texts", () => {
    expect(AUTH_ERROR_MESSAGES).toMatchObject({
      'user-not-found': 'No account found with this email address.',
      'wrong-password': 'Incorrect password. Please try again.',
      'invalid-email': 'Please enter a valid email address.',
      'user-disabled': 'This account has been disabled. Please contact support.',
      'too-many-requests': 'Too many failed attempts. Please try again later.',
      'network-request-failed': 'Network error. Please check your internet connection.',
      'email-already-in-use': 'An account with this email already exists. Try logging in instead.',
      'weak-password': 'Password is too weak. Please use at least 6 characters.',
      'internal-error': 'Internal authentication error. Please try again.',
    });
    expect(AUTH_FALLBACK_MESSAGE).toBe('Authentication failed. Please try again.');
  });

  it('maps server answers to codes', () => {
    expect(authErrorCode(0)).toBe('network-request-failed');
    expect(authErrorCode(429)).toBe('too-many-requests');
    expect(authErrorCode(401, 'USER_NOT_FOUND')).toBe('user-not-found');
    expect(authErrorCode(401, 'WRONG_PASSWORD')).toBe('wrong-password');
    expect(authErrorCode(401, 'INVALID_EMAIL_OR_PASSWORD')).toBe('invalid-credential');
    expect(authErrorCode(400, 'INVALID_EMAIL')).toBe('invalid-email');
    expect(authErrorCode(403, 'BANNED_USER')).toBe('user-disabled');
    expect(authErrorCode(422, 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL')).toBe('email-already-in-use');
    expect(authErrorCode(400, 'PASSWORD_TOO_SHORT')).toBe('weak-password');
    expect(authErrorCode(400, 'PASSWORD_TOO_COMMON')).toBe('common-password');
    expect(authErrorCode(500)).toBe('internal-error');
    expect(authErrorCode(400, 'SOMETHING_NEW')).toBe('unknown');
    expect(authErrorMessage('unknown')).toBe('Authentication failed. Please try again.');
  });

  it("maps the reset modal's errors with its own texts", () => {
    expect(resetErrorMessage('user-not-found')).toBe('No account found with this email address.');
    expect(resetErrorMessage('invalid-email')).toBe('Please enter a valid email address.');
    expect(resetErrorMessage('too-many-requests')).toBe('Too many reset attempts. Please try again later.');
    expect(resetErrorMessage('network-request-failed')).toBe('Network error. Please check your connection.');
    expect(resetErrorMessage('internal-error')).toBe(
      'Failed to send password reset email. Please try again.',
    );
    expect(resetErrorMessage('unknown')).toBe('Failed to send password reset email. Please try again.');
  });
});
