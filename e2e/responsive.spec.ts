import AxeBuilder from '@axe-core/playwright';
import { type Browser, type BrowserContext, type Page, expect, test } from '@playwright/test';
import { APP_PAGES, PUBLIC_PATHS } from '../src/shared/web-routes.ts';
import { DEFAULT_META } from '../src/web/lib/meta.ts';
import { signUpWithCompany } from './auth-helpers.ts';

// The route walk (issue 17 items 5 and 6; docs/ui.md "The route walk"): every screen of the
// app — each public path, each private page with its tabs and detail views, over a company
// with a little data — at 1280×800 and at 390×844, in light and in dark. It asserts:
// - no horizontal page scroll (document scrollWidth ≤ clientWidth) at both sizes;
// - at 390 px (in light: targets do not depend on the theme), every visible interactive element (links, buttons, inputs, selects, text areas,
//   tabs, summaries) is at least 44×44 px, except text links inside running text (an inline
//   `a` in a sentence) and a tick box or radio whose label around it is the 44 px target;
// - a title of its own (the default landing title only on /);
// - axe finds nothing serious or critical at 390 px: every rule in light, colour contrast in
//   dark (what the theme changes; running all of axe twice doubled the walk's CI time). The
//   layout checks (sideways scroll at both sizes, targets) run in light only: the themes change
//   colours, not layout.
// Problems are collected per view (soft assertions), so one run lists them all.

const PASSWORD = 'Responsive-walk-2026!';
const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;
const THEMES = ['light', 'dark'] as const;
type Theme = (typeof THEMES)[number];

/** Views of each private page beyond its default one (tabs and details live in the query string). */
const PRIVATE_VIEWS = (ids: Seeded) => [
  '/dashboard',
  '/transactions',
  '/invoices',
  `/invoices?invoice=${ids.invoiceId}`,
  '/invoices?new=1',
  '/invoices?tab=customers',
  `/invoices?tab=customers&customer=${ids.customerId}`,
  '/invoices?tab=items',
  '/invoices?tab=recurring',
  '/invoices?tab=reports',
  '/bills',
  `/bills?bill=${ids.billId}`,
  '/bills?new=1',
  '/bills?tab=suppliers',
  '/bills?tab=payment-run',
  '/bills?tab=credits',
  '/bills?tab=recurring',
  '/bills?tab=reports',
  '/bills?tab=settings',
  '/wallet',
  '/billing',
  '/billing?tab=payment',
  '/accounting',
  '/accounting?tab=general-ledger',
  '/accounting?tab=trial-balance',
  '/accounting?tab=accounts',
  '/accounting?tab=reports',
  '/settings',
  '/settings?tab=members',
  '/settings?tab=preferences',
  '/settings?tab=security',
  '/admin',
];

type Seeded = { invoiceId: string; customerId: string; billId: string };

/** A company with a customer, a sent invoice, a bank account, two transactions, a supplier and a bill. */
const seed = async (page: Page): Promise<Seeded> => {
  const company = await signUpWithCompany(page, {
    tag: `walker-${test.info().workerIndex}`,
    name: 'Rita Walker',
    company: 'Walkabout Studio Ltd',
    password: PASSWORD,
  });
  const { post, ok, r, o } = company;
  const customer = await post('/customers', { name: 'Northwind Traders', email: 'ap@northwind.example' });
  const invoice = await post('/invoices', {
    customerId: customer.id,
    issueDate: '2026-11-02',
    lines: [
      { description: 'Design work for the autumn campaign', quantity: '12', unitPrice: 9_500 },
      { description: 'Illustrations', quantity: '3', unitPrice: 42_000 },
    ],
  });
  await post(`/invoices/${invoice.id}/send`, { email: false });
  const money = await post('/wallet/accounts', {
    name: 'Operating account',
    kind: 'bank',
    currency: 'USD',
    openingDate: '2026-01-01',
  });
  for (const line of [
    { date: '2026-11-20', description: 'NORTHWIND TRADERS PAYMENT REFERENCE 2026-11-0001', amount: 240_000 },
    { date: '2026-11-22', description: 'Coffee beans', amount: -4_550 },
  ])
    await post('/transactions', { moneyAccountId: money.id, ...line });
  const accounts = (await ok(await r.get(`${o}/accounts`))) as { accounts: { id: string; code: string }[] };
  const rent = accounts.accounts.find((a) => a.code === '6200')!;
  const supplier = await post('/suppliers', { name: 'Dockside Properties', defaultAccountId: rent.id });
  const bill = await post('/bills', {
    supplierId: supplier.id,
    reference: 'DP-1187',
    issueDate: '2026-11-02',
    lines: [{ description: 'Rent, December', quantity: '1', unitPrice: 120_000 }],
  });
  return { invoiceId: invoice.id, customerId: customer.id, billId: bill.id };
};

