import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { PUBLIC_PATHS, type WebAppPath } from '../../shared/web-routes.ts';

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
export const metaForPath = (pathname: string): PageMeta =>
  (ROUTE_META as Record<string, PageMeta>)[cleanPath(pathname)] ?? DEFAULT_META;

/** The link-preview picture (1200×630) for every route. */
export const SOCIAL_IMAGE = {
  path: '/og-image.png',
  width: '1200',
  height: '630',
  alt: 'Kontor — Business finance, done right. Invoices, bills, bank accounts and double-entry books in one place.',
};

/**
 * Public pages a search engine should list, each with its canonical address (SPEC section 2;
 * the sitemap lists the same pages). Every other path has no canonical link.
 */
export const CANONICAL_PATHS: readonly WebAppPath[] = PUBLIC_PATHS.filter((p) => p !== '/dev/mailbox');

/** The path as the router matches it: no trailing slash, lower case. */
export const cleanPath = (pathname: string) =>
  (pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname).toLowerCase() || '/';

/**
 * The site's public address: PUBLIC_URL when the web app was built with it (vite.config.ts),
 * else the address the page was opened at.
 */
export const siteOrigin = (): string =>
  (import.meta.env.VITE_PUBLIC_URL || (typeof window === 'undefined' ? '' : window.location.origin)).replace(
    /\/+$/,
    '',
  );

/** A route's head: title, description, canonical link and social-preview tags. */
export type HeadTags = {
  title: string;
  /** Absolute URL of the page for search engines, or null for pages that are not listed. */
  canonical: string | null;
  meta: { attr: 'name' | 'property'; key: string; content: string }[];
};

export const headTagsFor = (pathname: string, origin: string): HeadTags => {
  const meta = metaForPath(pathname);
  const path = cleanPath(pathname);
  const canonical = (CANONICAL_PATHS as readonly string[]).includes(path) ? `${origin}${path}` : null;
  const image = `${origin}${SOCIAL_IMAGE.path}`;
  return {
    title: meta.title,
    canonical,
    meta: [
      { attr: 'name', key: 'description', content: meta.description },
      { attr: 'property', key: 'og:type', content: 'website' },
      { attr: 'property', key: 'og:site_name', content: 'Kontor' },
      { attr: 'property', key: 'og:title', content: meta.title },
      { attr: 'property', key: 'og:description', content: meta.description },
      { attr: 'property', key: 'og:url', content: canonical ?? `${origin}${path}` },
      { attr: 'property', key: 'og:image', content: image },
      { attr: 'property', key: 'og:image:width', content: SOCIAL_IMAGE.width },
      { attr: 'property', key: 'og:image:height', content: SOCIAL_IMAGE.height },
      { attr: 'property', key: 'og:image:alt', content: SOCIAL_IMAGE.alt },
      { attr: 'name', key: 'twitter:card', content: 'summary_large_image' },
      { attr: 'name', key: 'twitter:title', content: meta.title },
      { attr: 'name', key: 'twitter:description', content: meta.description },
      { attr: 'name', key: 'twitter:image', content: image },
      { attr: 'name', key: 'twitter:image:alt', content: SOCIAL_IMAGE.alt },
    ],
  };
};

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The head tags as HTML, for prerendered pages (src/web/prerender.tsx). */
export const headTagsHtml = (head: HeadTags, indent = '    '): string =>
  [
    `<title>${escapeHtml(head.title)}</title>`,
    ...(head.canonical ? [`<link rel="canonical" href="${escapeHtml(head.canonical)}" />`] : []),
    ...head.meta.map((m) => `<meta ${m.attr}="${m.key}" content="${escapeHtml(m.content)}" />`),
  ].join(`\n${indent}`);

const setMeta = (attr: 'name' | 'property', key: string, content: string) => {
  let el = document.head.querySelector<HTMLMetaElement>(`meta[${attr}="${key}"]`);
  if (!el) {
    el = document.createElement('meta');
    el.setAttribute(attr, key);
    document.head.appendChild(el);
  }
  el.content = content;
};

const setCanonical = (href: string | null) => {
  let el = document.head.querySelector<HTMLLinkElement>('link[rel="canonical"]');
  if (!href) {
    el?.remove();
    return;
  }
  if (!el) {
    el = document.createElement('link');
    el.rel = 'canonical';
    document.head.appendChild(el);
  }
  el.href = href;
};

/** Writes a route's head tags into the document (the same tags prerendered pages carry). */
export const applyHead = (head: HeadTags) => {
  document.title = head.title;
  setCanonical(head.canonical);
  for (const m of head.meta) setMeta(m.attr, m.key, m.content);
};

/** Updates the title, canonical link and social tags on every route change. */
export const useRouteMeta = () => {
  const { pathname } = useLocation();
  useEffect(() => {
    applyHead(headTagsFor(pathname, siteOrigin()));
  }, [pathname]);
};
