import { useEffect, useState } from 'react';

/** SPEC section 9: the landing header strengthens after 20 px of scroll. */
export const HEADER_SCROLL_THRESHOLD = 20;

/** True once the page is scrolled further than `threshold` pixels. */
export const useScrolledPast = (threshold: number = HEADER_SCROLL_THRESHOLD) => {
  const [past, setPast] = useState(() => typeof window !== 'undefined' && window.scrollY > threshold);
  useEffect(() => {
    const onScroll = () => setPast(window.scrollY > threshold);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [threshold]);
  return past;
};
