import { type Page, expect, test } from '@playwright/test';
import { verifyEmail } from './auth-helpers.ts';

// Issue 15, bills as a bookkeeper works them: a member (the bookkeeper) enters a supplier's
// bill above the approval threshold and submits it; it waits for approval and the member
// cannot approve it; the owner sees the whole bill, approves it (it posts to accounts
// payable), pays part and then the rest from the bank account, and the bill reads Paid; the
// trial balance shows accounts payable back at zero. Screenshots of the list, the editor and
// the bill in light and dark mode go to e2e-artifacts (not committed).

const PASSWORD = 'Correct-Horse-9';

const shot = async (page: Page, name: string) => {
  await page.waitForLoadState('networkidle', { timeout: 3000 }).catch(() => undefined);
  await page.screenshot({ path: `e2e-artifacts/${name}.png`, fullPage: true });
};

const setDark = async (page: Page, dark: boolean) => {
  const isDark = await page.evaluate(() => document.documentElement.classList.contains('dark'));
  if (isDark !== dark) {
    await page.getByRole('button', { name: dark ? 'Switch to dark mode' : 'Switch to light mode' }).click();
  }
};

const both = async (page: Page, name: string) => {
  await setDark(page, false);
  await shot(page, `${name}-light`);
  await setDark(page, true);
  await shot(page, `${name}-dark`);
  await setDark(page, false);
};

