import { describe, expect, it } from 'vitest';
import { setUpTestInvoicing } from '../../testing/invoices.ts';

// Importing suppliers from CSV: columns in any order and case, quotes, commas and line breaks
// inside quoted fields, a byte order mark and CRLF line ends; all or nothing, every bad line
// named with its problem; existing and repeated names skipped and reported; dry runs.

const fixture = setUpTestInvoicing({ name: 'Supplier Import Co' });

const names = async () =>
  (
    await fixture.t.database.db
      .selectFrom('suppliers')
      .select(['name'])
      .where('organization_id', '=', fixture.company.id)
      .orderBy('name')
      .execute()
  ).map((r) => r.name);

const importCsv = (csv: string, dryRun = false) => fixture.client.post('/suppliers/import', { csv, dryRun });

describe('supplier import', () => {
  it('reads quotes, commas, line breaks in fields, a BOM and CRLF, in any column order and case', async () => {
    const csv =
      '\uFEFFName,EMAIL,Currency,payment_terms_days,Address,notes,Tax_Number,bank_account_number,bank_code,bank_account_name,phone,company\r\n' +
      '"Smith, Jones & Co",ap@smith.example,eur,14,"1 High St\r\nLeeds","He said ""net 14""",GB1,12345678,40-11-22,Smith Jones,+44 1,Smith Jones LLP\r\n' +
      'Plain Supplier,,,,,,,,,,,\r\n' +
      '\r\n';
    const res = await importCsv(csv);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ created: 2, skipped: [], dryRun: false });
    const list = await fixture.client.get('/suppliers?search=Smith');
    expect(list.body.suppliers).toHaveLength(1);
    expect(list.body.suppliers[0]).toMatchObject({
      name: 'Smith, Jones & Co',
      email: 'ap@smith.example',
      currency: 'EUR',
      paymentTermsDays: 14,
      address: '1 High St\nLeeds',
      notes: 'He said "net 14"',
      taxNumber: 'GB1',
      bankAccountNumber: '12345678',
      bankCode: '40-11-22',
      bankAccountName: 'Smith Jones',
      phone: '+44 1',
      company: 'Smith Jones LLP',
    });
    const plain = await fixture.client.get('/suppliers?search=Plain');
    expect(plain.body.suppliers[0]).toMatchObject({ currency: 'USD', paymentTermsDays: 30, email: '' });
    const audit = await fixture.t.database.db
      .selectFrom('audit_log')
      .select(['action'])
      .where('organization_id', '=', fixture.company.id)
      .where('action', '=', 'suppliers.imported')
      .execute();
    expect(audit).toHaveLength(1);
  });

  it('skips names that exist (ignoring case) or repeat an earlier row, and reports them', async () => {
    await fixture.client.post('/suppliers', { name: 'Existing Ltd' });
    const res = await importCsv(
      'name,email\nEXISTING LTD,a@b.example\nNew One,\nnew one,x@y.example\nNew Two,\n',
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.created).toBe(2);
    expect(res.body.skipped).toEqual([
      { line: 2, name: 'EXISTING LTD', reason: 'A supplier with this name already exists.' },
      { line: 4, name: 'new one', reason: 'Line 3 already has a supplier with this name.' },
    ]);
    expect((await names()).filter((n) => n.toLowerCase().startsWith('new'))).toEqual(['New One', 'New Two']);
  });

  it('saves nothing on a dry run but reports what it would do', async () => {
    const before = await names();
    const res = await importCsv('name\nDry Run Supplier\nExisting Ltd\n', true);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      created: 1,
      skipped: [{ line: 3, name: 'Existing Ltd', reason: 'A supplier with this name already exists.' }],
      dryRun: true,
    });
    expect(await names()).toEqual(before);
  });

  it('refuses the whole file naming every bad line and its problem, saving nothing', async () => {
    const before = await names();
    const csv = [
      'name,email,currency,payment_terms_days',
      'Good Supplier,good@x.example,USD,30',
      'Bad Email,not-an-email,USD,30',
      'Bad Currency,,XYZ,30',
      'Bad Terms,,USD,400',
      'Text Terms,,USD,thirty',
      ',,USD,10',
    ].join('\n');
    const res = await importCsv(csv);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_import');
    const message: string = res.body.error.message;
    expect(message).toMatch(/^Nothing was imported\./);
    expect(message).toMatch(/Line 3: email: Please enter a valid email address/);
    expect(message).toMatch(/Line 4: currency "XYZ" is not a currency code/);
    expect(message).toMatch(/Line 5: payment_terms_days: Payment terms are 0 to 365 days/);
    expect(message).toMatch(/Line 6: payment_terms_days "thirty" is not a whole number/);
    expect(message).toMatch(/Line 7: the name is missing/);
    expect(message).not.toMatch(/Line 2/);
    expect(res.body.error.details.problems.map((p: { line: number }) => p.line)).toEqual([3, 4, 5, 6, 7]);
    expect(await names()).toEqual(before);
  });

  it('refuses unknown, repeated and missing columns on the header line', async () => {
    const unknown = await importCsv('name,fax\nA,1\n');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/Line 1: unknown column "fax"/);
    const twice = await importCsv('name,Name\nA,B\n');
    expect(twice.body.error.message).toMatch(/Line 1: the column "name" appears twice/);
    const noName = await importCsv('email\na@b.example\n');
    expect(noName.body.error.message).toMatch(/Line 1: the header has no "name" column/);
    const onlyHeader = await importCsv('name\n');
    expect(onlyHeader.status).toBe(400);
    expect(onlyHeader.body.error.message).toMatch(/no suppliers/);
  });

  it('refuses broken quoting and a wrong number of columns, naming the line', async () => {
    const before = await names();
    const stray = await importCsv('name,email\nFine,\nBro"ken,x@y.example\n');
    expect(stray.status).toBe(400);
    expect(stray.body.error.message).toMatch(/Line 3: a quote/);
    const unclosed = await importCsv('name,notes\nFine,\r\n\r\n"Never closed,notes\r\nmore\r\n');
    expect(unclosed.status).toBe(400);
    expect(unclosed.body.error.message).toMatch(/Line 4: a quoted field is never closed/);
    const columns = await importCsv('name,email\nFine,\nToo,many,columns\n');
    expect(columns.status).toBe(400);
    expect(columns.body.error.message).toMatch(/Line 3: the line has a different number of columns/);
    // A quoted line break moves later line numbers on, as an editor counts them.
    const later = await importCsv('name,notes\n"Multi","a\nb"\nBad,,\n');
    expect(later.status).toBe(400);
    expect(later.body.error.message).toMatch(/Line 4:/);
    expect(await names()).toEqual(before);
  });
});
