import { afterEach, describe, expect, it, vi } from 'vitest';
import { collectGarbageBeforeLargeWork } from './memory.ts';

describe('collectGarbageBeforeLargeWork', () => {
  const holder = globalThis as { gc?: () => void };
  const original = holder.gc;
  afterEach(() => {
    holder.gc = original;
  });

  it('collects only before large work, and only where gc is exposed', () => {
    const gc = vi.fn();
    holder.gc = gc;
    collectGarbageBeforeLargeWork(false);
    expect(gc).not.toHaveBeenCalled();
    collectGarbageBeforeLargeWork(true);
    expect(gc).toHaveBeenCalledTimes(1);
    holder.gc = undefined;
    expect(() => collectGarbageBeforeLargeWork(true)).not.toThrow();
  });
});
