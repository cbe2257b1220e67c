import { expect, test } from '@playwright/test';
import { sendInvoices, shot, signUpWithCompany } from './auth-helpers.ts';

// Issue 13, customer credit as a new user would: a bank line pays more than the invoice it is
// matched to and the rest is kept as the customer's credit; part of that credit settles a
// second invoice, the rest is refunded from the bank; the customer's statement runs to zero and
// the second invoice shows "Paid" and "Credit applied", both positive.

const PASSWORD = 'Correct-Horse-9';

test('overpay by a bank line, keep the credit, apply it, refund the rest, read the statement', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const company = await signUpWithCompany(page, {
    tag: 'creditor',
    name: 'Cora Credit',
    company: 'Lighthouse Studio Ltd',
    password: PASSWORD,
  });
  const { post } = company;
  const customer = await post('/customers', { name: 'Northwind Traders' });
  const [first, second] = (await sendInvoices(company, customer.id, [
    [100_000, '01'],
    [50_000, '02'],
  ])) as [{ id: string; number: string }, { id: string; number: string }];
  const money = await post('/wallet/accounts', {
    name: 'Operating account',
    kind: 'bank',
    currency: 'USD',
    openingDate: '2026-01-01',
  });
  // $1,300 comes in for the $1,000 invoice.
  await post('/transactions', {
    moneyAccountId: money.id,
    date: '2026-11-20',
    description: `NORTHWIND ${first.number}`,
    amount: 130_000,
  });
  // $300 of the second invoice was paid by hand.
  await post(`/invoices/${second.id}/payments`, {
    date: '2026-11-21',
    amount: 30_000,
    depositAccountId: money.ledgerAccountId ?? undefined,
  });

  // Match the line to the first invoice, keeping the $300 over as credit.
  await page.goto('/transactions');
  await page.getByRole('button', { name: `Match NORTHWIND ${first.number} to an invoice` }).click();
  const dialog = page.getByRole('dialog', { name: /Match: NORTHWIND/ });
  await dialog
    .getByRole('checkbox', { name: `Invoice ${first.number}, Northwind Traders, $1,000.00 due` })
    .check();
  const confirm = dialog.getByRole('button', { name: 'Confirm match' });
  await expect(confirm).toBeDisabled();
  await dialog
    .getByRole('checkbox', { name: "Keep the remaining $300.00 as Northwind Traders's credit" })
    .check();
  await shot(page, 'credit-match-keep');
  await confirm.click();
  await expect(dialog).toBeHidden();
  await expect(
    page.getByText(`Matched to invoice ${first.number}; $300.00 kept as the customer's credit.`),
  ).toBeVisible();

  // Apply $200 of it to the second invoice, from the invoice.
  await page.goto(`/invoices?invoice=${second.id}`);
  await expect(page.getByTestId('invoice-customer-credit')).toContainText('$300.00');
  await page.getByRole('button', { name: 'Apply credit' }).click();
  const apply = page.getByRole('dialog', { name: "Apply Northwind Traders's credit" });
  await expect(apply.getByLabel('Amount (USD)')).toHaveValue('200.00');
  await apply.getByRole('button', { name: 'Apply credit' }).click();
  await expect(apply).toBeHidden();
  await expect(page.getByTestId('invoice-status')).toContainText('Paid');
  await expect(page.getByTestId('invoice-total-paid')).toContainText('$300.00');
  await expect(page.getByTestId('invoice-total-credit_applied')).toContainText('$200.00');
  await expect(page.getByTestId('invoice-total-credit_applied')).not.toContainText('-');
  await expect(page.getByTestId('amount-due')).toContainText('$0.00');
  await shot(page, 'credit-applied-invoice');

  // Refund the remaining $100 from the customer's page.
  await page.goto('/invoices');
  await page.getByRole('tab', { name: 'Customers' }).click();
  await page.getByRole('button', { name: 'Northwind Traders' }).click();
  await expect(page.getByTestId('customer-credit')).toContainText('$100.00');
  await page.getByRole('button', { name: 'Refund' }).click();
  const refund = page.getByRole('dialog', { name: "Refund Northwind Traders's credit" });
  await expect(refund.getByLabel('Amount (USD)')).toHaveValue('100.00');
  await refund.getByLabel('Paid from').selectOption(money.id);
  await refund.getByRole('button', { name: 'Record refund' }).click();
  await expect(refund).toBeHidden();
  await expect(page.getByText('Northwind Traders has no credit.')).toBeVisible();

  // The statement: charges, the line's whole $1,300, the payment, credit applied, the refund.
  const lines = page.getByTestId('statement-line');
  await expect(lines).toHaveCount(6);
  const balances = await lines.evaluateAll((rows) =>
    rows.map((row) => row.lastElementChild?.textContent?.trim()),
  );
  expect(balances).toEqual([
    '$1,000.00',
    '$1,500.00',
    '$200.00',
    '$100.00 credit',
    '$100.00 credit',
    '$0.00',
  ]);
  await expect(lines.nth(2)).toContainText('$1,300.00');
  await expect(lines.nth(2)).toContainText('$300.00 kept as credit');
  await expect(page.getByTestId('statement-closing')).toContainText('$0.00');
  await shot(page, 'credit-statement');
});
