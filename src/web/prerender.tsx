import { StrictMode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { prerenderToNodeStream } from 'react-dom/static';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { GUARD_MESSAGES } from '../shared/auth/errors.ts';
import { AppProviders, createQueryClient } from './App.tsx';
import { PageSpinner } from './components/Spinner.tsx';
import { headTagsFor, headTagsHtml } from './lib/meta.ts';
import { APP_PAGES } from './pages/app/pages.ts';
import { loadScreenFor, routes } from './router.tsx';

export { PRELOAD_META, PRELOAD_MODULES } from './router.tsx';

// Prerendered public pages (issue 22): at `vite build` time the prerender plugin in
// vite.config.ts builds this module for Node, renders each public path with the providers and
// routes the browser uses (signed out, default theme and formats) and writes
// `<outDir>/prerendered/<file>` — the built index.html with the page in #root and the page's
// own head tags. The server answers a public path with its file; the browser hydrates it
// (main.tsx). docs/ui.md, "Prerendered public pages".

export type PrerenderPage = {
  /** The path rendered (the not-found page is drawn at a path no route has). */
  path: string;
  /** The file under `<outDir>/prerendered/` (the server's contract: exactly these names). */
  file: string;
  /**
   * Modules of src/web whose chunks the page needs at once (the screen and the lazy parts it
   * draws above the fold): the HTML preloads them so that hydration does not wait for them.
   */
  modules: string[];
};

export const PRERENDER_PAGES: readonly PrerenderPage[] = [
  { path: '/', file: 'index.html', modules: ['pages/landing/LandingPage.tsx', 'demo/DashboardPreview.tsx'] },
  { path: '/pricing', file: 'pricing.html', modules: ['pages/pricing/PricingPage.tsx'] },
  { path: '/about', file: 'about.html', modules: ['pages/about/AboutPage.tsx'] },
  { path: '/contact', file: 'contact.html', modules: ['pages/contact/ContactPage.tsx'] },
  { path: '/login', file: 'login.html', modules: ['pages/login/LoginPage.tsx'] },
  { path: '/signup', file: 'signup.html', modules: ['pages/signup/SignupPage.tsx'] },
  {
    path: '/reset-password',
    file: 'reset-password.html',
    modules: ['pages/reset-password/ResetPasswordPage.tsx'],
  },
  { path: '/404', file: '404.html', modules: ['pages/not-found/NotFoundPage.tsx'] },
];

/**
 * The signed-in pages' HTML (`<outDir>/prerendered/app/<page>.html`, served at `/<page>`):
 * index.html with the app shell's and the page's chunks preloaded, so that the browser fetches
 * them with the entry instead of one after the other once the session is known, and with the
 * guard's spinner in #root (`appPageMarkup`; the page itself needs the session and the
 * company's data). #root names no prerendered path: the browser renders, it does not hydrate.
 */
export const APP_PAGE_FILES: readonly PrerenderPage[] = APP_PAGES.map((page) => ({
  path: `/${page}`,
  file: `app/${page}.html`,
  modules: [
    'pages/app/AppShell.tsx',
    `pages/${page}/${page.charAt(0).toUpperCase()}${page.slice(1)}Page.tsx`,
  ],
}));

/**
 * What a signed-in page's HTML shows until the app renders (and replaces it): the spinner the
 * sign-in guard shows while it asks for the session, so the first paint needs no script.
 */
export const appPageMarkup = () => renderToStaticMarkup(<PageSpinner label={GUARD_MESSAGES.checking} />);

/** The page's markup as the browser's first render draws it (what #root holds). */
export const renderPage = async (path: string): Promise<string> => {
  await loadScreenFor(path);
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const errors: unknown[] = [];
  try {
    const { prelude } = await prerenderToNodeStream(
      <StrictMode>
        <AppProviders queryClient={createQueryClient()}>
          <RouterProvider router={router} />
        </AppProviders>
      </StrictMode>,
      {
        onError: (error) => void errors.push(error),
        // Every boundary inline, in place: React outlines big ones behind inline scripts
        // otherwise, which the Content Security Policy (script-src 'self') blocks.
        progressiveChunkSize: Number.POSITIVE_INFINITY,
      },
    );
    let html = '';
    for await (const chunk of prelude)
      html += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
    // A screen that threw draws the router's error page: never ship that as the page.
    const routeErrors = router.state.errors ? Object.values(router.state.errors) : [];
    if (errors.length || routeErrors.length)
      throw new Error(`prerender of ${path} failed: ${String(errors[0] ?? routeErrors[0])}`);
    // React's inline scripts (an unfinished boundary) would be blocked by the CSP.
    if (/<script|<!--\$[?!]-->/.test(html))
      throw new Error(`prerender of ${path} left a boundary unfinished`);
    return html;
  } finally {
    router.dispose();
  }
};

const PAGE_HEAD = /<!-- page-head -->[\s\S]*?<!-- \/page-head -->/;
const EMPTY_ROOT = '<div id="root"></div>';

/**
 * The page's HTML file: the built index.html (`template`) with the page's head tags in place
 * of the defaults, its chunks preloaded, and the markup in #root, which names the path it was
 * drawn for (main.tsx hydrates only there).
 */
export const prerenderedDocument = (
  template: string,
  page: { path: string; markup: string; origin: string; preload: string[] },
): string => {
  if (!PAGE_HEAD.test(template) || !template.includes(EMPTY_ROOT))
    throw new Error('index.html has no <!-- page-head --> block or no empty #root');
  const head = headTagsHtml(headTagsFor(page.path, page.origin));
  const preload = page.preload.map((href) => `<link rel="modulepreload" crossorigin href="${href}">`);
  return (
    template
      .replace(PAGE_HEAD, () => head)
      // The page is drawn without its scripts: they load at low priority, after the styles and
      // the font that the first paint needs, and hydrate once they are there.
      .replace(/<script type="module"|<link rel="modulepreload"/g, (tag) => `${tag} fetchpriority="low"`)
      .replace(/\n( *)<\/head>/, (_all, indent: string) =>
        [
          ...preload.map(
            (l) => `${indent}  ${l.replace(' crossorigin', ' fetchpriority="low" crossorigin')}`,
          ),
          `${indent}</head>`,
        ]
          .map((l) => `\n${l}`)
          .join(''),
      )
      .replace(EMPTY_ROOT, () => `<div id="root" data-prerendered="${page.path}">${page.markup}</div>`)
  );
};
