import { type Page, expect, test } from '@playwright/test';
import { verifyEmail } from './auth-helpers.ts';

// Issue 6, done when: create a customer and an item, create an invoice with two lines and a
// tax, send it (the email with the PDF arrives in the mailbox), record a partial and then the
// final payment, watch the status go sent → partially paid → paid, see the journal entries
// in Accounting, and open the PDF and check its totals.

const PASSWORD = 'Correct-Horse-9';

const shot = async (page: Page, name: string) => {
  // The embedded PDF viewer keeps a connection open, so networkidle may never come.
  await page.waitForLoadState('networkidle', { timeout: 3000 }).catch(() => undefined);
  await page.screenshot({ path: `e2e-artifacts/${name}.png`, fullPage: true });
};

const setDark = async (page: Page, dark: boolean) => {
  const isDark = await page.evaluate(() => document.documentElement.classList.contains('dark'));
  if (isDark !== dark) {
    await page.getByRole('button', { name: dark ? 'Switch to dark mode' : 'Switch to light mode' }).click();
  }
};

/** Text drawn in an uncompressed pdfkit file: hex glyph runs inside TJ arrays. */
const pdfText = (pdf: Buffer) =>
  [...pdf.toString('latin1').matchAll(/\[([^\]]*)\]\s*TJ/g)]
    .map((m) =>
      [...m[1]!.matchAll(/<([0-9a-fA-F]+)>/g)]
        .map((h) => Buffer.from(h[1]!, 'hex').toString('latin1'))
        .join(''),
    )
    .join('\n');

