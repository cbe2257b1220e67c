import { expect, test } from '@playwright/test';
import { signUpWithCompany } from './auth-helpers.ts';

// Issue 14 §4: a change refreshes every view it touches (src/web/lib/queryKeys.ts). Queries
// stay fresh for 30 s, so without the invalidation a view read a moment ago keeps showing the
// old figures. Here: a wallet account added after the payment dialog was read is there to
// deposit into, and the payment shows in the journal, all without a reload.

const PASSWORD = 'Correct-Horse-9';

test('a new wallet account is offered for an invoice payment, which shows in the journal, without a reload', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const { post } = await signUpWithCompany(page, {
    tag: 'refresh',
    name: 'Rae Fresh',
    company: 'Fresh Figures LLC',
    password: PASSWORD,
  });
  const customer = await post('/customers', { name: 'Initech' });
  const draft = await post('/invoices', {
    customerId: customer.id,
    issueDate: new Date().toISOString().slice(0, 10),
    lines: [{ description: 'Consulting', quantity: '1', unitPrice: 50_000, taxRateIds: [] }],
  });
  await post(`/invoices/${draft.id}/send`, {});

  const nav = page.getByRole('navigation', { name: 'Main' });
  const payDialog = page.getByRole('dialog', { name: 'Record a payment for INV-0001' });
  const depositTo = payDialog.getByLabel('Deposited to');

  // The payment dialog's accounts and the journal as they stand, now in the cache.
  await page.goto('/accounting');
  await expect(page.getByRole('row', { name: /Invoice INV-0001 to Initech/ })).toBeVisible();
  await expect(page.getByRole('row', { name: /Payment for invoice INV-0001/ })).toHaveCount(0);
  await nav.getByRole('link', { name: 'Invoices' }).click();
  await page.getByRole('button', { name: /INV-0001\s*, open invoice/ }).click();
  await page.getByRole('button', { name: 'Record payment' }).click();
  await expect(depositTo.locator('option', { hasText: 'Business bank account' })).toHaveCount(1);
  await expect(depositTo.locator('option', { hasText: 'Operating account' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(payDialog).toBeHidden();

  // A wallet account, added in the app.
  await nav.getByRole('link', { name: 'Wallet' }).click();
  await page.getByRole('button', { name: 'Add account' }).first().click();
  const add = page.getByRole('dialog', { name: 'Add account' });
  await add.getByLabel('Account name').fill('Operating account');
  await add.getByLabel('Opening date').fill('2026-01-01');
  await add.getByRole('button', { name: 'Add account' }).click();
  await expect(add).toBeHidden();

  // Back on the invoice: the new account is offered, and the payment goes into it.
  await page.goBack();
  await expect(page.getByTestId('invoice-status')).toHaveText('Sent');
  await page.getByRole('button', { name: 'Record payment' }).click();
  const option = depositTo.locator('option', { hasText: 'Operating account' });
  await expect(option).toHaveCount(1);
  await depositTo.selectOption((await option.getAttribute('value'))!);
  await payDialog.getByRole('button', { name: 'Record payment' }).click();
  await expect(payDialog).toBeHidden();
  await expect(page.getByTestId('invoice-status')).toHaveText('Paid');

  // The journal shows it, reached through the app's own link.
  await nav.getByRole('link', { name: 'Accounting' }).click();
  await expect(page.getByRole('row', { name: /Payment for invoice INV-0001/ })).toHaveCount(1);
});
