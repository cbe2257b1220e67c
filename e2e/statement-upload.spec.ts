import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { signUpWithCompany } from './auth-helpers.ts';

// Issue 12 §1–2: the page sends a statement's raw bytes; the server reads its character set,
// and a file with several statements is imported per statement into the account chosen for each.

const PASSWORD = 'Correct-Horse-9';
const fixture = (name: string) =>
  path.resolve(import.meta.dirname, '../src/server/modules/statement-import/fixtures', name);

const setUp = async (page: Page) => {
  const { post } = await signUpWithCompany(page, {
    tag: 'upload',
    name: 'Rita Books',
    company: 'Harbor Coffee Co',
    password: PASSWORD,
  });
  const add = (data: Record<string, unknown>) =>
    post(
      '/wallet/accounts',
      { kind: 'bank', currency: 'USD', openingDate: '2026-10-01', openingBalance: 0, ...data },
      201,
    );
  await post('/wallet/rates', { currency: 'EUR', date: '2026-10-01', rate: '1.08' });
  await add({ name: 'Business checking', accountNumber: '000111222' });
  await add({ name: 'Company Visa', kind: 'credit_card', accountNumber: '4111 0000 1111 4821' });
  await add({ name: 'Compte EUR', currency: 'EUR' });
};

test('statement upload: accents from a Windows-1252 file, two statements into two accounts', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await setUp(page);
  await page.goto('/transactions');
  await expect(page.getByRole('heading', { name: 'Transactions' })).toBeVisible();

  // A CHARSET:1252 QFX: the names come out as the bank wrote them.
  await page.getByRole('button', { name: 'Import statement' }).first().click();
  const wizard = page.getByRole('dialog', { name: 'Import bank statement' });
  await wizard.getByLabel('Account', { exact: true }).selectOption({ label: 'Compte EUR (EUR)' });
  await wizard.getByLabel('Statement file').setInputFiles(fixture('accents-1252.qfx'));
  await wizard.getByRole('button', { name: 'Continue' }).click();
  await expect(wizard.getByText("Café Müller – Bäckerei - Déjeuner d'équipe €")).toBeVisible();
  await expect(wizard.getByTestId('preview-encoding')).toHaveText('Characters read as windows-1252.');
  await wizard.getByRole('button', { name: 'Close' }).click();
  await page.reload();

  // An OFX with a checking and a credit-card statement: each is listed and goes to its account.
  await page.getByRole('button', { name: 'Import statement' }).first().click();
  await wizard.getByLabel('Account', { exact: true }).selectOption({ label: 'Business checking (USD)' });
  await wizard.getByLabel('Statement file').setInputFiles(fixture('multi-statement.ofx'));
  await wizard.getByRole('button', { name: 'Continue' }).click();
  const statements = wizard.getByTestId('preview-statement');
  await expect(statements).toHaveCount(2);
  await expect(statements.nth(0)).toContainText('000111222');
  await expect(statements.nth(0)).toContainText('$4,966.23');
  await expect(statements.nth(1)).toContainText('credit card · 4111000011114821');
  // The card's statement is matched to the account whose number ends alike.
  await expect(wizard.getByLabel('Import into').nth(1)).toHaveValue(/.+/);
  await expect(wizard.getByTestId('preview-new')).toHaveText('5');
  await page.screenshot({ path: 'e2e-artifacts/statement-upload-statements.png', fullPage: true });
  await wizard.getByRole('button', { name: 'Import 5 transactions' }).click();
  await expect(wizard.getByText(/Imported 5 transactions/)).toBeVisible();
  await wizard.getByRole('button', { name: 'Done' }).click();
  await page.goto('/wallet');
  await expect(page.getByText('$2,466.23').first()).toBeVisible();
  await expect(page.getByText('$370.10').first()).toBeVisible();
});

// Issue 12, speed: a long import shows the upload's bytes, then the rows the server has posted.
test('statement upload: a long statement shows upload progress, then rows posted', async ({ page }) => {
  test.setTimeout(180_000);
  await setUp(page);
  const rows = 25_000;
  const lines = Array.from(
    { length: rows },
    (_, i) =>
      `<STMTTRN><TRNTYPE>CREDIT</TRNTYPE><DTPOSTED>20261105</DTPOSTED><TRNAMT>1.${String(i % 100).padStart(2, '0')}</TRNAMT><FITID>LONG${i}</FITID><NAME>Card sale ${i}</NAME><MEMO>${'x'.repeat(120)}</MEMO></STMTTRN>`,
  );
  const ofx = `OFXHEADER:100\nDATA:OFXSGML\nVERSION:102\nCHARSET:1252\n\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD<BANKACCTFROM><BANKID>1<ACCTID>000111222<ACCTTYPE>CHECKING</BANKACCTFROM><BANKTRANLIST><DTSTART>20261101<DTEND>20261130\n${lines.join('\n')}\n</BANKTRANLIST><LEDGERBAL><BALAMT>0<DTASOF>20261130</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>\n`;
  await page.goto('/transactions');
  await page.getByRole('button', { name: 'Import statement' }).first().click();
  const wizard = page.getByRole('dialog', { name: 'Import bank statement' });
  await wizard.getByLabel('Account', { exact: true }).selectOption({ label: 'Business checking (USD)' });
  await wizard
    .getByLabel('Statement file')
    .setInputFiles({ name: 'long.ofx', mimeType: 'application/x-ofx', buffer: Buffer.from(ofx) });
  await wizard.getByRole('button', { name: 'Continue' }).click();
  await expect(wizard.getByTestId('preview-new')).toHaveText('25000', { timeout: 60_000 });
  // A slow line (about 2 MB/s up), so the upload takes a moment as it would over the internet.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 20,
    downloadThroughput: -1,
    uploadThroughput: 2_000_000,
  });
  await wizard.getByRole('button', { name: 'Import 25000 transactions' }).click();
  const uploading = wizard.getByRole('progressbar', { name: 'Uploading…' });
  await expect(uploading).toBeVisible();
  await expect(uploading).toHaveAttribute('aria-valuenow', /^\d+$/);
  await expect(wizard.getByText(/^\d+%$/)).toBeVisible();
  await page.screenshot({ path: 'e2e-artifacts/statement-upload-progress.png' });
  const posting = wizard.getByRole('progressbar', { name: 'Posting rows…' });
  await expect(posting).toBeVisible({ timeout: 60_000 });
  await expect(posting).toHaveAttribute('aria-valuetext', /^[\d,]+ of 25,000$/);
  await expect(wizard.getByText(/^[\d,]+ of 25,000$/)).toBeVisible();
  await page.screenshot({ path: 'e2e-artifacts/statement-upload-posting.png' });
  await expect(wizard.getByText(/Imported 25000 transactions/)).toBeVisible({ timeout: 120_000 });
});
