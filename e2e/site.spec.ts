import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';

// The public website (issue 4): header, scrolling, titles and meta, theme, the demo, the
// contact form, the mobile menu, accessibility and screenshots of the landing page.

const DEFAULT_TITLE = 'Kontor — Business finance, done right';
const SHOTS = path.resolve('e2e-artifacts/screenshots');

const header = (page: Page) => page.getByRole('banner');
const mainNav = (page: Page) => header(page).getByRole('navigation', { name: 'Main' });

const noPageErrors = (page: Page) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return errors;
};

/** Scrolls through the whole page so lazy sections load, then back to the top. */
const loadWholeLanding = async (page: Page) => {
  await page.getByRole('heading', { name: 'Your financial command center' }).scrollIntoViewIfNeeded();
  await expect(page.getByTestId('interactive-demo')).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(page.getByTestId('dashboard-preview')).toBeVisible();
};

test.describe('header', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('every header link and button goes where the SPEC says', async ({ page }) => {
    const errors = noPageErrors(page);
    await page.goto('/');
    for (const [name, url] of [
      ['Pricing', '/pricing'],
      ['About', '/about'],
      ['Contact', '/contact'],
    ] as const) {
      await mainNav(page).getByRole('link', { name, exact: true }).click();
      await expect(page).toHaveURL(url);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await header(page).getByRole('link', { name: 'Kontor home' }).click();
      await expect(page).toHaveURL('/');
    }
    await header(page).getByRole('link', { name: 'Login', exact: true }).click();
    await expect(page).toHaveURL('/login');
    await page.goto('/');
    await header(page).getByRole('link', { name: 'Subscribe Now' }).click();
    await expect(page).toHaveURL('/pricing');
    // From another page, Home and Features lead back to the landing page.
    await mainNav(page).getByRole('button', { name: 'Features' }).click();
    await expect(page).toHaveURL('/#features');
    await expect(page.locator('#features')).toBeInViewport();
    await page.goto('/about');
    await mainNav(page).getByRole('button', { name: 'Home' }).click();
    await expect(page).toHaveURL('/');
    expect(errors).toEqual([]);
  });

  test('hero and closing call to action buttons', async ({ page }) => {
    await page.goto('/');
    const hero = page.locator('section[aria-labelledby="hero-title"]');
    await hero.getByRole('link', { name: 'Subscribe Now' }).click();
    await expect(page).toHaveURL('/pricing');
    await page.goBack();
    await hero.getByRole('link', { name: 'Learn More' }).click();
    await expect(page).toHaveURL('/about');
    await page.goto('/');
    const cta = page.locator('section[aria-labelledby="cta-title"]');
    await cta.getByRole('link', { name: 'Subscribe Now' }).click();
    await expect(page).toHaveURL('/pricing');
    await page.goto('/');
    await cta.getByRole('link', { name: 'View Pricing' }).click();
    await expect(page).toHaveURL('/pricing');
  });

  test('Home scrolls to the top, Features to the features section; header and back-to-top follow the scroll', async ({
    page,
  }) => {
    await page.goto('/');
    const banner = header(page);
    const backToTop = page.getByRole('button', { name: 'Back to top' });
    await expect(banner).toHaveAttribute('data-scrolled', 'false');
    await expect(backToTop).toHaveCount(0);

    await page.evaluate(() => window.scrollTo(0, 15));
    await page.waitForTimeout(100);
    await expect(banner).toHaveAttribute('data-scrolled', 'false');
    await expect(backToTop).toHaveCount(0);

    await page.evaluate(() => window.scrollTo(0, 25));
    await expect(banner).toHaveAttribute('data-scrolled', 'true');
    await expect(backToTop).toBeVisible();
    const strongBg = await banner.evaluate((el) => getComputedStyle(el).backgroundColor);
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect(banner).toHaveAttribute('data-scrolled', 'false');
    const weakBg = await banner.evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(strongBg).not.toBe(weakBg);

    await mainNav(page).getByRole('button', { name: 'Features' }).click();
    await expect(page.locator('#features')).toBeInViewport();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
    await expect(page).toHaveURL('/');

    await mainNav(page).getByRole('button', { name: 'Home' }).click();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);

    await page.evaluate(() => window.scrollTo(0, 1500));
    await backToTop.click();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await expect(backToTop).toHaveCount(0);
  });

  test('the footer shows the current year', async ({ page }) => {
    await page.goto('/');
    const year = await page.evaluate(() => new Date().getFullYear());
    await expect(page.getByRole('contentinfo')).toContainText(`© ${year} Kontor`);
  });
});

