import { Suspense, lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { matchRoutes, Outlet, type RouteObject, useRouteError } from 'react-router';
import { PrivateRoute } from './auth/PrivateRoute.tsx';
import { PageSpinner } from './components/Spinner.tsx';
import { useRouteMeta } from './lib/meta.ts';
import { APP_PAGES } from './pages/app/pages.ts';
import { PUBLIC_PATHS, type PublicPath } from '../shared/web-routes.ts';

// Routes (SPEC section 2). Every screen loads lazily, in its own chunk, so a public page never
// waits for the private app; all of them are preloaded about 1 s after the first render so
// navigation is instant. The screen at the address the page opens on is loaded before the
// first render (`loadScreenFor`): prerendered HTML hydrates without a spinner in between.

type Loader = () => Promise<{ default: ComponentType<any> }>;

const screens = {
  landing: () => import('./pages/landing/LandingPage.tsx'),
  pricing: () => import('./pages/pricing/PricingPage.tsx'),
  about: () => import('./pages/about/AboutPage.tsx'),
  contact: () => import('./pages/contact/ContactPage.tsx'),
  notFound: () => import('./pages/not-found/NotFoundPage.tsx'),
  appShell: () => import('./pages/app/AppShell.tsx'),
  login: () => import('./pages/login/LoginPage.tsx'),
  signup: () => import('./pages/signup/SignupPage.tsx'),
  resetPassword: () => import('./pages/reset-password/ResetPasswordPage.tsx'),
  devMailbox: () => import('./pages/dev-mailbox/DevMailboxPage.tsx'),
} satisfies Record<string, Loader>;

/** Secondary screens preloaded after first render. Issues add their pages here. */
export const PRELOAD: Loader[] = [
  screens.landing,
  screens.pricing,
  screens.about,
  screens.contact,
  screens.notFound,
  screens.appShell,
  screens.login,
  screens.signup,
];

/**
 * The modules of PRELOAD, in its order (router.test.ts holds the two lists together). The build
 * names their files in a `kontor-preload` meta tag of every page (vite.config.ts), so the
 * preload downloads them without running them: running them (the app shell and its schemas)
 * was main-thread work in the page's first seconds.
 */
export const PRELOAD_MODULES = [
  'pages/landing/LandingPage.tsx',
  'pages/pricing/PricingPage.tsx',
  'pages/about/AboutPage.tsx',
  'pages/contact/ContactPage.tsx',
  'pages/not-found/NotFoundPage.tsx',
  'pages/app/AppShell.tsx',
  'pages/login/LoginPage.tsx',
  'pages/signup/SignupPage.tsx',
] as const;

/** The name of the meta tag listing the files to preload (space-separated URLs). */
export const PRELOAD_META = 'kontor-preload';

// Screens loaded before the first render draw at once; any other is React.lazy (the
// router's Suspense shows a spinner until its chunk arrives). Which of the two a screen is
// is decided before the first render and never changes while it is mounted.
const loaded = new Map<Loader, ComponentType<any>>();

const lazyOf = new Map<Loader, LazyExoticComponent<ComponentType<any>>>();

/** The screen a loader gives: drawn at once when loaded before the first render, else lazily. */
const Screen = ({ screen, ...props }: { screen: Loader } & Record<string, unknown>) => {
  let Lazy = lazyOf.get(screen);
  if (!Lazy) {
    Lazy = lazy(screen);
    lazyOf.set(screen, Lazy);
  }
  const Shown = loaded.get(screen) ?? Lazy;
  return <Shown {...props} />;
};

const Root = () => {
  useRouteMeta();
  return (
    <Suspense fallback={<PageSpinner />}>
      <Outlet />
    </Suspense>
  );
};

export const RouteErrorPage = () => {
  const error = useRouteError();
  if (error) console.error(error);
  return (
    <main className="mx-auto flex min-h-screen max-w-lg flex-col items-center justify-center gap-4 p-8 text-center">
      <h1 className="text-2xl font-bold">Unexpected Application Error!</h1>
      <p className="text-slate-600 dark:text-slate-300">
        Something went wrong while showing this page. Reload it, or go back to the start.
      </p>
      <a
        href="/"
        className="min-h-11 rounded-lg bg-brand-600 px-5 py-3 font-semibold text-white hover:bg-brand-700"
      >
        Go to home page
      </a>
    </main>
  );
};

// One screen per public path of the shared list (src/shared/web-routes.ts), which the server
// reads too: any other path is the not-found page, answered with HTTP 404.
const PUBLIC_SCREENS: Record<PublicPath, Loader> = {
  '/': screens.landing,
  '/pricing': screens.pricing,
  '/about': screens.about,
  '/contact': screens.contact,
  '/login': screens.login,
  '/signup': screens.signup,
  '/reset-password': screens.resetPassword,
  '/dev/mailbox': screens.devMailbox,
};

type ScreenHandle = { screen: Loader };

/** The app's routes: the browser's router (main.tsx) and the prerender (prerender.tsx) share them. */
export const routes: RouteObject[] = [
  {
    element: <Root />,
    errorElement: <RouteErrorPage />,
    children: [
      ...PUBLIC_PATHS.map((path) => ({
        path,
        element: <Screen screen={PUBLIC_SCREENS[path]} />,
        handle: { screen: PUBLIC_SCREENS[path] } satisfies ScreenHandle,
      })),
      {
        element: <PrivateRoute />,
        children: APP_PAGES.map((page) => ({
          path: `/${page}`,
          element: <Screen screen={screens.appShell} page={page} />,
          handle: { screen: screens.appShell } satisfies ScreenHandle,
        })),
      },
      {
        path: '*',
        element: <Screen screen={screens.notFound} />,
        handle: { screen: screens.notFound } satisfies ScreenHandle,
      },
    ],
  },
];

/** The screen's loader the router shows at `pathname`. */
const screenAt = (pathname: string): Loader | undefined =>
  (matchRoutes(routes, pathname)?.at(-1)?.route.handle as ScreenHandle | undefined)?.screen;

/** Whether `a` and `b` show the same screen (a prerendered page hydrates only at its own screen). */
export const sameScreen = (a: string, b: string) => {
  const screen = screenAt(a);
  return screen !== undefined && screen === screenAt(b);
};

/**
 * Loads the screen at `pathname` so that the first render draws it instead of a spinner.
 * Call it before the first render only (a mounted screen never switches from lazy to loaded).
 */
export const loadScreenFor = async (pathname: string) => {
  const loader = screenAt(pathname);
  if (loader && !loaded.has(loader)) loaded.set(loader, (await loader()).default);
};

export const preloadScreens = () => {
  window.setTimeout(() => {
    const files = document
      .querySelector<HTMLMetaElement>(`meta[name="${PRELOAD_META}"]`)
      ?.content.split(' ')
      .filter(Boolean);
    // The built app: fetch the files (the browser keeps them ready), run nothing yet.
    if (files?.length) {
      const present = new Set(
        [...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((l) =>
          l.getAttribute('href'),
        ),
      );
      const queue = files.filter((href) => !present.has(href));
      // One link per task: adding them all at once was one task of 12–40 ms on a signed-in page
      // (50–170 ms at a phone's speed, counted as blocking time by Lighthouse).
      const addNext = () => {
        const href = queue.shift();
        if (!href) return;
        const link = document.createElement('link');
        link.rel = 'modulepreload';
        // Screens the user may open next: behind anything the page itself asks for.
        link.fetchPriority = 'low';
        link.crossOrigin = '';
        link.href = href;
        document.head.append(link);
        window.setTimeout(addNext, 0);
      };
      addNext();
      return;
    }
    // The development server has no list: import the screens.
    for (const load of PRELOAD) void load().catch(() => undefined);
  }, 1000);
};
