import { describe, expect, it } from 'vitest';
import { nextTheme, themeToggleLabel } from './themeToggle.ts';

describe('theme toggle', () => {
  it('flips what is showing', () => {
    expect(nextTheme('light')).toBe('dark');
    expect(nextTheme('dark')).toBe('light');
  });
  it('names what pressing it will do', () => {
    expect(themeToggleLabel('light')).toBe('Switch to dark theme');
    expect(themeToggleLabel('dark')).toBe('Switch to light theme');
  });
});
