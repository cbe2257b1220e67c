import { useEffect } from 'react';
import { useLocation } from 'react-router';
import type { WebAppPath } from '../../shared/web-routes.ts';

// Page titles and social-preview tags per route (SPEC section 2): every screen has its own;
// any other path (the not-found page) gets the default landing title and description.

export type PageMeta = { title: string; description: string };

export const DEFAULT_META: PageMeta = {
  title: 'Kontor — Business finance, done right',
  description:
    'Kontor is the finance platform for small businesses: invoices, transactions, bank accounts and double-entry accounting in one place.',
};

/** Every screen's own title (a typed record: a path added to the shared list needs one here). */
export const ROUTE_META: Record<WebAppPath, PageMeta> = {
  '/': DEFAULT_META,
  '/login': { title: 'Sign in — Kontor', description: 'Sign in to your Kontor account.' },
  '/signup': {
    title: 'Create your account — Kontor',
    description: 'Start your 14-day free trial of Kontor. No credit card required.',
  },
  '/reset-password': {
    title: 'Reset your password — Kontor',
    description: 'Choose a new password for your Kontor account.',
  },
  '/pricing': {
    title: 'Pricing — Kontor',
    description:
      'Simple plans for personal, business and enterprise finance. 14-day free trial, cancel anytime.',
  },
  '/about': {
    title: 'About — Kontor',
    description: 'Who builds Kontor and why: honest books and clear money for small businesses.',
  },
  '/contact': {
    title: 'Contact — Kontor',
    description: 'Write to the Kontor team: questions about the product, plans or your account.',
  },
  '/dev/mailbox': {
    title: 'Development mailbox — Kontor',
    description: 'The mails Kontor would have sent, kept on this development server.',
  },
  '/dashboard': { title: 'Dashboard — Kontor', description: 'Your company at a glance.' },
  '/transactions': {
    title: 'Transactions — Kontor',
    description: 'Every payment in and out of your accounts.',
  },
  '/invoices': { title: 'Invoices — Kontor', description: 'Create, send and track invoices.' },
  '/bills': { title: 'Bills — Kontor', description: 'Record, approve and pay what you owe your suppliers.' },
  '/wallet': { title: 'Wallet — Kontor', description: 'Bank and cash accounts and their balances.' },
  '/billing': {
    title: 'Billing — Kontor',
    description: 'Your Kontor plan, usage, payment cards and invoices from Kontor.',
  },
  '/accounting': {
    title: 'Accounting — Kontor',
    description: 'Journal entries, the general ledger, chart of accounts and financial reports.',
  },
  '/settings': { title: 'Settings — Kontor', description: 'Your profile, security and company settings.' },
  '/admin': {
    title: 'Admin — Kontor',
    description: 'Platform administration: users, subscriptions and audit.',
  },
};

/** A path's title and description: a screen's own, or the default for any other path (SPEC section 2). */
export const metaForPath = (pathname: string): PageMeta => {
  const clean = (pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname).toLowerCase() || '/';
  return (ROUTE_META as Record<string, PageMeta>)[clean] ?? DEFAULT_META;
};

/** The link-preview picture (1200×630) for every route. */
export const SOCIAL_IMAGE = {
  path: '/og-image.png',
  width: '1200',
  height: '630',
  alt: 'Kontor — Business finance, done right. Invoices, bills, bank accounts and double-entry books in one place.',
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
