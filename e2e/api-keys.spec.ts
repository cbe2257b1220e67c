import { expect, test } from '@playwright/test';
import { shot, signUpWithCompany } from './auth-helpers.ts';

// Issue 19 item 2, as an integrator tries it: an owner creates a read-only API key in
// Settings → API keys, sees it once and copies it; a server-side client (Playwright's own
// request context: no cookie, no Origin) reads the company's books with it and is refused a
// change, naming the scope it lacks; the owner revokes the key and the next call is 401.

const PASSWORD = 'Correct-Horse-9';

test('create a key in Settings, use it from a server-side client, see its scope enforced, revoke it', async ({
  page,
  context,
  playwright,
}) => {
  test.setTimeout(180_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const company = await signUpWithCompany(page, {
    tag: 'keys',
    name: 'Kim Keys',
    company: 'Keyhole Ltd',
    password: PASSWORD,
  });

  await page.goto('/settings?tab=api-keys');
  await expect(page.getByText('No API keys')).toBeVisible();
  await page.getByRole('button', { name: 'New API key' }).first().click();
  const create = page.getByRole('dialog', { name: 'New API key' });
  await create.getByLabel('Name').fill('Reporting script');
  await expect(create.getByRole('checkbox', { name: /Read everything/ })).toBeChecked();
  await create.getByRole('button', { name: 'Create key' }).click();

  const shown = page.getByRole('dialog', { name: 'Your new key: Reporting script' });
  await expect(shown.getByText('You will not see this key again.')).toBeVisible();
  const secret = await shown.getByLabel('API key').inputValue();
  expect(secret).toMatch(/^kontor_[0-9A-Za-z]{38}$/);
  await shown.getByRole('button', { name: 'Copy key' }).click();
  await expect(shown.getByText('Copied.')).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await shot(page, 'api-keys-new-key');
  await shown.getByRole('button', { name: 'Done' }).click();
  await expect(shown).toBeHidden();

  const row = page.getByRole('row', { name: /Reporting script/ });
  await expect(row).toContainText(secret.slice(0, 15));
  await expect(row).toContainText('read');
  await expect(row).toContainText('Active');
  await expect(row).not.toContainText(secret);

  // A server-side client: a fresh request context with the key and nothing else.
  const client = await playwright.request.newContext({
    baseURL: test.info().project.use.baseURL,
    extraHTTPHeaders: { authorization: `Bearer ${secret}` },
  });
  const accounts = await client.get(`${company.o}/accounts`);
  expect(accounts.status(), await accounts.text()).toBe(200);
  expect((await accounts.json()).accounts.length).toBeGreaterThan(0);
  const write = await client.post(`${company.o}/customers`, { data: { name: 'Not allowed' } });
  expect(write.status()).toBe(403);
  expect((await write.json()).error).toMatchObject({ code: 'api_key_scope' });
  expect((await write.json()).error.message).toContain('`invoices:write`');
  const profile = await client.get('/api/me/profile');
  expect(profile.status()).toBe(401);

  // The list shows the use (to the minute) after a reload.
  await page.reload();
  const lastUsed = page
    .getByRole('row', { name: /Reporting script/ })
    .getByRole('cell')
    .nth(3);
  await expect(lastUsed).not.toHaveText('Never');

  await page.getByRole('button', { name: 'Revoke the key Reporting script' }).click();
  const confirm = page.getByRole('dialog', { name: 'Revoke Reporting script?' });
  await confirm.getByRole('button', { name: 'Revoke key' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole('row', { name: /Reporting script/ })).toContainText('Revoked');
  await expect(page.getByRole('button', { name: 'Revoke the key Reporting script' })).toHaveCount(0);

  const after = await client.get(`${company.o}/accounts`);
  expect(after.status()).toBe(401);
  expect((await after.json()).error.code).toBe('api_key_revoked');
  await client.dispose();
});
