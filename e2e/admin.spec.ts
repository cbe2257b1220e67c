import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, type Page, expect, test } from '@playwright/test';
import { signIn } from './auth-helpers.ts';

// The platform admin console (issue 16): the e2e server runs with ADMIN_EMAILS=admin@e2e.test
// (playwright.config.ts). As that admin: find a user, open them, disable them (their sign-in
// then says why) and enable them again; create a promo code; read a message sent from
// /contact; filter the audit log and download it as CSV; see the system's database. A user who
// is not an admin sees no Admin item and an "Admins only" page at /admin.

const ADMIN_EMAIL = 'admin@e2e.test';
const PASSWORD = 'Correct-Horse-9';
const SHOTS = process.env.SHOTS_DIR ?? 'e2e-artifacts';

const origin = () => new URL(test.info().project.use.baseURL!).origin;

/** Signs up through the API (the context keeps the session) and creates a USD company; its id. */
const signUpWithCompany = async (
  request: APIRequestContext,
  email: string,
  name: string,
  company: string,
) => {
  const headers = { origin: origin() };
  const signUp = await request.post('/api/auth/sign-up/email', {
    data: { email, password: PASSWORD, name },
    headers,
  });
  expect(signUp.ok(), await signUp.text()).toBe(true);
  const created = await request.post('/api/orgs', {
    data: { name: company, baseCurrency: 'USD', fiscalYearStartMonth: 1 },
    headers,
  });
  expect(created.status(), await created.text()).toBe(201);
  return (await created.json()).id as string;
};

/** A full-page screenshot once the page settled, and no WCAG 2 A/AA violation on it. */
const shot = async (page: Page, name: string) => {
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  const summary = violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect.soft(summary, `accessibility of ${name}`).toEqual([]);
};

/** An admin tab by its name (Messages may say how many are unread after it). */
const adminTab = (page: Page, name: string) =>
  page.getByRole('tab', { name: new RegExp(`^${name}( \\(|$)`) });

