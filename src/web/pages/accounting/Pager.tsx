import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useCallback, useState } from 'react';

// Keyset pagination as the API does it: a cursor for the next page, and a stack of the
// cursors already passed so Previous works without offsets.

export const useCursorPages = () => {
  const [stack, setStack] = useState<(string | undefined)[]>([undefined]);
  const cursor = stack.at(-1);
  const next = useCallback((nextCursor: string) => setStack((s) => [...s, nextCursor]), []);
  const previous = useCallback(() => setStack((s) => (s.length > 1 ? s.slice(0, -1) : s)), []);
  const reset = useCallback(() => setStack((s) => (s.length === 1 ? s : [undefined])), []);
  return { cursor, page: stack.length, next, previous, reset };
};

export type CursorPages = ReturnType<typeof useCursorPages>;

const PAGE_BUTTON =
  'inline-flex min-h-11 items-center gap-1 rounded-lg border border-slate-300 px-3 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-40 dark:border-slate-700 dark:text-slate-200 dark:hover:bg-slate-800';

/**
 * Previous / Next for a list paged with `useCursorPages`: `nextCursor` is the one the API
 * answered with the page on screen (none on the last page). Hidden while there is one page.
 */
export const Pager = ({
  label,
  pages,
  nextCursor,
}: {
  label: string;
  pages: CursorPages;
  nextCursor: string | null | undefined;
}) =>
  pages.page === 1 && !nextCursor ? null : (
    <nav aria-label={`${label} pages`} className="flex items-center justify-between gap-3 px-5 py-3">
      <p className="text-sm text-slate-500 dark:text-slate-400">Page {pages.page}</p>
      <div className="flex gap-2">
        <button type="button" onClick={pages.previous} disabled={pages.page === 1} className={PAGE_BUTTON}>
          <ChevronLeft className="h-4 w-4" aria-hidden="true" /> Previous
        </button>
        <button
          type="button"
          onClick={() => nextCursor && pages.next(nextCursor)}
          disabled={!nextCursor}
          className={PAGE_BUTTON}
        >
          Next <ChevronRight className="h-4 w-4" aria-hidden="true" />
        </button>
      </div>
    </nav>
  );
