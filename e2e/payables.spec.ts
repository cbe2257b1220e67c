import { type Page, expect, test } from '@playwright/test';
import { signUpWithCompany } from './auth-helpers.ts';

// Issue 15, suppliers and paying them as a bookkeeper does: create a supplier in the
// Suppliers tab, import more from a CSV file (a bad file first: it is refused naming the line;
// then a dry run that says what would happen, then the import), enter three bills through the
// API, pay the two due this week in one batch from the payment run, and watch the AP aging
// and the dashboard's Payables figure follow, the ledger agreeing. Screenshots in light and
// dark mode go to e2e-artifacts (not committed).

const PASSWORD = 'Correct-Horse-9';

const shot = async (page: Page, name: string) => {
  await page.waitForLoadState('networkidle', { timeout: 3000 }).catch(() => undefined);
  await page.screenshot({ path: `e2e-artifacts/${name}.png`, fullPage: true });
};

/** Dark or light for a screenshot: the class the theme sets (the theme button is behind an open dialog). */
const setDark = async (page: Page, dark: boolean) => {
  await page.evaluate((on) => document.documentElement.classList.toggle('dark', on), dark);
  await page.waitForTimeout(300); // the colours' transitions
};

const both = async (page: Page, name: string) => {
  await setDark(page, false);
  await shot(page, `${name}-light`);
  await setDark(page, true);
  await shot(page, `${name}-dark`);
  await setDark(page, false);
};

const isoDay = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

const csvFile = (name: string, text: string) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });

