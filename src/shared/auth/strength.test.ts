import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SPECIAL_CHARACTERS, passwordStrength } from './strength.ts';

describe('password strength meter', () => {
  it.each([
    ['', 0, 'Weak password', 'red'],
    ['abc', 1, 'Weak password', 'red'],
    ['abcdefgh', 2, 'Weak password', 'red'],
    ['Abcdefgh', 3, 'Fair', 'yellow'],
    ['Abcdefg1', 4, 'Good', 'green'],
    ['Abcdef1!', 5, 'Strong', 'green'],
    ['ABC1!', 3, 'Fair', 'yellow'],
  ] as const)('%s scores %i (%s, %s)', (password, score, label, color) => {
    const s = passwordStrength(password);
    expect(s.score).toBe(score);
    expect(s.label).toBe(label);
    expect(s.color).toBe(color);
  });

  it('counts each of the five checks separately', () => {
    expect(passwordStrength('aaaaaaaa').checks).toEqual({
      length: true,
      uppercase: false,
      lowercase: true,
      number: false,
      special: false,
    });
    for (const c of SPECIAL_CHARACTERS) expect(passwordStrength(c).checks.special).toBe(true);
    expect(passwordStrength('~').checks.special).toBe(false);
  });

  it('scores between 0 and 5 and never drops when a character is appended', () => {
    fc.assert(
      fc.property(fc.string(), fc.string({ minLength: 1, maxLength: 1 }), (p, c) => {
        const a = passwordStrength(p).score;
        const b = passwordStrength(p + c).score;
        return a >= 0 && a <= 5 && b >= a;
      }),
    );
  });
});
