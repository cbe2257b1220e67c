import './zodConfig.ts';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { AppProviders, createQueryClient } from './App.tsx';
import { loadScreenFor, preloadScreens, routes, sameScreen } from './router.tsx';
import './styles.css';

// Public pages arrive prerendered (src/web/prerender.tsx: #root holds the page and names its
// path in data-prerendered): the browser loads that screen's chunk (preloaded by the HTML),
// then hydrates the markup. Any other page (the signed-in app) renders from scratch.

const container = document.getElementById('root')!;
const prerenderedPath = container.dataset.prerendered;

const app = () => (
  <StrictMode>
    <AppProviders queryClient={createQueryClient()}>
      <RouterProvider router={createBrowserRouter(routes)} />
    </AppProviders>
  </StrictMode>
);

/** Resolves after the next frame was drawn (or after 100 ms in a tab that draws none). */
const afterFirstFrame = () =>
  new Promise<void>((resolve) => {
    const timer = window.setTimeout(resolve, 100);
    requestAnimationFrame(() =>
      window.setTimeout(() => {
        window.clearTimeout(timer);
        resolve();
      }, 0),
    );
  });

const start = async () => {
  const prerendered = prerenderedPath !== undefined && sameScreen(prerenderedPath, window.location.pathname);
  // A chunk that fails to load leaves the lazy screen to show the router's error page.
  const ready = prerendered
    ? await loadScreenFor(window.location.pathname).then(
        () => true,
        () => false,
      )
    : false;
  if (ready) {
    // The prerendered page is on screen as soon as the HTML and CSS are: hydration waits for
    // the browser's first frame, then runs as a transition, which React splits into slices of
    // a few milliseconds, so that neither the first paint nor a tap waits for the whole page's
    // hydration (one long task before; docs/performance.md, "Lighthouse").
    await afterFirstFrame();
    startTransition(() => {
      hydrateRoot(container, app());
    });
  } else createRoot(container).render(app());
  preloadScreens();
};

void start();
