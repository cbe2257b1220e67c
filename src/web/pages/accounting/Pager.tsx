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

export const Pager = ({
  page,
  hasNext,
  onNext,
  onPrevious,
  label,
}: {
  page: number;
  hasNext: boolean;
  onNext: () => void;
  onPrevious: () => void;
  label: string;
}) =>
  page === 1 && !hasNext ? null : (
    <nav aria-label={`${label} pages`} className="flex items-center justify-between gap-3 px-5 py-3">
      <p className="text-sm text-slate-500 dark:text-slate-400">Page {page}</p>
      <div className="flex gap-2">
        <button
          type="button"
          onClick={onPrevious}
          disabled={page === 1}
          className="inline-flex min-h-11 items-center gap-1 rounded-lg border border-slate-300 px-3 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-40 dark:border-slate-700 dark:text-slate-200 dark:hover:bg-slate-800"
        >
          <ChevronLeft className="h-4 w-4" aria-hidden="true" /> Previous
        </button>
        <button
          type="button"
          onClick={onNext}
          disabled={!hasNext}
          className="inline-flex min-h-11 items-center gap-1 rounded-lg border border-slate-300 px-3 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-40 dark:border-slate-700 dark:text-slate-200 dark:hover:bg-slate-800"
        >
          Next <ChevronRight className="h-4 w-4" aria-hidden="true" />
        </button>
      </div>
    </nav>
  );
