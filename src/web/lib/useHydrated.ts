import { useSyncExternalStore } from 'react';

// Public pages arrive as prerendered HTML (src/web/prerender.tsx) that the browser hydrates:
// the first client render must draw exactly what the server drew. Anything that depends on
// the browser (stored choices, the query string, history state, the theme, the clock) reads
// `useHydrated()` and uses the server's value until it is true. It is false on the server and
// during hydration, true right after it (React renders once more), and true from the start in
// a page rendered on the client alone (client-side navigation, pages without prerendered HTML).

const subscribe = () => () => {};

export const useHydrated = (): boolean =>
  useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
