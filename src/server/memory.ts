// A full garbage collection before work that allocates a lot at once (a statement import of
// tens of thousands of lines). V8 collects its old generation only after it has grown a few
// times past what is live, so a long-running server enters a large import still holding the
// garbage of the requests before it: in the benchmark a second 100,000-line import in the same
// process peaked about 120 MB above the first (docs/performance.md, issue 12's memory goal).
// One full collection takes tens of milliseconds against the seconds such an import takes.
// The server runs with --expose-gc (npm start, npm run dev, the e2e server); where gc is not
// exposed (tests, a hand-started node) this does nothing.

/** What makes a collection worth its pause: a file of this many characters, or this many rows. */
export const LARGE_FILE_CHARACTERS = 1_000_000;
export const LARGE_ROW_COUNT = 20_000;

export const collectGarbageBeforeLargeWork = (large: boolean) => {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (large && gc) gc();
};
