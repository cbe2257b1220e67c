import fs from 'node:fs';
import { type Page, expect, test } from '@playwright/test';
import { createFirstCompanyInUi, uniqueEmail } from './auth-helpers.ts';

// Issue 16, billing as a new user meets it: on /pricing they pick Business, yearly, and sign
// up; the app's header counts the 14-day trial down; /billing shows the Business (yearly)
// trial and usage against its limits. They subscribe through the local provider's checkout:
// the declined test card says so, the 3-D Secure card asks to authenticate and Approve pays.
// The subscription is active, its invoice is listed and its PDF downloads; cancelling says
// when the plan ends and resuming takes it back. Screenshots (light, dark, a 390 px phone) go
// to SHOTS_DIR (default /tmp/shots).

const PASSWORD = 'Correct-Horse-9';
const SHOTS = process.env.SHOTS_DIR ?? '/tmp/shots';
const CARD = { declined: '4000 0000 0000 0002', authenticate: '4000 0025 0000 3155' };

const shot = async (page: Page, name: string) => {
  await page.waitForLoadState('networkidle', { timeout: 3000 }).catch(() => undefined);
  await page.evaluate(() => window.scrollTo(0, 0));
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/billing-${name}.png`, fullPage: true });
};

const setDark = async (page: Page, dark: boolean) => {
  const isDark = await page.evaluate(() => document.documentElement.classList.contains('dark'));
  if (isDark !== dark)
    await page.getByRole('button', { name: dark ? 'Switch to dark mode' : 'Switch to light mode' }).click();
};

/** Light and dark at the desktop size, then light and dark on a 390 px phone. */
const shots = async (page: Page, name: string) => {
  const size = page.viewportSize()!;
  for (const width of [size.width, 390]) {
    await page.setViewportSize({ width, height: size.height });
    // Nothing makes the page wider than the screen (a wide table scrolls inside its card).
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    for (const dark of [false, true]) {
      await setDark(page, dark);
      await shot(page, `${name}-${width === 390 ? 'phone' : 'desktop'}-${dark ? 'dark' : 'light'}`);
    }
  }
  await setDark(page, false);
  await page.setViewportSize(size);
};

const payWith = async (page: Page, card: string) => {
  await page.getByLabel('Card number').fill(card);
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay \$490\.00$/ }).click();
};

test('from the pricing page through the trial, a declined and an authenticated payment, to cancel and resume', async ({
  page,
}) => {
  test.setTimeout(180_000);

  // Pricing: Business, yearly.
  await page.goto('/pricing');
  await page.getByText('Yearly').click();
  await expect(page.locator('[data-plan="business"]')).toContainText('10 GB of file storage');
  await page.getByRole('button', { name: 'Subscribe to Business' }).click();
  await expect(page).toHaveURL('/signup?plan=business&interval=yearly');

  // Sign-up says which trial starts, and carries it.
  await expect(page.getByTestId('signup-plan')).toHaveText(
    'Starting a 14-day free trial of Business (yearly)',
  );
  await shot(page, 'signup');
  // The choice can be changed here (and is kept); back to Business.
  await page.getByRole('button', { name: 'Change plan' }).click();
  await page.getByLabel('Plan', { exact: true }).selectOption('enterprise');
  await expect(page.getByTestId('signup-plan')).toHaveText(
    'Starting a 14-day free trial of Enterprise (yearly)',
  );
  await page.getByLabel('Plan', { exact: true }).selectOption('business');
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('signup-plan')).toHaveText(
    'Starting a 14-day free trial of Business (yearly)',
  );
  await page.getByLabel('First name').fill('Bea');
  await page.getByLabel('Last name').fill('Buyer');
  await page.getByLabel('Email address').fill(uniqueEmail('billing'));
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page).toHaveURL(/\/dashboard/);
  await createFirstCompanyInUi(page, 'Bea Books Ltd', 'USD');

  // The header counts the trial down and leads to billing.
  const banner = page.getByTestId('billing-banner');
  await expect(banner).toContainText('14 days left');
  await expect(banner).toContainText('Free trial');
  await shots(page, 'trial-banner');
  await banner.getByRole('link').click();
  await expect(page).toHaveURL('/billing');

  // The trial: Business (yearly), no card, usage against Business's limits.
  await expect(page.getByRole('heading', { name: 'Billing', level: 1 })).toBeVisible();
  await expect(page.getByTestId('billing-plan')).toHaveText('Business');
  await expect(page.getByTestId('billing-status')).toHaveText('Free trial');
  await expect(page.getByTestId('billing-trial-left')).toHaveText('14 days left');
  await expect(page.getByTestId('billing-status-line')).toContainText('no credit card required');
  await expect(page.getByTestId('usage-companies')).toContainText('1 of 3');
  await expect(page.getByTestId('usage-invoicesPerMonth')).toContainText('Unlimited');
  await expect(page.getByTestId('usage-storageBytes')).toContainText('0 B of 10 GB');
  await expect(page.getByRole('progressbar', { name: 'Companies' })).toHaveAttribute('aria-valuenow', '33');
  await expect(page.getByText('No invoices yet')).toBeVisible();
  await shots(page, 'trial');

  // Subscribe: the local checkout, first with the card that is declined.
  await page.getByRole('button', { name: 'Subscribe to Business' }).click();
  await expect(page).toHaveURL(/\/billing\?checkout=lcs_/);
  await expect(page.getByTestId('checkout-plan')).toHaveText('Business (yearly)');
  await expect(page.getByTestId('checkout-amount')).toHaveText('$490.00');
  await expect(page.getByText('Test mode: no real card is charged.')).toBeVisible();
  // A card number the form cannot take is refused in the page, nothing sent.
  await page.getByLabel('Card number').fill('4242');
  await page.getByRole('button', { name: /^Pay/ }).click();
  await expect(page.getByText('Enter the card number: 12 to 19 digits.')).toBeVisible();
  await payWith(page, CARD.declined);
  await expect(page.getByRole('alert').filter({ hasText: 'Your card was declined.' })).toBeVisible();
  await shots(page, 'checkout-declined');

  // Then the card that asks to authenticate, approved.
  await payWith(page, CARD.authenticate);
  await expect(page.getByRole('heading', { name: 'Authenticate this payment' })).toBeVisible();
  await shots(page, 'checkout-authenticate');
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('Payment complete')).toBeVisible();
  await page.getByRole('link', { name: 'Back to billing' }).click();

  // Active, the card on file, the invoice listed with its PDF.
  await expect(page.getByTestId('billing-status')).toHaveText('Active');
  await expect(page.getByTestId('billing-status-line')).toContainText('Renews on');
  await expect(page.getByTestId('billing-card')).toHaveText('Visa •••• 3155, expires 12/34');
  await expect(banner).toHaveCount(0);
  const row = page.getByRole('row').filter({ hasText: /KB-\d{6}/ });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('$490.00');
  await expect(row).toContainText('Paid');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    row.getByRole('link', { name: /PDF/ }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^KB-\d{6}\.pdf$/);
  const pdf = fs.readFileSync((await download.path())!);
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  await shots(page, 'active');

  // Cancel at the period's end: the dialog says until when; then resume.
  await page.getByRole('button', { name: 'Cancel plan' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel your plan?' });
  await expect(dialog).toContainText(/Your plan stays active until \d{2}\/\d{2}\/\d{4}\./);
  await dialog.getByRole('button', { name: 'Cancel plan' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('billing-status-line')).toContainText(
    /Your plan cancels on \d{2}\/\d{2}\/\d{4}/,
  );
  await expect(page.getByTestId('billing-status')).toHaveText('Cancels at period end');
  await shots(page, 'canceling');
  await page.getByRole('button', { name: 'Resume plan' }).click();
  await expect(page.getByTestId('billing-status')).toHaveText('Active');
  await expect(page.getByTestId('billing-status-line')).toContainText('Renews on');

  // The local portal ("Manage card and invoices"): a new card goes on file.
  await page.getByRole('button', { name: 'Manage card and invoices' }).click();
  await expect(page).toHaveURL('/billing?tab=payment');
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM/YY)').fill('11/33');
  await page.getByLabel('CVC').fill('321');
  await page.getByRole('button', { name: 'Save card' }).click();
  await expect(page.getByText('Card saved: Visa •••• 4242, expires 11/33.')).toBeVisible();
  await shots(page, 'portal');

  // A plan limit: Business has room for 3 companies. With 3, a fourth is refused with the way
  // to upgrade, a "See plans" link to billing; nothing is created.
  const origin = new URL(test.info().project.use.baseURL!).origin;
  for (const name of ['Bea Books Two', 'Bea Books Three']) {
    const made = await page.request.post('/api/orgs', {
      data: { name, baseCurrency: 'USD', fiscalYearStartMonth: 1 },
      headers: { origin },
    });
    expect(made.status(), await made.text()).toBe(201);
  }
  await page.goto('/dashboard');
  await page.getByRole('button', { name: /^Company: Bea Books Ltd/ }).click();
  await page.getByRole('menuitem', { name: 'New company' }).click();
  const create = page.getByRole('dialog', { name: 'New company' });
  await create.getByLabel('Company name').fill('Bea Books Four');
  await create.getByRole('button', { name: 'Create company' }).click();
  const refusal = create.getByRole('alert');
  await expect(refusal).toContainText('See plans');
  await shot(page, 'limit-402');
  await refusal.getByRole('link', { name: 'See plans' }).click();
  await expect(page).toHaveURL('/billing');
  await expect(create).toHaveCount(0);
  await expect(page.getByTestId('usage-companies')).toContainText('3 of 3');
  const orgs = await (await page.request.get('/api/orgs')).json();
  expect(JSON.stringify(orgs)).not.toContain('Bea Books Four');
});
