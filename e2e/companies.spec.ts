import { expect, test } from '@playwright/test';
import { verifyEmail } from './auth-helpers.ts';

// A new user without a company is asked to create one, lands in it, and manages members.

const signUp = async (request: import('@playwright/test').APIRequestContext, email: string) => {
  const res = await request.post('/api/auth/sign-up/email', {
    data: { email, password: 'Correct-Horse-9', name: 'Dana Owner' },
    headers: { origin: new URL(test.info().project.use.baseURL!).origin },
  });
  expect(res.ok()).toBe(true);
};

test('create a company, switch between companies, invite a member', async ({ page }) => {
  const email = `owner-${Date.now()}@example.com`;
  await signUp(page.request, email);
  // Invitations are mailed in the owner's name: confirm the address first.
  await verifyEmail(page.request, email);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Set up your company' })).toBeVisible();
  await page.getByLabel('Company name').fill('A');
  await page.getByRole('button', { name: 'Create company' }).click();
  await expect(page.getByText('Company name must be at least 2 characters.')).toBeVisible();
  await page.getByLabel('Company name').fill('Northwind Bakery');
  await page.getByLabel('Base currency').selectOption('EUR');
  await page.getByLabel('Fiscal year starts in').selectOption('4');
  await page.getByRole('button', { name: 'Create company' }).click();
  await expect(page.getByRole('button', { name: /Company: Northwind Bakery/ })).toBeVisible();
  await page.screenshot({ path: 'e2e-artifacts/app-dashboard.png', fullPage: true });

  // A second company, then switch back.
  await page.getByRole('button', { name: /Switch company/ }).click();
  await page.getByRole('menuitem', { name: 'New company' }).click();
  await page.getByRole('dialog').getByLabel('Company name').fill('Second Shop');
  await page.getByRole('dialog').getByRole('button', { name: 'Create company' }).click();
  await expect(page.getByRole('button', { name: /Company: Second Shop/ })).toBeVisible();
  await page.getByRole('button', { name: /Switch company/ }).click();
  await page.getByRole('menuitem', { name: /Northwind Bakery/ }).click();
  await expect(page.getByRole('button', { name: /Company: Northwind Bakery/ })).toBeVisible();

  // By keyboard from a fresh load (the menu's code arrives on first use): Enter opens it with
  // the focus inside, arrows move, Escape closes it and gives the focus back to the button.
  await page.reload();
  await page.getByRole('button', { name: /Switch company/ }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menu')).toBeVisible();
  await expect(page.getByRole('menuitem').first()).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('menuitem', { name: /Second Shop/ })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toBeHidden();
  await expect(page.getByRole('button', { name: /Switch company/ })).toBeFocused();

  // Settings: members and an invitation.
  await page.getByRole('link', { name: 'Settings' }).first().click();
  // Settings opens on the user's own profile; the company has its tab.
  await page.getByRole('tab', { name: 'Company' }).click();
  await expect(page.getByLabel('Company name')).toHaveValue('Northwind Bakery');
  await page.getByRole('tab', { name: 'Members' }).click();
  await expect(page.getByText(email)).toBeVisible();
  await page.getByLabel('Email address').fill('not-an-email');
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText('Please enter a valid email address.')).toBeVisible();
  await page.getByLabel('Email address').fill('viewer@example.com');
  await page.getByLabel('Role', { exact: true }).selectOption('viewer');
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText('Invitation sent to viewer@example.com.')).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: 'viewer@example.com' })).toBeVisible();
  await page.screenshot({ path: 'e2e-artifacts/app-settings-members.png', fullPage: true });
});
