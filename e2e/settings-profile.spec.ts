import fs from 'node:fs';
import { type Page, expect, test } from '@playwright/test';
import { totp } from '../src/server/testing/totp.ts';
import { signUpWithCompany } from './auth-helpers.ts';

// Issue 17, Settings → Profile and Security as a new user meets them: edit the profile (a bad
// name gets its field message), upload a photo and crop it (moved with the keyboard, zoomed
// with the slider), see it in the user menu, change the email through the link mailed to the
// new address, and regenerate the two-factor backup codes. Screenshots (light and dark, 1280
// and 390 px wide) go to SHOTS_DIR (default /tmp/shots).

const SHOTS = process.env.SHOTS_DIR ?? '/tmp/shots';
const PASSWORD = 'Correct-Horse-9';

const shot = async (page: Page, name: string) => {
  await page.waitForLoadState('networkidle', { timeout: 3000 }).catch(() => undefined);
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/settings-profile-${name}.png`, fullPage: true });
};

/** Shots at 1280×800 and 390×844, with no sideways scroll at either. */
const shots = async (page: Page, name: string) => {
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await shot(page, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
};

/** A 600×400 PNG drawn in the browser: left half blue, right half orange. */
const landscapePng = async (page: Page) => {
  const dataUrl = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 600;
    canvas.height = 400;
    const c = canvas.getContext('2d')!;
    c.fillStyle = '#2563eb';
    c.fillRect(0, 0, 300, 400);
    c.fillStyle = '#f97316';
    c.fillRect(300, 0, 300, 400);
    return canvas.toDataURL('image/png');
  });
  return Buffer.from(dataUrl.split(',')[1]!, 'base64');
};

test('profile, photo, email change and backup codes', async ({ page }) => {
  test.setTimeout(120_000);
  const company = await signUpWithCompany(page, {
    tag: 'profile',
    name: 'Pat Profile',
    company: 'Profile Works',
    password: PASSWORD,
  });
  const me = async () => (await page.request.get('/api/me/profile')).json();
  const oldEmail = (await me()).email as string;

  await page.goto('/settings');
  const tabs = page.getByRole('tablist', { name: 'Settings sections' });
  await expect(tabs.getByRole('tab').first()).toHaveText('Profile');
  await tabs.getByRole('tab', { name: 'Profile' }).click();
  const profile = page.getByTestId('profile-settings');
  await expect(profile).toBeVisible();
  // No photo yet: the user menu shows initials.
  await expect(page.getByRole('banner').getByTestId('avatar-initials')).toBeVisible();
  await shots(page, 'empty-light');

  // --- Details, with a field message for a bad name ---------------------------------------
  await profile.getByLabel('First name').fill('P');
  await profile.getByLabel('Last name').fill('Profile');
  await profile.getByLabel('Job title').fill('Finance lead');
  await profile.getByLabel('Phone').fill('+1 (555) 010-0199');
  await profile.getByRole('button', { name: 'Save profile' }).click();
  const firstName = profile.getByLabel('First name');
  await expect(firstName).toHaveAttribute('aria-invalid', 'true');
  await expect(
    profile.getByText('First name must be at least 2 characters and contain only letters.'),
  ).toBeVisible();
  expect((await me()).role).toBe('');
  await firstName.fill('Pat');
  await profile.getByRole('button', { name: 'Save profile' }).click();
  await expect(profile.getByText('Profile saved.')).toBeVisible();
  const saved = await me();
  expect(saved).toMatchObject({
    firstName: 'Pat',
    lastName: 'Profile',
    displayName: 'Pat Profile',
    role: 'Finance lead',
    phone: '+1 (555) 010-0199',
  });

  // --- Photo: choose, crop, save ----------------------------------------------------------
  await page.locator('#profile-photo-file').setInputFiles({
    name: 'holiday.png',
    mimeType: 'image/png',
    buffer: await landscapePng(page),
  });
  const dialog = page.getByRole('dialog', { name: 'Crop your photo' });
  await expect(dialog).toBeVisible();
  const area = dialog.getByRole('application', { name: 'Photo position' });
  await expect(area.getByRole('img', { name: 'Crop preview' })).toBeVisible();
  await dialog.getByLabel('Zoom').fill('2');
  await area.focus();
  // Far to the left edge: the blue half fills the square.
  for (let i = 0; i < 12; i += 1) await area.press('Shift+ArrowLeft');
  await shot(page, 'crop-1280');
  await dialog.getByRole('button', { name: 'Save photo' }).click();
  await expect(dialog).toBeHidden();
  await expect(profile.getByText('Photo saved.')).toBeVisible();
  const photoURL = (await me()).photoURL as string;
  expect(photoURL).toMatch(/^\/api\/me\/profile\/photo\?v=[0-9a-f]{16}$/);
  await expect(page.getByRole('banner').getByTestId('avatar-photo')).toHaveAttribute('src', photoURL);

  // The stored photo is the 256×256 square, all blue (the part moved into view).
  const stored = await page.request.get(photoURL);
  expect(stored.headers()['content-type']).toBe('image/png');
  const pixels = await page.evaluate(async (url) => {
    const img = new Image();
    img.src = url;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    const c = canvas.getContext('2d')!;
    c.drawImage(img, 0, 0);
    const at = (x: number, y: number) => Array.from(c.getImageData(x, y, 1, 1).data);
    return {
      w: img.naturalWidth,
      h: img.naturalHeight,
      corner: at(5, 5),
      middle: at(128, 128),
      edge: at(250, 250),
    };
  }, photoURL);
  expect([pixels.w, pixels.h]).toEqual([256, 256]);
  for (const p of [pixels.corner, pixels.middle, pixels.edge]) expect(p.slice(0, 3)).toEqual([37, 99, 235]);
  await shots(page, 'photo-light');

  // A file that is not an image is refused on the page, nothing sent.
  await page.locator('#profile-photo-file').setInputFiles({
    name: 'notes.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('hello'),
  });
  await expect(profile.getByText('A profile photo must be a PNG, JPEG, WebP or GIF image.')).toBeVisible();
  expect((await me()).photoURL).toBe(photoURL);

  // --- Email change through the link mailed to the new address ------------------------------
  const newEmail = `moved-${Date.now()}@example.com`;
  await profile.getByLabel('New email address').fill(newEmail);
  await profile.getByLabel('Current password', { exact: true }).fill(PASSWORD);
  await profile.getByRole('button', { name: 'Send confirmation link' }).click();
  await expect(profile.getByText(`We sent a confirmation link to ${newEmail}.`)).toBeVisible();
  expect((await me()).email).toBe(oldEmail);
  const list = await (await page.request.get(`/api/dev/mailbox?to=${encodeURIComponent(newEmail)}`)).json();
  const mail = list.messages.find(
    (m: { subject: string }) => m.subject === 'Confirm your new email address for Kontor',
  );
  expect(mail).toBeTruthy();
  const text = (await (await page.request.get(`/api/dev/mailbox/${mail.id}`)).json()).text as string;
  const link = new URL(/https?:\/\/\S+\/api\/auth\/verify-email\?\S+/.exec(text)![0]);
  await page.goto(`${link.pathname}${link.search}`);
  await page.waitForURL('**/settings?tab=profile');
  await expect(page.getByText('Your email address is changed and confirmed.')).toBeVisible();
  await expect(page.getByTestId('profile-settings').getByText(newEmail)).toBeVisible();
  expect(await me()).toMatchObject({ email: newEmail, emailVerified: true });

  // --- Security → backup codes -------------------------------------------------------------
  const enable = await page.request.post('/api/auth/two-factor/enable', {
    data: { password: PASSWORD },
    headers: company.headers,
  });
  expect(enable.ok()).toBe(true);
  const secret = new URL((await enable.json()).totpURI).searchParams.get('secret')!;
  const verified = await page.request.post('/api/auth/two-factor/verify-totp', {
    data: { code: totp(secret) },
    headers: company.headers,
  });
  expect(verified.ok()).toBe(true);
  await page.goto('/settings?tab=security');
  const security = page.getByTestId('security-settings');
  await security.getByRole('button', { name: 'Regenerate backup codes' }).click();
  await security.getByLabel('Confirm with your password').last().fill('wrong-password-1');
  await security.getByRole('button', { name: 'Make new codes' }).click();
  await expect(security.getByText('Incorrect password. Please try again.')).toBeVisible();
  await security.getByLabel('Confirm with your password').last().fill(PASSWORD);
  await security.getByRole('button', { name: 'Make new codes' }).click();
  const codes = page.getByTestId('new-backup-codes').locator('li');
  await expect(codes).toHaveCount(10);
  const shown = await codes.allTextContents();
  const download = page.waitForEvent('download');
  await security.getByRole('button', { name: 'Download .txt' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^kontor-backup-codes-\d{4}-\d{2}-\d{2}\.txt$/);
  const body = fs.readFileSync((await file.path())!, 'utf8');
  for (const code of shown) expect(body).toContain(code);
  await security.getByRole('heading', { name: 'Backup codes' }).scrollIntoViewIfNeeded();
  await shots(page, 'backup-codes-light');

  // --- Dark -------------------------------------------------------------------------------
  await page.evaluate(() => localStorage.setItem('theme', 'dark'));
  await page.goto('/settings?tab=profile');
  await expect(page.locator('html')).toHaveClass(/dark/);
  await expect(page.getByTestId('profile-settings')).toBeVisible();
  await shots(page, 'photo-dark');
  await page.locator('#profile-photo-file').setInputFiles({
    name: 'holiday.png',
    mimeType: 'image/png',
    buffer: await landscapePng(page),
  });
  await expect(page.getByRole('dialog', { name: 'Crop your photo' })).toBeVisible();
  await shots(page, 'crop-dark');
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  await page.goto('/settings?tab=security');
  await expect(page.getByTestId('security-settings')).toBeVisible();
  await shots(page, 'security-dark');
});