const newPage = async (browser: Browser): Promise<{ context: BrowserContext; page: Page }> => {
  const context = await browser.newContext({
    baseURL: test.info().project.use.baseURL,
    viewport: SIZES.desktop,
    reducedMotion: 'reduce',
  });
  return { context, page: await context.newPage() };
};

const useTheme = async (page: Page, theme: Theme) => {
  await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' });
  await page.evaluate((t) => localStorage.setItem('theme', t), theme);
};

/** Opens a view and waits until its data has arrived and its spinners are gone. */
const open = async (page: Page, path: string) => {
  const res = await page.goto(path);
  expect(res?.status(), `${path} answers 200`).toBe(200);
  await page.waitForLoadState('networkidle');
  await expect(page.locator('h1').first()).toBeVisible({ timeout: 20_000 });
  // No spinner on screen (the landing keeps its far sections' spinners until scrolled near).
  await expect
    .poll(
      () =>
        page.evaluate(
          () =>
            [...document.querySelectorAll('.animate-spin')].filter((el) => {
              const box = el.getBoundingClientRect();
              return box.width > 0 && box.bottom > 0 && box.top < window.innerHeight;
            }).length,
        ),
      { timeout: 15_000, message: `${path} finishes loading` },
    )
    .toBe(0);
};

/** What scrolls sideways: the page's overflow and the widest elements that stick out. */
const sidewaysScroll = (page: Page) =>
  page.evaluate(() => {
    const root = document.documentElement;
    const width = root.clientWidth;
    if (root.scrollWidth <= width) return null;
    // Elements sticking out of the viewport and not inside something that clips or scrolls.
    // An absolutely placed element (screen-reader-only text) is clipped only by a box at or
    // above its containing block (the nearest positioned ancestor).
    const clipped = (el: Element) => {
      const absolute = ['absolute', 'fixed'].includes(getComputedStyle(el).position);
      let positionedSeen = !absolute;
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const style = getComputedStyle(p);
        if (style.position !== 'static') positionedSeen = true;
        const o = style.overflowX;
        if (positionedSeen && (o === 'auto' || o === 'scroll' || o === 'hidden' || o === 'clip')) return true;
      }
      return false;
    };
    const culprits = [...document.body.querySelectorAll('*')]
      .filter((el) => el.getBoundingClientRect().right > width + 1 && !clipped(el))
      .filter((el) => !el.parentElement || el.parentElement.getBoundingClientRect().right <= width + 1)
      .slice(0, 5)
      .map((el) => {
        const id = el.id ? `#${el.id}` : '';
        const cls =
          typeof el.className === 'string' ? `.${el.className.split(/\s+/).slice(0, 4).join('.')}` : '';
        return `${el.tagName.toLowerCase()}${id}${cls} (${Math.round(el.getBoundingClientRect().right)} px) "${(el.textContent ?? '').trim().slice(0, 40)}"`;
      });
    return `page is ${root.scrollWidth} px wide at ${width} px: ${culprits.join('; ')}`;
  });

/** Visible interactive elements smaller than 44×44 px (the exceptions are named at the top). */
const smallTargets = (page: Page) =>
  page.evaluate(() => {
    const selector =
      'a[href], button, input:not([type="hidden"]), select, textarea, [role="tab"], [role="button"], summary';
    const small: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>(selector)) {
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none') continue;
      let box = el.getBoundingClientRect();
      if (box.width <= 1 || box.height <= 1) continue; // not shown
      // Clipped out of sight until focused (sr-only: "Skip to content").
      if (style.clip === 'rect(0px, 0px, 0px, 0px)' || style.clipPath === 'inset(50%)') continue;
      if (el.closest('[aria-hidden="true"], [inert]')) continue;
      // Text links inside running text: an inline link whose parent holds other text too.
      if (el.tagName === 'A' && style.display === 'inline') continue;
      // A tick box or radio inside its label: the label is the target.
      const type = el.getAttribute('type');
      if (el.tagName === 'INPUT' && (type === 'checkbox' || type === 'radio')) {
        const label = el.closest('label');
        if (label) box = label.getBoundingClientRect();
      }
      if (box.width + 0.5 >= 44 && box.height + 0.5 >= 44) continue;
      const name =
        el.getAttribute('aria-label') ||
        (el.textContent ?? '').trim().slice(0, 30) ||
        el.getAttribute('name') ||
        el.id ||
        el.tagName.toLowerCase();
      small.push(`${el.tagName.toLowerCase()} "${name}" ${Math.round(box.width)}×${Math.round(box.height)}`);
    }
    return small;
  });

