import { describe, expect, it } from 'vitest';
import { MAX_DATE, MIN_DATE, decimalText, isoDate, unsafeTextProblem } from './input.ts';

describe('shared input rules', () => {
  it('accepts real dates from MIN_DATE to MAX_DATE only', () => {
    for (const ok of [MIN_DATE, MAX_DATE, '2024-02-29', '2026-03-15'])
      expect(isoDate.safeParse(ok).success).toBe(true);
    for (const bad of [
      '1899-12-31',
      '2200-01-01',
      '9999-12-31',
      '0000-01-01',
      '2026-02-30',
      '2026-13-01',
      '26-1-1',
      '',
    ]) {
      const result = isoDate.safeParse(bad);
      expect(result.success).toBe(false);
      expect(result.error?.issues).toHaveLength(1);
    }
  });

  it('checks decimal text by pattern before any refinement parses it', () => {
    const positive = decimalText({ maxDecimals: 2, message: 'Use a number.' }).refine((t) => {
      if (!/^\d+(\.\d+)?$/.test(t)) throw new Error('refinement saw garbage');
      return Number(t) > 0;
    }, 'Must be positive.');
    expect(positive.safeParse(' 12.5 ').data).toBe('12.5');
    for (const bad of ['abc', '', '1e5', '-1', '1.234', '1,5', 'NaN', '١٢']) {
      expect(positive.safeParse(bad).error?.issues.map((i) => i.message)).toEqual(['Use a number.']);
    }
    expect(positive.safeParse('0').error?.issues.map((i) => i.message)).toEqual(['Must be positive.']);
  });

  it('finds NUL characters and lone surrogates, not real characters', () => {
    expect(unsafeTextProblem('a\u0000b')).toMatch(/NUL/);
    expect(unsafeTextProblem('\ud800')).toMatch(/surrogate/);
    expect(unsafeTextProblem('x\udc00')).toMatch(/surrogate/);
    expect(unsafeTextProblem('\udc00\ud800')).toMatch(/surrogate/);
    for (const ok of ['', 'plain', '💸🏦', 'e\u0301', '\u202eabc', 'עברית'])
      expect(unsafeTextProblem(ok)).toBeUndefined();
  });
});
