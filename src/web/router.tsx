import { Suspense, lazy, type ComponentType, type LazyExoticComponent, type ReactElement } from 'react';
import { createBrowserRouter, Outlet, useRouteError } from 'react-router';
import { PrivateRoute } from './auth/PrivateRoute.tsx';
import { PageSpinner } from './components/Spinner.tsx';
import LandingPage from './pages/landing/LandingPage.tsx';
import { useRouteMeta } from './lib/meta.ts';
import { APP_PAGES } from './pages/app/pages.ts';
import { PUBLIC_PATHS, type PublicPath } from '../shared/web-routes.ts';

// Routes (SPEC section 2). Every screen but the landing page loads lazily; all of them are
// preloaded about 1 s after the first render so navigation is instant.

type Loader = () => Promise<{ default: ComponentType<any> }>;

const screens = {
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
  screens.pricing,
  screens.about,
  screens.contact,
  screens.notFound,
  screens.appShell,
  screens.login,
  screens.signup,
];

const lazyScreen = (loader: Loader): LazyExoticComponent<ComponentType<any>> => lazy(loader);

// The landing page is the entry most visitors arrive on, so it is bundled with the app
// rather than fetched after it.
const Landing = LandingPage;
const Pricing = lazyScreen(screens.pricing);
const About = lazyScreen(screens.about);
const Contact = lazyScreen(screens.contact);
const NotFound = lazyScreen(screens.notFound);
const AppShell = lazyScreen(screens.appShell);
const Login = lazyScreen(screens.login);
const Signup = lazyScreen(screens.signup);
const ResetPassword = lazyScreen(screens.resetPassword);
const DevMailbox = lazyScreen(screens.devMailbox);

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
const PUBLIC_SCREENS: Record<PublicPath, ReactElement> = {
  '/': <Landing />,
  '/pricing': <Pricing />,
  '/about': <About />,
  '/contact': <Contact />,
  '/login': <Login />,
  '/signup': <Signup />,
  '/reset-password': <ResetPassword />,
  '/dev/mailbox': <DevMailbox />,
};

export const router = createBrowserRouter([
  {
    element: <Root />,
    errorElement: <RouteErrorPage />,
    children: [
      ...PUBLIC_PATHS.map((path) => ({ path, element: PUBLIC_SCREENS[path] })),
      {
        element: <PrivateRoute />,
        children: APP_PAGES.map((page) => ({ path: `/${page}`, element: <AppShell page={page} /> })),
      },
      { path: '*', element: <NotFound /> },
    ],
  },
]);

export const preloadScreens = () => {
  window.setTimeout(() => {
    for (const load of PRELOAD) void load().catch(() => undefined);
  }, 1000);
};