/** axe's serious and critical findings; `rules` limits it to those (the dark pass: contrast). */
const axeProblems = async (page: Page, rules?: string[]) => {
  const builder = new AxeBuilder({ page });
  const results = await (rules ? builder.withRules(rules) : builder).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id}: ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 5)
          .join(', ')}`,
    );
};

/**
 * The checks of one view in one theme. Light: both sizes, targets and axe at the phone's. Dark:
 * what the theme changes — colours — so colour contrast at the phone's size; the layout (sideways
 * scroll, targets) is the same in both themes and is checked in light (this halves the dark
 * walk, the suite's longest test with the light one).
 */
const walk = async (page: Page, path: string, theme: Theme) => {
  if (theme === 'dark') {
    await page.setViewportSize(SIZES.phone);
    await open(page, path);
    await expect(page.locator('html')).toHaveClass(/(^|\s)dark(\s|$)/);
    expect.soft(await axeProblems(page, ['color-contrast']), `${path}: axe contrast, dark`).toEqual([]);
    return;
  }
  await page.setViewportSize(SIZES.desktop);
  await open(page, path);
  await expect(page.locator('html')).toHaveClass(/^(?!.*\bdark\b)/);
  const pathname = path.split('?')[0]!;
  const title = await page.title();
  if (pathname === '/') expect.soft(title, 'the landing title').toBe(DEFAULT_META.title);
  else {
    expect.soft(title, `${path} has a title of its own`).not.toBe(DEFAULT_META.title);
    expect.soft(title, `${path} title`).toMatch(/ — Kontor$/);
  }
  expect.soft(await sidewaysScroll(page), `${path} at 1280 px`).toBeNull();

  await page.setViewportSize(SIZES.phone);
  // Layout settles on the next frames (charts measure their box).
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  expect.soft(await sidewaysScroll(page), `${path} at 390 px`).toBeNull();
  expect.soft(await smallTargets(page), `${path}: targets under 44 px at 390 px`).toEqual([]);
  expect.soft(await axeProblems(page), `${path}: axe, light`).toEqual([]);
};

test.describe('every public screen at phone and desktop sizes', () => {
  let context: BrowserContext;
  let page: Page;
  test.beforeAll(async ({ browser }) => {
    ({ context, page } = await newPage(browser));
    await page.goto('/');
  });
  test.afterAll(async () => context.close());

  for (const theme of THEMES) {
    for (const path of PUBLIC_PATHS) {
      test(`${path} in ${theme}`, async () => {
        await useTheme(page, theme);
        await walk(page, path, theme);
      });
    }
  }
});

test.describe('every private page and view at phone and desktop sizes', () => {
  // The two themes' walks are the suite's longest tests: with two workers they run side by
  // side, each worker seeding its own company in beforeAll.
  test.describe.configure({ mode: 'parallel' });
  let context: BrowserContext;
  let page: Page;
  let views: string[] = [];
  test.beforeAll(async ({ browser }) => {
    test.setTimeout(120_000);
    ({ context, page } = await newPage(browser));
    views = PRIVATE_VIEWS(await seed(page));
    await page.goto('/dashboard');
    // Every page of the shared list has at least one view here.
    expect(APP_PAGES.filter((p) => !views.some((v) => v.startsWith(`/${p}`)))).toEqual([]);
  });
  test.afterAll(async () => context.close());

  for (const theme of THEMES) {
    test(`all views in ${theme}`, async () => {
      test.setTimeout(600_000);
      await useTheme(page, theme);
      for (const path of views) {
        await test.step(path, async () => {
          // A view that does not open is one problem of the walk, not the end of it.
          const failure = await walk(page, path, theme).then(
            () => null,
            (error: Error) => error.message.split('\n')[0],
          );
          expect.soft(failure, `${path} opens`).toBeNull();
        });
      }
    });
  }

  test('a confirmation is an accessible dialog: Escape keeps the transaction, the named button deletes it', async () => {
    await useTheme(page, 'light');
    await page.setViewportSize(SIZES.desktop);
    await open(page, '/transactions');
    const row = page.getByTestId('tx-row').filter({ hasText: 'Coffee beans' });
    await expect(row).toHaveCount(1);
    await page.getByRole('button', { name: 'Delete Coffee beans' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete "Coffee beans"?' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Keep it' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(row).toHaveCount(1);
    await page.getByRole('button', { name: 'Delete Coffee beans' }).click();
    // Focus stays inside: tabbing round never leaves the dialog.
    for (let i = 0; i < 6; i += 1) {
      await page.keyboard.press('Tab');
      expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
    }
    await dialog.getByRole('button', { name: 'Delete transaction' }).click();
    await expect(dialog).toBeHidden();
    await expect(row).toHaveCount(0);
  });
});

test.describe('unknown paths', () => {
  test('answer HTTP 404 with the not-found page; unknown API paths answer JSON 404', async ({ page }) => {
    for (const path of ['/no/such/page', '/invoices/123', '/pricingx']) {
      const res = await page.goto(path);
      expect(res?.status(), path).toBe(404);
      await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    }
    const api = await page.request.get('/api/no/such/route');
    expect(api.status()).toBe(404);
    expect((await api.json()).error.code).toBe('not_found');
    const known = await page.request.get('/pricing');
    expect(known.status()).toBe(200);
  });
});
