import fs from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { createFirstCompanyInUi, signUpInUi, verifyEmail } from './auth-helpers.ts';

// Issue 5, done when: a new user creates a company, records a manual entry, sees it in the
// journal, the general ledger and the trial balance, exports the trial balance (CSV with the
// totals, a real PDF), reverses the entry, and invites a viewer who can read but not post.

const PASSWORD = 'Correct-Horse-9';

const shot = async (page: Page, name: string) => {
  // Loading placeholders first, then no request in flight for a moment.
  await expect(page.getByRole('status').filter({ hasText: /Loading/ })).toHaveCount(0);
  await page.waitForTimeout(300);
  await page.screenshot({ path: `e2e-artifacts/${name}.png`, fullPage: true });
};

const setDark = async (page: Page, dark: boolean) => {
  const isDark = await page.evaluate(() => document.documentElement.classList.contains('dark'));
  if (isDark !== dark)
    await page.getByRole('button', { name: dark ? 'Switch to dark mode' : 'Switch to light mode' }).click();
};

/** WCAG 2 A/AA checks of what is on screen; the message lists what failed and where. */
const expectAccessible = async (page: Page, what: string) => {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  const summary = violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(summary, `accessibility of ${what}`).toEqual([]);
};

const openTab = (page: Page, name: string) => page.getByRole('tab', { name }).click();

const download = async (page: Page, link: ReturnType<Page['getByRole']>) => {
  const [file] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const path = await file.path();
  return { name: file.suggestedFilename(), bytes: fs.readFileSync(path) };
};

const viewerPage = async (browser: Browser, baseURL: string) => {
  const context = await browser.newContext({ baseURL });
  return context.newPage();
};

