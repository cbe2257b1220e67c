// The web app's paths, in one list that the browser router and the server both read: the
// router makes a route per entry, and the server answers any other path outside /api with
// the not-found page and HTTP 404 (src/server/http/web-app.ts).

/** Public screens (SPEC section 2), each at its exact path. */
export const PUBLIC_PATHS = [
  '/',
  '/pricing',
  '/about',
  '/contact',
  '/login',
  '/signup',
  '/reset-password',
  '/dev/mailbox',
] as const;
export type PublicPath = (typeof PUBLIC_PATHS)[number];

/**
 * The signed-in app's pages, one path segment each (`/<page>`). The router makes a route per
 * page and the shell draws its navigation from the same list. A page's views live in its
 * query string (`/invoices?invoice=…`), never in deeper paths.
 */
export const APP_PAGES = [
  'dashboard',
  'transactions',
  'invoices',
  'bills',
  'wallet',
  'billing',
  'accounting',
  'settings',
  'admin',
] as const;
export type AppPage = (typeof APP_PAGES)[number];

/** Every path the web app shows a screen at (not the not-found page). */
export type WebAppPath = PublicPath | `/${AppPage}`;
export const WEB_APP_PATHS: readonly WebAppPath[] = [
  ...PUBLIC_PATHS,
  ...APP_PAGES.map((page): WebAppPath => `/${page}`),
];

const known = new Set<string>(WEB_APP_PATHS);

/**
 * Whether the web app has a screen at `pathname` (no query string). A trailing slash is the
 * same path, as in the router; letter case is not (the router matches `/Pricing` too, so it
 * is compared lower-cased like the router does).
 */
export const isWebAppPath = (pathname: string): boolean => {
  const clean = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return known.has((clean || '/').toLowerCase());
};
