import AxeBuilder from '@axe-core/playwright';
import { type Page, expect, test } from '@playwright/test';
import { signUpWithCompany } from './auth-helpers.ts';

// The dashboard (issue 17 §3): a company with fourteen months of sales, rent and software,
// three invoices paid a little late and one long overdue. The page makes ONE data call for
// its figures (GET /dashboard), its cash figure equals the Wallet's, the range picker asks
// for 24 months, the figures link to their reports, and it fits 390 px without sideways
// scrolling, light and dark, passing axe. Screenshots at 1280×800 and 390×844 in both themes.

const PASSWORD = 'Correct-Horse-9';
const isoDay = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const monthDay = (monthsBack: number, day: number) => {
  const now = new Date();
  const t = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - monthsBack, day));
  return t.toISOString().slice(0, 10);
};

const shot = async (page: Page, name: string) => {
  await page.waitForLoadState('networkidle', { timeout: 3000 }).catch(() => undefined);
  await page.waitForTimeout(400); // chart animations
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
};

const expectAccessible = async (page: Page, what: string) => {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  const summary = violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(summary, `accessibility of ${what}`).toEqual([]);
};

const noSideways = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
    page.viewportSize()!.width,
  );

test('the dashboard: one call, the wallet’s cash, ranges, links, phone and dark', async ({ page }) => {
  test.setTimeout(240_000);
  const { r, headers, o, post } = await signUpWithCompany(page, {
    tag: 'dash',
    name: 'Dana Dash',
    company: 'Dashwood Studio',
    password: PASSWORD,
  });
  const chart = (await (await r.get(`${o}/accounts`)).json()) as { accounts: { id: string; code: string }[] };
  const acct = (code: string) => chart.accounts.find((a) => a.code === code)!.id;
  const entry = (date: string, memo: string, debit: string, credit: string, amount: number) =>
    post(
      '/journal-entries',
      {
        date,
        memo,
        status: 'posted',
        lines: [
          { accountId: acct(debit), debit: amount },
          { accountId: acct(credit), credit: amount },
        ],
      },
      201,
    );
  await entry(monthDay(14, 1), 'Owner investment', '1010', '3000', 40_000_00);
  for (let back = 13; back >= 0; back -= 1) {
    await entry(monthDay(back, 2), 'Studio sales', '1010', '4000', 6_000_00 + back * 150_00);
    await entry(monthDay(back, 3), 'Studio rent', '6200', '1010', 2_500_00);
    await entry(monthDay(back, 1), 'Design software', '6400', '1010', 60_00);
  }
  await entry(monthDay(1, 10), 'Conference trip', '6800', '1010', 1_900_00);
  await entry(isoDay(-1), 'Plotter, one-off', '6400', '1010', 900_00);
  // Twelve weeks of card and counter spending in the bank register: the forecast's band.
  const wallet0 = (await (await r.get(`${o}/wallet`)).json()) as {
    accounts: { id: string; ledgerAccountCode: string }[];
  };
  const bankId = wallet0.accounts.find((a) => a.ledgerAccountCode === '1010')!.id;
  for (let week = 1; week <= 12; week += 1)
    await post('/transactions', {
      moneyAccountId: bankId,
      date: isoDay(-7 * week + 2),
      description: `Supplies run ${week}`,
      amount: -(150_00 + ((week * 37) % 9) * 45_00),
      categoryAccountId: week % 3 === 0 ? null : acct('6500'),
    });
  const customer = await post('/customers', { name: 'Harbor Cafe', paymentTermsDays: 14 }, 201);
  const invoice = async (issueDate: string) => {
    const d = await post('/invoices', {
      customerId: customer.id,
      issueDate,
      lines: [{ description: 'Menu design', quantity: '1', unitPrice: 1_200_00 }],
    });
    return post(`/invoices/${d.id}/send`, {});
  };
  for (const back of [5, 4, 3]) {
    const inv = await invoice(monthDay(back, 4));
    const paidOn = new Date(`${inv.dueDate}T00:00:00Z`);
    paidOn.setUTCDate(paidOn.getUTCDate() + 3);
    await post(`/invoices/${inv.id}/payments`, {
      date: paidOn.toISOString().slice(0, 10),
      amount: inv.total,
      depositAccountId: acct('1010'),
    });
  }
  await invoice(monthDay(2, 1));

  // One data call for the figures.
  const calls: string[] = [];
  page.on('request', (req) => {
    const m = new URL(req.url()).pathname.match(/^\/api\/orgs\/[^/]+\/(.+)$/);
    if (m) calls.push(m[1]!);
  });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  const cashTile = page.getByRole('region', { name: 'Cash', exact: true });
  await expect(cashTile).toContainText('$', { timeout: 30_000 });
  await expect(page.getByRole('heading', { name: 'Insights' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  const figureCalls = calls.filter((c) =>
    /^(dashboard|reports|wallet|journal-entries|invoices|bills|payables)/.test(c),
  );
  expect(figureCalls).toEqual(['dashboard']);
  await expect(page.getByText('Harbor Cafe is paying later than usual')).toBeVisible();
  await expect(page.getByText(/Unusual Software and subscriptions expense/)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Cash forecast, next 13 weeks' })).toBeVisible();
  await expect(page.locator('.recharts-bar-rectangle').first()).toBeVisible();
  // A chart is drawn once its place comes near the screen (docs/layout-stability.md).
  await page.getByRole('heading', { name: 'Cash forecast, next 13 weeks' }).scrollIntoViewIfNeeded();
  await expect(page.locator('.recharts-area-area').first()).toBeVisible();
  await shot(page, 'dashboard-1280-light');
  await expectAccessible(page, 'the dashboard');

  // The cash figure is the Wallet's cash total.
  const dashboardCash = (await cashTile.getByRole('link').innerText()).match(/-?\$[\d,]+\.\d\d/)![0];
  const api = (await (await r.get(`${o}/dashboard`, { headers })).json()) as {
    kpis: { cash: { amount: number } };
  };
  const wallet = (await (await r.get(`${o}/wallet`, { headers })).json()) as { cashBase: number };
  expect(api.kpis.cash.amount).toBe(wallet.cashBase);
  await cashTile.getByRole('link').click();
  await expect(page).toHaveURL(/\/wallet$/);
  await expect(page.getByTestId('wallet-total')).toContainText(dashboardCash);

  // 24 months from the range picker, kept in the address bar, one call again.
  await page.goto('/dashboard');
  await expect(cashTile).toContainText(dashboardCash, { timeout: 30_000 });
  calls.length = 0;
  await page.getByLabel('Period').selectOption('24');
  await expect(page).toHaveURL(/months=24/);
  await expect(page.locator('table:has(caption:has-text("by month")) tbody tr')).toHaveCount(24, {
    timeout: 30_000,
  });
  await page.waitForLoadState('networkidle');
  expect(calls.filter((c) => c === 'dashboard')).toHaveLength(1);
  await expect(page.locator('table:has(caption:has-text("by month")) tbody tr')).toHaveCount(24);

  // A figure opens what it comes from.
  await page.getByRole('region', { name: 'Receivables', exact: true }).getByRole('link').first().click();
  await expect(page).toHaveURL(/\/invoices\?tab=reports/);

  // Dark, and a phone.
  await page.goto('/dashboard');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(cashTile).toContainText(dashboardCash, { timeout: 30_000 });
  await shot(page, 'dashboard-1280-dark');
  await expectAccessible(page, 'the dashboard in dark mode');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  await noSideways(page);
  await shot(page, 'dashboard-390-dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await page.waitForTimeout(300);
  await noSideways(page);
  await shot(page, 'dashboard-390-light');
  await expectAccessible(page, 'the dashboard on a phone');
});

test('a new company’s dashboard shows its first steps and zeros, one call', async ({ page }) => {
  await signUpWithCompany(page, {
    tag: 'dash-new',
    name: 'Nia New',
    company: 'Fresh Co',
    password: PASSWORD,
  });
  const calls: string[] = [];
  page.on('request', (req) => {
    const m = new URL(req.url()).pathname.match(/^\/api\/orgs\/[^/]+\/(.+)$/);
    if (m) calls.push(m[1]!);
  });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Record your first transaction' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Cash', exact: true })).toContainText('$0.00', {
    timeout: 30_000,
  });
  await expect(page.getByText('No income or expenses yet')).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(calls.filter((c) => /^(dashboard|reports|wallet|journal-entries)/.test(c))).toEqual(['dashboard']);
  await noSideways(page);
  await shot(page, 'dashboard-new-390-light');
});
