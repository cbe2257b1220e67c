import { useEffect, useState } from 'react';

/** SPEC section 9: the demo's active section toggles every 3 s. */
export const DEMO_TOGGLE_MS = 3000;

/** The index after `current` in a list of `count`, wrapping round. */
export const nextIndex = (current: number, count: number) => (count <= 0 ? 0 : (current + 1) % count);

/**
 * Advances an index every `ms` while `running`. Stops for good when the visitor takes over
 * (the caller sets running to false) and never runs for people who asked for less motion.
 */
export const useAutoToggle = (count: number, running: boolean, ms: number = DEMO_TOGGLE_MS) => {
  const [index, setIndex] = useState(0);
  useEffect(() => {
    if (!running) return;
    if (window.matchMedia?.('(prefers-reduced-motion: reduce)').matches) return;
    const timer = window.setInterval(() => setIndex((i) => nextIndex(i, count)), ms);
    return () => window.clearInterval(timer);
  }, [count, running, ms]);
  return [index, setIndex] as const;
};
