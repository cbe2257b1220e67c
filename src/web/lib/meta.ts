import { useEffect } from 'react';
import { useLocation } from 'react-router';

// Page titles and social-preview tags per route (SPEC section 2). Any path not listed gets
// the default landing title and description.

export type PageMeta = { title: string; description: string };

export const DEFAULT_META: PageMeta = {
  title: 'Kontor — Business finance, done right',
  description:
    'Kontor is the finance platform for small businesses: invoices, transactions, bank accounts and double-entry accounting in one place.',
};

export const ROUTE_META: Record<string, PageMeta> = {
  '/': DEFAULT_META,
  '/login': { title: 'Sign in — Kontor', description: 'Sign in to your Kontor account.' },
  '/signup': {
    title: 'Create your account — Kontor',
    description: 'Start your 14-day free trial of Kontor. No credit card required.',
  },
  '/pricing': {
    title: 'Pricing — Kontor',
    description:
      'Simple plans for personal, business and enterprise finance. 14-day free trial, cancel anytime.',
  },
  '/dashboard': { title: 'Dashboard — Kontor', description: 'Your company at a glance.' },
  '/transactions': {
    title: 'Transactions — Kontor',
    description: 'Every payment in and out of your accounts.',
  },
  '/invoices': { title: 'Invoices — Kontor', description: 'Create, send and track invoices.' },
  '/bills': { title: 'Bills — Kontor', description: 'Record, approve and pay what you owe your suppliers.' },
  '/wallet': { title: 'Wallet — Kontor', description: 'Bank and cash accounts and their balances.' },
  '/settings': { title: 'Settings — Kontor', description: 'Your profile, security and company settings.' },
};

export const metaForPath = (pathname: string): PageMeta => {
  const clean = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return ROUTE_META[clean] ?? DEFAULT_META;
};

/** The link-preview picture (1200×630) for every route. */
export const SOCIAL_IMAGE = {
  path: '/og-image.png',
  width: '1200',
  height: '630',
  alt: 'Kontor — Business finance, done right. Invoices, payments, payroll and double-entry books in one place.',
};

const setMeta = (attr: 'name' | 'property', key: string, content: string) => {
  let el = document.head.querySelector<HTMLMetaElement>(`meta[${attr}="${key}"]`);
  if (!el) {
    el = document.createElement('meta');
    el.setAttribute(attr, key);
    document.head.appendChild(el);
  }
  el.content = content;
};

export const applyMeta = (meta: PageMeta, url: string) => {
  document.title = meta.title;
  setMeta('name', 'description', meta.description);
  setMeta('property', 'og:title', meta.title);
  setMeta('property', 'og:description', meta.description);
  setMeta('property', 'og:type', 'website');
  setMeta('property', 'og:url', url);
  setMeta('property', 'og:image', new URL(SOCIAL_IMAGE.path, url).toString());
  setMeta('property', 'og:image:width', SOCIAL_IMAGE.width);
  setMeta('property', 'og:image:height', SOCIAL_IMAGE.height);
  setMeta('property', 'og:image:alt', SOCIAL_IMAGE.alt);
  setMeta('name', 'twitter:card', 'summary_large_image');
  setMeta('name', 'twitter:title', meta.title);
  setMeta('name', 'twitter:description', meta.description);
  setMeta('name', 'twitter:image', new URL(SOCIAL_IMAGE.path, url).toString());
  setMeta('name', 'twitter:image:alt', SOCIAL_IMAGE.alt);
};

/** Updates the title and social tags on every route change. */
export const useRouteMeta = () => {
  const { pathname } = useLocation();
  useEffect(() => {
    applyMeta(metaForPath(pathname), window.location.href);
  }, [pathname]);
};