test('record, see, export and reverse a journal entry; a viewer reads but cannot post', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const stamp = Date.now();
  const ownerEmail = `owner-${stamp}@example.com`;
  const viewerEmail = `viewer-${stamp}@example.com`;

  // A new user and company.
  await signUpInUi(page, ownerEmail, ['Olga', 'Owner'], PASSWORD);
  await verifyEmail(page.request, ownerEmail);
  await createFirstCompanyInUi(page, 'Harbor Books', 'USD');

  // A new company's dashboard guides instead of showing numbers it does not have.
  await expect(page.getByRole('heading', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Record your first transaction' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Cash', exact: true })).toContainText('$0.00');
  await shot(page, 'dashboard-new-light');

  // Accounting: the journal starts empty.
  await page.getByRole('link', { name: 'Accounting' }).first().click();
  await expect(page.getByRole('heading', { name: 'Accounting' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Journal Entries' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('No journal entries yet — record your first entry')).toBeVisible();

  // The editor: keyboard line entry, running difference, no posting until balanced.
  await page.getByRole('button', { name: 'New journal entry' }).first().click();
  const editor = page.getByRole('dialog', { name: 'New journal entry' });
  await expect(editor).toBeVisible();
  await editor.getByLabel('Memo').fill('Owner investment');
  await editor.getByLabel('Reference').fill('DEP-1');
  const account1 = editor.getByRole('combobox', { name: 'Account, line 1' });
  await account1.fill('1010');
  await expect(editor.getByRole('option', { name: /Business bank account/ })).toBeVisible();
  await page.keyboard.press('Tab'); // Tab takes the highlighted account and moves to Debit
  await expect(account1).toHaveValue(/1010 · Business bank account/);
  await expect(editor.getByLabel('Debit, line 1')).toBeFocused();
  await page.keyboard.type('1,250.00');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Opening deposit');
  await page.keyboard.press('Enter'); // Enter adds a line and puts the cursor on its account
  const account2 = editor.getByRole('combobox', { name: 'Account, line 2' });
  await expect(account2).toBeFocused();
  await expect(editor.getByLabel('Credit, line 2')).toHaveValue('1250.00');
  await page.keyboard.type('owner');
  await expect(editor.getByRole('option').first()).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(account2).toHaveValue(/Owner/);
  await editor.getByLabel('Credit, line 2').fill('1000');
  await expect(editor.getByTestId('entry-difference')).toContainText('$250.00');
  await expect(editor.getByTestId('entry-difference')).toContainText('Not balanced');
  await editor.getByRole('button', { name: 'Post entry' }).click();
  await expect(
    editor.getByText('Debits and credits must be equal before the entry can be posted.'),
  ).toBeVisible();
  await expect(editor).toBeVisible();
  await editor.getByLabel('Credit, line 2').fill('1250');
  await expect(editor.getByTestId('entry-difference')).toContainText('$0.00 · Balanced');
  await shot(page, 'accounting-entry-editor-light');
  await expectAccessible(page, 'the journal entry editor');
  await editor.getByRole('button', { name: 'Post entry' }).click();

  // Posted: the entry opens with its number and lines.
  const detail = page.getByRole('dialog', { name: 'Journal entry #1' });
  await expect(detail).toBeVisible();
  await expect(detail.getByText('Posted')).toBeVisible();
  await expect(detail.getByRole('rowheader', { name: /1010 Business bank account/ })).toBeVisible();
  await detail.getByRole('button', { name: 'Close' }).last().click();

  // The journal lists it.
  const journalRow = page.getByRole('row', { name: /Owner investment/ });
  await expect(journalRow).toContainText('$1,250.00');
  await expect(journalRow).toContainText('Posted');
  await expect(page.getByRole('region', { name: 'Balance sheet' })).toContainText('$1,250.00');
  await shot(page, 'accounting-journal-light');

  // The general ledger of the bank account shows the posting with its running balance.
  await openTab(page, 'General Ledger');
  await page.getByRole('button', { name: 'Business bank account' }).click();
  const glRow = page.getByRole('row', { name: /Owner investment/ });
  await expect(glRow).toContainText('$1,250.00');
  await expect(page.getByRole('row', { name: /Closing balance/ })).toContainText('$1,250.00');
  await shot(page, 'accounting-general-ledger-light');

  // The trial balance has it on both sides.
  await openTab(page, 'Trial Balance');
  await expect(page.getByTestId('tb-total-debit')).toHaveText('$1,250.00');
  await expect(page.getByTestId('tb-total-credit')).toHaveText('$1,250.00');
  await expect(page.getByText('Debits equal credits')).toBeVisible();
  await shot(page, 'accounting-trial-balance-light');
  await expectAccessible(page, 'the trial balance');

  // Exports: the CSV carries the totals, the PDF is a PDF.
  const csv = await download(page, page.getByRole('link', { name: /CSV export of the trial balance/ }));
  const csvText = csv.bytes.toString('utf8');
  expect(csv.name).toMatch(/\.csv$/);
  expect(csvText).toMatch(/total/i);
  expect(csvText).toContain('1250.00');
  expect(csvText).toMatch(/Business bank account/);
  const pdf = await download(page, page.getByRole('link', { name: /PDF export of the trial balance/ }));
  expect(pdf.name).toMatch(/\.pdf$/);
  expect(pdf.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(pdf.bytes.length).toBeGreaterThan(500);

  // Chart of accounts and reports render for the owner with management actions.
  await openTab(page, 'Chart of Accounts');
  await expect(page.getByRole('button', { name: 'Add account' })).toBeVisible();
  await expect(page.getByRole('rowheader', { name: /Business bank account/ })).toBeVisible();
  await shot(page, 'accounting-chart-of-accounts-light');
  await openTab(page, 'Reports');
  await expect(page.getByRole('heading', { name: 'Income statement' }).first()).toBeVisible();
  await page.getByRole('button', { name: /Balance sheet/ }).click();
  await expect(page.getByRole('row', { name: /Total assets/ })).toContainText('$1,250.00');
  await expect(page.getByText('Assets equal liabilities plus equity')).toBeVisible();
  await shot(page, 'accounting-reports-light');

  // Reverse it, with confirmation; the reversal links to the original.
  await openTab(page, 'Journal Entries');
  await page.getByRole('button', { name: /Owner investment.*open entry 1/ }).click();
  const original = page.getByRole('dialog', { name: 'Journal entry #1' });
  await original.getByRole('button', { name: 'Reverse entry' }).click();
  await expect(original.getByText(/Reversing posts a new entry/)).toBeVisible();
  await original.getByRole('button', { name: 'Confirm reversal' }).click();
  const reversal = page.getByRole('dialog', { name: 'Journal entry #2' });
  await expect(reversal).toBeVisible();
  await expect(reversal.getByText('Reversal', { exact: true })).toBeVisible();
  await expect(reversal.getByRole('button', { name: /Reverses entry #1/ })).toBeVisible();
  await reversal.getByRole('button', { name: /Reverses entry #1/ }).click();
  const reversedOriginal = page.getByRole('dialog', { name: 'Journal entry #1' });
  await expect(reversedOriginal.getByText('Reversed', { exact: true })).toBeVisible();
  await expect(reversedOriginal.getByRole('button', { name: 'Reverse entry' })).toHaveCount(0);
  await reversedOriginal.getByRole('button', { name: 'Close' }).last().click();
  await openTab(page, 'Trial Balance');
  await expect(page.getByTestId('tb-total-debit')).toHaveText('$0.00');

  // More activity through the API (sales and rent over three months) so the dashboard and
  // reports have real figures to show; the UI must add them up exactly.
  const orgId = ((await (await page.request.get('/api/orgs')).json()) as { companies: { id: string }[] })
    .companies[0]!.id;
  const chart = (await (await page.request.get(`/api/orgs/${orgId}/accounts`)).json()) as {
    accounts: { id: string; code: string }[];
  };
  const acct = (code: string) => chart.accounts.find((a) => a.code === code)!.id;
  const now = new Date();
  const day = (monthsBack: number, d: number) => {
    const t = new Date(now.getFullYear(), now.getMonth() - monthsBack, d);
    return `${t.getFullYear()}-${String(t.getMonth() + 1).padStart(2, '0')}-${String(t.getDate()).padStart(2, '0')}`;
  };
  const post = async (date: string, memo: string, debit: string, credit: string, amount: number) => {
    const res = await page.request.post(`/api/orgs/${orgId}/journal-entries`, {
      data: {
        date,
        memo,
        lines: [
          { accountId: acct(debit), debit: amount },
          { accountId: acct(credit), credit: amount },
        ],
      },
      headers: { origin: new URL(baseURL!).origin },
    });
    expect(res.status()).toBe(201);
  };
  await post(day(2, 5), 'Cash sales', '1010', '4000', 5_000_00);
  await post(day(2, 6), 'Office rent', '6200', '1010', 1_800_00);
  await post(day(1, 5), 'Cash sales', '1010', '4000', 3_150_50);
  await post(day(1, 6), 'Office rent', '6200', '1010', 1_800_00);
  await post(day(0, 1), 'Office rent', '6200', '1010', 1_800_00);
  await post(day(0, 1), 'Cash sales', '1010', '4000', 4_200_00);
  await page.reload();
  await expect(page.getByRole('region', { name: 'Balance sheet' })).toContainText('$6,950.50');

  // Dark mode screenshots of the tabs and the dashboard with data.
  await setDark(page, true);
  for (const [tab, name] of [
    ['Journal Entries', 'journal'],
    ['Trial Balance', 'trial-balance'],
    ['General Ledger', 'general-ledger'],
    ['Chart of Accounts', 'chart-of-accounts'],
    ['Reports', 'reports'],
  ] as const) {
    await openTab(page, tab);
    await shot(page, `accounting-${name}-dark`);
    await expectAccessible(page, `the ${tab} tab in dark mode`);
  }
  await page.getByRole('link', { name: 'Dashboard' }).first().click();
  await expect(page.getByRole('heading', { name: 'Recent journal entries' })).toBeVisible();
  await expect(page.getByRole('row', { name: /Reversal of entry 1/ })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Cash', exact: true })).toContainText('$6,950.50');
  // Income of the last 12 months: the three months of sales above.
  await expect(page.getByRole('region', { name: 'Revenue growth' })).toContainText('$12,350.50');
  await expect(page.locator('.recharts-bar-rectangle').first()).toBeVisible();
  await shot(page, 'dashboard-dark');
  await expectAccessible(page, 'the dashboard in dark mode');
  await setDark(page, false);
  await shot(page, 'dashboard-light');
  await expectAccessible(page, 'the dashboard');

  // Invite a viewer.
  await page.getByRole('link', { name: 'Settings' }).first().click();
  await page.getByRole('tab', { name: 'Members' }).click();
  await page.getByLabel('Email address').fill(viewerEmail);
  await page.getByLabel('Role', { exact: true }).selectOption('viewer');
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText(`Invitation sent to ${viewerEmail}.`)).toBeVisible();

  // The viewer, in a browser of their own, joins and reads the books but cannot post.
  const viewer = await viewerPage(browser, baseURL!);
  await signUpInUi(viewer, viewerEmail, ['Vera', 'Viewer'], PASSWORD);
  // Only the confirmed owner of the invited address may accept.
  await verifyEmail(viewer.request, viewerEmail);
  await viewer.getByRole('button', { name: 'Accept' }).click();
  await expect(viewer.getByRole('button', { name: /Company: Harbor Books/ })).toBeVisible();
  await viewer.getByRole('link', { name: 'Accounting' }).first().click();
  await expect(viewer.getByRole('row', { name: /^1 .*Owner investment/ })).toBeVisible();
  await expect(viewer.getByRole('button', { name: 'New journal entry' })).toHaveCount(0);
  await expect(viewer.getByRole('button', { name: 'Ledger settings' })).toHaveCount(0);
  await viewer.getByRole('button', { name: /Owner investment.*open entry 1/ }).click();
  const viewerDetail = viewer.getByRole('dialog', { name: 'Journal entry #1' });
  await expect(viewerDetail.getByRole('rowheader', { name: /1010 Business bank account/ })).toBeVisible();
  for (const action of ['Reverse entry', 'Post entry', 'Edit', 'Delete'])
    await expect(viewerDetail.getByRole('button', { name: action, exact: true })).toHaveCount(0);
  await expect(viewerDetail.getByRole('button', { name: /Reversed by entry #2/ })).toBeVisible();
  await viewerDetail.getByRole('button', { name: 'Close' }).last().click();
  await viewer.getByRole('tab', { name: 'Chart of Accounts' }).click();
  await expect(viewer.getByRole('button', { name: 'Add account' })).toHaveCount(0);
  await viewer.getByRole('tab', { name: 'Trial Balance' }).click();
  await expect(viewer.getByTestId('tb-total-debit')).toHaveText('$12,350.50');
  await viewer.screenshot({ path: 'e2e-artifacts/accounting-viewer-light.png', fullPage: true });

  // And the server agrees: the viewer's attempt to post is refused and writes nothing.
  const id = acct;
  const refused = await viewer.request.post(`/api/orgs/${orgId}/journal-entries`, {
    data: {
      date: '2026-01-15',
      memo: 'Not allowed',
      lines: [
        { accountId: id('1010'), debit: 100 },
        { accountId: id('3000'), credit: 100 },
      ],
    },
    headers: { origin: new URL(baseURL!).origin },
  });
  expect(refused.status()).toBe(403);
  const list = (await (await viewer.request.get(`/api/orgs/${orgId}/journal-entries`)).json()) as {
    entries: unknown[];
  };
  expect(list.entries).toHaveLength(8);
  await viewer.context().close();
});

test('drafts, chart of accounts with CSV import, lock date and the approval queue', async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const stamp = Date.now();
  const origin = new URL(baseURL!).origin;
  const memberEmail = `member-${stamp}@example.com`;
  await signUpInUi(page, `books-${stamp}@example.com`, ['Bea', 'Bookkeeper'], PASSWORD);
  await verifyEmail(page.request, `books-${stamp}@example.com`);
  await createFirstCompanyInUi(page, 'Canal Cafe', 'EUR');
  await page.goto('/accounting?tab=accounts');

  // Chart of accounts: add, rename, archive; CSV import refuses a bad file and takes a good one.
  await page.getByRole('button', { name: 'Add account' }).click();
  const addDialog = page.getByRole('dialog', { name: 'Add account' });
  await addDialog.getByLabel('Code').fill('6250');
  await addDialog.getByLabel('Name').fill('Coworking');
  await addDialog.getByLabel('Type', { exact: true }).selectOption('expense');
  await addDialog.getByRole('button', { name: 'Add account' }).click();
  await expect(page.getByText('Added 6250 Coworking.')).toBeVisible();
  await page.getByRole('button', { name: 'Rename 6250 Coworking' }).click();
  await page.getByRole('dialog', { name: 'Edit account' }).getByLabel('Name').fill('Coworking space');
  await page
    .getByRole('dialog', { name: 'Edit account' })
    .getByRole('button', { name: 'Save account' })
    .click();
  await expect(page.getByText('Saved 6250 Coworking space.')).toBeVisible();
  await page.getByRole('button', { name: 'Archive 6250 Coworking space' }).click();
  await expect(page.getByText(/6250 Coworking space is archived/)).toBeVisible();
  await expect(page.getByRole('rowheader', { name: /Coworking space/ })).toHaveCount(0);
  await page.getByLabel('Show archived accounts').check();
  await expect(page.getByRole('row', { name: /Coworking space/ })).toContainText('Archived');

  await page.getByRole('button', { name: 'Import CSV' }).click();
  const importDialog = page.getByRole('dialog', { name: 'Import chart of accounts' });
  /** Chooses `csv` as the file `name` and imports it. */
  const importChart = async (name: string, csv: string) => {
    await importDialog
      .getByLabel('CSV file')
      .setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await importDialog.getByRole('button', { name: 'Import accounts' }).click();
  };
  await importChart('bad.csv', 'code,name\n6260,Parking\n');
  await expect(importDialog.getByText('The header row needs a "type" column.')).toBeVisible();
  await importChart('chart.csv', 'code,name,type,subtype\n6260,Parking,expense,operating_expense\n');
  await expect(page.getByText('Imported the chart: 1 added, 0 updated.')).toBeVisible();
  await expect(page.getByRole('rowheader', { name: /Parking/ })).toBeVisible();

  // A draft: saved unposted, edited, then posted.
  await openTab(page, 'Journal Entries');
  await page.getByRole('button', { name: 'New journal entry' }).first().click();
  const editor = page.getByRole('dialog', { name: 'New journal entry' });
  await editor.getByLabel('Memo').fill('Parking permit');
  await editor.getByRole('combobox', { name: 'Account, line 1' }).fill('park');
  await expect(editor.getByRole('option').first()).toBeVisible();
  await page.keyboard.press('Enter');
  await editor.getByLabel('Debit, line 1').fill('45.5');
  await editor.getByRole('combobox', { name: 'Account, line 2' }).fill('1000');
  await expect(editor.getByRole('option').first()).toBeVisible();
  await page.keyboard.press('Enter');
  await editor.getByLabel('Credit, line 2').fill('40');
  await editor.getByRole('button', { name: 'Save draft' }).click(); // drafts may be unbalanced
  const draft = page.getByRole('dialog', { name: 'Draft journal entry' });
  await expect(draft.getByText('Draft', { exact: true })).toBeVisible();
  await draft.getByRole('button', { name: 'Edit' }).click();
  const draftEditor = page.getByRole('dialog', { name: 'Edit draft journal entry' });
  await expect(draftEditor.getByLabel('Debit, line 1')).toHaveValue('45.50');
  await expect(draftEditor.getByTestId('entry-difference')).toContainText('€5.50');
  await draftEditor.getByLabel('Credit, line 2').fill('45.50');
  await draftEditor.getByRole('button', { name: 'Post entry' }).click();
  const posted = page.getByRole('dialog', { name: 'Journal entry #1' });
  await expect(posted.getByText('Posted', { exact: true })).toBeVisible();
  await expect(posted.getByRole('row', { name: /Parking/ })).toContainText('€45.50');
  await posted.getByRole('button', { name: 'Close' }).last().click();

  // Lock date and approval.
  const yesterday = (() => {
    const t = new Date();
    t.setDate(t.getDate() - 1);
    return `${t.getFullYear()}-${String(t.getMonth() + 1).padStart(2, '0')}-${String(t.getDate()).padStart(2, '0')}`;
  })();
  await page.getByRole('button', { name: 'Ledger settings' }).click();
  const settings = page.getByRole('dialog', { name: 'Ledger settings' });
  await settings.getByLabel('Lock date').fill(yesterday);
  await settings.getByLabel(/Require approval/).check();
  await settings.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText(/Books locked through/)).toBeVisible();
  await expect(page.getByText('Entries need approval')).toBeVisible();
  await page.getByRole('button', { name: 'New journal entry' }).first().click();
  const locked = page.getByRole('dialog', { name: 'New journal entry' });
  await locked.getByLabel('Date').fill(yesterday);
  await expect(locked.getByText(/The books are locked through/)).toBeVisible();
  await locked.getByRole('button', { name: 'Cancel' }).click();

  // A member's entry waits in the approval queue until the owner approves it.
  await page.goto('/settings?tab=members');
  await page.getByLabel('Email address').fill(memberEmail);
  await page.getByLabel('Role', { exact: true }).selectOption('member');
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText(`Invitation sent to ${memberEmail}.`)).toBeVisible();
  const memberContext = await browser.newContext({ baseURL });
  const member = await memberContext.newPage();
  const signUp = await member.request.post('/api/auth/sign-up/email', {
    data: { email: memberEmail, password: PASSWORD, name: 'Max Member' },
    headers: { origin },
  });
  expect(signUp.ok()).toBe(true);
  await verifyEmail(member.request, memberEmail);
  const invitations = (await (await member.request.get('/api/me/invitations')).json()) as {
    invitations: { id: string }[];
  };
  expect(
    (
      await member.request.post(`/api/invitations/${invitations.invitations[0]!.id}/accept`, {
        headers: { origin },
      })
    ).ok(),
  ).toBe(true);
  await member.goto('/accounting');
  await member.getByRole('button', { name: 'New journal entry' }).first().click();
  const memberEditor = member.getByRole('dialog', { name: 'New journal entry' });
  await memberEditor.getByLabel('Memo').fill('Milk delivery');
  await memberEditor.getByRole('combobox', { name: 'Account, line 1' }).fill('5000');
  // Enter picks the suggestion once it is listed (before that, Enter adds a line).
  await expect(memberEditor.getByRole('option').first()).toBeVisible();
  await member.keyboard.press('Enter');
  await memberEditor.getByLabel('Debit, line 1').fill('12.80');
  await member.keyboard.press('Enter');
  await member.keyboard.type('1000');
  await expect(memberEditor.getByRole('option').first()).toBeVisible();
  await member.keyboard.press('Enter');
  await expect(memberEditor.getByTestId('entry-difference')).toContainText('Balanced');
  await memberEditor.getByRole('button', { name: 'Submit for approval' }).click();
  const pending = member.getByRole('dialog', { name: 'Journal entry awaiting approval' });
  await expect(pending.getByText('Awaiting approval', { exact: true })).toBeVisible();
  await expect(pending.getByRole('button', { name: 'Approve and post' })).toHaveCount(0);
  await memberContext.close();

  await page.goto('/accounting?tab=journal');
  await expect(
    page.getByText('Entries are waiting for your approval before they reach the books.'),
  ).toBeVisible();
  await page.getByRole('button', { name: 'Open the approval queue' }).click();
  await shot(page, 'accounting-approval-queue-light');
  await page.getByRole('button', { name: /Milk delivery.*open entry/ }).click();
  const queued = page.getByRole('dialog', { name: 'Journal entry awaiting approval' });
  await queued.getByRole('button', { name: 'Approve and post' }).click();
  await expect(
    page.getByRole('dialog', { name: 'Journal entry #2' }).getByText('Entry approved and posted.'),
  ).toBeVisible();
  await page
    .getByRole('dialog', { name: 'Journal entry #2' })
    .getByRole('button', { name: 'Close' })
    .last()
    .click();

  // On a phone the page still works: tabs scroll, tables scroll inside their cards.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/accounting?tab=journal');
  await expect(page.getByRole('row', { name: /Milk delivery/ })).toBeVisible();
  await shot(page, 'accounting-journal-mobile');
  await page.getByRole('button', { name: 'New journal entry' }).first().click();
  await expect(page.getByRole('combobox', { name: 'Account, line 1' })).toBeVisible();
  await shot(page, 'accounting-entry-editor-mobile');
});
