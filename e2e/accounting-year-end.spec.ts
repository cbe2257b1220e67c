import { expect, test } from '@playwright/test';
import { signUpWithCompany } from './auth-helpers.ts';

// Year end on /accounting: opening balances posted through the form, a PNG receipt attached to
// that entry and listed, and a fiscal year closed and reopened through the confirmation dialog.

const PASSWORD = 'Correct-Horse-9';
// A 1×1 PNG, so the server's content check sees a real image.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

test('opening balances, a receipt and a year-end close and reopen', async ({ page }) => {
  test.setTimeout(120_000);
  await signUpWithCompany(page, {
    tag: 'ye',
    name: 'Yara Year',
    company: 'Ledgerline Ltd',
    password: PASSWORD,
  });

  await page.goto('/accounting?tab=reports');
  await page.getByRole('button', { name: /Year end/ }).click();
  await expect(page.getByRole('row', { name: /FY 2026/ }).getByText('Current')).toBeVisible();

  // Opening balances: bank 1,000.00 debit, payables 300.00 credit; 700.00 goes to equity.
  await page.getByRole('button', { name: 'Enter opening balances' }).click();
  const form = page.getByRole('dialog', { name: 'Opening balances' });
  await form.getByLabel('Opening balance date').fill('2025-12-31');
  await form.getByRole('combobox', { name: 'Account, line 1' }).fill('1010');
  await form.getByRole('option', { name: /Business bank account/ }).click();
  await form.getByLabel('Debit, line 1').fill('1,000.00');
  await form.getByRole('combobox', { name: 'Account, line 2' }).fill('2000');
  await form.getByRole('option', { name: /Accounts payable/ }).click();
  await form.getByLabel('Credit, line 2').fill('300');
  await expect(form.getByTestId('ob-difference')).toHaveText('$700.00 (credit)');
  await form.getByRole('button', { name: 'Post opening balances' }).click();

  // The posted entry opens; attach a receipt to it.
  const entry = page.getByRole('dialog', { name: /Journal entry #1/ });
  await expect(entry).toBeVisible();
  await expect(entry.getByText('Opening balance equity')).toBeVisible();
  await expect(entry.getByText('No receipts attached to this entry yet.')).toBeVisible();
  await entry
    .getByLabel('Attach receipt')
    .setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: PNG });
  await expect(entry.getByRole('link', { name: /receipt\.png/ })).toBeVisible();
  await page.screenshot({ path: '/tmp/pw-ye-entry.png', fullPage: true });
  await entry.getByRole('button', { name: 'Close' }).last().click();

  // FY 2025 is over: close it, then reopen it.
  await page.getByRole('button', { name: 'Close FY 2025' }).click();
  const confirmClose = page.getByRole('dialog', { name: 'Close FY 2025?' });
  await expect(confirmClose.getByText(/into Retained earnings/)).toBeVisible();
  await confirmClose.getByRole('button', { name: 'Close the year' }).click();
  await expect(page.getByText('FY 2025 is closed.')).toBeVisible();
  const row = page.getByRole('row', { name: /FY 2025/ });
  await expect(row.getByText('Closed', { exact: true })).toBeVisible();
  await page.screenshot({ path: '/tmp/pw-ye-years.png', fullPage: true });

  await page.getByRole('button', { name: 'Reopen FY 2025' }).click();
  await page
    .getByRole('dialog', { name: 'Reopen FY 2025?' })
    .getByRole('button', { name: 'Reopen the year' })
    .click();
  await expect(page.getByText('FY 2025 is open again.')).toBeVisible();
  await expect(row.getByText('Open', { exact: true })).toBeVisible();
});
