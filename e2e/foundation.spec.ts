import { expect, test } from '@playwright/test';

test('the landing page loads with its title', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto('/');
  await expect(page).toHaveTitle('Kontor — Business finance, done right');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(errors, 'no console errors (a CSP violation would show here)').toEqual([]);
});

test('an unknown path gets the default landing title and description', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page).toHaveTitle('Kontor — Business finance, done right');
  await expect(page.locator('meta[name="description"]')).toHaveAttribute(
    'content',
    /finance platform for small businesses/,
  );
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
});

test('the API health answers through the same server', async ({ request }) => {
  const res = await request.get('/api/health');
  expect(res.ok()).toBe(true);
  expect(await res.json()).toMatchObject({ healthy: true, database: { kind: 'pglite' } });
});
