import { expect, test } from '@playwright/test';
import { totp } from '../src/server/testing/totp.ts';
import { signIn, signOut, signUp, uniqueEmail } from './auth-helpers.ts';

// Two-factor authentication in Chromium: turn it on in Settings > Security with the QR
// code's key, then sign in with a TOTP code.

test('turn on 2FA and sign in with a TOTP code', async ({ page }) => {
  const email = uniqueEmail('totp');
  const password = 'Totp-Pass-44';
  await signUp(page, email, password);
  // Settings live inside a company; make one through the API with the browser's session.
  const org = await page.request.post('/api/orgs', { data: { name: 'Totp Trading', baseCurrency: 'USD' } });
  expect(org.ok()).toBe(true);

  await page.goto('/settings?tab=security');
  const security = page.getByTestId('security-settings');
  await expect(security).toBeVisible();
  await expect(page.getByTestId('two-factor-status')).toHaveText('Off');
  await security.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
  await security.getByLabel('Confirm with your password').fill(password);
  await security.getByRole('button', { name: 'Continue' }).click();
  await expect(security.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  await expect(page.getByTestId('backup-codes').locator('li')).toHaveCount(10);
  const secret = (await page.getByTestId('totp-secret').textContent()) ?? '';
  expect(secret).toMatch(/^[A-Z2-7]+=*$/);
  await page.screenshot({ path: '/tmp/kontor-2fa-setup.png', fullPage: true });
  await security.getByLabel('3. Enter the 6-digit code from the app').fill(totp(secret));
  await security.getByRole('button', { name: 'Turn on' }).click();
  await expect(page.getByTestId('two-factor-status')).toHaveText('On');

  await signOut(page);
  await signIn(page, email, password);
  await expect(page.getByRole('heading', { name: 'Two-factor authentication' })).toBeVisible();
  await page.getByLabel('Authentication code').fill('000000');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await page.getByLabel('Authentication code').fill(totp(secret));
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.waitForURL('**/dashboard');
});

test('sessions are listed with their device and another can be signed out', async ({ browser }) => {
  const email = uniqueEmail('sessions');
  const password = 'Session-Pass-55';
  const first = await browser.newPage();
  await signUp(first, email, password);
  await first.request.post('/api/orgs', { data: { name: 'Session Supplies', baseCurrency: 'USD' } });
  const second = await browser.newContext().then((c) => c.newPage());
  await signIn(second, email, password);
  await second.waitForURL('**/dashboard');

  await first.goto('/settings?tab=security');
  const rows = first.getByTestId('session-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText('This device');
  await expect(rows.first()).toContainText(/Chrome on (Windows|Linux|macOS)/);
  await first.getByRole('button', { name: 'Sign out all other sessions' }).click();
  await expect(rows).toHaveCount(1);
  await second.goto('/dashboard');
  await second.waitForURL('**/login');
});
