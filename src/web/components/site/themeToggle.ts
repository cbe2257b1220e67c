// What the header's theme toggle does (SPEC section 4: "a toggle switches between light and
// dark"): it flips the theme that is showing now, whatever mode produced it.

export type ResolvedTheme = 'light' | 'dark';

export const nextTheme = (showing: ResolvedTheme): ResolvedTheme => (showing === 'dark' ? 'light' : 'dark');

export const themeToggleLabel = (showing: ResolvedTheme): string =>
  showing === 'dark' ? 'Switch to light theme' : 'Switch to dark theme';
