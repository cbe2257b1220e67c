import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { shot, signUpWithCompany, startStatementImport } from './auth-helpers.ts';

// Issue 7, done when: add a bank account with an opening balance, import a CSV statement,
// see a rule categorise part of it, categorise the rest in bulk, reconcile to the statement
// balance, transfer to another account, and see the balances on /wallet and the entries in
// Accounting.

const PASSWORD = 'Correct-Horse-9';
const FIXTURE = path.resolve(
  import.meta.dirname,
  '../src/server/modules/statement-import/fixtures/checking-us.csv',
);

const setDark = async (page: Page, dark: boolean) => {
  const isDark = await page.evaluate(() => document.documentElement.classList.contains('dark'));
  if (isDark !== dark)
    await page.getByRole('button', { name: dark ? 'Switch to dark mode' : 'Switch to light mode' }).click();
};

test('bank account, CSV import with rules, bulk categorise, reconcile, transfer, wallet and accounting', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { id: orgId } = await signUpWithCompany(page, {
    tag: 'wallet',
    name: 'Rita Books',
    company: 'Harbor Coffee Co',
    password: PASSWORD,
  });

  // Wallet: the chart's bank, cash and card accounts are money accounts from the start
  // (decision 0022); add the bank account with its opening balance.
  await page.goto('/wallet');
  await expect(page.getByRole('heading', { name: 'Wallet' })).toBeVisible();
  await expect(page.getByTestId('account-card').filter({ hasText: 'Business bank account' })).toBeVisible();
  await page.getByRole('button', { name: 'Add account' }).first().click();
  const add = page.getByRole('dialog', { name: 'Add account' });
  await add.getByLabel('Account name').fill('Business checking');
  await add.getByLabel('Bank or provider').fill('First Harbor Bank');
  await add.getByLabel('Account number').fill('0012 3456 7890');
  await add.getByLabel('Opening balance (USD)').fill('5,000.00');
  await add.getByLabel('Opening date').fill('2026-10-31');
  await add.getByRole('button', { name: 'Add account' }).click();
  await expect(add).toBeHidden();
  await expect(page.getByTestId('wallet-total')).toHaveText('$5,000.00');
  await expect(page.getByText('•••• 7890')).toBeVisible();

  // A rule first, so the import categorises part of the statement.
  await page.getByRole('link', { name: 'Transactions' }).first().click();
  await expect(page.getByRole('heading', { name: 'Transactions' })).toBeVisible();
  await expect(page.getByText('No transactions yet')).toBeVisible();
  await page.getByRole('button', { name: 'Rules' }).click();
  const rules = page.getByRole('dialog', { name: 'Categorisation rules' });
  await rules.getByLabel('Name').fill('AWS hosting');
  await rules.getByLabel('Description contains').fill('amazon web services');
  await rules.getByLabel('Set category').selectOption({ label: '6400 · Software and subscriptions' });
  await rules.getByLabel('Set payee').fill('AWS');
  await rules.getByRole('button', { name: 'Add rule' }).click();
  await expect(rules.getByText('AWS hosting')).toBeVisible();
  await rules.getByRole('button', { name: 'Close' }).click();

  // Import the CSV: mapping step (suggested from the header), preview, import.
  const wizard = await startStatementImport(page, FIXTURE);
  await expect(wizard.getByLabel('Date', { exact: true })).toHaveValue('0');
  await wizard.getByLabel('Date format').selectOption('MM/DD/YYYY');
  await shot(page, 'transactions-import-mapping');
  await wizard.getByRole('button', { name: 'Preview' }).click();
  await expect(wizard.getByTestId('preview-new')).toHaveText('10');
  await expect(wizard.getByText('Rule: Software and subscriptions')).toHaveCount(2);
  await shot(page, 'transactions-import-preview');
  await wizard.getByRole('button', { name: 'Import 10 transactions' }).click();
  await expect(wizard.getByText(/Imported 10 transactions/)).toBeVisible();
  await wizard.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId('tx-row')).toHaveCount(10);
  await expect(
    page
      .getByRole('row', { name: /AMAZON WEB SERVICES/ })
      .first()
      .getByText('Categorised', { exact: true }),
  ).toBeVisible();

  // Importing the same file again finds only duplicates (the mapping is remembered).
  await startStatementImport(page, FIXTURE);
  await expect(
    wizard.getByText('This is the mapping you confirmed last time for this account.'),
  ).toBeVisible();
  await wizard.getByRole('button', { name: 'Preview' }).click();
  await expect(wizard.getByTestId('preview-duplicates')).toHaveText('10');
  await expect(wizard.getByRole('button', { name: 'Nothing new to import' })).toBeDisabled();
  await wizard.getByRole('button', { name: 'Close' }).click();

  // Chips and filters: Income shows the two deposits with their totals.
  await page.getByRole('button', { name: 'Income', exact: true }).click();
  await expect(page.getByTestId('tx-row')).toHaveCount(2);
  await expect(page.getByTestId('totals-USD')).toContainText('$6,620.00');
  await page.getByRole('button', { name: 'All', exact: true }).click();

  // Categorise the rest in bulk: filter to uncategorised, select all, choose a category.
  await page.getByRole('button', { name: 'Filters' }).click();
  await page.getByLabel('Category', { exact: true }).selectOption({ label: 'Uncategorised' });
  await expect(page.getByTestId('tx-row')).toHaveCount(8);
  await shot(page, 'transactions-list-light');
  await page.getByLabel('Select all shown transactions').check();
  await page
    .getByLabel('Category for the selected transactions')
    .selectOption({ label: '6500 · Office supplies' });
  await page.getByRole('button', { name: 'Categorise selected' }).click();
  await expect(page.getByText('8 transactions categorised.')).toBeVisible();
  await expect(page.getByText('No transactions match these filters')).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).first().click();
  await expect(page.getByTestId('tx-row')).toHaveCount(10);

  // Details: a note and a receipt on one transaction (notes post nothing).
  await page.getByRole('button', { name: 'Details of WEWORK MEMBERSHIP NOV' }).click();
  const details = page.getByRole('dialog', { name: 'Transaction' });
  await details.getByLabel('Notes').fill('Hot desk for November');
  await details.getByLabel(/Attach a receipt/).setInputFiles({
    name: 'wework-receipt.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('%PDF-1.4 WeWork receipt'),
  });
  await expect(details.getByRole('link', { name: 'wework-receipt.pdf' })).toBeVisible();
  await details.getByRole('button', { name: 'Save changes' }).click();
  await expect(details).toBeHidden();

  // Split the Stripe payout into sales and fees.
  await page.getByRole('button', { name: /^Split STRIPE TRANSFER/ }).click();
  const split = page.getByRole('dialog', { name: 'Split transaction' });
  await split.getByLabel('Category of part 1').selectOption({ label: '4000 · Sales' });
  await split.getByLabel('Amount of part 1').fill('4250.00');
  await split.getByLabel('Category of part 2').selectOption({ label: '6150 · Payment processing fees' });
  await split.getByLabel('Amount of part 2').fill('-130.00');
  await expect(split.getByText('The parts add up.')).toBeVisible();
  await split.getByRole('button', { name: 'Save split' }).click();
  await expect(page.getByText('Split: Sales, Payment processing fees')).toBeVisible();

  // Reconcile to the statement balance: 5,000.00 + 6,620.00 - 1,268.85 = 10,351.15.
  await page.getByRole('button', { name: 'Reconcile' }).click();
  const start = page.getByRole('dialog', { name: 'Reconcile an account' });
  await start.getByLabel('Account', { exact: true }).selectOption({ label: 'Business checking (USD)' });
  await start.getByLabel('Statement end date').fill('2026-11-20');
  await start.getByLabel(/Statement closing balance/).fill('10351.15');
  await start.getByRole('button', { name: 'Start reconciling' }).click();
  await expect(page.getByRole('heading', { name: 'Reconcile Business checking' })).toBeVisible();
  await expect(page.getByTestId('reconcile-difference')).toHaveText('$5,351.15');
  await page.getByLabel('Tick STARBUCKS STORE 11873').first().click();
  await expect(page.getByTestId('reconcile-difference')).toHaveText('$5,357.60');
  await page.getByLabel('Tick all').click();
  await expect(page.getByTestId('reconcile-difference')).toHaveText('$0.00');
  await shot(page, 'transactions-reconcile');
  await page.getByRole('button', { name: 'Finish reconciliation' }).click();
  await expect(page.getByText('Reconciled. The ticked transactions are now locked.')).toBeVisible();
  await page.getByRole('button', { name: 'Back to transactions' }).click();
  await expect(page.getByText('Reconciled', { exact: true })).toHaveCount(10);

  // Transfer to a new savings account; see both balances and the total on /wallet.
  await page.getByRole('link', { name: 'Wallet' }).first().click();
  await page.getByRole('button', { name: 'Add account' }).first().click();
  await add.getByLabel('Account name').fill('Savings');
  await add.getByLabel('Opening date').fill('2026-10-31');
  await add.getByRole('button', { name: 'Add account' }).click();
  await expect(add).toBeHidden();
  await page.getByRole('button', { name: 'Transfer' }).first().click();
  const transfer = page.getByRole('dialog', { name: 'Transfer money' });
  // MoneyAccountSelect: options are "name · balance", From starts on the deposit account.
  const pick = async (label: string, name: string) => {
    const select = transfer.getByLabel(label, { exact: true });
    const value = await select.locator('option', { hasText: name }).getAttribute('value');
    await select.selectOption(value!);
  };
  await pick('From', 'Business checking');
  await pick('To', 'Savings');
  await transfer.getByLabel(/^Amount/).fill('1,000.00');
  await transfer.getByLabel('Date').fill('2026-11-21');
  await transfer.getByRole('button', { name: 'Transfer' }).click();
  await expect(transfer).toBeHidden();
  const cards = page.getByTestId('account-card');
  await expect(cards.filter({ hasText: 'Business checking' }).getByTestId('account-balance')).toHaveText(
    '$9,351.15',
  );
  await expect(cards.filter({ hasText: 'Savings' }).getByTestId('account-balance')).toHaveText('$1,000.00');
  await expect(page.getByTestId('wallet-total')).toHaveText('$10,351.15');
  await shot(page, 'wallet-light');
  await setDark(page, true);
  await shot(page, 'wallet-dark');
  await page.getByRole('link', { name: 'Transactions' }).first().click();
  await expect(page.getByTestId('tx-row').first()).toBeVisible();
  await shot(page, 'transactions-list-dark');
  await setDark(page, false);

  // The entries in Accounting: the opening balance, the bank lines and the transfer.
  await page.getByRole('link', { name: 'Accounting' }).first().click();
  await expect(page.getByRole('heading', { name: 'Accounting' })).toBeVisible();
  await page.getByRole('tab', { name: 'Journal Entries' }).click();
  await expect(page.getByText('Transfer from Business checking to Savings')).toBeVisible();
  await expect(page.getByText('MONTHLY SERVICE FEE').first()).toBeVisible();
  await shot(page, 'transactions-accounting-journal');
  await page.getByPlaceholder('Search memo or reference').fill('Opening balance');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByText('Opening balance of Business checking')).toBeVisible();
  // And through the API: every money account equals its ledger account in the trial balance.
  const tb = await page.request.get(`/api/orgs/${orgId}/reports/trial-balance?to=2026-12-31`);
  expect(tb.ok()).toBe(true);
  const trial = await tb.json();
  const row = (name: string) => trial.rows.find((r: { name: string }) => r.name === name);
  expect(row('Business checking').closingBalance).toBe(935_115);
  expect(row('Savings').closingBalance).toBe(100_000);
  expect(trial.totals.debit).toBe(trial.totals.credit);
});