test('a bill from entry to paid: submit, approval by the owner, two payments, accounts payable', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const baseURL = test.info().project.use.baseURL!;
  const origin = new URL(baseURL).origin;
  const headers = { origin };
  const stamp = Date.now();
  const ownerEmail = `owner-ap-${stamp}@example.com`;
  const bookkeeperEmail = `bookkeeper-${stamp}@example.com`;

  // The owner, their company, a bank account and the approval threshold ($500).
  const ok = async (res: Awaited<ReturnType<typeof page.request.post>>): Promise<any> => {
    expect(res.ok(), await res.text()).toBe(true);
    return res.status() === 204 ? null : res.json();
  };
  await ok(
    await page.request.post('/api/auth/sign-up/email', {
      data: { email: ownerEmail, password: PASSWORD, name: 'Olivia Owner' },
      headers,
    }),
  );
  await verifyEmail(page.request, ownerEmail);
  const company = await ok(
    await page.request.post('/api/orgs', {
      data: { name: 'Harbour Cafe Ltd', baseCurrency: 'USD', fiscalYearStartMonth: 1 },
      headers,
    }),
  );
  const o = `/api/orgs/${company.id}`;
  await ok(
    await page.request.post(`${o}/wallet/accounts`, {
      data: { name: 'Operating account', kind: 'bank', currency: 'USD', openingDate: '2026-10-01' },
      headers,
    }),
  );
  await ok(
    await page.request.patch(`${o}/payables/settings`, { data: { approvalThreshold: 50_000 }, headers }),
  );
  const accounts = (await ok(await page.request.get(`${o}/accounts`))) as {
    accounts: { id: string; code: string; name: string }[];
  };
  const rent = accounts.accounts.find((a) => a.code === '6200')!;
  const payable = accounts.accounts.find((a) => a.code === '2000')!;

  // The bookkeeper joins as a member.
  await ok(
    await page.request.post(`${o}/invitations`, {
      data: { email: bookkeeperEmail, role: 'member' },
      headers,
    }),
  );
  const bookkeeperContext = await browser.newContext({ baseURL });
  const bk = await bookkeeperContext.newPage();
  await ok(
    await bk.request.post('/api/auth/sign-up/email', {
      data: { email: bookkeeperEmail, password: PASSWORD, name: 'Ben Bookkeeper' },
      headers,
    }),
  );
  await verifyEmail(bk.request, bookkeeperEmail);
  const invitations = (await ok(await bk.request.get('/api/me/invitations'))) as {
    invitations: { id: string }[];
  };
  await ok(await bk.request.post(`/api/invitations/${invitations.invitations[0]!.id}/accept`, { headers }));

  // The supplier, through the API as the bookkeeper (the Suppliers tab has its own test).
  const supplier = await ok(
    await bk.request.post(`${o}/suppliers`, {
      data: {
        name: 'Dockside Properties',
        paymentTermsDays: 14,
        defaultAccountId: rent.id,
        bankAccountName: 'Dockside Properties LLC',
        bankAccountNumber: '12345678',
        bankCode: '021000021',
      },
      headers,
    }),
  );
  expect(supplier.name).toBe('Dockside Properties');

  // Bills in the navigation, after Invoices; an empty list with its call to action.
  await bk.goto('/dashboard');
  const nav = bk.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Bills' }).click();
  await expect(bk).toHaveURL(/\/bills$/);
  await expect(bk.getByRole('heading', { name: 'Bills', level: 1 })).toBeVisible();
  await expect(bk.getByText('No bills yet')).toBeVisible();
  await both(bk, 'bills-empty');

  // The bill: supplier defaults (rent account, 14 days), a required line, live totals.
  await bk.getByRole('button', { name: 'New bill' }).first().click();
  await expect(bk.getByRole('heading', { name: 'New bill' })).toBeVisible();
  await bk.getByRole('button', { name: 'Save draft' }).click();
  await expect(bk.getByText('Choose a supplier.')).toBeVisible();
  await bk.getByLabel('Supplier', { exact: true }).selectOption({ label: 'Dockside Properties' });
  await expect(bk.getByLabel('Line 1 account')).toHaveValue(rent.id);
  await bk.getByLabel('Issue date').fill('2026-11-02');
  await expect(bk.getByLabel('Due date')).toHaveValue('2026-11-16');
  await bk.getByLabel("Supplier's reference").fill('DP-1187');
  await bk.getByLabel('Line 1 description').fill('Rent, December');
  await bk.getByLabel('Line 1 unit price').fill('1,200.00');
  await bk.getByRole('button', { name: 'Add line' }).click();
  await bk.getByLabel('Line 2 description').fill('Service charge');
  await bk.getByLabel('Line 2 quantity').fill('2');
  await bk.getByLabel('Line 2 unit price').fill('40.00');
  await expect(bk.getByTestId('line-2-amount')).toHaveText('$80.00');
  await expect(bk.getByTestId('editor-total')).toHaveText('$1,280.00');
  await both(bk, 'bills-editor');
  await bk.getByRole('button', { name: 'Save and submit' }).click();

  // Above the threshold: it waits for approval, and a member cannot approve.
  await expect(bk.getByRole('heading', { name: /^Bill / })).toBeVisible();
  await expect(bk.getByTestId('bill-status')).toHaveText('Awaiting approval');
  await expect(bk.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await expect(bk.getByText(/waits for an accountant or admin/)).toBeVisible();
  // The supplier's PDF, attached for the approver.
  await bk.getByLabel(/Attach the supplier's bill/).setInputFiles({
    name: 'DP-1187.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n'),
  });
  await expect(bk.getByRole('link', { name: 'DP-1187.pdf' })).toBeVisible();
  const billUrl = bk.url();
  const billId = new URL(billUrl).searchParams.get('bill')!;

  // The same supplier and reference again is refused as a duplicate, with a link to the first.
  await bk.goto('/bills?new=1');
  await bk.getByLabel('Supplier', { exact: true }).selectOption({ label: 'Dockside Properties' });
  await bk.getByLabel("Supplier's reference").fill('DP-1187');
  await bk.getByLabel('Line 1 description').fill('Rent, December');
  await bk.getByLabel('Line 1 unit price').fill('1200');
  await bk.getByRole('button', { name: 'Save draft' }).click();
  await expect(bk.getByText(/already has a bill with the reference "DP-1187"/)).toBeVisible();
  await bk.getByRole('button', { name: /^bill / }).click();
  await expect(bk).toHaveURL(new RegExp(`bill=${billId}`));
  await bookkeeperContext.close();

  // The owner: the list shows the bill awaiting approval with its count and amount.
  await page.goto('/bills');
  const awaitingChip = page.getByRole('button', { name: /^Awaiting approval/ });
  await expect(awaitingChip).toContainText('1', { timeout: 30_000 });
  await expect(awaitingChip).toContainText('$1,280.00');
  await expect(page.getByTestId('bills-figure-awaiting-approval')).toHaveText('$1,280.00');
  await both(page, 'bills-list');
  await page
    .getByRole('button', { name: /open bill/ })
    .first()
    .click();

  // The approver sees the whole bill: supplier and where to pay, lines, totals.
  await expect(page.getByTestId('bill-status')).toHaveText('Awaiting approval');
  await expect(page.getByText('12345678')).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Rent, December' })).toBeVisible();
  await expect(page.getByTestId('bill-total')).toHaveText('$1,280.00');
  const href = await page.getByRole('link', { name: 'DP-1187.pdf' }).getAttribute('href');
  const download = await page.request.get(href!);
  expect((await download.body()).subarray(0, 5).toString()).toBe('%PDF-');
  await both(page, 'bills-view-awaiting');
  await page.getByRole('button', { name: 'Approve', exact: true }).click();
  const approve = page.getByRole('dialog', { name: /^Approve bill/ });
  await expect(approve).toContainText('Dockside Properties');
  await approve.getByRole('button', { name: 'Approve bill' }).click();
  await expect(approve).toBeHidden();
  await expect(page.getByTestId('bill-status')).toHaveText(/Open|Overdue/);

  /** What the trial balance shows owed on accounts payable (a credit balance), in cents. */
  const apBalance = async () => {
    const tb = (await ok(await page.request.get(`${o}/reports/trial-balance?to=2026-12-31`))) as {
      rows: { accountId: string; closingBalance: number }[];
    };
    return 0 - (tb.rows.find((r) => r.accountId === payable.id)?.closingBalance ?? 0);
  };
  expect(await apBalance()).toBe(128_000);

  // Part of it, then the rest (the amount defaults to what is still due).
  await page.getByRole('button', { name: 'Record payment' }).click();
  const pay = page.getByRole('dialog', { name: /^Record a payment/ });
  await expect(pay.getByLabel('Amount (USD)')).toHaveValue('1280.00');
  await pay.getByLabel('Amount (USD)').fill('2000');
  await pay.getByRole('button', { name: 'Record payment' }).click();
  await expect(pay.getByText('That is more than is due on this bill.', { exact: false })).toBeVisible();
  await pay.getByLabel('Amount (USD)').fill('500.00');
  await pay.getByLabel('Payment date').fill('2026-11-10');
  await pay.getByRole('button', { name: 'Record payment' }).click();
  await expect(pay).toBeHidden();
  await expect(page.getByTestId('bill-status')).toHaveText(/Partially paid|Overdue/);
  await expect(page.getByTestId('bill-amount-due')).toHaveText('$780.00');
  expect(await apBalance()).toBe(78_000);

  await page.getByRole('button', { name: 'Record payment' }).click();
  const rest = page.getByRole('dialog', { name: /^Record a payment/ });
  await expect(rest.getByLabel('Amount (USD)')).toHaveValue('780.00');
  await rest.getByLabel('Payment date').fill('2026-11-12');
  await rest.getByRole('button', { name: 'Record payment' }).click();
  await expect(rest).toBeHidden();
  await expect(page.getByTestId('bill-status')).toHaveText('Paid');
  await expect(page.getByTestId('bill-amount-due')).toHaveText('$0.00');
  await expect(page.getByRole('button', { name: 'Record payment' })).toHaveCount(0);
  await both(page, 'bills-view-paid');
  expect(await apBalance()).toBe(0);

  // The journal entry link opens the bill's entry in Accounting.
  await page.getByRole('link', { name: 'Journal entry' }).click();
  await expect(page).toHaveURL(/\/accounting\?tab=journal&entry=/);
  await expect(page.getByRole('dialog')).toContainText('Accounts payable');

  // The trial balance on the accounting page: accounts payable is settled.
  await page.goto('/accounting?tab=trial-balance');
  await expect(page.getByRole('heading', { name: 'Accounting', level: 1 })).toBeVisible();
  await expect(page.getByRole('row', { name: /Rent/ }).first()).toContainText('1,280.00');

  // The list: paid, and the Paid chip counts it.
  await page.goto('/bills');
  await expect(page.getByRole('button', { name: /^Paid/ })).toContainText('1');
  await expect(page.getByRole('row', { name: /Dockside Properties/ })).toContainText('Paid');
});
