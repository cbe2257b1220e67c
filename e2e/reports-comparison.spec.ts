import fs from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { createFirstCompanyInUi, signUpInUi, verifyEmail } from './auth-helpers.ts';

// Issue 17 item 4: the income statement compares with the previous period and the same
// period last year, each column labelled with its dates, with change and percent; the user
// picks none, one or both; CSV and PDF download. At 390 px the table scrolls inside its own
// box and the page does not scroll sideways, in both themes.

const PASSWORD = 'Correct-Horse-9';

const shot = async (page: Page, name: string) => {
  await expect(page.getByRole('status').filter({ hasText: /Loading/ })).toHaveCount(0);
  await page.waitForTimeout(300);
  await page.screenshot({ path: `e2e-artifacts/${name}.png`, fullPage: true });
};

const setDark = async (page: Page, dark: boolean) => {
  const isDark = await page.evaluate(() => document.documentElement.classList.contains('dark'));
  if (isDark !== dark)
    await page.getByRole('button', { name: dark ? 'Switch to dark mode' : 'Switch to light mode' }).click();
};

const noPageScroll = async (page: Page) =>
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
  ).toBeLessThanOrEqual(0);

test('income statement with both comparisons, at 1280 and 390 px, light and dark', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const email = `reports-${Date.now()}@example.com`;
  await signUpInUi(page, email, ['Rhea', 'Reports'], PASSWORD);
  await verifyEmail(page.request, email);
  await createFirstCompanyInUi(page, 'Comparison Co', 'USD');

  const orgId = ((await (await page.request.get('/api/orgs')).json()) as { companies: { id: string }[] })
    .companies[0]!.id;
  const chart = (await (await page.request.get(`/api/orgs/${orgId}/accounts`)).json()) as {
    accounts: { id: string; code: string }[];
  };
  const acct = (code: string) => chart.accounts.find((a) => a.code === code)!.id;
  const post = async (date: string, debit: string, credit: string, amount: number) => {
    const res = await page.request.post(`/api/orgs/${orgId}/journal-entries`, {
      data: {
        date,
        memo: 'Report figures',
        lines: [
          { accountId: acct(debit), debit: amount },
          { accountId: acct(credit), credit: amount },
        ],
      },
      headers: { origin: new URL(baseURL!).origin },
    });
    expect(res.status()).toBe(201);
  };
  // Sales of 1,000 (Q1 2025), 2,000 (Q4 2025) and 3,000 (Q1 2026); rent in each.
  await post('2025-02-10', '1010', '4000', 1_000_00);
  await post('2025-02-11', '6200', '1010', 400_00);
  await post('2025-11-10', '1010', '4000', 2_000_00);
  await post('2025-11-11', '6200', '1010', 500_00);
  await post('2026-02-10', '1010', '4000', 3_000_00);
  await post('2026-02-11', '6200', '1010', 600_00);

  await page.goto('/accounting?tab=reports');
  await expect(page.getByLabel('Compare with')).toBeVisible();
  await page.getByRole('textbox', { name: 'From', exact: true }).fill('2026-01-01');
  await page.getByRole('textbox', { name: 'To', exact: true }).fill('2026-03-31');
  const table = page.getByRole('table', { name: /Income statement/ });
  await expect(table.getByRole('columnheader', { name: 'Oct–Dec 2025 (previous period)' })).toBeVisible();
  await expect(
    table.getByRole('columnheader', { name: 'Jan–Mar 2025 (same period last year)' }),
  ).toBeVisible();
  const total = table.getByRole('row', { name: /Total income/ });
  // 3,000 now; 2,000 before (+1,000, +50.0%); 1,000 a year ago (+2,000, +200.0%).
  await expect(total).toContainText('$3,000.00');
  await expect(total).toContainText('+50.0%');
  await expect(total).toContainText('+200.0%');
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  await noPageScroll(page);
  await setDark(page, false);
  await shot(page, 'reports-compare-1280-light');
  await setDark(page, true);
  await shot(page, 'reports-compare-1280-dark');

  // A phone: the page does not scroll sideways; the table scrolls inside its own box.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(table).toBeVisible();
  await noPageScroll(page);
  const box = await table.evaluate((t) => {
    const wrap = t.parentElement!;
    return { scroll: wrap.scrollWidth, client: wrap.clientWidth, overflow: getComputedStyle(wrap).overflowX };
  });
  expect(box.overflow).toBe('auto');
  expect(box.scroll).toBeGreaterThan(box.client);
  await shot(page, 'reports-compare-390-dark');
  await setDark(page, false);
  await shot(page, 'reports-compare-390-light');

  // One comparison, then none.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByLabel('Compare with').selectOption('lastYear');
  await expect(table.getByRole('columnheader', { name: 'Oct–Dec 2025 (previous period)' })).toHaveCount(0);
  await expect(
    table.getByRole('columnheader', { name: 'Jan–Mar 2025 (same period last year)' }),
  ).toBeVisible();
  await page.getByLabel('Compare with').selectOption('none');
  await expect(table.locator('thead th')).toHaveCount(2);

  // The downloads carry what is on screen.
  await page.getByLabel('Compare with').selectOption('both');
  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: /CSV.*income statement/ }).click(),
  ]);
  const text = fs.readFileSync((await csv.path())!, 'utf8');
  expect(text).toContain('Total income,3000.00,2000.00,1000.00,50.0,1000.00,2000.00,200.0');
  const [pdf] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: /PDF.*income statement/ }).click(),
  ]);
  expect(
    fs
      .readFileSync((await pdf.path())!)
      .subarray(0, 5)
      .toString(),
  ).toBe('%PDF-');

  // The cash flow statement: net income, non-cash items, working capital, investing, financing.
  await post('2026-03-02', '1010', '2700', 10_000_00);
  await post('2026-03-03', '1500', '1010', 5_000_00);
  await post('2026-03-04', '1100', '4000', 1_500_00);
  await post('2026-03-31', '6950', '1510', 100_00);
  await page.reload();
  await page.getByRole('button', { name: /^Cash flow/ }).click();
  await page.getByRole('textbox', { name: 'From', exact: true }).fill('2026-03-01');
  await page.getByRole('textbox', { name: 'To', exact: true }).fill('2026-03-31');
  const cf = page.getByRole('table', { name: /Cash flow statement/ });
  await expect(cf.getByText('Adjustments for non-cash items')).toBeVisible();
  await expect(cf.getByText('Changes in working capital')).toBeVisible();
  // Net change: loan 10,000 in, equipment 5,000 out.
  await expect(cf.getByRole('row', { name: /Net change in cash/ })).toContainText('$5,000.00');
  const cfAxe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(cfAxe.violations.map((v) => v.id)).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  await noPageScroll(page);
  await shot(page, 'reports-cashflow-390-light');

  // Invoicing's reports download too.
  await page.goto('/invoices?tab=reports');
  await expect(page.getByRole('link', { name: /CSV export of the receivables aging/ })).toBeVisible();
  await expect(page.getByRole('link', { name: /PDF export of the tax report/ })).toBeVisible();
  await noPageScroll(page);
  await shot(page, 'reports-invoicing-390-light');
});
