import { describe, expect, it } from 'vitest';
import { isValidPhone, profileDetailsPatch, validateProfileDetails } from './profile-details.ts';

const form = { firstName: 'Ada', lastName: 'Lovelace', displayName: '', phone: '', role: '' };

describe('profile details rules', () => {
  it('takes good names, phones and titles', () => {
    expect(validateProfileDetails(form)).toEqual({});
    expect(
      validateProfileDetails({ ...form, firstName: "  Zoë-Ann O'Neil ", phone: '+1 (555) 010-0100' }),
    ).toEqual({});
  });

  it('names each field that breaks its rule, with SPEC’s name messages', () => {
    expect(
      validateProfileDetails({
        firstName: 'A',
        lastName: 'L0velace',
        displayName: 'x'.repeat(201),
        phone: 'call me',
        role: 'y'.repeat(101),
      }),
    ).toEqual({
      firstName: 'First name must be at least 2 characters and contain only letters.',
      lastName: 'Last name must be at least 2 characters and contain only letters.',
      displayName: 'Display name can be at most 200 characters.',
      phone: expect.stringMatching(/^Enter a phone number/),
      role: 'Job title can be at most 100 characters.',
    });
    expect(validateProfileDetails({ ...form, firstName: 'a'.repeat(101) }).firstName).toBe(
      'Names can be at most 100 characters.',
    );
  });

  it('checks phone numbers', () => {
    expect(isValidPhone('')).toBe(true);
    expect(isValidPhone('+44 20 7946 0958')).toBe(true);
    expect(isValidPhone('1234')).toBe(false);
    expect(isValidPhone('++1 555 0100')).toBe(false);
    expect(isValidPhone('555-0100 ext 2')).toBe(false);
    expect(isValidPhone('1'.repeat(41))).toBe(false);
  });

  it('trims and fills the display name from the names when empty', () => {
    expect(profileDetailsPatch({ ...form, firstName: ' Ada ', phone: ' 555 0100 ' })).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      displayName: 'Ada Lovelace',
      phone: '555 0100',
      role: '',
    });
    expect(profileDetailsPatch({ ...form, displayName: ' Countess ' }).displayName).toBe('Countess');
  });
});
