import { expect, test } from '@playwright/test';
import { sendInvoices, shot, signUpWithCompany } from './auth-helpers.ts';

// Issue 13 §4, as a new user would: three sent invoices and three bank lines; match one line to
// its invoice with the keyboard, one line to two invoices, see "Matched · INV-…", unmatch; the
// invoices are paid and owed again, and the bank's ledger balance never moves.

const PASSWORD = 'Correct-Horse-9';

test('match bank lines to invoices, see them matched, unmatch', async ({ page }) => {
  test.setTimeout(120_000);
  const company = await signUpWithCompany(page, {
    tag: 'matcher',
    name: 'Mia Matcher',
    company: 'Harbour Design Ltd',
    password: PASSWORD,
  });
  const { r, o, post } = company;
  const customer = await post('/customers', { name: 'Northwind Traders', email: 'ap@northwind.example' });
  const invoices = await sendInvoices(company, customer.id, [
    [120_000, '01'],
    [45_000, '02'],
    [80_000, '03'],
  ]);
  const money = await post('/wallet/accounts', {
    name: 'Operating account',
    kind: 'bank',
    currency: 'USD',
    openingDate: '2026-01-01',
  });
  const lines = [
    { date: '2026-11-20', description: `NORTHWIND TRADERS ${invoices[0]!.number}`, amount: 120_000 },
    { date: '2026-11-21', description: 'SEPA CREDIT NORTHWIND', amount: 125_000 },
    { date: '2026-11-22', description: 'Coffee', amount: -450 },
  ];
  for (const line of lines) await post('/transactions', { moneyAccountId: money.id, ...line });
  const bankBalance = async () => {
    const account = await (await r.get(`${o}/wallet/accounts/${money.id}`)).json();
    return (account.balance ?? account.account?.balance) as number;
  };
  const balanceBefore = await bankBalance();
  const invoiceStatus = async (id: string) => (await (await r.get(`${o}/invoices/${id}`)).json()).amountPaid;

  await page.goto('/transactions');
  await expect(page.getByRole('heading', { name: 'Transactions', level: 1 })).toBeVisible();
  // Money out has nothing to match.
  await expect(page.getByRole('button', { name: 'Match Coffee to an invoice' })).toHaveCount(0);

  // Keyboard: Enter opens, Space ticks the first suggestion, Enter confirms.
  const matchFirst = page.getByRole('button', {
    name: `Match NORTHWIND TRADERS ${invoices[0]!.number} to an invoice`,
  });
  await matchFirst.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: /Match: NORTHWIND TRADERS/ });
  await expect(dialog).toBeVisible();
  const first = dialog.getByRole('checkbox').first();
  await expect(first).toHaveAccessibleName(
    `Invoice ${invoices[0]!.number}, Northwind Traders, $1,200.00 due`,
  );
  await expect(dialog.getByText('Exact amount')).toBeVisible();
  await expect(dialog.getByText('Invoice number in the description')).toBeVisible();
  await shot(page, 'matching-suggestions');
  await first.focus();
  await page.keyboard.press('Space');
  await expect(dialog.getByText("Settles $1,200.00 of the line's $1,200.00.")).toBeVisible();
  await dialog.getByRole('button', { name: 'Confirm match' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`Matched to invoice ${invoices[0]!.number}.`)).toBeVisible();
  await expect(
    page.getByRole('button', { name: `Matched to invoice ${invoices[0]!.number}: details and unmatch` }),
  ).toBeVisible();
  expect(await invoiceStatus(invoices[0]!.id)).toBe(120_000);

  // One line, two invoices: $450 + $800 = $1,250.
  await page.getByRole('button', { name: 'Match SEPA CREDIT NORTHWIND to an invoice' }).click();
  const two = page.getByRole('dialog', { name: /Match: SEPA CREDIT NORTHWIND/ });
  await expect(two.getByRole('checkbox')).toHaveCount(2);
  const confirm = two.getByRole('button', { name: 'Confirm match' });
  await two.getByRole('checkbox').first().check();
  await expect(confirm).toBeDisabled();
  await two.getByRole('checkbox').nth(1).check();
  await expect(two.getByText("Settles $1,250.00 of the line's $1,250.00.")).toBeVisible();
  await confirm.click();
  await expect(two).toBeHidden();
  await expect(page.getByTestId('matched-badge')).toHaveCount(2);
  await expect(page.getByTestId('matched-badge').first()).toContainText(
    `${invoices[1]!.number}, ${invoices[2]!.number}`,
  );
  await shot(page, 'matching-matched');
  expect(await bankBalance()).toBe(balanceBefore);

  // Unmatch the first line: its invoice is owed again, the line waits to be categorised.
  await page
    .getByRole('button', { name: `Matched to invoice ${invoices[0]!.number}: details and unmatch` })
    .click();
  const details = page.getByRole('dialog', { name: /Matched: NORTHWIND TRADERS/ });
  await expect(details.getByText(`Invoice ${invoices[0]!.number}`)).toBeVisible();
  await details.getByRole('button', { name: 'Unmatch' }).click();
  await expect(details).toBeHidden();
  await expect(matchFirst).toBeVisible();
  await expect(page.getByTestId('matched-badge')).toHaveCount(1);
  expect(await invoiceStatus(invoices[0]!.id)).toBe(0);
  expect(await bankBalance()).toBe(balanceBefore);
  await shot(page, 'matching-unmatched');
});
