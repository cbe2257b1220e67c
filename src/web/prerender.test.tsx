import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CANONICAL_PATHS, headTagsFor } from './lib/meta.ts';
import { GUARD_MESSAGES } from '../shared/auth/errors.ts';
import { APP_PAGES } from './pages/app/pages.ts';
import {
  APP_PAGE_FILES,
  PRERENDER_PAGES,
  appPageMarkup,
  prerenderedDocument,
  renderPage,
} from './prerender.tsx';

// The prerendered public pages (issue 22): what `vite build` writes into prerendered/, page by
// page, without running a build — the render of each path and the file made from it.

const template = fs.readFileSync(path.join(import.meta.dirname, 'index.html'), 'utf8');
const ORIGIN = 'https://books.example.com';

const HEADINGS: Record<string, RegExp> = {
  '/': /Business finance,(<!-- -->)? ?<span[^>]*>done right\.<\/span>/,
  '/pricing': /Simple plans that grow with you/,
  '/about': /Finance software for the people who run the business/,
  '/contact': /Talk to our team/,
  '/login': /Welcome Back/,
  '/signup': /Create Your Account/,
  '/reset-password': /Choose a new password/,
  '/404': /Page not found/,
};

describe('the prerendered pages', () => {
  it('are every public page but the development mailbox, plus the not-found page, each in its own file', () => {
    expect(PRERENDER_PAGES.map((p) => p.path)).toEqual([...CANONICAL_PATHS, '/404']);
    expect(PRERENDER_PAGES.map((p) => p.file)).toEqual([
      'index.html',
      'pricing.html',
      'about.html',
      'contact.html',
      'login.html',
      'signup.html',
      'reset-password.html',
      '404.html',
    ]);
    for (const page of PRERENDER_PAGES)
      for (const module of page.modules)
        expect(fs.existsSync(path.join(import.meta.dirname, module))).toBe(true);
  });

  for (const page of PRERENDER_PAGES) {
    it(`${page.path}: the page's markup, whole (no unfinished boundary, no inline script)`, async () => {
      const markup = await renderPage(page.path);
      const heading = markup.match(/<h1[^>]*>([\s\S]*?)<\/h1>/)?.[1] ?? '';
      expect(heading).toMatch(HEADINGS[page.path]!);
      expect(markup).not.toMatch(/<script|<!--\$[?!]-->/);
      // Drawn signed out and at the top of the page, with the light theme's name on the toggle.
      if (['/', '/pricing', '/about', '/contact'].includes(page.path)) {
        expect(markup).toContain('data-scrolled="false"');
        expect(markup).toContain('aria-label="Switch to dark theme"');
        expect(markup).toMatch(new RegExp(`© (<!-- -->)?${new Date().getFullYear()}(<!-- -->)? Kontor\\.`));
      }
    });
  }

  it('the landing shows its dashboard preview and the hero links say where they lead', async () => {
    const markup = await renderPage('/');
    expect(markup).toContain('data-testid="dashboard-preview"');
    expect(markup).toMatch(/Learn More<span class="sr-only"> (<!-- -->)?about Kontor<\/span>/);
  });

  it("the reset page shows the form the emailed link opens (the browser checks the link's token after hydration)", async () => {
    expect(await renderPage('/reset-password')).toContain('<form');
  });

  it('a file: the page in #root with its path, its own title, canonical link and social tags, its chunks preloaded', async () => {
    const markup = await renderPage('/pricing');
    const html = prerenderedDocument(template, {
      path: '/pricing',
      markup,
      origin: ORIGIN,
      preload: ['/assets/PricingPage-abc.js'],
    });
    expect(html).toContain(`<div id="root" data-prerendered="/pricing">${markup}</div>`);
    expect(html.match(/<title>/g)).toHaveLength(1);
    expect(html).toContain('<title>Pricing — Kontor</title>');
    expect(html).toContain(`<link rel="canonical" href="${ORIGIN}/pricing" />`);
    expect(html).toContain(`<meta property="og:url" content="${ORIGIN}/pricing" />`);
    expect(html).toContain(`<meta property="og:title" content="Pricing — Kontor" />`);
    expect(html).toContain(`<meta property="og:image" content="${ORIGIN}/og-image.png" />`);
    expect(html).toContain(`<meta name="twitter:image" content="${ORIGIN}/og-image.png" />`);
    expect(html).toContain('<meta name="twitter:card" content="summary_large_image" />');
    expect(html).toMatch(
      /<meta name="description" content="Simple plans for personal, business and enterprise/,
    );
    expect(html.match(/name="description"/g)).toHaveLength(1);
    expect(html).toMatch(
      /<link rel="modulepreload" fetchpriority="low" crossorigin href="\/assets\/PricingPage-abc.js">\n\s*<\/head>/,
    );
    // Drawn without scripts: every script and preload of the page waits behind its styles.
    expect(html).not.toMatch(/<script type="module"(?! fetchpriority="low")/);
    expect(html).not.toMatch(/<link rel="modulepreload"(?! fetchpriority="low")/);
    // The theme is applied before the first paint, as on every page.
    expect(html).toContain('<script src="/theme-init.js"></script>');
  });

  it('the not-found page has the default title and no canonical link', async () => {
    const html = prerenderedDocument(template, {
      path: '/404',
      markup: await renderPage('/404'),
      origin: ORIGIN,
      preload: [],
    });
    expect(html).toContain('<title>Kontor — Business finance, done right</title>');
    expect(html).not.toContain('rel="canonical"');
  });

  it('refuses a template without the page-head block', () => {
    expect(() =>
      prerenderedDocument('<html><head></head><body><div id="root"></div></body></html>', {
        path: '/',
        markup: '',
        origin: ORIGIN,
        preload: [],
      }),
    ).toThrow(/page-head/);
  });
});

