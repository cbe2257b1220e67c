import { type Page, expect, test } from '@playwright/test';
import { sendInvoices, shot, signUpWithCompany } from './auth-helpers.ts';

// Issue 17 item 1: a payment recorded on an invoice puts one notification in the bell (the
// matrix's default: payments on in the app), the bell says so to screen readers, opening it
// shows the item, "Mark all read" clears the count, and the item opens its invoice. The
// Notifications settings tab and the sign-in history are drawn at phone and desktop sizes,
// light and dark, with no sideways page scroll.

const PASSWORD = 'Correct-Horse-9';

const setDark = async (page: Page, dark: boolean) => {
  const isDark = await page.evaluate(() => document.documentElement.classList.contains('dark'));
  if (isDark !== dark)
    await page.getByRole('button', { name: dark ? 'Switch to dark mode' : 'Switch to light mode' }).click();
};

const noSidewaysScroll = async (page: Page) =>
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);

test('a payment notifies the bell; open, mark read, go to the invoice; the settings tab', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  const company = await signUpWithCompany(page, {
    tag: 'notified',
    name: 'Nora Notified',
    company: 'Bellwether Ltd',
    password: PASSWORD,
  });
  const customer = await company.post('/customers', { name: 'Northwind Traders' });
  const [invoice] = (await sendInvoices(company, customer.id, [[50_000, '03']])) as [
    { id: string; number: string },
  ];

  await page.goto(`/invoices?invoice=${invoice.id}`);
  const bell = page.getByTestId('notification-bell');
  await expect(bell).toHaveAccessibleName('Notifications');
  await page.getByRole('button', { name: 'Record payment' }).click();
  const pay = page.getByRole('dialog', { name: `Record a payment for ${invoice.number}` });
  await pay.getByLabel('Amount (USD)').fill('120.00');
  await pay.getByRole('button', { name: 'Record payment' }).click();
  await expect(pay).toBeHidden();

  await expect(bell).toHaveAccessibleName('Notifications, 1 unread');
  await bell.click();
  const panel = page.getByRole('dialog', { name: 'Notifications' });
  await expect(panel.getByRole('button', { name: /Payment received: \$120\.00/ })).toBeVisible();
  await expect(
    panel.getByText(`Northwind Traders paid $120.00 against invoice ${invoice.number}.`),
  ).toBeVisible();
  await shot(page, 'notifications-bell-open');
  // The theme switch is outside the panel: clicking it closes the panel, so it is opened again.
  await setDark(page, true);
  await expect(panel).toBeHidden();
  await bell.click();
  await expect(panel).toBeVisible();
  await shot(page, 'notifications-bell-open-dark');
  await setDark(page, false);
  await bell.click();

  await panel.getByRole('button', { name: 'Mark all read' }).click();
  await expect(bell).toHaveAccessibleName('Notifications');
  await expect(panel.getByRole('button', { name: 'Mark all read' })).toBeDisabled();
  // Escape closes the panel and gives focus back to the bell.
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(bell).toBeFocused();

  // The item opens its invoice.
  await page.goto('/dashboard');
  await page.getByTestId('notification-bell').click();
  await page
    .getByRole('dialog', { name: 'Notifications' })
    .getByRole('button', { name: /Payment received/ })
    .click();
  await expect(page).toHaveURL(new RegExp(`/invoices\\?invoice=${invoice.id}`));

  // Settings → Notifications: the matrix, browser push not configured on this server.
  await page.goto('/settings?tab=notifications');
  const invoicesPush = page.getByRole('switch', { name: 'In app and push: Invoices' });
  await expect(invoicesPush).toHaveAttribute('aria-checked', 'false');
  await invoicesPush.click();
  await expect(invoicesPush).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByTestId('push-not-configured')).toBeVisible();
  await shot(page, 'notifications-settings');
  await noSidewaysScroll(page);
  await page.reload();
  await expect(page.getByRole('switch', { name: 'In app and push: Invoices' })).toHaveAttribute(
    'aria-checked',
    'true',
  );

  await page.setViewportSize({ width: 390, height: 844 });
  await noSidewaysScroll(page);
  await shot(page, 'notifications-settings-phone');
  await setDark(page, true);
  await shot(page, 'notifications-settings-phone-dark');
  await page.getByTestId('notification-bell').click();
  await expect(page.getByRole('dialog', { name: 'Notifications' })).toBeVisible();
  await noSidewaysScroll(page);
  await shot(page, 'notifications-bell-phone-dark');
  await page.keyboard.press('Escape');
  await setDark(page, false);

  await page.goto('/settings?tab=security');
  await expect(page.getByRole('heading', { name: 'Sign-in history' })).toBeVisible();
  await noSidewaysScroll(page);
  await shot(page, 'notifications-sign-in-history-phone');
});
