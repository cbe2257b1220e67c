import { type APIRequestContext, type Locator, type Page, expect, test } from '@playwright/test';

// Shared steps of the account browser tests.

export const uniqueEmail = (tag: string) =>
  `${tag}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}@example.com`;

export const signUp = async (page: Page, email: string, password: string, promo?: string) => {
  await page.goto('/signup');
  await expect(page.getByRole('heading', { name: 'Create Your Account' })).toBeVisible();
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(password);
  if (promo) {
    await page.getByRole('button', { name: 'Have a promo code?' }).click();
    await page.getByLabel('Promo code (optional)').fill(promo);
    await expect(page.getByText('Valid Promo Code!')).toBeVisible();
  }
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.waitForURL('**/dashboard');
};

/** Signs up through the form with the given names (no promo code) and lands on the dashboard. */
export const signUpInUi = async (
  page: Page,
  email: string,
  name: [first: string, last: string],
  password: string,
) => {
  await page.goto('/signup');
  await page.getByLabel('First name').fill(name[0]);
  await page.getByLabel('Last name').fill(name[1]);
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Confirm password').fill(password);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page).toHaveURL(/\/dashboard/);
};

/** The first-company form a new user sees: creates `name` in `currency`, then the switcher shows it. */
export const createFirstCompanyInUi = async (page: Page, name: string, currency: string) => {
  await expect(page.getByRole('heading', { name: 'Set up your company' })).toBeVisible();
  await page.getByLabel('Company name').fill(name);
  await page.getByLabel('Base currency').selectOption(currency);
  await page.getByRole('button', { name: 'Create company' }).click();
  await expect(page.getByRole('button', { name: new RegExp(`Company: ${name}`) })).toBeVisible();
};

export const signIn = async (page: Page, email: string, password: string) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
};

export const signOut = async (page: Page) => {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL('**/login');
};

/** The confirmation link of the newest verification mail to an address (development mailbox). */
export const verificationLink = async (request: APIRequestContext, email: string) => {
  const list = (await (await request.get(`/api/dev/mailbox?to=${encodeURIComponent(email)}`)).json()) as {
    messages: { id: string; subject: string }[];
  };
  const mail = list.messages.find((m) => m.subject === 'Confirm your email address for Kontor');
  expect(mail, `a confirmation mail to ${email}`).toBeTruthy();
  const one = (await (await request.get(`/api/dev/mailbox/${mail!.id}`)).json()) as { text: string };
  const match = /https?:\/\/\S+\/api\/auth\/verify-email\?\S+/.exec(one.text);
  expect(match, 'a confirmation link in the mail').toBeTruthy();
  const url = new URL(match![0]);
  return `${url.pathname}${url.search}`;
};

/**
 * Confirms a user's address the way they would: opens the link Kontor mailed at sign-up
 * (read from the development mailbox). Accepting invitations and sending invoices or
 * invitations by email need it.
 */
export const verifyEmail = async (request: APIRequestContext, email: string) => {
  const res = await request.get(await verificationLink(request, email), { maxRedirects: 0 });
  expect(res.status()).toBe(302);
  expect(res.headers().location ?? '').not.toContain('error=');
};

/** A full-page screenshot in e2e-artifacts once the page has settled. */
export const shot = async (page: Page, name: string) => {
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: `e2e-artifacts/${name}.png`, fullPage: true });
};

/**
 * Signs a new user up through the API (the page's cookie jar keeps the session) and creates a
 * USD company with a calendar fiscal year (201 required). `ok` checks an answer and returns its
 * JSON; `o` is the company's API path, `id` the company's id, `headers` the same-origin header
 * the API wants on writes, and `post(path, data)` POSTs to `o + path` and returns `ok`'s JSON
 * (with `status`, that exact status is required).
 */
export const signUpWithCompany = async (
  page: Page,
  who: { tag: string; name: string; company: string; password: string },
) => {
  const origin = new URL(test.info().project.use.baseURL!).origin;
  const headers = { origin };
  const r = page.request;
  const ok = async (res: Awaited<ReturnType<typeof r.post>>): Promise<any> => {
    expect(res.ok(), await res.text()).toBe(true);
    return res.json();
  };
  await ok(
    await r.post('/api/auth/sign-up/email', {
      data: { email: `${who.tag}-${Date.now()}@example.com`, password: who.password, name: who.name },
      headers,
    }),
  );
  const created = await r.post('/api/orgs', {
    data: { name: who.company, baseCurrency: 'USD', fiscalYearStartMonth: 1 },
    headers,
  });
  expect(created.status(), await created.text()).toBe(201);
  const id = (await created.json()).id as string;
  const o = `/api/orgs/${id}`;
  const post = async (path: string, data: unknown, status?: number): Promise<any> => {
    const res = await r.post(`${o}${path}`, { data, headers });
    if (status !== undefined) expect(res.status(), `${path}: ${await res.text()}`).toBe(status);
    return ok(res);
  };
  return { r, headers, ok, o, id, post };
};

export type E2eCompany = Awaited<ReturnType<typeof signUpWithCompany>>;

/** Creates and sends (without mail) one "Design work" invoice per [amount in cents, day of November 2026]. */
export const sendInvoices = async (
  company: E2eCompany,
  customerId: string,
  items: readonly (readonly [amount: number, day: string])[],
) => {
  const sent: { id: string; number: string }[] = [];
  for (const [amount, day] of items) {
    const created = await company.post('/invoices', {
      customerId,
      issueDate: `2026-11-${day}`,
      lines: [{ description: 'Design work', quantity: '1', unitPrice: amount }],
    });
    sent.push(await company.post(`/invoices/${created.id}/send`, { email: false }));
  }
  return sent;
};

/** Opens the bank statement import (Transactions page), chooses `file` and continues: the wizard. */
export const startStatementImport = async (page: Page, file: Parameters<Locator['setInputFiles']>[0]) => {
  await page.getByRole('button', { name: 'Import statement' }).first().click();
  const wizard = page.getByRole('dialog', { name: 'Import bank statement' });
  await wizard.getByLabel('Statement file').setInputFiles(file);
  await wizard.getByRole('button', { name: 'Continue' }).click();
  return wizard;
};
