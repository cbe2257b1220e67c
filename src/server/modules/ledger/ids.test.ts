import { describe, expect, it } from 'vitest';
import { newEntryId } from './ids.ts';

describe('newEntryId', () => {
  it('makes RFC 9562 version-7 UUIDs that sort in creation order, even within one millisecond', () => {
    // The generator is monotonic for the whole process (other test files in the same worker may
    // have made ids at the real time), so the test's clock starts well after now.
    const base = Date.now() + 86_400_000;
    const ids = Array.from({ length: 5000 }, () => newEntryId(base));
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    const later = newEntryId(base + 100_000);
    expect(later > ids.at(-1)!).toBe(true);
    expect(later.replace(/-/g, '').slice(0, 12)).toBe((base + 100_000).toString(16).padStart(12, '0'));
  });
});
