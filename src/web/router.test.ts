import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// PRELOAD (loaders, which the development server imports) and PRELOAD_MODULES (module paths,
// whose built files the preload fetches) name the same screens in the same order.

const source = fs.readFileSync(path.join(import.meta.dirname, 'router.tsx'), 'utf8');

describe('the preload lists', () => {
  it('name the same screens', async () => {
    const moduleOf = new Map(
      [...source.matchAll(/^\s+(\w+): \(\) => import\('\.\/([^']+)'\),$/gm)].map((m) => [m[1]!, m[2]!]),
    );
    const preload = source.match(/export const PRELOAD: Loader\[\] = \[([^\]]*)\]/)![1]!;
    const keys = [...preload.matchAll(/screens\.(\w+)/g)].map((m) => m[1]!);
    expect(keys.length).toBeGreaterThan(5);
    const { PRELOAD_MODULES } = await import('./router.tsx');
    expect(PRELOAD_MODULES).toEqual(keys.map((k) => moduleOf.get(k)));
  });
});
