import { expect, test } from '@playwright/test';
import { signUpWithCompany, startStatementImport } from './auth-helpers.ts';

// Issue 12 §4 in the browser: a bank CSV with a preamble, a summary line and dates that fit
// both day-first and month-first. The mapping step shows what it found, waits for the user
// to choose the date format, and the next import into the same account starts from the
// mapping the user confirmed.

const PASSWORD = 'Correct-Horse-9';
const STATEMENT = [
  'Account statement;Checking',
  'Date;Details;Amount',
  '01/02/2026;Coffee beans;-3,50',
  '03/04/2026;Client payment;1.250,00',
  'Closing balance;;1.246,50',
  '',
].join('\r\n');

test('CSV mapping step: preamble and summary shown, ambiguous dates chosen by the user, mapping remembered', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const { id: orgId, post } = await signUpWithCompany(page, {
    tag: 'csv',
    name: 'Cleo Ledger',
    company: 'Bean Counters',
    password: PASSWORD,
  });
  await post(
    '/wallet/accounts',
    { kind: 'bank', name: 'Checking', currency: 'USD', openingDate: '2026-01-01' },
    201,
  );

  const file = { name: 'statement.csv', mimeType: 'text/csv', buffer: Buffer.from(STATEMENT) };
  await page.goto('/transactions');
  const wizard = await startStatementImport(page, file);

  // What was found, said in words and shown line by line.
  await expect(wizard.getByText('Line 1, above the header, is not a transaction.')).toBeVisible();
  await expect(
    wizard.getByText('Line 5, after the last transaction, is a summary, not a transaction.'),
  ).toBeVisible();
  await expect(wizard.getByText('Lines 3 to 4 are read as transactions (2 rows).')).toBeVisible();
  await expect(wizard.getByLabel('Decimal mark')).toHaveValue(',');
  await page.screenshot({ path: 'e2e-artifacts/statement-csv-mapping.png', fullPage: true });

  // 01/02 and 03/04 fit both readings: nothing is preselected and the preview waits.
  const dateFormat = wizard.getByLabel('Date format');
  await expect(dateFormat).toHaveValue('');
  await expect(wizard.getByText('Choose the date format to see the preview.')).toBeVisible();
  await expect(wizard.getByText('Make the choices above to see the first transactions.')).toBeVisible();
  await expect(wizard.getByRole('button', { name: 'Preview' })).toBeDisabled();
  await dateFormat.focus();
  await dateFormat.selectOption('DD/MM/YYYY');
  await expect(wizard.getByRole('button', { name: 'Preview' })).toBeEnabled();
  // The resulting preview, read by the server with the mapping as it stands.
  const trial = wizard.getByTestId('mapping-trial');
  await expect(trial.getByRole('row')).toHaveCount(3);
  await expect(trial.getByRole('row').nth(1)).toContainText('2026-02-01');
  await expect(trial.getByRole('row').nth(2)).toContainText('2026-04-03');
  await trial.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'e2e-artifacts/statement-csv-mapping-read.png' });
  await dateFormat.selectOption('MM/DD/YYYY');
  await expect(trial.getByRole('row').nth(1)).toContainText('2026-01-02');
  await dateFormat.selectOption('DD/MM/YYYY');
  await expect(trial.getByRole('row').nth(1)).toContainText('2026-02-01');
  await wizard.getByRole('button', { name: 'Preview' }).click();
  await expect(wizard.getByTestId('preview-new')).toHaveText('2');
  await expect(wizard.getByTestId('preview-csv-layout')).toHaveText(
    'Transactions read from lines 3 to 4 (header on line 2); 1 line above and 1 below are not transactions.',
  );
  await wizard.getByRole('button', { name: 'Import 2 transactions' }).click();
  await expect(wizard.getByText(/Imported 2 transactions/)).toBeVisible();
  await wizard.getByRole('button', { name: 'Done' }).click();

  const list = await page.request.get(`/api/orgs/${orgId}/transactions?sort=date&direction=asc`);
  const dates = ((await list.json()).transactions as { date: string; amount: number }[]).map((t) => [
    t.date,
    t.amount,
  ]);
  expect(dates).toEqual(
    expect.arrayContaining([
      ['2026-02-01', -350],
      ['2026-04-03', 125_000],
    ]),
  );

  // The next file for this account starts from the confirmed mapping: no question this time.
  await startStatementImport(page, file);
  await expect(
    wizard.getByText('This is the mapping you confirmed last time for this account.'),
  ).toBeVisible();
  await expect(wizard.getByLabel('Date format')).toHaveValue('DD/MM/YYYY');
  await wizard.getByRole('button', { name: 'Preview' }).click();
  await expect(wizard.getByTestId('preview-duplicates')).toHaveText('2');
});

test('a byte that is not text is named in the preview with its line, not changed silently', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signUpWithCompany(page, {
    tag: 'csv-byte',
    name: 'Remy Ledger',
    company: 'Byte Bakers',
    password: PASSWORD,
  }).then(({ post }) =>
    post(
      '/wallet/accounts',
      { kind: 'bank', name: 'Checking', currency: 'USD', openingDate: '2026-01-01' },
      201,
    ),
  );
  // UTF-8 throughout except one Latin-1 "é" (0xE9) on line 3.
  const bytes = Buffer.concat([
    Buffer.from('Date,Payee,Amount\n2026-11-02,Crème brûlée Café,-7.50\n2026-11-03,Jos', 'utf8'),
    Buffer.from([0xe9]),
    Buffer.from(' Muñoz,120.00\n', 'utf8'),
  ]);
  await page.goto('/transactions');
  const wizard = await startStatementImport(page, {
    name: 'export.csv',
    mimeType: 'text/csv',
    buffer: bytes,
  });
  await wizard.getByRole('button', { name: 'Preview' }).click();
  await expect(wizard.getByTestId('preview-unreadable')).toHaveText(
    '1 byte of the file could not be read as utf-8 and shows as “�” on line 3. Amounts and dates were read; check those descriptions, or export the file again from your bank.',
  );
  await wizard.getByTestId('preview-unreadable').scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'e2e-artifacts/statement-csv-unreadable-byte.png' });
});