test.describe('titles and social tags', () => {
  const cases = [
    { path: '/', title: DEFAULT_TITLE, description: /finance platform for small businesses/ },
    { path: '/pricing', title: 'Pricing — Kontor', description: /14-day free trial/ },
    // Every page has a title of its own (issue 17); unknown paths keep the landing defaults.
    { path: '/about', title: 'About — Kontor', description: /honest books and clear money/ },
    { path: '/contact', title: 'Contact — Kontor', description: /Write to the Kontor team/ },
    { path: '/no/such/page', title: DEFAULT_TITLE, description: /finance platform for small businesses/ },
  ];
  for (const c of cases) {
    test(`${c.path} has its title, description, Open Graph and Twitter tags`, async ({ page }) => {
      await page.goto(c.path);
      await expect(page).toHaveTitle(c.title);
      await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', c.description);
      await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', c.title);
      await expect(page.locator('meta[property="og:description"]')).toHaveAttribute('content', c.description);
      await expect(page.locator('meta[property="og:image"]')).toHaveAttribute(
        'content',
        /^http.*\/og-image\.png$/,
      );
      await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute(
        'content',
        'summary_large_image',
      );
      await expect(page.locator('meta[name="twitter:title"]')).toHaveAttribute('content', c.title);
      await expect(page.locator('meta[name="twitter:description"]')).toHaveAttribute(
        'content',
        c.description,
      );
      await expect(page.locator('meta[name="twitter:image"]')).toHaveAttribute(
        'content',
        /^http.*\/og-image\.png$/,
      );
      // One tag of each: the router updates the static defaults instead of adding duplicates.
      await expect(page.locator('meta[property="og:image"]')).toHaveCount(1);
      await expect(page.locator('meta[name="twitter:card"]')).toHaveCount(1);
    });
  }

  test('tags change on client-side navigation; theme colour, favicon and touch icon are set', async ({
    page,
    request,
  }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/');
    await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', '#2563eb');
    const og = await request.get('/og-image.png');
    expect(og.ok()).toBe(true);
    expect(og.headers()['content-type']).toBe('image/png');
    for (const rel of ['icon', 'apple-touch-icon']) {
      const href = await page.locator(`link[rel="${rel}"]`).getAttribute('href');
      expect(href).toBeTruthy();
      expect((await request.get(href!)).ok()).toBe(true);
    }
    await mainNav(page).getByRole('link', { name: 'Pricing' }).click();
    await expect(page).toHaveTitle('Pricing — Kontor');
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', 'Pricing — Kontor');
    await expect(page.locator('meta[property="og:url"]')).toHaveAttribute('content', /\/pricing$/);
    await mainNav(page).getByRole('link', { name: 'About' }).click();
    await expect(page).toHaveTitle('About — Kontor');
    await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', 'About — Kontor');
  });
});

test.describe('theme', () => {
  test.use({ viewport: { width: 1280, height: 800 } });
  const isDark = (page: Page) => page.evaluate(() => document.documentElement.classList.contains('dark'));

  test('the header toggle switches the theme and the choice survives a reload', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/');
    expect(await isDark(page)).toBe(false);
    await page.getByRole('button', { name: 'Switch to dark theme' }).click();
    expect(await isDark(page)).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
    await page.reload();
    expect(await isDark(page)).toBe(true);
    await expect(page.getByRole('button', { name: 'Switch to light theme' })).toBeVisible();
    await page.getByRole('button', { name: 'Switch to light theme' }).click();
    await page.reload();
    expect(await isDark(page)).toBe(false);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('light');
  });

  test('system mode follows the OS live and an invalid stored value is ignored', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto('/');
    await page.evaluate(() => localStorage.setItem('theme', 'system'));
    await page.reload();
    expect(await isDark(page)).toBe(false);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(() => isDark(page)).toBe(true);
    await page.emulateMedia({ colorScheme: 'light' });
    await expect.poll(() => isDark(page)).toBe(false);

    await page.evaluate(() => localStorage.setItem('theme', 'purple'));
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.reload();
    expect(await isDark(page)).toBe(true);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.reload();
    expect(await isDark(page)).toBe(false);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('purple');
  });
});

