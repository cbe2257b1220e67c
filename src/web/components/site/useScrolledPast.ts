import { useCallback, useSyncExternalStore } from 'react';

/** SPEC section 9: the landing header strengthens after 20 px of scroll. */
export const HEADER_SCROLL_THRESHOLD = 20;

const onScroll = (notify: () => void) => {
  window.addEventListener('scroll', notify, { passive: true });
  return () => window.removeEventListener('scroll', notify);
};

/**
 * True once the page is scrolled further than `threshold` pixels. False on the server and
 * while prerendered HTML hydrates (which drew the page at the top), then the real position.
 */
export const useScrolledPast = (threshold: number = HEADER_SCROLL_THRESHOLD) =>
  useSyncExternalStore(
    onScroll,
    useCallback(() => window.scrollY > threshold, [threshold]),
    () => false,
  );
