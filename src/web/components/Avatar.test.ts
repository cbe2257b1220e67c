import { describe, expect, it } from 'vitest';
import { initialsOf } from './Avatar.tsx';

describe('initialsOf', () => {
  it('takes the first and last word’s first letters, else two letters', () => {
    expect(initialsOf('Ada King Lovelace')).toBe('AL');
    expect(initialsOf('  zoë ')).toBe('ZO');
    expect(initialsOf('', 'sam@example.com')).toBe('SA');
    expect(initialsOf(null, null)).toBe('?');
    expect(initialsOf('Émile Zola')).toBe('ÉZ');
  });
});