test('invoice from draft to paid: customer, item, tax, send with PDF email, payments, ledger, PDF', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const origin = new URL(test.info().project.use.baseURL!).origin;
  const email = `invoicer-${Date.now()}@example.com`;
  const customerEmail = `ap-${Date.now()}@northwind.example`;
  const signUp = await page.request.post('/api/auth/sign-up/email', {
    data: { email, password: PASSWORD, name: 'Iris Invoicer' },
    headers: { origin },
  });
  expect(signUp.ok()).toBe(true);
  // Emailing invoices needs a confirmed address: open the link from the sign-up mail.
  await verifyEmail(page.request, email);
  const created = await page.request.post('/api/orgs', {
    data: { name: 'Harbour Design Ltd', baseCurrency: 'USD', fiscalYearStartMonth: 1 },
    headers: { origin },
  });
  expect(created.status()).toBe(201);

  await page.goto('/invoices');
  await expect(page.getByRole('heading', { name: 'Invoices', level: 1 })).toBeVisible();
  await expect(page.getByText('No invoices yet')).toBeVisible();
  await shot(page, 'invoices-empty');

  // A customer.
  await page.getByRole('tab', { name: 'Customers' }).click();
  await expect(page.getByText('No customers yet')).toBeVisible();
  await page.getByRole('button', { name: 'New customer' }).click();
  const customerDialog = page.getByRole('dialog', { name: 'New customer' });
  await customerDialog.getByRole('button', { name: 'Create customer' }).click();
  await expect(customerDialog.getByText('Enter the customer name.')).toBeVisible();
  await customerDialog.getByLabel('Name').fill('Northwind Traders');
  await customerDialog.getByLabel('Email').fill(customerEmail);
  await customerDialog.getByLabel('Payment terms (days)').fill('14');
  await customerDialog.getByRole('button', { name: 'Create customer' }).click();
  await expect(customerDialog).toBeHidden();
  await expect(page.getByRole('button', { name: 'Northwind Traders' })).toBeVisible();

  // A tax rate and an item.
  await page.getByRole('tab', { name: 'Items & taxes' }).click();
  await page.getByRole('button', { name: 'New tax rate' }).click();
  const taxDialog = page.getByRole('dialog', { name: 'New tax rate' });
  await taxDialog.getByLabel('Name').fill('VAT');
  await taxDialog.getByLabel('Rate (%)').fill('20');
  await taxDialog.getByRole('button', { name: 'Create tax rate' }).click();
  await expect(taxDialog).toBeHidden();
  await page.getByRole('button', { name: 'New item' }).click();
  const itemDialog = page.getByRole('dialog', { name: 'New item' });
  await itemDialog.getByLabel('Name').fill('Design hour');
  await itemDialog.getByLabel('Unit price (USD)').fill('125.00');
  await itemDialog.getByLabel('Default tax').selectOption({ label: 'VAT (20%)' });
  await itemDialog.getByRole('button', { name: 'Create item' }).click();
  await expect(itemDialog).toBeHidden();
  await expect(page.getByRole('cell', { name: 'Design hour', exact: true })).toBeVisible();
  await shot(page, 'invoices-items');

  // The invoice: two lines, one taxed; the totals update live.
  await page.getByRole('tab', { name: 'Invoices' }).click();
  await page.getByRole('button', { name: 'New Invoice' }).first().click();
  await expect(page.getByRole('heading', { name: 'New Invoice' })).toBeVisible();
  await page.getByLabel('Customer', { exact: true }).selectOption({ label: 'Northwind Traders' });
  await page.getByLabel('Line 1 item').selectOption({ label: 'Design hour' });
  await page.getByLabel('Line 1 quantity').fill('2');
  await expect(page.getByTestId('editor-total')).toHaveText('$300.00');
  await page.getByRole('button', { name: 'Add line' }).click();
  await page.getByLabel('Line 2 description').fill('Travel');
  await page.getByLabel('Line 2 unit price').fill('33.33');
  await page.getByLabel('Line 2 discount percent').fill('10');
  await expect(page.getByTestId('line-2-amount')).toHaveText('$30.00');
  await expect(page.getByTestId('editor-subtotal')).toHaveText('$280.00');
  await expect(page.getByTestId('editor-total')).toHaveText('$330.00');
  await shot(page, 'invoices-editor');
  await page.getByRole('button', { name: 'Save and send' }).click();

  // Sent, numbered and emailed with the PDF.
  await expect(page.getByRole('heading', { name: 'Invoice INV-0001' })).toBeVisible();
  await expect(page.getByTestId('invoice-status')).toHaveText('Sent');
  await expect(page.getByTestId('amount-due')).toHaveText('$330.00');
  const mailbox = await (
    await page.request.get(`/api/dev/mailbox?to=${encodeURIComponent(customerEmail)}`)
  ).json();
  expect(mailbox.messages).toHaveLength(1);
  expect(mailbox.messages[0].subject).toBe('Invoice INV-0001 from Harbour Design Ltd');
  const mail = await (await page.request.get(`/api/dev/mailbox/${mailbox.messages[0].id}`)).json();
  expect(mail.attachments).toEqual([
    expect.objectContaining({ filename: 'INV-0001.pdf', contentType: 'application/pdf' }),
  ]);
  await expect(page.getByText(/Emailed to/)).toBeVisible();
  await expect(page.frameLocator('iframe[title="PDF of INV-0001"]').locator('body')).toBeAttached();
  await shot(page, 'invoices-view-sent');

  // A partial payment, then the rest.
  await page.getByRole('button', { name: 'Record payment' }).click();
  const payDialog = page.getByRole('dialog', { name: 'Record a payment for INV-0001' });
  await payDialog.getByLabel('Amount (USD)').fill('400');
  await payDialog.getByRole('button', { name: 'Record payment' }).click();
  await expect(
    payDialog.getByText(
      "That is more than is due. Enter at most the amount due, or keep the extra as the customer's credit.",
    ),
  ).toBeVisible();
  await payDialog.getByLabel('Amount (USD)').fill('100.00');
  await payDialog.getByLabel('Reference').fill('TRF-1');
  await payDialog.getByRole('button', { name: 'Record payment' }).click();
  await expect(payDialog).toBeHidden();
  await expect(page.getByTestId('invoice-status')).toHaveText('Partially paid');
  await expect(page.getByTestId('amount-due')).toHaveText('$230.00');
  // Paid shows as what was paid, a positive amount (issue 13 §5), as on the PDF and the email.
  await expect(page.getByTestId('invoice-total-paid')).toHaveText('Paid$100.00');
  await page.getByRole('button', { name: 'Record payment' }).click();
  await expect(payDialog.getByLabel('Amount (USD)')).toHaveValue('230.00');
  await payDialog.getByRole('button', { name: 'Record payment' }).click();
  await expect(payDialog).toBeHidden();
  await expect(page.getByTestId('invoice-status')).toHaveText('Paid');
  await expect(page.getByTestId('amount-due')).toHaveText('$0.00');
  await expect(
    page.getByText('Payment of $230.00 recorded into Business bank account; paid in full'),
  ).toBeVisible();
  await shot(page, 'invoices-view-paid');

  // The PDF's totals.
  const invoiceUrl = new URL(page.url());
  const invoiceId = invoiceUrl.searchParams.get('invoice');
  const orgs = await (await page.request.get('/api/orgs')).json();
  const orgId = orgs.companies[0].id;
  const pdf = await page.request.get(`/api/orgs/${orgId}/invoices/${invoiceId}/pdf`);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  const text = pdfText(await pdf.body());
  for (const expected of [
    'INV-0001',
    'Harbour Design Ltd',
    'Northwind Traders',
    'Subtotal',
    '$280.00',
    'VAT (20%)',
    '$50.00',
    '$330.00',
    'Amount due',
    '$0.00',
    'PAID',
    'Paid\n$330.00',
  ]) {
    expect(text, `PDF shows ${expected}`).toContain(expected);
  }
  expect(text, 'no negative amount on the PDF').not.toMatch(/-\s*\$/);

  // The list: status chips and totals, in light and dark mode.
  await page.goto('/invoices');
  await page.getByRole('button', { name: /^Paid/ }).click();
  await expect(page.getByRole('button', { name: /INV-0001\s*, open invoice/ })).toBeVisible();
  await page.getByRole('button', { name: /^Overdue/ }).click();
  await expect(page.getByText('No invoices match')).toBeVisible();
  await page.getByRole('button', { name: /^All/ }).click();
  await shot(page, 'invoices-list-light');
  await setDark(page, true);
  await shot(page, 'invoices-list-dark');
  await page.getByRole('button', { name: /INV-0001\s*, open invoice/ }).click();
  await expect(page.getByTestId('invoice-status')).toHaveText('Paid');
  await shot(page, 'invoices-view-dark');
  await setDark(page, false);

  // Reports: nothing is owed any more; the tax report shows the VAT collected.
  await page.goto('/invoices?tab=reports');
  await expect(page.getByText('Nothing owed')).toBeVisible();
  await page.getByLabel('From').fill('2000-01-01');
  await expect(page.getByRole('row', { name: /VAT \(20%\).*\$250\.00.*\$50\.00/ })).toBeVisible();
  await shot(page, 'invoices-reports');
  await page.getByRole('tab', { name: 'Recurring' }).click();
  await expect(page.getByText('No recurring invoices')).toBeVisible();
  await page.getByRole('button', { name: 'New schedule' }).click();
  const schedule = page.getByRole('dialog', { name: 'New recurring invoice' });
  await schedule.getByLabel('Customer').selectOption({ label: 'Northwind Traders' });
  await schedule.getByLabel('Every').selectOption('monthly');
  await schedule.getByLabel('Number of invoices (optional)').fill('12');
  await schedule.getByLabel('Description').fill('Monthly retainer');
  await schedule.getByLabel('Unit price (USD)').fill('1500.00');
  await schedule.getByLabel('Tax', { exact: true }).selectOption({ label: 'VAT (20%)' });
  await schedule.getByRole('button', { name: 'Create schedule' }).click();
  await expect(schedule).toBeHidden();
  await expect(page.getByRole('row', { name: /Northwind Traders.*Monthly.*\$1,800\.00/ })).toBeVisible();
  await shot(page, 'invoices-recurring');

  // The customer's page: their invoice, both payments, nothing owed.
  await page.getByRole('tab', { name: 'Customers' }).click();
  await page.getByRole('button', { name: 'Northwind Traders' }).click();
  await expect(page.getByRole('heading', { name: 'Northwind Traders' })).toBeVisible();
  await expect(
    page.getByRole('table', { name: /Payments from Northwind Traders/ }).getByRole('row'),
  ).toHaveCount(3);
  await shot(page, 'invoices-customer');

  // The journal entries, in Accounting: the invoice and both payments.
  await page.goto('/accounting?tab=journal');
  await expect(page.getByRole('row', { name: /Invoice INV-0001 to Northwind Traders/ })).toBeVisible();
  await expect(page.getByRole('row', { name: /Payment for invoice INV-0001/ })).toHaveCount(2);
  await shot(page, 'invoices-accounting-journal');
});