test.describe('demo', () => {
  test.use({ viewport: { width: 1366, height: 900 } });

  const openDemo = async (page: Page, section: string) => {
    await page.goto('/');
    await page.getByRole('heading', { name: 'Your financial command center' }).scrollIntoViewIfNeeded();
    const demo = page.getByTestId('interactive-demo');
    await demo
      .getByRole('navigation', { name: 'Demo sections' })
      .getByRole('button', { name: section })
      .click();
    await expect(demo.getByRole('heading', { level: 3, name: section })).toBeVisible();
    return demo;
  };

  test('the sidebar has every section grouped by category, with FY 2025', async ({ page }) => {
    const demo = await openDemo(page, 'Dashboard');
    const nav = demo.getByRole('navigation', { name: 'Demo sections' });
    for (const category of ['Core', 'Finance', 'HR', 'Sales', 'Operations', 'Intelligence']) {
      await expect(nav.getByRole('heading', { name: category, exact: true })).toBeVisible();
    }
    const labels = await nav.getByRole('button').allTextContents();
    expect(labels.map((l) => l.trim()).sort()).toEqual(
      [
        'Dashboard',
        'Accounting',
        'Transactions',
        'Invoices',
        'Payroll',
        'CRM',
        'Inventory',
        'Projects',
        'HR Portal',
        'Supply Chain',
        'BI and Analytics',
      ].sort(),
    );
    await expect(demo.getByText('FY 2025')).toBeVisible();
  });

  test('transaction chips really filter the sample rows', async ({ page }) => {
    const demo = await openDemo(page, 'Transactions');
    const rows = demo.getByTestId('demo-transaction');
    const amounts = async () => (await rows.locator('td:last-child').allTextContents()).map((t) => t.trim());
    await expect(rows).toHaveCount(8);
    await demo.getByRole('button', { name: 'Income' }).click();
    await expect(demo.getByRole('button', { name: 'Income' })).toHaveAttribute('aria-pressed', 'true');
    await expect(rows).toHaveCount(4);
    expect((await amounts()).every((a) => a.startsWith('+'))).toBe(true);
    await demo.getByRole('button', { name: 'Expenses' }).click();
    await expect(rows).toHaveCount(4);
    expect((await amounts()).every((a) => a.startsWith('−'))).toBe(true);
    await demo.getByRole('button', { name: 'This Month' }).click();
    await expect(rows).toHaveCount(5);
    expect((await rows.locator('td:first-child').allTextContents()).every((d) => d.startsWith('Jun'))).toBe(
      true,
    );
    await demo.getByRole('button', { name: 'All', exact: true }).click();
    await expect(rows).toHaveCount(8);
  });

  test('accounting tabs switch the view and the statement cards are shown', async ({ page }) => {
    const demo = await openDemo(page, 'Accounting');
    for (const card of ['Income statement', 'Balance sheet', 'Cash flow summary']) {
      await expect(demo.getByRole('heading', { name: card })).toBeVisible();
    }
    const tabs = demo.getByRole('tablist', { name: 'Accounting views' });
    await expect(tabs.getByRole('tab', { name: 'General Ledger' })).toHaveAttribute('aria-selected', 'true');
    await expect(demo.getByRole('table', { name: 'General ledger' })).toBeVisible();
    await tabs.getByRole('tab', { name: 'Trial Balance' }).click();
    await expect(demo.getByRole('table', { name: 'Trial balance' })).toBeVisible();
    await expect(demo.getByRole('table', { name: 'General ledger' })).toHaveCount(0);
    // The sample trial balance balances.
    const total = demo.getByRole('table', { name: 'Trial balance' }).getByRole('row').last();
    const [, debit, credit] = await total.getByRole('cell').allTextContents();
    expect(debit).toBe(credit);
    await tabs.getByRole('tab', { name: 'Trial Balance' }).press('ArrowRight');
    await expect(tabs.getByRole('tab', { name: 'Journal Entries' })).toHaveAttribute('aria-selected', 'true');
    await expect(demo.getByRole('table', { name: 'Journal entries' })).toBeVisible();
  });

  test('project progress bars use the SPEC colours', async ({ page }) => {
    const demo = await openDemo(page, 'Projects');
    // Tailwind's colours are oklch; read the painted rgb back through a canvas and check the hue family.
    const hue: Record<string, (r: number, g: number, b: number) => boolean> = {
      green: (r, g, b) => g > r + 60 && g > b + 30,
      blue: (r, g, b) => b > r + 60 && b > g + 30,
      amber: (r, g, b) => r > 200 && g > 120 && g < r && b < 80,
      red: (r, g, b) => r > 200 && g < 110 && b < 110,
    };
    const expected: Record<string, [number, string]> = {
      'Brand refresh progress': [92, 'green'],
      'Checkout rebuild progress': [64, 'blue'],
      'Data migration progress': [38, 'amber'],
      'Mobile app MVP progress': [12, 'red'],
    };
    for (const [label, [value, tone]] of Object.entries(expected)) {
      const bar = demo.getByRole('progressbar', { name: label });
      await expect(bar).toHaveAttribute('aria-valuenow', String(value));
      await expect(bar).toHaveAttribute('data-tone', tone);
      const fill = await bar.locator('div').evaluate((el) => getComputedStyle(el).backgroundColor);
      const [r, g, b] = await page.evaluate((c) => {
        const ctx = document.createElement('canvas').getContext('2d')!;
        ctx.fillStyle = c;
        ctx.fillRect(0, 0, 1, 1);
        return [...ctx.getImageData(0, 0, 1, 1).data];
      }, fill);
      expect(hue[tone]!(r!, g!, b!), `${label} painted rgb(${r}, ${g}, ${b})`).toBe(true);
    }
    for (const m of ['Team workload', 'Milestones'])
      await expect(demo.getByRole('heading', { name: m })).toBeVisible();
    for (const s of ['on-track', 'at-risk', 'pending'])
      await expect(demo.getByText(s, { exact: true })).toBeVisible();
  });

  test('invoices, CRM, inventory and payroll show their sample content', async ({ page }) => {
    let demo = await openDemo(page, 'Invoices');
    for (const s of ['sent', 'overdue', 'draft', 'paid'])
      await expect(demo.getByText(s, { exact: true }).first()).toBeVisible();
    await demo.getByRole('button', { name: 'New Invoice' }).click();
    await expect(demo.getByRole('status')).toContainText('Start a free trial');
    demo = await openDemo(page, 'CRM');
    for (const s of ['Leads', 'Qualified', 'Proposal', 'Closed'])
      await expect(demo.getByRole('heading', { name: s })).toBeVisible();
    demo = await openDemo(page, 'Inventory');
    for (const s of ['In Stock', 'Low Stock', 'Out of Stock', 'high', 'medium', 'low'])
      await expect(demo.getByText(s, { exact: true }).first()).toBeVisible();
    demo = await openDemo(page, 'Payroll');
    for (const s of ['Employees', 'Benefits', 'Compliance'])
      await expect(demo.getByRole('heading', { name: s })).toBeVisible();
  });

  test('the dashboard preview tabs show the SPEC tiles and figures, and toggle every 3 s by themselves', async ({
    page,
  }) => {
    await page.goto('/');
    const preview = page.getByTestId('dashboard-preview');
    const tabs = preview.getByRole('tablist', { name: 'Dashboard preview' });
    await expect(tabs.getByRole('tab', { name: 'Overview' })).toHaveAttribute('aria-selected', 'true');
    // Untouched, it moves on to the next tab after about 3 s.
    await expect(tabs.getByRole('tab', { name: 'HR' })).toHaveAttribute('aria-selected', 'true', {
      timeout: 4500,
    });

    await tabs.getByRole('tab', { name: 'HR' }).click();
    await expect(preview).toHaveAttribute('data-auto', 'off');
    for (const t of ['Time-off requests', 'Performance reviews', 'Training programs', 'Onboarding tasks'])
      await expect(preview.getByText(t)).toBeVisible();
    await expect(preview.getByText('247', { exact: true })).toBeVisible();
    await expect(preview.getByText('94%', { exact: true })).toBeVisible();
    await expect(preview.getByText('2.1%', { exact: true })).toBeVisible();
    await expect(preview.getByRole('heading', { name: 'Recent HR activities' })).toBeVisible();

    await tabs.getByRole('tab', { name: 'Supply' }).click();
    await expect(preview.getByText('47', { exact: true })).toBeVisible();
    await expect(preview.getByText('23', { exact: true })).toBeVisible();
    await expect(preview.getByText('96%', { exact: true })).toBeVisible();
    for (const h of ['Vendor purchase orders', 'Vendor performance', 'Logistics shipments'])
      await expect(preview.getByRole('heading', { name: h })).toBeVisible();
    await expect(preview.getByRole('progressbar').first()).toBeVisible();

    await tabs.getByRole('tab', { name: 'Analytics' }).click();
    for (const h of ['AI insights', 'Predictive analytics', 'Market intelligence'])
      await expect(preview.getByRole('heading', { name: h })).toBeVisible();
    await expect(preview.getByText(/% confidence/).first()).toBeVisible();

    // A choice by the visitor stops the automatic toggle.
    await page.waitForTimeout(3500);
    await expect(tabs.getByRole('tab', { name: 'Analytics' })).toHaveAttribute('aria-selected', 'true');
  });
});

