import fs from 'node:fs';
import { type Page, expect, test } from '@playwright/test';
import { sendInvoices, signUpWithCompany } from './auth-helpers.ts';

// Issue 17, Settings → Preferences as a new user meets it: dates show in the seed's default
// MM/DD/YYYY; choosing DD.MM.YYYY and a time zone in Settings → Preferences and saving makes
// the invoices list and the invoice's PDF link show dates that way, after a reload too; the
// theme choice applies at once and is kept in the profile. Screenshots (light and dark, 1280
// and 390 px wide) go to SHOTS_DIR (default /tmp/shots).

const SHOTS = process.env.SHOTS_DIR ?? '/tmp/shots';

const shot = async (page: Page, name: string) => {
  await page.waitForLoadState('networkidle', { timeout: 3000 }).catch(() => undefined);
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/preferences-${name}.png`, fullPage: true });
};

test('preferences: date format, time zone and theme are saved and honoured on other screens', async ({
  page,
}) => {
  const company = await signUpWithCompany(page, {
    tag: 'prefs',
    name: 'Pia Prefs',
    company: 'Prefs Studio',
    password: 'Correct-Horse-9',
  });
  const customer = await company.post('/customers', { name: 'Northwind Traders' });
  await sendInvoices(company, customer.id, [[120_000, '03']]);

  await page.goto('/invoices');
  await expect(page.getByText('11/03/2026').first()).toBeVisible();

  await page.goto('/settings?tab=preferences');
  const tab = page.getByRole('tabpanel');
  await expect(tab.getByRole('heading', { name: 'Preferences' })).toBeVisible();
  await expect(tab.getByLabel('Date format')).toHaveValue('MM/DD/YYYY');
  await expect(tab.getByLabel('Language')).toHaveValue('en');

  // Nothing makes the page wider than the screen, at either size.
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await shot(page, `${width === 390 ? 'phone' : 'desktop'}-light`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  await tab.getByLabel('Date format').selectOption('DD.MM.YYYY');
  await tab.getByLabel('Time zone').selectOption('Asia/Tokyo');
  await expect(tab.getByText('21.11.2026', { exact: true })).toBeVisible(); // the live preview
  await tab.getByRole('button', { name: 'Save preferences' }).click();
  await expect(tab.getByText('Preferences saved.')).toBeVisible();

  // The theme applies at once and is saved to the profile.
  await tab.getByRole('radio', { name: /Dark/ }).check();
  await expect(page.locator('html')).toHaveClass(/dark/);
  await expect
    .poll(async () => (await (await page.request.get('/api/me/profile')).json()).preferences.theme)
    .toBe('dark');
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    await shot(page, `${width === 390 ? 'phone' : 'desktop'}-dark`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });

  const profile = await (await page.request.get('/api/me/profile')).json();
  expect(profile.timezone).toBe('Asia/Tokyo');
  expect(profile.preferences.dateFormat).toBe('DD.MM.YYYY');

  await page.goto('/invoices');
  await expect(page.getByText('03.11.2026').first()).toBeVisible();
  await expect(page.getByText('11/03/2026')).toHaveCount(0);
  await page.reload();
  await expect(page.getByText('03.11.2026').first()).toBeVisible();

  // An unknown time zone is refused with its name, and nothing changes.
  const bad = await page.request.patch('/api/me/profile', {
    data: { timezone: 'Mars/Olympus' },
    headers: company.headers,
  });
  expect(bad.status()).toBe(400);
  expect(await bad.text()).toContain('Unknown time zone');
  expect((await (await page.request.get('/api/me/profile')).json()).timezone).toBe('Asia/Tokyo');
});
