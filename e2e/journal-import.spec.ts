import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { createFirstCompanyInUi, signUpInUi, uniqueEmail, verifyEmail } from './auth-helpers.ts';

// Issue 12 §5: an hledger journal imported from the Chart of accounts tab shows what was
// posted, which account each journal account went to and the lines it ignored; the same file
// again is refused, and a bad file names its line.

const PASSWORD = 'Correct-Horse-9';

const JOURNAL = [
  '; Harbor Books, January',
  'decimal-mark ,',
  '~ monthly',
  '    Expenses:Rent   500,00 USD',
  '    Assets:Checking',
  '',
  '2026-01-05 * Rent',
  '    Expenses:Rent        1.250,00 USD',
  '    Assets:Checking',
  '',
].join('\n');

const upload = async (page: Page, name: string, text: string) => {
  const dialog = page.getByRole('dialog', { name: 'Import hledger or ledger journal' });
  await dialog
    .getByLabel('Journal file')
    .setInputFiles({ name, mimeType: 'text/plain', buffer: Buffer.from(text) });
  await dialog.getByRole('button', { name: 'Import journal' }).click();
  return dialog;
};

test('import an hledger journal: result with notices, a second import refused, a bad line named', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const email = uniqueEmail('journal');
  await signUpInUi(page, email, ['Jo', 'Urnal'], PASSWORD);
  await verifyEmail(page.request, email);
  await createFirstCompanyInUi(page, 'Harbor Books', 'USD');

  await page.getByRole('link', { name: 'Accounting' }).first().click();
  await page.getByRole('tab', { name: 'Chart of Accounts' }).click();
  await page.getByRole('button', { name: 'Import journal' }).click();
  let dialog = await upload(page, 'january.journal', JOURNAL);
  const result = dialog.getByTestId('journal-import-result');
  await expect(result.getByRole('status')).toHaveText('Posted 1 entry; 1 new account.');
  await expect(result).toContainText('Line 3');
  await expect(result).toContainText('periodic transaction "monthly" ignored');
  await expect(result).toContainText('Expenses:Rent');
  await expect(result).toContainText('Rent');
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  expect(violations.map((v) => v.id)).toEqual([]);
  await dialog.getByRole('button', { name: 'Done' }).click();

  // The same file again changes nothing and says why.
  await page.getByRole('button', { name: 'Import journal' }).click();
  dialog = await upload(page, 'january.journal', JOURNAL);
  await expect(dialog.getByRole('alert')).toContainText('already imported');

  // A failed balance assertion names its line.
  dialog = await upload(
    page,
    'bad.journal',
    '2026-02-01 x\n    Expenses:Rent   5 USD = 1 USD\n    Assets:Checking\n',
  );
  await expect(dialog.getByRole('alert')).toContainText('Line 2: balance assertion failed');
});
