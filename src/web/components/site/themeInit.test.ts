import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';

// The header toggle relies on the theme being right before the first paint: theme-init.js
// reads the 'theme' key (SPEC section 4). Run it against a fake page for each stored value.

const script = fs.readFileSync(path.resolve(import.meta.dirname, '../../public/theme-init.js'), 'utf8');

const run = (stored: string | null, osDark: boolean) => {
  const classes = new Set<string>();
  const sandbox = {
    localStorage: {
      getItem: (key: string) => (key === 'theme' ? stored : null),
    },
    window: { matchMedia: (q: string) => ({ matches: q === '(prefers-color-scheme: dark)' && osDark }) },
    document: { documentElement: { classList: { add: (c: string) => classes.add(c) } } },
  };
  vm.runInNewContext(script, sandbox);
  return classes.has('dark');
};

describe('theme before first paint', () => {
  it.each([
    ['light', false, false],
    ['light', true, false],
    ['dark', false, true],
    ['dark', true, true],
    ['system', false, false],
    ['system', true, true],
    [null, false, false],
    [null, true, true],
  ] as const)('stored %j with OS dark %s gives dark %s', (stored, osDark, dark) => {
    expect(run(stored, osDark)).toBe(dark);
  });

  it.each(['purple', 'DARK', '', ' dark', 'true'])(
    'ignores the invalid value %j and follows the OS',
    (stored) => {
      expect(run(stored, true)).toBe(true);
      expect(run(stored, false)).toBe(false);
    },
  );
});