test('suppliers in the UI and from CSV, a batch payment from the payment run, the aging after', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const company = await signUpWithCompany(page, {
    tag: 'payables',
    name: 'Paula Payables',
    company: 'Harbour Bakery Ltd',
    password: PASSWORD,
  });
  const { r, o, ok, post } = company;
  await post('/wallet/accounts', {
    name: 'Operating account',
    kind: 'bank',
    currency: 'USD',
    openingDate: '2026-01-01',
  });
  const accounts = (await ok(await r.get(`${o}/accounts`))) as {
    accounts: { id: string; code: string; name: string; type: string; systemKey: string | null }[];
  };
  const expense = accounts.accounts.find((a) => a.type === 'expense' && !a.systemKey)!;
  expect(expense, 'an expense account in the standard chart').toBeTruthy();

  // An empty suppliers tab.
  await page.goto('/bills?tab=suppliers');
  await expect(page.getByRole('heading', { name: 'Suppliers', level: 2 })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('No suppliers yet')).toBeVisible({ timeout: 30_000 });

  // A supplier through the form: the name is required, then every field.
  await page.getByRole('button', { name: 'New supplier' }).click();
  const form = page.getByRole('dialog', { name: 'New supplier' });
  await form.getByRole('button', { name: 'Create supplier' }).click();
  await expect(form.getByText('Enter the supplier name.')).toBeVisible();
  await form.getByLabel('Name', { exact: true }).fill('Millstone Flour');
  await form.getByLabel('Email').fill('accounts@millstone.example');
  await form.getByLabel('Payment terms (days)').fill('14');
  await form.getByLabel('Default expense account').selectOption(expense.id);
  await form.getByLabel('Account name').fill('Millstone Flour Ltd');
  await form.getByLabel('Account number or IBAN').fill('GB29NWBK60161331926819');
  await form.getByLabel('Sort code, routing or BIC').fill('NWBKGB2L');
  await both(page, 'payables-supplier-form');
  await form.getByRole('button', { name: 'Create supplier' }).click();
  await expect(form).toBeHidden();
  await expect(page.getByRole('button', { name: 'Millstone Flour' })).toBeVisible();

  // Import: a file with a bad email is refused naming its line, and nothing is saved.
  await page.getByRole('button', { name: 'Import CSV' }).click();
  const importer = page.getByRole('dialog', { name: 'Import suppliers' });
  await importer
    .getByLabel('CSV file')
    .setInputFiles(csvFile('bad.csv', 'name,email\nGood Eggs Co,eggs@example.com\nBad Row,not-an-email\n'));
  await importer.getByRole('button', { name: 'Check file' }).click();
  await expect(importer.getByText(/Line 3: email/)).toBeVisible();
  await shot(page, 'payables-import-refused');

  // The right file: a dry run says two are new and the one already there is skipped.
  await importer
    .getByLabel('CSV file')
    .setInputFiles(
      csvFile(
        'suppliers.csv',
        [
          'name,email,payment_terms_days,bank_account_number,bank_code',
          'Good Eggs Co,eggs@example.com,7,11112222,021000021',
          '"Dairy Lane, Inc.",billing@dairylane.example,30,33334444,026009593',
          'millstone flour,other@example.com,10,,',
        ].join('\n'),
      ),
    );
  await importer.getByRole('button', { name: 'Check file' }).click();
  const preview = importer.getByTestId('supplier-import-preview');
  await expect(preview).toContainText('2 suppliers would be created');
  await expect(preview).toContainText('1 skipped');
  await expect(preview).toContainText('Line 4: millstone flour');
  await both(page, 'payables-import-preview');
  await importer.getByRole('button', { name: 'Import 2 suppliers' }).click();
  await expect(importer).toBeHidden();
  await expect(page.getByText('Imported 2 suppliers; 1 skipped (already there).')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Good Eggs Co' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Dairy Lane, Inc.' })).toBeVisible();

  // Three bills through the API: two due this week (one already overdue), one next month.
  const suppliers = (await ok(await r.get(`${o}/suppliers`))) as {
    suppliers: { id: string; name: string }[];
  };
  const idOf = (name: string) => suppliers.suppliers.find((s) => s.name === name)!.id;
  const bill = async (supplier: string, reference: string, amount: number, issue: number, due: number) => {
    const created = await post(
      '/bills',
      {
        supplierId: idOf(supplier),
        reference,
        issueDate: isoDay(issue),
        dueDate: isoDay(due),
        lines: [{ description: 'Supplies', quantity: '1', unitPrice: amount, accountId: expense.id }],
      },
      201,
    );
    return (await post(`/bills/${created.id}/submit`, {})) as { id: string; number: string; status: string };
  };
  const flour = await bill('Millstone Flour', 'MF-1001', 120_000, -20, -3);
  const eggs = await bill('Good Eggs Co', 'GE-77', 45_050, -2, 4);
  const dairy = await bill('Dairy Lane, Inc.', 'DL-9', 30_000, 0, 30);
  expect([flour, eggs, dairy].map((b) => b.status)).toEqual(['overdue', 'open', 'open']);

  // The aging before: everything owed, the ledger agreeing.
  await page.goto('/bills?tab=reports');
  await expect(page.getByRole('heading', { name: 'Payables aging' })).toBeVisible();
  await expect(page.getByTestId('aging-total')).toHaveText('$1,950.50');
  await expect(page.getByTestId('aging-ledger')).toContainText('$1,950.50 — agrees with the aging.');
  await expect(page.getByRole('link', { name: /CSV/ })).toHaveAttribute(
    'href',
    /payables\/aging\?asOf=.*format=csv/,
  );
  await both(page, 'payables-aging-before');

  // The payment run: this week's two bills, the overdue one marked; next month's is not there.
  await page.getByRole('tab', { name: 'Payment run' }).click();
  const flourGroup = page.getByRole('region', { name: 'Millstone Flour' });
  await expect(flourGroup).toContainText('Pay to GB29NWBK60161331926819 · NWBKGB2L');
  await expect(flourGroup.getByText('Overdue')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Good Eggs Co' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Dairy Lane, Inc.' })).toHaveCount(0);

  // Nothing ticked: the button says so; then tick both, try too much on one, correct it.
  await page.getByRole('checkbox', { name: `Pay ${flour.number} of Millstone Flour` }).check();
  await page.getByRole('checkbox', { name: `Pay all bills of Good Eggs Co` }).check();
  const eggsAmount = page.getByLabel(`Amount to pay on ${eggs.number} (USD)`);
  await expect(eggsAmount).toHaveValue('450.50');
  await eggsAmount.fill('500');
  await page.getByLabel('Reference').fill('RUN-1');
  await page.getByRole('button', { name: 'Pay 2 bills' }).click();
  await expect(page.getByText('At most $450.50 is due.')).toBeVisible();
  await expect(page.getByText(`Check the amount on ${eggs.number}.`)).toBeVisible();
  await eggsAmount.fill('450.50');
  await expect(page.getByText('total $1,650.50')).toBeVisible();
  await both(page, 'payables-payment-run');
  await page.getByRole('button', { name: 'Pay 2 bills' }).click();
  const result = page.getByTestId('payment-run-result');
  await expect(result).toContainText('Paid 2 bills: $1,650.50 from Operating account');
  await expect(result).toContainText('(RUN-1)');
  await expect(page.getByText(/Nothing due by/)).toBeVisible();
  await both(page, 'payables-payment-run-paid');

  // One batch: both bills paid, one journal entry.
  for (const b of [flour, eggs]) {
    const after = (await ok(await r.get(`${o}/bills/${b.id}`))) as {
      status: string;
      payments: { batchId: string | null; journalEntryId: string }[];
    };
    expect(after.status).toBe('paid');
    expect(after.payments).toHaveLength(1);
    expect(after.payments[0]!.batchId).toBeTruthy();
  }
  const [a, b] = await Promise.all(
    [flour, eggs].map(async (x) => ((await ok(await r.get(`${o}/bills/${x.id}`))) as any).payments[0]),
  );
  expect(a.batchId).toBe(b.batchId);
  expect(a.journalEntryId).toBe(b.journalEntryId);

  // The aging after: only Dairy Lane's bill, current; the ledger still agrees.
  await page.getByRole('tab', { name: 'Reports' }).click();
  await expect(page.getByTestId('aging-total')).toHaveText('$300.00');
  await expect(page.getByTestId('aging-row')).toHaveCount(1);
  await expect(page.getByTestId('aging-row')).toContainText('Dairy Lane, Inc.');
  await expect(page.getByTestId('aging-ledger')).toContainText('$300.00 — agrees with the aging.');
  await both(page, 'payables-aging-after');

  // The supplier's page: nothing owed, the statement with the bill and the payment.
  await page.getByRole('tab', { name: 'Suppliers' }).click();
  await page.getByRole('button', { name: 'Millstone Flour' }).click();
  await expect(page.getByRole('heading', { name: 'Millstone Flour', level: 2 })).toBeVisible();
  await expect(page.getByTestId('supplier-balance')).toHaveText('$0.00');
  await expect(page.getByTestId('supplier-statement-line')).toHaveCount(2);
  await expect(page.getByTestId('supplier-statement-closing')).toHaveText('$0.00');
  await both(page, 'payables-supplier-detail');

  // "New bill" opens the bill editor for this supplier.
  await page.getByRole('tabpanel').getByRole('button', { name: 'New bill' }).click();
  await expect(page).toHaveURL(new RegExp(`new=1&supplier=${idOf('Millstone Flour')}`));
  await expect(page.getByLabel('Supplier', { exact: true })).toHaveValue(idOf('Millstone Flour'));

  // The dashboard's Payables figure is the ledger's and opens the aging.
  await page.goto('/dashboard');
  const kpi = page.getByRole('region', { name: 'Payables', exact: true });
  await expect(kpi).toContainText('$300.00');
  await kpi.getByRole('link', { name: /Open the payables aging/ }).click();
  await expect(page).toHaveURL(/\/bills\?tab=reports/);
  await expect(page.getByRole('heading', { name: 'Payables aging' })).toBeVisible();
});
