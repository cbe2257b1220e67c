import { expect, test } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { signIn, signOut, signUp, uniqueEmail, verifyEmail } from './auth-helpers.ts';

// The account journey of issue 3 in Chromium: sign up, stay signed in across a reload, sign
// out, get sent to /login from a private page, sign in, reset the password from the
// mailbox, and sign in with the new one while the old one fails.

test('sign up, reload, sign out, guard, sign in, reset the password, sign in with the new one', async ({
  page,
}) => {
  const email = uniqueEmail('journey');
  const password = 'First-Pass-11';
  const newPassword = 'Second-Pass-22';

  await signUp(page, email, password);
  await page.reload();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();

  await signOut(page);
  await page.goto('/dashboard');
  await page.waitForURL('**/login');
  await expect(page.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();

  await signIn(page, email, password);
  await page.waitForURL('**/dashboard');
  await signOut(page);

  // Reset modal: send a link, see "Email Sent!", close.
  await page.getByRole('button', { name: 'Forgot your password?' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Email address').fill(`  ${email.toUpperCase()} `);
  await dialog.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(dialog.getByRole('heading', { name: 'Email Sent!' })).toBeVisible();
  await expect(dialog).toContainText(email);
  await expect(dialog).toContainText('expires in 24 hours');
  await dialog.getByRole('button', { name: 'Close' }).first().click();
  await expect(dialog).toBeHidden();

  // Open the link from the development mailbox.
  await page.goto('/dev/mailbox');
  await page
    .getByRole('button', { name: /Reset your Kontor password/ })
    .filter({ hasText: email })
    .first()
    .click();
  const link = page.getByTestId('mail-text').getByRole('link', { name: /reset-password\?token=/ });
  await expect(link).toBeVisible();
  await link.click();
  await page.waitForURL(/\/reset-password\?token=/);
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm new password').fill(newPassword);
  await page.getByRole('button', { name: 'Set New Password' }).click();
  await page.waitForURL('**/login');
  await expect(page.getByText('Your password has been changed.')).toBeVisible();

  // The old password fails, the new one works.
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('alert')).toHaveText('Incorrect email or password. Please try again.');
  await page.getByLabel('Password', { exact: true }).fill(newPassword);
  await expect(page.getByRole('alert')).toHaveCount(0); // the error clears on edit
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL('**/dashboard');
});

test('confirm the email address: banner, resend, the emailed link, Settings', async ({ page }) => {
  const email = uniqueEmail('verify');
  await signUp(page, email, 'Verify-Pass-44');
  // Unconfirmed users still work in their own company (Settings needs one).
  const origin = new URL(test.info().project.use.baseURL!).origin;
  const company = await page.request.post('/api/orgs', {
    data: { name: 'Confirm Co', baseCurrency: 'USD', fiscalYearStartMonth: 1 },
    headers: { origin },
  });
  expect(company.status()).toBe(201);
  await page.reload();

  // Signed in and unconfirmed: the banner says so on every app page and sends a new link.
  const banner = page.getByTestId('verify-email-banner');
  await expect(banner).toContainText('Please confirm your email address');
  await expect(banner).toContainText(email);
  const resend = banner.getByRole('button', { name: 'Send a new confirmation link' });
  await resend.click();
  await expect(banner.getByRole('status')).toHaveText(
    `We sent a new confirmation link to ${email}. It is valid for 24 hours.`,
  );
  // The button was disabled while sending; focus comes back to it instead of the page.
  await expect(resend).toBeFocused();
  await page.goto('/settings?tab=security');
  const status = page.getByTestId('email-verification');
  await expect(status).toContainText('Not confirmed yet.');
  await expect(status.getByRole('button', { name: 'Send a new confirmation link' })).toBeVisible();

  // Inviting someone needs a confirmed sender: the form says so as a whole, and the address
  // typed in (which is fine) is not marked wrong.
  await page.getByRole('tab', { name: 'Members' }).click();
  const inviteEmail = page.getByRole('textbox', { name: 'Email address' });
  await inviteEmail.fill('colleague@example.com');
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'Confirm your email address before Kontor sends email to other people for you: open the confirmation link we emailed you, or send a new one from the banner at the top of the app or from Settings > Security. Then try again.',
  );
  await expect(inviteEmail).not.toHaveAttribute('aria-invalid', 'true');

  // The link from the mailbox confirms the address and lands on the dashboard.
  await page.goto('/dev/mailbox');
  // The development mailbox holds every worker's mail: this user's newest confirmation, not
  // another test's (clicking that one signed in as its user and landed on /).
  await page
    .getByRole('button', { name: /Confirm your email address for Kontor/ })
    .filter({ hasText: email })
    .first()
    .click();
  const link = page.getByTestId('mail-text').getByRole('link', { name: /verify-email\?token=/ });
  await expect(link).toBeVisible();
  await link.click();
  await page.waitForURL(/\/dashboard\?verified=1$/);
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await expect(page.getByTestId('verify-email-banner')).toHaveCount(0);
  // A one-time note says so; dismissing it leaves the plain dashboard address.
  const notice = page.getByTestId('email-verified-notice');
  await expect(notice.getByRole('status')).toHaveText(
    'Your email address is confirmed. You can now accept invitations and send invoices and invitations by email.',
  );
  await notice.getByRole('button', { name: 'Dismiss' }).click();
  await expect(notice).toHaveCount(0);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto('/settings?tab=security');
  await expect(page.getByTestId('email-verification')).toContainText('Your email address is confirmed.');
});

test('sign-up does not reveal an existing account; common passwords are refused', async ({
  page,
  browser,
}) => {
  const email = uniqueEmail('taken');
  await signUp(page, email, 'Owner-Pass-55');
  await verifyEmail(page.request, email);

  // Someone else tries the same address in another browser: "Check your inbox", nobody signed in.
  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const other = await context.newPage();
  await other.goto('/signup');
  await other.getByLabel('First name').fill('Eve');
  await other.getByLabel('Last name').fill('Intruder');
  await other.getByLabel('Email address').fill(email);
  await other.getByLabel('Password', { exact: true }).fill('password1');
  await other.getByLabel('Confirm password').fill('password1');
  await other.getByRole('button', { name: 'Create Account' }).click();
  await expect(other.getByRole('alert')).toHaveText(
    'This password is one of the most common ones and easy to guess. Please choose another.',
  );
  await other.getByLabel('Password', { exact: true }).fill('Another-Pass-66');
  await other.getByLabel('Confirm password').fill('Another-Pass-66');
  await other.getByRole('button', { name: 'Create Account' }).click();
  await expect(other.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();
  // The form is gone: focus is on the message that replaced it, not lost on the page.
  await expect(other.getByTestId('signup-check-inbox')).toBeFocused();
  await other.goto('/dashboard');
  await other.waitForURL('**/login');
  await context.close();

  // The owner got an email about it, and their password still works.
  const list = (await (
    await page.request.get(`/api/dev/mailbox?to=${encodeURIComponent(email)}`)
  ).json()) as {
    messages: { subject: string }[];
  };
  expect(list.messages.map((m) => m.subject)).toContain(
    'Someone tried to sign up to Kontor with your email address',
  );
  await signOut(page);
  await signIn(page, email, 'Owner-Pass-55');
  await page.waitForURL('**/dashboard');
});

test('sign up with a valid promo code redeems it', async ({ page, request }) => {
  const code = `E2E${Date.now().toString(36).toUpperCase()}`;
  const created = await request.post('/api/dev/promo-codes', {
    data: { code, planAccess: 'business', description: 'Three months of Business', maxRedemptions: 1 },
  });
  expect(created.status()).toBe(201);

  await page.goto('/signup');
  await page.getByRole('button', { name: 'Have a promo code?' }).click();
  const field = page.getByLabel('Promo code (optional)');
  await field.fill('nope12');
  await expect(field).toHaveValue('NOPE12');
  await expect(page.getByText('Invalid or expired promo code.')).toBeVisible();
  await field.fill(code.slice(0, 5));
  await expect(page.getByText('Invalid or expired promo code.')).toHaveCount(0);
  await field.fill(code.toLowerCase());
  await expect(field).toHaveValue(code);
  await expect(page.getByText('Valid Promo Code!')).toBeVisible();
  await expect(page.getByText('Plan access: Business')).toBeVisible();
  await expect(page.getByText('Three months of Business')).toBeVisible();

  await page.getByLabel('First name').fill('Promo');
  await page.getByLabel('Last name').fill('User');
  await page.getByLabel('Email address').fill(uniqueEmail('promo'));
  await page.getByLabel('Password', { exact: true }).fill('Promo-Pass-33');
  await page.getByLabel('Confirm password').fill('Promo-Pass-33');
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.waitForURL('**/dashboard');

  // The single use is taken: the code no longer validates.
  await expect
    .poll(
      async () => (await (await request.post('/api/promo-codes/validate', { data: { code } })).json()).valid,
    )
    .toBe(false);
});

test('login and signup forms show SPEC messages and the strength meter', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('alert')).toHaveText('Email address is required.');
  const email = page.getByLabel('Email address');
  await email.fill('bad@');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByText('Please enter a valid email address', { exact: true })).toBeVisible();
  await expect(email).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByRole('button', { name: 'Sign In' })).toBeDisabled();
  await email.fill('good@example.com');
  await expect(page.getByText('Valid email format')).toBeVisible();
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('alert')).toHaveText('Password is required.');
  await page.getByRole('link', { name: 'Create one here' }).click();
  await page.waitForURL('**/signup');

  await expect(page.getByLabel('First name')).toBeFocused();
  await page.getByLabel('First name').fill('A');
  await expect(
    page.getByText('First name must be at least 2 characters and contain only letters.'),
  ).toBeVisible();
  const pw = page.getByLabel('Password', { exact: true });
  await pw.fill('abc');
  await expect(page.getByText('Password strength: Weak password')).toBeVisible();
  await pw.fill('Abcdefgh');
  await expect(page.getByText('Password strength: Fair')).toBeVisible();
  await pw.fill('Abcdefg1');
  await expect(page.getByText('Password strength: Good')).toBeVisible();
  await pw.fill('Abcdef1!');
  await expect(page.getByText('Password strength: Strong')).toBeVisible();
  await page.getByLabel('Confirm password').fill('Abcdef1?');
  await expect(page.getByText("Passwords don't match")).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create Account' })).toBeDisabled();
  await page.getByLabel('Confirm password').fill('Abcdef1!');
  await expect(page.getByText('Passwords match')).toBeVisible();
  await page.screenshot({ path: '/tmp/kontor-signup.png', fullPage: true });
});

