import { ArrowUp } from 'lucide-react';
import { scrollToTop } from './SiteHeader.tsx';
import { useScrolledPast } from './useScrolledPast.ts';

/** Appears once the page is scrolled past the header threshold (SPEC section 2). */
export const BackToTop = () => {
  const visible = useScrolledPast();
  if (!visible) return null;
  return (
    <button
      type="button"
      onClick={scrollToTop}
      aria-label="Back to top"
      className="fixed right-5 bottom-5 z-40 inline-flex size-12 items-center justify-center rounded-full bg-slate-900 text-white shadow-lg ring-1 ring-white/10 transition hover:bg-slate-700 dark:bg-white dark:text-slate-900 dark:hover:bg-slate-200"
    >
      <ArrowUp aria-hidden="true" className="size-5" />
    </button>
  );
};
