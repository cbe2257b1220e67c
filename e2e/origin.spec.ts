import { chromium, expect, test } from '@playwright/test';
import { signUp, uniqueEmail } from './auth-helpers.ts';

// Issue 11 §4 in the browser: at an address the server serves but does not trust, signing in
// is refused and the page says why and what to do (not "Authentication failed"); at the
// loopback address (127.0.0.1, where this suite runs) signing up works.

test('signs up at http://127.0.0.1:PORT', async ({ page, baseURL }) => {
  expect(baseURL).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  await signUp(page, uniqueEmail('loopback'), 'Loop-Back-4711');
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('a page opened at an untrusted address says so when signing in', async ({ baseURL }) => {
  const port = new URL(baseURL ?? '').port;
  // A host name that resolves to this server but is neither PUBLIC_URL nor a loopback name.
  const browser = await chromium.launch({
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--host-resolver-rules=MAP kontor-elsewhere.example 127.0.0.1'],
  });
  try {
    const page = await browser.newPage();
    const address = `http://kontor-elsewhere.example:${port}`;
    await page.goto(`${address}/login`);
    await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
    await page.getByLabel('Email address').fill('someone@example.com');
    await page.getByLabel('Password', { exact: true }).fill('Some-Password-12');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(
      page.getByText(
        `This page was opened at ${address}, an address the server does not trust, so it refused the request. Open Kontor at the address it is configured with (PUBLIC_URL), or add ${address} to CORS_ORIGINS.`,
      ),
    ).toBeVisible();
    await expect(page.getByText('Authentication failed')).toHaveCount(0);
  } finally {
    await browser.close();
  }
});