test('the guard explains an unreachable auth system and Refresh Page clears the markers', async ({
  page,
}) => {
  await page.route('**/api/auth/get-session', (route) => route.abort('connectionrefused'));
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Authentication System Error' })).toBeVisible();
  await expect(
    page.getByText(
      'The authentication system is not properly initialized. Please refresh the page and try again.',
    ),
  ).toBeVisible();
  await page.evaluate(() => {
    for (const k of ['kontor:sw-reload', 'kontor:force-cache-reload', 'kontor:cache-manager-init'])
      sessionStorage.setItem(k, '1');
  });
  await page.unroute('**/api/auth/get-session');
  await page.getByRole('button', { name: 'Refresh Page' }).click();
  await page.waitForURL('**/login');
  const left = await page.evaluate(() =>
    ['kontor:sw-reload', 'kontor:force-cache-reload', 'kontor:cache-manager-init'].map((k) =>
      sessionStorage.getItem(k),
    ),
  );
  expect(left).toEqual([null, null, null]);
});

test('the guard shows Authentication Error when the session check fails on the server', async ({ page }) => {
  await page.route('**/api/auth/get-session', (route) =>
    route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"boom"}' }),
  );
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Authentication Error' })).toBeVisible();
  await expect(page.getByText('Internal authentication error. Please try again.')).toBeVisible();
  await page.unroute('**/api/auth/get-session');
  await page.getByRole('button', { name: 'Go to Login' }).click();
  await page.waitForURL('**/login');
});