describe("the signed-in pages' HTML", () => {
  it('is one file per app page naming the shell and that page, modules that exist', () => {
    expect(APP_PAGE_FILES.map((p) => p.path)).toEqual(APP_PAGES.map((page) => `/${page}`));
    for (const page of APP_PAGE_FILES) {
      expect(page.file).toBe(`app${page.path}.html`);
      expect(page.modules[0]).toBe('pages/app/AppShell.tsx');
      for (const module of page.modules)
        expect(fs.existsSync(path.join(import.meta.dirname, module)), module).toBe(true);
    }
  });

  it("shows the sign-in guard's spinner until the app renders, with no script of its own", () => {
    const markup = appPageMarkup();
    expect(markup).toContain('role="status"');
    expect(markup).toContain(GUARD_MESSAGES.checking);
    expect(markup).not.toMatch(/<script|data-prerendered/);
  });
});

describe('head tags per route', () => {
  it('canonical links for the listed public pages only, as the router reads the path', () => {
    expect(headTagsFor('/', ORIGIN).canonical).toBe(`${ORIGIN}/`);
    expect(headTagsFor('/About/', ORIGIN).canonical).toBe(`${ORIGIN}/about`);
    expect(headTagsFor('/dev/mailbox', ORIGIN).canonical).toBeNull();
    expect(headTagsFor('/dashboard', ORIGIN).canonical).toBeNull();
    expect(headTagsFor('/nope', ORIGIN).title).toBe('Kontor — Business finance, done right');
  });

  it('escapes nothing it should not and every tag names its page', () => {
    const head = headTagsFor('/contact', ORIGIN);
    const content = (key: string) => head.meta.find((m) => m.key === key)?.content;
    expect(head.title).toBe('Contact — Kontor');
    expect(content('og:title')).toBe('Contact — Kontor');
    expect(content('twitter:title')).toBe('Contact — Kontor');
    expect(content('og:description')).toBe(content('description'));
    expect(content('og:url')).toBe(`${ORIGIN}/contact`);
  });
});