test('a platform admin runs the console; a non-admin is kept out', async ({ page, browser }) => {
  // One long walk through every tab (two users, two browsers).
  test.setTimeout(180_000);
  const stamp = Date.now().toString(36);
  const targetEmail = `target-${stamp}@example.com`;
  const reason = `Chargeback under review ${stamp}`;

  // A user who is not an admin: no Admin item, and /admin says admins only.
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  const targetCompanyId = await signUpWithCompany(
    otherPage.request,
    targetEmail,
    'Tara Target',
    'Target Shop',
  );
  // A second company of theirs, which the audit filter below leaves out.
  const second = await otherPage.request.post('/api/orgs', {
    data: { name: 'Other Shop', baseCurrency: 'USD', fiscalYearStartMonth: 1 },
    headers: { origin: origin() },
  });
  expect(second.status(), await second.text()).toBe(201);
  await otherPage.goto('/dashboard');
  await expect(otherPage.getByRole('link', { name: 'Dashboard' }).first()).toBeVisible();
  await expect(otherPage.getByRole('link', { name: 'Admin' })).toHaveCount(0);
  await otherPage.goto('/admin');
  await expect(otherPage.getByRole('heading', { name: 'Admins only' })).toBeVisible();
  await expect(otherPage.getByText('Only platform administrators can open the admin console.')).toBeVisible();
  // The server refuses the admin API to them too.
  expect((await otherPage.request.get('/api/admin/users')).status()).toBe(403);

  // A visitor writes from the contact page.
  await page.goto('/contact');
  await page.getByLabel('Name', { exact: true }).fill('Grace Hopper');
  await page.getByLabel('Email', { exact: true }).fill(`grace-${stamp}@example.com`);
  await page.getByLabel('Message', { exact: true }).fill(`Please move our books to Kontor (${stamp}).`);
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByRole('heading', { name: 'Message sent' })).toBeVisible();

  // The admin signs up (ADMIN_EMAILS) and sees the Admin item; the console needs no company.
  const signUp = await page.request.post('/api/auth/sign-up/email', {
    data: { email: ADMIN_EMAIL, password: PASSWORD, name: 'Ada Admin' },
    headers: { origin: origin() },
  });
  expect(signUp.ok(), await signUp.text()).toBe(true);
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Set up your company' })).toBeVisible();
  await page.getByRole('link', { name: 'Admin' }).first().click();
  await expect(page.getByRole('heading', { name: 'Admin', level: 1 })).toBeVisible();

  // Users: search, open, disable with a reason.
  await expect(adminTab(page, 'Users')).toHaveAttribute('aria-selected', 'true');
  await page.getByLabel('Search users').fill(targetEmail);
  const row = page.getByRole('row').filter({ hasText: targetEmail });
  await expect(row).toHaveCount(1);
  await expect(page.getByRole('row').filter({ hasText: ADMIN_EMAIL })).toHaveCount(0);
  await shot(page, 'admin-users');
  await row.getByRole('button', { name: 'Tara Target' }).click();
  await expect(page.getByRole('heading', { name: 'Tara Target' })).toBeVisible();
  const companies = page.getByRole('table', { name: /companies/ });
  await expect(companies.getByRole('row').filter({ hasText: 'Target Shop' })).toContainText(
    'Deleted with them',
  );
  await shot(page, 'admin-user-detail');

  await page.getByRole('button', { name: 'Disable', exact: true }).click();
  const disable = page.getByRole('dialog', { name: `Disable ${targetEmail}?` });
  await disable.getByRole('button', { name: 'Disable user' }).click();
  await expect(disable.getByRole('alert')).toContainText('at least 3 characters');
  await disable.getByLabel('Reason').fill(reason);
  await disable.getByRole('button', { name: 'Disable user' }).click();
  await expect(disable).toHaveCount(0);
  await expect(page.getByText(`${targetEmail} is disabled and was signed out.`)).toBeVisible();
  await expect(page.getByText(`The reason they see at sign-in: ${reason}`)).toBeVisible();

  // Their session ended, and signing in tells them why.
  await otherPage.goto('/dashboard');
  await expect(otherPage).toHaveURL(/\/login/);
  await signIn(otherPage, targetEmail, PASSWORD);
  await expect(otherPage.getByText(reason)).toBeVisible();

  // Enabled again, they can sign in.
  await page.getByRole('button', { name: 'Enable', exact: true }).click();
  await expect(page.getByText(`${targetEmail} can sign in again.`)).toBeVisible();
  await signIn(otherPage, targetEmail, PASSWORD);
  await expect(otherPage).toHaveURL(/\/dashboard/);
  await other.close();

  // A reset link goes out, and their data downloads as a JSON attachment.
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText(`A password reset link was sent to ${targetEmail}.`)).toBeVisible();
  const exportHref = await page.getByRole('link', { name: 'Export data' }).getAttribute('href');
  const exported = await page.request.get(exportHref!);
  expect(exported.status()).toBe(200);
  expect(exported.headers()['content-disposition']).toContain('attachment');
  expect(await exported.text()).toContain(targetEmail);

  // Deleting a user takes their email typed out, and names the company that goes with them.
  const goneEmail = `gone-${stamp}@example.com`;
  const gone = await browser.newContext();
  await signUpWithCompany(gone.request, goneEmail, 'Gus Gone', 'Gone Shop');
  await gone.close();
  await page.getByRole('button', { name: 'Back to users' }).click();
  await page.getByLabel('Search users').fill(goneEmail);
  await page
    .getByRole('row')
    .filter({ hasText: goneEmail })
    .getByRole('button', { name: 'Gus Gone' })
    .click();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  const del = page.getByRole('dialog', { name: `Delete ${goneEmail}?` });
  await expect(del.getByRole('listitem').filter({ hasText: 'Gone Shop' })).toBeVisible();
  await expect(del.getByRole('button', { name: 'Delete user' })).toBeDisabled();
  await del.getByLabel(`Type ${goneEmail} to confirm`).fill('someone@example.com');
  await expect(del.getByRole('button', { name: 'Delete user' })).toBeDisabled();
  await del.getByLabel(`Type ${goneEmail} to confirm`).fill(goneEmail);
  await del.getByRole('button', { name: 'Delete user' }).click();
  await expect(page.getByText(`Deleted ${goneEmail} and 1 company (Gone Shop).`)).toBeVisible();
  await page.getByLabel('Search users').fill(goneEmail);
  await expect(page.getByText('No users match')).toBeVisible();

  // Promo codes: create one, see it listed.
  await adminTab(page, 'Promo codes').click();
  await page.getByRole('button', { name: 'New promo code' }).click();
  const promoDialog = page.getByRole('dialog', { name: 'New promo code' });
  const code = `E2E-${stamp}`.toUpperCase();
  await promoDialog.getByLabel('Code').fill(code.toLowerCase());
  await expect(promoDialog.getByLabel('Code')).toHaveValue(code);
  await promoDialog.getByLabel('Kind').selectOption('trial_extension');
  await promoDialog.getByLabel('Extra trial days').fill('10');
  await promoDialog.getByLabel('Max redemptions (optional)').fill('50');
  await promoDialog.getByRole('button', { name: 'Create code' }).click();
  await expect(promoDialog).toHaveCount(0);
  await expect(page.getByText(`Created ${code}.`)).toBeVisible();
  const promoRow = page.getByRole('row').filter({ hasText: code });
  await expect(promoRow).toContainText('10 more trial days');
  await expect(promoRow).toContainText('Active');
  await expect(promoRow).toContainText('0 of 50');
  await shot(page, 'admin-promo-codes');

  // Messages: the contact message is there, unread until marked.
  await expect(adminTab(page, 'Messages')).toHaveText(/Messages \(\d+ unread\)/);
  await adminTab(page, 'Messages').click();
  const message = page.getByRole('article').filter({ hasText: stamp });
  await expect(message).toContainText('Grace Hopper');
  await expect(message.getByText('Unread', { exact: true })).toBeVisible();
  await expect(message.getByRole('link', { name: /Reply/ })).toHaveAttribute('href', /^mailto:grace-/);
  await message.getByRole('button', { name: /Mark read/ }).click();
  await expect(message.getByText('Unread', { exact: true })).toHaveCount(0);
  await shot(page, 'admin-messages');

  // Audit log: filter by the target's company; the CSV carries the same filter.
  await adminTab(page, 'Audit log').click();
  await page.getByLabel('Company id').fill(targetCompanyId);
  await page.getByRole('button', { name: 'Filter', exact: true }).click();
  const entries = page.getByRole('table', { name: 'Audit log entries' });
  await expect(entries.getByRole('row').nth(1)).toContainText('Target Shop');
  await expect(entries.getByRole('row').filter({ hasText: 'Other Shop' })).toHaveCount(0);
  const csvHref = await page.getByRole('link', { name: 'Export CSV' }).getAttribute('href');
  expect(csvHref).toContain(`organizationId=${targetCompanyId}`);
  const csv = await page.request.get(csvHref!);
  expect(csv.status()).toBe(200);
  expect(csv.headers()['content-type']).toContain('text/csv');
  const csvText = await csv.text();
  expect(csvText).toContain(targetCompanyId);
  expect(csvText).not.toContain('Other Shop');
  // The admin's own actions are listed with them.
  const actions = page.getByRole('table', { name: 'Admin actions' });
  await expect(actions.getByRole('row').filter({ hasText: ADMIN_EMAIL }).first()).toBeVisible();
  await shot(page, 'admin-audit');

  // System: the database is up.
  await adminTab(page, 'System').click();
  await expect(page.getByRole('heading', { name: 'Database' })).toBeVisible();
  await expect(page.getByText('PGlite (embedded)')).toBeVisible();
  await shot(page, 'admin-system');

  // Jobs: the server's scheduled background work is on the queue (docs/jobs.md).
  await adminTab(page, 'Jobs').click();
  const queues = page.getByRole('table', { name: 'Jobs by queue and state' });
  await expect(queues.getByRole('row').filter({ hasText: 'recurring-invoices' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Dead jobs' })).toBeVisible();
  await shot(page, 'admin-jobs');

  // Subscriptions: the summary and the list.
  await adminTab(page, 'Subscriptions').click();
  await expect(page.getByText('Monthly recurring revenue')).toBeVisible();
  await expect
    .soft(
      page.getByRole('table', { name: 'Subscriptions' }).getByRole('row').filter({ hasText: targetEmail }),
    )
    .toBeVisible();
  await shot(page, 'admin-subscriptions');

  // Dark mode and a phone.
  await page.getByRole('button', { name: 'Switch to dark mode' }).click();
  await shot(page, 'admin-subscriptions-dark');
  await adminTab(page, 'Users').click();
  await shot(page, 'admin-users-dark');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'admin-users-phone-dark');
  await page.getByRole('button', { name: 'Switch to light mode' }).click();
  await adminTab(page, 'Messages').click();
  await shot(page, 'admin-messages-phone');
  await adminTab(page, 'Audit log').click();
  await shot(page, 'admin-audit-phone');
});
