import './zodConfig.ts';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { AppProviders, createQueryClient } from './App.tsx';
import { startSessionCheck } from './auth/client.ts';
import { loadScreenFor, preloadScreens, routes, sameScreen } from './router.tsx';
import { APP_PAGES, type AppPage } from '../shared/web-routes.ts';
import './styles.css';

// Public pages arrive prerendered (src/web/prerender.tsx: #root holds the page and names its
// path in data-prerendered): the browser loads that screen's chunk (preloaded by the HTML),
// then hydrates the markup. Any other page (the signed-in app) renders from scratch.

const container = document.getElementById('root')!;
const prerenderedPath = container.dataset.prerendered;

const app = (queryClient = createQueryClient()) => (
  <StrictMode>
    <AppProviders queryClient={queryClient}>
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

/** The signed-in page at `pathname`, if it is one. */
const appPageAt = (pathname: string): AppPage | undefined =>
  APP_PAGES.find((page) => pathname.replace(/\/+$/, '') === `/${page}`);

/**
 * A signed-in page: its HTML shows the guard's spinner and preloads the session's answer and the
 * shell's and page's chunks. Rather than render the spinner again, ask for the session, then
 * the companies, and load the shell and the page, all at once; render when the session and the
 * shell's code are there (the companies may still be on their way): the first render draws the
 * shell, or the guard's answer for a visitor who is not signed in. Three requests in a row
 * (the session after the first render, the companies after the shell's, the page's data after
 * the page's) become one wait for the page's data. The render is a transition, which React
 * splits into slices of a few milliseconds instead of one long task.
 */
const startAppPage = async (page: AppPage) => {
  const queryClient = createQueryClient();
  const session = startSessionCheck();
  const companies = import('./lib/company.tsx');
  void Promise.all([session, companies]).then(
    ([current, { prefetchCompanies }]) => current && prefetchCompanies(queryClient),
    () => undefined,
  );
  // The page's own chunk is not waited for: the shell (and, for a user whose address is not
  // confirmed yet, its banner, the largest paint) is drawn first, the page when its code is in.
  void import('./pages/app/AppShell.tsx').then(({ preparePage }) => preparePage(page));
  await Promise.allSettled([session, loadScreenFor(window.location.pathname)]);
  startTransition(() => {
    createRoot(container).render(app(queryClient));
  });
};

const start = async () => {
  const appPage = appPageAt(window.location.pathname);
  if (appPage) {
    await startAppPage(appPage);
    preloadScreens();
    return;
  }
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