test.describe('pricing', () => {
  test('monthly/yearly switch and Subscribe remembers the plan on the way to sign-up', async ({ page }) => {
    await page.goto('/pricing');
    await expect(page.getByText('14-day free trial')).toBeVisible();
    await expect(page.getByText(/No credit card required/)).toBeVisible();
    await expect(page.getByTestId('price-business')).toHaveText('$49');
    await page.getByText('Yearly').click();
    await expect(page.getByTestId('price-business')).toHaveText('$40.83');
    await expect(page.getByText('$490 billed yearly — save $98')).toBeVisible();
    await page.getByRole('button', { name: 'Subscribe to Enterprise' }).click();
    await expect(page).toHaveURL('/signup?plan=enterprise&interval=yearly');
    expect(await page.evaluate(() => localStorage.getItem('kontor.planChoice'))).toBe(
      JSON.stringify({ plan: 'enterprise', interval: 'yearly' }),
    );
  });
});

test.describe('contact form', () => {
  // The contact form is rate limited per address. The e2e server trusts one proxy hop
  // (TRUST_PROXY), so these tests write from their own address and the admin spec's message,
  // run at the same time by another worker, is not counted against them (or they against it).
  test.use({ extraHTTPHeaders: { 'x-forwarded-for': '203.0.113.21' } });

  test('shows errors, then sends and confirms', async ({ page }) => {
    await page.goto('/contact');
    let posted = 0;
    page.on('request', (r) => {
      if (r.url().endsWith('/api/contact') && r.method() === 'POST') posted++;
    });
    await page.getByRole('button', { name: 'Send message' }).click();
    await expect(page.getByText('Please enter your name (at least 2 characters).')).toBeVisible();
    await expect(page.getByText('Please enter a valid email address.')).toBeVisible();
    await expect(page.getByText('Please write a message of at least 10 characters.')).toBeVisible();
    await expect(page.getByLabel('Name', { exact: true })).toBeFocused();
    await expect(page.getByLabel('Name', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    expect(posted).toBe(0);

    await page.getByLabel('Name', { exact: true }).fill('Grace Hopper');
    await expect(page.getByText('Please enter your name (at least 2 characters).')).toHaveCount(0);
    await page.getByLabel('Email', { exact: true }).fill('grace@navy');
    await expect(page.getByText('Please enter a valid email address.')).toBeVisible();
    await page.getByLabel('Email', { exact: true }).fill('Grace@Example.com');
    await page.getByLabel('Company (optional)').fill('Compilers Inc');
    await page.getByLabel('Message', { exact: true }).fill('We would like to move our books to Kontor.');
    await page.getByRole('button', { name: 'Send message' }).click();
    await expect(page.getByRole('heading', { name: 'Message sent' })).toBeVisible();
    await expect(page.getByRole('status')).toContainText('grace@example.com');
    expect(posted).toBe(1);
  });

  test('tells the visitor when they have sent too many messages', async ({ page }) => {
    await page.goto('/contact');
    const body = { name: 'Rate Test', email: 'rate@example.com', message: 'Filling up the rate limit.' };
    let status = 0;
    for (let i = 0; i < 6 && status !== 429; i++) {
      status = (await page.request.post('/api/contact', { data: body })).status();
    }
    expect(status).toBe(429);
    await page.getByLabel('Name', { exact: true }).fill('Rate Test');
    await page.getByLabel('Email', { exact: true }).fill('rate@example.com');
    await page.getByLabel('Message', { exact: true }).fill('One more message, please.');
    await page.getByRole('button', { name: 'Send message' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      'You have sent several messages in a short time. Please wait 10 minutes and try again.',
    );
    await expect(page.getByRole('heading', { name: 'Message sent' })).toHaveCount(0);
  });
});

test.describe('mobile menu', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test('opens, navigates and closes at a phone width', async ({ page }) => {
    await page.goto('/');
    await expect(mainNav(page)).toBeHidden();
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await toggle.click();
    const menu = page.getByRole('navigation', { name: 'Mobile' });
    await expect(menu).toBeVisible();
    await expect(page.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true');
    for (const name of ['Home', 'Features']) await expect(menu.getByRole('button', { name })).toBeVisible();
    for (const name of ['Pricing', 'About', 'Contact', 'Login', 'Subscribe Now'])
      await expect(menu.getByRole('link', { name })).toBeVisible();

    await menu.getByRole('button', { name: 'Features' }).click();
    await expect(menu).toBeHidden();
    await expect(page.locator('#features')).toBeInViewport();

    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();

    await page.getByRole('button', { name: 'Open menu' }).click();
    await menu.getByRole('link', { name: 'Pricing' }).click();
    await expect(page).toHaveURL('/pricing');
    await expect(menu).toBeHidden();
    await page.getByRole('button', { name: 'Open menu' }).click();
    await menu.getByRole('link', { name: 'Login' }).click();
    await expect(page).toHaveURL('/login');
  });

  test('buttons and links in the header are at least 44 px high', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Open menu' }).click();
    for (const el of await header(page).locator('a:visible, button:visible').all()) {
      const box = await el.boundingBox();
      expect(box?.height ?? 0, (await el.textContent()) ?? '').toBeGreaterThanOrEqual(44);
    }
  });
});

test.describe('performance guard', () => {
  test('the landing page loads no private app code before it is interactive', async ({ page }) => {
    // The router preloads secondary screens 1 s after the first render (SPEC section 2); what
    // the landing itself needs is everything requested before that burst starts.
    const preloadOnly = /\/(PricingPage|AboutPage|ContactPage|NotFoundPage|LoginPage|SignupPage)-[\w-]+\.js$/;
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
    });
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect.poll(() => scripts.some((s) => preloadOnly.test(s)), { timeout: 15_000 }).toBe(true);
    const beforePreload = scripts.slice(
      0,
      scripts.findIndex((s) => preloadOnly.test(s)),
    );
    expect(beforePreload.some((s) => /\/index-[\w-]+\.js$/.test(s))).toBe(true);
    expect(beforePreload.filter((s) => /AppShell|pages\/app/.test(s))).toEqual([]);
    expect(beforePreload.some((s) => /InteractiveDemo/.test(s))).toBe(false);
    // The HTML loads no app code; it only names the app shell's files for the later preload.
    const html = await (await page.request.get('/')).text();
    const preloadList = html.match(/<meta name="kontor-preload" content="([^"]*)"/)?.[1] ?? '';
    expect(preloadList).toMatch(/AppShell/);
    expect(html.replace(preloadList, '')).not.toMatch(/AppShell/);
  });
});

