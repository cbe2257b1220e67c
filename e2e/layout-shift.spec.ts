import { type Page, expect, test } from '@playwright/test';
import { seedDemoBooks } from '../scripts/demo-books.ts';
import { signUpWithCompany } from './auth-helpers.ts';

// Layout stability of the signed-in pages (issue 22 §2, docs/layout-stability.md): nothing that
// arrives late (figures, tables, the billing pill, the dashboard's first steps) may push what
// is already on the screen. Each page is opened cold at a phone and a desktop size, signed in
// with a company that has data, and its Cumulative Layout Shift (Chromium's layout-shift
// entries, buffered, from navigation until the page has settled) must stay ≤ 0.05, the
// budget the issue sets. A layout property, not a timing one: the same page scores the same on
// a slow machine (a slower machine only spreads the same shifts over more time).

const PASSWORD = 'Correct-Horse-9';
const PAGES = ['dashboard', 'transactions', 'invoices', 'wallet', 'accounting', 'billing', 'settings'];
const SIZES = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
];
const BUDGET = 0.05;

// A string, not a function: the test runner's transform would wrap inner functions in a
// helper that does not exist in the page.
const OBSERVER = `(() => {
  window.__shifts = [];
  const describe = (n) =>
    n instanceof Element
      ? n.tagName.toLowerCase() + ' "' + (n.textContent || '').trim().slice(0, 40) + '"'
      : String(n && n.nodeName);
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.hadRecentInput) continue;
      window.__shifts.push({
        value: e.value,
        at: Math.round(e.startTime),
        sources: (e.sources || []).map((s) =>
          describe(s.node) + ' y ' + Math.round(s.previousRect.y) + '→' + Math.round(s.currentRect.y)),
      });
    }
  }).observe({ type: 'layout-shift', buffered: true });
})();`;

type Shift = { value: number; at: number; sources: string[] };

/** Opens `path` cold and returns its layout shifts once it has settled. */
const shiftsOf = async (page: Page, path: string) => {
  await page.goto(path);
  await expect(page.locator('main h1').first()).toBeVisible({ timeout: 30_000 });
  // Settled: nothing says it is loading, the network is quiet, and a few frames have passed.
  await page
    .waitForFunction(() => !document.querySelector('[aria-busy="true"]'), undefined, { timeout: 20_000 })
    .catch(() => undefined);
  await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => undefined);
  await page.waitForTimeout(300);
  return page.evaluate(() => (window as unknown as { __shifts: Shift[] }).__shifts);
};

const expectStable = (shifts: Shift[], what: string) => {
  const cls = shifts.reduce((s, x) => s + x.value, 0);
  const worst = [...shifts]
    .sort((a, b) => b.value - a.value)
    .slice(0, 3)
    .map((s) => `${s.value.toFixed(4)} at ${s.at} ms: ${s.sources.join(' | ')}`);
  expect.soft(cls, `CLS of ${what}; largest shifts:\n${worst.join('\n')}`).toBeLessThanOrEqual(BUDGET);
};

test('the signed-in pages do not shift as their data arrives (CLS ≤ 0.05, phone and desktop)', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.addInitScript({ content: OBSERVER });
  const { r, o, post } = await signUpWithCompany(page, {
    tag: 'cls',
    name: 'Cleo Shift',
    company: 'Steady Studio',
    password: PASSWORD,
  });

  // A company with nothing recorded yet: the dashboard shows its first steps.
  for (const size of SIZES) {
    await page.setViewportSize(size);
    expectStable(await shiftsOf(page, '/dashboard'), `the new company's dashboard at ${size.width} px`);
    await expect(page.getByRole('heading', { name: 'Record your first transaction' })).toBeVisible();
  }

  // Some data: fourteen months of books, bank lines, sent and paid invoices.
  await seedDemoBooks({ get: async (path) => (await r.get(`${o}${path}`)).json(), post });

  for (const size of SIZES) {
    await page.setViewportSize(size);
    for (const name of PAGES) expectStable(await shiftsOf(page, `/${name}`), `/${name} at ${size.width} px`);
  }
});
