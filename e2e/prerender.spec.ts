import { expect, type Page, test } from '@playwright/test';

// Prerendered public pages (issue 22): the HTML as served already holds the page and its own
// head tags, and the browser hydrates it — the markup stays, no console error, no hydration
// warning, no Content Security Policy report, in light and in dark.

const PAGES = [
  { path: '/', title: 'Kontor — Business finance, done right', heading: /Business finance,\s*done right\./ },
  { path: '/pricing', title: 'Pricing — Kontor', heading: /Simple plans that grow with you/ },
  {
    path: '/about',
    title: 'About — Kontor',
    heading: /Finance software for the people who run the business/,
  },
  { path: '/contact', title: 'Contact — Kontor', heading: /Talk to our team/ },
  { path: '/login', title: 'Sign in — Kontor', heading: /Welcome Back/ },
  { path: '/signup', title: 'Create your account — Kontor', heading: /Create Your Account/ },
  { path: '/reset-password', title: 'Reset your password — Kontor', heading: /Choose a new password/ },
];

/** Console errors and warnings, page errors and CSP reports, and whether #root's markup was thrown away. */
const watch = async (page: Page) => {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  await page.addInitScript(() => {
    const w = window as unknown as { __rootReplaced: boolean };
    w.__rootReplaced = false;
    document.addEventListener('securitypolicyviolation', (e) =>
      console.error(`CSP report: ${e.violatedDirective} ${e.blockedURI}`),
    );
    // Hydration keeps the prerendered nodes; rendering from scratch removes them.
    new MutationObserver((records) => {
      for (const r of records)
        if ((r.target as Element).id === 'root' && r.removedNodes.length > 0) w.__rootReplaced = true;
    }).observe(document, { childList: true, subtree: true });
  });
  return problems;
};

const rootReplaced = (page: Page) =>
  page.evaluate(() => (window as unknown as { __rootReplaced: boolean }).__rootReplaced);

test.describe('prerendered public pages', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('the HTML as served holds the page, its title, canonical link and social tags', async ({
    request,
  }) => {
    for (const { path, title, heading } of PAGES) {
      const response = await request.get(path);
      expect(response.status(), path).toBe(200);
      const html = await response.text();
      const root = html.match(/<div id="root" data-prerendered="([^"]*)">([\s\S]*)<\/div>\s*<\/body>/);
      expect(root?.[1], path).toBe(path);
      const h1 = (root?.[2] ?? '').match(/<h1[^>]*>([\s\S]*?)<\/h1>/)?.[1]?.replace(/<[^>]+>/g, '') ?? '';
      expect(h1, path).toMatch(heading);
      expect(html, path).toContain(`<title>${title}</title>`);
      // An absolute canonical address of this very page (PUBLIC_URL at build time).
      expect(html, path).toMatch(
        new RegExp(`<link rel="canonical" href="https?://[^/"]+${path === '/' ? '/' : `${path}`}" />`),
      );
      expect(html, path).toMatch(/<meta property="og:image" content="https?:\/\/[^"]+\/og-image\.png" \/>/);
      expect(html, path).toContain(`<meta name="twitter:title" content="${title}" />`);
      // Nothing the CSP would block.
      expect(html.match(/<script/g), path).toHaveLength(2);
    }
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    test(`every public page hydrates without a warning or error (${colorScheme})`, async ({
      page,
      baseURL,
    }) => {
      await page.emulateMedia({ colorScheme });
      const problems = await watch(page);
      for (const { path, title, heading } of PAGES) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
        // Hydrated: the document follows the route (the canonical link names this origin now).
        await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
          'href',
          `${baseURL}${path === '/' ? '/' : path}`,
        );
        await page.waitForLoadState('networkidle');
        await expect(page).toHaveTitle(title);
        expect(await rootReplaced(page), `${path}: the prerendered markup was replaced`).toBe(false);
        expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(
          colorScheme === 'dark',
        );
      }
      expect(problems).toEqual([]);
    });
  }

  test('after hydration the page answers: the theme toggle names and switches the theme shown', async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme: 'dark' });
    const problems = await watch(page);
    await page.goto('/');
    const toggle = page.getByRole('button', { name: 'Switch to light theme' });
    await expect(toggle).toBeVisible();
    await toggle.click();
    await expect(page.getByRole('button', { name: 'Switch to dark theme' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(false);
    expect(problems).toEqual([]);
  });

  test('what only the browser knows shows right after hydration: the plan in the address, the reset link', async ({
    page,
  }) => {
    const problems = await watch(page);
    await page.goto('/signup?plan=personal&interval=yearly');
    await expect(page.getByTestId('signup-plan')).toHaveText(/Personal \(yearly\)/);
    await page.goto('/reset-password');
    await expect(page.getByText('Open the link from your email again')).toBeVisible();
    await expect(page.locator('form')).toHaveCount(0);
    await page.goto('/reset-password?token=abc');
    await expect(page.getByRole('button', { name: 'Set New Password' })).toBeVisible();
    // A reload keeps its scroll position: the header follows it once hydrated.
    await page.goto('/about');
    await page.evaluate(() => window.scrollTo(0, 600));
    await page.reload();
    await expect(page.getByRole('banner')).toHaveAttribute('data-scrolled', 'true');
    expect(problems).toEqual([]);
    expect(await rootReplaced(page)).toBe(false);
  });

  test('the landing paints from the HTML alone: its heading is there with JavaScript off', async ({
    browser,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/Business finance,\s*done right\./);
    await expect(page.getByTestId('dashboard-preview')).toBeVisible();
    await context.close();
  });

  test('an unknown path hydrates the not-found page (HTTP 404)', async ({ page, request }) => {
    const response = await request.get('/no-such-page');
    expect(response.status()).toBe(404);
    expect(await response.text()).toContain('data-prerendered="/404"');
    const problems = await watch(page);
    await page.goto('/no-such-page');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
    await page.waitForLoadState('networkidle');
    expect(await rootReplaced(page)).toBe(false);
    // The browser reports the 404 answer itself; nothing else.
    expect(problems.filter((p) => !p.includes('status of 404'))).toEqual([]);
  });

  test('the preload fetches the other screens without running them, and they open at once', async ({
    page,
  }) => {
    const problems = await watch(page);
    await page.goto('/');
    // About 1 s after the first render the listed files become modulepreload links.
    const appShell = page.locator('link[rel="modulepreload"][href*="/AppShell-"]');
    await expect(appShell).toHaveCount(1, { timeout: 5000 });
    const listed = await page.evaluate(
      () => document.querySelector<HTMLMetaElement>('meta[name="kontor-preload"]')?.content.split(' ') ?? [],
    );
    expect(listed.length).toBeGreaterThan(5);
    expect(await page.locator('link[rel="modulepreload"]').count()).toBeGreaterThanOrEqual(listed.length);
    await page.getByRole('link', { name: 'Pricing' }).first().click();
    await expect(page).toHaveURL(/\/pricing$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(problems).toEqual([]);
  });
});