test.describe('accessibility', () => {
  for (const theme of ['light', 'dark'] as const) {
    for (const route of ['/', '/pricing', '/about', '/contact', '/login', '/signup']) {
      test(`${route} has no serious or critical axe violations in ${theme} mode`, async ({ page }) => {
        await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
        await page.addInitScript((t) => localStorage.setItem('theme', t), theme);
        await page.goto(route);
        if (route === '/login' || route === '/signup') {
          // Built by the accounts issue; skip until those pages exist in the router.
          await page.waitForLoadState('networkidle');
          const missing = await page.getByRole('heading', { name: 'Page not found' }).isVisible();
          test.skip(missing, `${route} is not built yet`);
        }
        await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /dark/ : /^(?!.*dark)/);
        if (route === '/') await loadWholeLanding(page);
        const results = await new AxeBuilder({ page }).analyze();
        const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
        expect(
          bad.map(
            (v) =>
              `${v.id}: ${v.nodes
                .map((n) => n.target.join(' '))
                .slice(0, 5)
                .join(', ')}`,
          ),
        ).toEqual([]);
      });
    }
  }
});

test.describe('screenshots', () => {
  for (const [device, viewport] of [
    ['desktop', { width: 1440, height: 900 }],
    ['phone', { width: 390, height: 844 }],
  ] as const) {
    for (const theme of ['light', 'dark'] as const) {
      test(`landing at ${device} width in ${theme} mode`, async ({ page }) => {
        await page.setViewportSize(viewport);
        await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
        await page.addInitScript((t) => localStorage.setItem('theme', t), theme);
        await page.goto('/');
        await loadWholeLanding(page);
        await page.evaluate(() => document.fonts.ready);
        fs.mkdirSync(SHOTS, { recursive: true });
        await page.screenshot({ path: path.join(SHOTS, `landing-${device}-${theme}.png`), fullPage: true });
        await page.screenshot({ path: path.join(SHOTS, `landing-${device}-${theme}-fold.png`) });
      });
    }
  }
});