test('credit note and void from the invoice view; draft edit and delete', async ({ page }) => {
  test.setTimeout(180_000);
  const origin = new URL(test.info().project.use.baseURL!).origin;
  const email = `voider-${Date.now()}@example.com`;
  expect(
    (
      await page.request.post('/api/auth/sign-up/email', {
        data: { email, password: PASSWORD, name: 'Vic Voider' },
        headers: { origin },
      })
    ).ok(),
  ).toBe(true);
  const org = await (
    await page.request.post('/api/orgs', {
      data: { name: 'Kessler Werkstatt GmbH', baseCurrency: 'EUR', fiscalYearStartMonth: 1 },
      headers: { origin },
    })
  ).json();
  const base = `/api/orgs/${org.id}`;
  const customer = await (
    await page.request.post(`${base}/customers`, { data: { name: 'Globex' }, headers: { origin } })
  ).json();
  const tax = await (
    await page.request.post(`${base}/tax-rates`, {
      data: { name: 'MwSt', percent: '19' },
      headers: { origin },
    })
  ).json();
  const draft = await (
    await page.request.post(`${base}/invoices`, {
      data: {
        customerId: customer.id,
        issueDate: '2026-01-15',
        lines: [{ description: 'Workshop', quantity: '1', unitPrice: 100_000, taxRateIds: [tax.id] }],
      },
      headers: { origin },
    })
  ).json();

  // A draft: edit it, then send it from the view.
  await page.goto(`/invoices?invoice=${draft.id}`);
  await expect(page.getByRole('heading', { name: 'Draft invoice', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  await page.getByLabel('Line 1 quantity').fill('1.5');
  await expect(page.getByTestId('editor-total')).toHaveText('€1,785.00');
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByRole('heading', { name: 'Draft invoice', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await page
    .getByRole('dialog', { name: 'Send this invoice?' })
    .getByRole('button', { name: 'Mark as sent' })
    .click();
  await expect(page.getByTestId('invoice-status')).toHaveText('Overdue');
  await expect(page.getByTestId('amount-due')).toHaveText('€1,785.00');

  // A credit note reduces what is due; voiding it restores it.
  await page.getByRole('button', { name: 'Credit note' }).click();
  const credit = page.getByRole('dialog', { name: /Credit note against/ });
  await credit.getByLabel(/Amount before tax/).fill('500');
  await credit.getByLabel('Tax', { exact: true }).selectOption({ label: 'MwSt (19%)' });
  await credit.getByLabel('Reason').fill('Half day cancelled');
  await page.screenshot({ path: 'e2e-artifacts/invoices-credit-note-dialog.png' });
  await credit.getByRole('button', { name: 'Issue credit note' }).click();
  await expect(credit).toBeHidden();
  await expect(page.getByTestId('amount-due')).toHaveText('€1,190.00');
  await expect(page.getByTestId('invoice-status')).toHaveText('Overdue');
  await expect(page.getByRole('cell', { name: /CN-0001/ })).toBeVisible();
  await page.getByRole('button', { name: 'Void', exact: true }).first().click();
  await expect(page.getByTestId('amount-due')).toHaveText('€1,785.00');

  // Void the invoice: it stays on record, its posting reversed.
  await page.getByRole('button', { name: 'Void', exact: true }).click();
  const voidDialog = page.getByRole('dialog', { name: /^Void INV-/ });
  await voidDialog.getByLabel('Reason (optional)').fill('Issued in error');
  await voidDialog.getByRole('button', { name: 'Void invoice' }).click();
  await expect(page.getByTestId('invoice-status')).toHaveText('Void');
  await expect(
    page.getByText(/Voided: Issued in error; journal entry \d+ reverses the posting/),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Record payment' })).toHaveCount(0);
  await page.screenshot({ path: 'e2e-artifacts/invoices-void.png', fullPage: true });

  // The receivable is back to zero in the ledger.
  const aging = await (await page.request.get(`${base}/reports/receivables-aging?asOf=2026-12-31`)).json();
  expect(aging.ledgerBalance).toBe(0);
  expect(aging.totals.total).toBe(0);

  // A new draft can be deleted.
  await page.goto('/invoices?new=1');
  await page.getByLabel('Customer', { exact: true }).selectOption({ label: 'Globex' });
  await page.getByLabel('Line 1 description').fill('Scrap');
  await page.getByLabel('Line 1 unit price').fill('1');
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByRole('heading', { name: 'Draft invoice', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await page
    .getByRole('dialog', { name: 'Delete this draft?' })
    .getByRole('button', { name: 'Delete draft' })
    .click();
  await expect(page.getByRole('heading', { name: 'Invoices', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: /^Draft/ }).click();
  await expect(page.getByText('No invoices match')).toBeVisible();
});