test('an unconfirmed invitee sees the invitation and is told to confirm first (dark, accessible)', async ({
  page,
  browser,
}) => {
  const owner = uniqueEmail('inviter');
  const invitee = uniqueEmail('invitee');
  await signUp(page, owner, 'Inviter-Pass-31');
  await verifyEmail(page.request, owner);
  const origin = new URL(test.info().project.use.baseURL!).origin;
  const company = await page.request.post('/api/orgs', {
    data: { name: 'Lantern Ltd', baseCurrency: 'USD', fiscalYearStartMonth: 1 },
    headers: { origin },
  });
  expect(company.status()).toBe(201);
  const { id } = (await company.json()) as { id: string };
  const invite = await page.request.post(`/api/orgs/${id}/invitations`, {
    data: { email: invitee, role: 'accountant' },
    headers: { origin },
  });
  expect(invite.status()).toBe(201);

  const context = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const other = await context.newPage();
  await other.addInitScript(() => localStorage.setItem('theme', 'dark'));
  await signUp(other, invitee, 'Invitee-Pass-32');
  const accept = other.getByRole('button', { name: 'Accept the invitation to join Lantern Ltd' });
  await expect(accept).toBeVisible();
  await expect(
    other.getByRole('button', { name: 'Decline the invitation to join Lantern Ltd' }),
  ).toBeVisible();
  // The invitation card and the confirmation banner are readable in dark mode: the card's
  // background is dark (it stayed light blue under white text while brand-950 was undefined).
  const cardLightness = await other
    .locator('section[aria-label="Invitations"] > div')
    .first()
    .evaluate((card) => {
      const color = getComputedStyle(card).backgroundColor;
      const oklab = /^oklab\(([\d.]+)/.exec(color);
      if (oklab) return Number(oklab[1]);
      const rgb = /rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(color);
      return rgb
        ? (0.2126 * Number(rgb[1]) + 0.7152 * Number(rgb[2]) + 0.0722 * Number(rgb[3])) / 255
        : Number.NaN;
    });
  expect(cardLightness).toBeLessThan(0.5);
  const results = await new AxeBuilder({ page: other })
    .include('section[aria-label="Invitations"]')
    .include('[data-testid="verify-email-banner"]')
    .withTags(['wcag2a', 'wcag2aa'])
    .analyze();
  expect(results.violations.map((v) => `${v.id} ${v.nodes[0]?.target}`)).toEqual([]);
  await accept.click();
  await expect(other.getByRole('alert')).toHaveText(
    `Confirm your email address ${invitee} before answering this invitation: open the confirmation link we emailed you, or send a new one from the banner at the top of the app or from Settings > Security. Then accept again.`,
  );
  await context.close();
});

for (const theme of ['light', 'dark'] as const) {
  test(`sign-in, sign-up and reset screens have no accessibility violations (${theme})`, async ({ page }) => {
    await page.addInitScript((t) => localStorage.setItem('theme', t), theme);
    for (const path of ['/login', '/signup', '/reset-password?token=abc']) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      // The prerendered form is disabled until the page has hydrated (ReadyForm); check the
      // form a person uses.
      await expect(page.locator('form fieldset').first()).toBeEnabled();
      // Colours as they end, not half-way through the buttons' transition from their disabled look.
      await page.addStyleTag({ content: '*, *::before, *::after { transition: none !important; }' });
      const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
      expect(results.violations.map((v) => `${path}: ${v.id} ${v.nodes[0]?.target}`)).toEqual([]);
    }
    await page.goto('/login');
    await page.getByRole('button', { name: 'Forgot your password?' }).click();
    await page.getByRole('dialog').waitFor();
    const modal = await new AxeBuilder({ page })
      .include('[role="dialog"]')
      .withTags(['wcag2a', 'wcag2aa'])
      .analyze();
    expect(modal.violations.map((v) => v.id)).toEqual([]);
  });
}
