import { expect, test } from '@playwright/test';
import { shot, signUpWithCompany } from './auth-helpers.ts';

// Issue 18 with the built-in Demo Bank: connect a bank from the Wallet, let the first sync run
// (the server's job queue), map the checking account to a new money account, and see its lines
// in the Wallet and on the Transactions page.

const PASSWORD = 'Correct-Horse-9';

test('connect the Demo Bank, map an account, sync, see the lines', async ({ page }) => {
  test.setTimeout(180_000);
  await signUpWithCompany(page, {
    tag: 'feeds',
    name: 'Fay Feeds',
    company: 'Feedwell Ltd',
    password: PASSWORD,
  });

  await page.goto('/wallet');
  const card = page.getByRole('heading', { name: 'Bank connections' });
  await expect(card).toBeVisible();
  await expect(page.getByText('No bank connected')).toBeVisible();
  await page.getByTestId('connect-bank').click();
  const dialog = page.getByRole('dialog', { name: 'Connect a bank' });
  await dialog.getByLabel('Bank').selectOption({ label: 'Demo Bank (USD)' });
  await dialog.getByRole('button', { name: 'Connect' }).click();
  await expect(dialog).toBeHidden();

  const connection = page.getByTestId('bank-connection');
  await expect(connection).toContainText('Demo Bank');
  // The first sync runs on the server's job queue; the card polls until it is done.
  await expect(connection.getByTestId('last-sync')).toContainText('Last synced', { timeout: 90_000 });
  await expect(connection).toContainText('lines waiting');

  await connection.getByRole('button', { name: /Map Demo Bank Business Checking/ }).click();
  const map = page.getByRole('dialog', { name: /Map Demo Bank Business Checking/ });
  await map.getByLabel("New account's name").fill('Feed checking');
  await map.getByRole('button', { name: 'Save mapping' }).click();
  await expect(map).toBeHidden();
  await expect(connection).toContainText('→ Feed checking');
  await expect(page.getByTestId('account-card').filter({ hasText: 'Feed checking' })).toBeVisible();

  await connection.getByRole('button', { name: 'Sync now' }).click();
  await expect(page.getByText(/Sync queued|already on its way/)).toBeVisible();
  await shot(page, 'bank-feeds-wallet');

  await page.goto('/transactions');
  await expect(page.getByText('GUSTO PAYROLL').first()).toBeVisible({ timeout: 30_000 });
});
