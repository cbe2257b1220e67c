import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../testing/app.ts';
import { addTestMember, createTestCompany, type TestCompany } from '../../testing/companies.ts';
import { testDatabaseKind } from '../../testing/db.ts';
import { debitCreditLines, expenseAccountBody } from '../../testing/ledger.ts';
import { signUpTestUser } from '../../testing/users.ts';

let t: Awaited<ReturnType<typeof createTestApp>>;
let dataDir: string;
beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kontor-ledger-'));
  t = await createTestApp({ env: { DATA_DIR: dataDir } });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const api = (company: TestCompany, cookie = company.owner.cookie) => {
  const call = async (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) =>
    t.app.inject({
      method,
      url: `/api/orgs/${company.id}${url}`,
      headers: { cookie, ...headers },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  return call;
};

const accountsOf = async (company: TestCompany) => {
  const res = await api(company)('GET', '/accounts');
  expect(res.statusCode).toBe(200);
  const list = res.json().accounts as { id: string; systemKey: string | null; code: string }[];
  return Object.fromEntries(list.filter((a) => a.systemKey).map((a) => [a.systemKey!, a.id])) as Record<
    string,
    string
  >;
};

const sale = (a: Record<string, string>, amount: number, date = '2026-02-10') => ({
  date,
  memo: 'Consulting',
  lines: debitCreditLines(a.bank, a.services, amount),
});

describe(`ledger routes (${testDatabaseKind()})`, () => {
  it('gives a new company the standard chart and settings', async () => {
    const company = await createTestCompany(t.app);
    const a = await accountsOf(company);
    for (const key of [
      'accounts_receivable',
      'sales_tax_payable',
      'retained_earnings',
      'opening_balance_equity',
      'undeposited_funds',
      'sales',
      'bank',
    ]) {
      expect(a[key], key).toBeTruthy();
    }
    const settings = await api(company)('GET', '/ledger/settings');
    expect(settings.json()).toMatchObject({ lockDate: null, approvalRequired: false, baseCurrency: 'USD' });
  });

  it('posts, replays an Idempotency-Key, refuses reuse for another body, and reverses', async () => {
    const company = await createTestCompany(t.app);
    const a = await accountsOf(company);
    const call = api(company);
    const first = await call('POST', '/journal-entries', sale(a, 12_345), { 'idempotency-key': 'k-1' });
    expect(first.statusCode).toBe(201);
    const again = await call('POST', '/journal-entries', sale(a, 12_345), { 'idempotency-key': 'k-1' });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json().id).toBe(first.json().id);
    const reused = await call('POST', '/journal-entries', sale(a, 999), { 'idempotency-key': 'k-1' });
    expect(reused.statusCode).toBe(409);
    expect(reused.json().error.code).toBe('idempotency_key_reused');
    const list = await call('GET', '/journal-entries');
    expect(list.json().entries).toHaveLength(1);

    const unbalanced = await call('POST', '/journal-entries', {
      date: '2026-02-11',
      lines: debitCreditLines(a.bank, a.services, 100, 90),
    });
    expect(unbalanced.statusCode).toBe(400);
    expect(unbalanced.json().error.code).toBe('entry_unbalanced');

    const reversed = await call('POST', `/journal-entries/${first.json().id}/reverse`, {
      date: '2026-02-12',
    });
    expect(reversed.statusCode).toBe(201);
    expect(reversed.json().reversesEntryId).toBe(first.json().id);
    const original = await call('GET', `/journal-entries/${first.json().id}`);
    expect(original.json().reversedByEntryId).toBe(reversed.json().id);
  });

  it('refuses to reverse an entry a document posted, naming where to undo it, and changes nothing', async () => {
    const company = await createTestCompany(t.app);
    const call = api(company);
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/orgs/${company.id}/wallet/accounts`,
      headers: { cookie: company.owner.cookie },
      payload: {
        name: 'Till',
        kind: 'cash',
        currency: 'USD',
        openingBalance: 5_000,
        openingDate: '2026-01-01',
      },
    });
    expect(created.statusCode).toBe(201);
    const before = (await call('GET', '/journal-entries')).json().entries as { id: string; memo: string }[];
    const opening = before.find((e) => e.memo === 'Opening balance of Till');
    expect(opening).toBeTruthy();
    const refused = await call('POST', `/journal-entries/${opening!.id}/reverse`, {});
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('entry_owned_by_document');
    expect(refused.json().error.message).toMatch(/Wallet/);
    expect((await call('GET', '/journal-entries')).json().entries).toHaveLength(before.length);
  });

  it('enforces roles: viewers read, members need approval when it is on, accountants approve', async () => {
    const company = await createTestCompany(t.app);
    const a = await accountsOf(company);
    const viewer = await addTestMember(t.app, company, 'viewer');
    const member = await addTestMember(t.app, company, 'member');
    const accountant = await addTestMember(t.app, company, 'accountant');
    expect(
      (await api(company, viewer.cookie)('GET', '/reports/trial-balance?to=2026-12-31')).statusCode,
    ).toBe(200);
    expect((await api(company, viewer.cookie)('POST', '/journal-entries', sale(a, 100))).statusCode).toBe(
      403,
    );
    expect(
      (await api(company, member.cookie)('PATCH', '/ledger/settings', { lockDate: '2026-01-31' })).statusCode,
    ).toBe(403);
    expect((await api(company, member.cookie)('GET', '/audit-log')).statusCode).toBe(403);
    expect((await api(company)('PATCH', '/ledger/settings', { approvalRequired: true })).statusCode).toBe(
      200,
    );
    const submitted = await api(company, member.cookie)('POST', '/journal-entries', sale(a, 5_000));
    expect(submitted.statusCode).toBe(201);
    expect(submitted.json().status).toBe('pending_approval');
    expect(
      (await api(company, member.cookie)('POST', `/journal-entries/${submitted.json().id}/approve`))
        .statusCode,
    ).toBe(403);
    const approved = await api(company, accountant.cookie)(
      'POST',
      `/journal-entries/${submitted.json().id}/approve`,
    );
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ status: 'posted', number: 1, approvedBy: accountant.id });
    const audit = await api(company, accountant.cookie)(
      'GET',
      `/audit-log?entityType=journal_entry&entityId=${submitted.json().id}`,
    );
    expect(audit.statusCode).toBe(200);
    expect(audit.json().entries.map((e: { action: string }) => e.action)).toEqual([
      'journal_entry.approved',
      'journal_entry.submitted',
      'journal_entry.created',
    ]);
  });

  it('hides one company’s ledger from a user of another company', async () => {
    const company = await createTestCompany(t.app);
    const stranger = await signUpTestUser(t.app);
    const res = await api(company, stranger.cookie)('GET', '/accounts');
    expect(res.statusCode).toBe(404);
    const other = await createTestCompany(t.app, { owner: stranger });
    const theirs = await accountsOf(other);
    const mine = await accountsOf(company);
    const cross = await api(company)('POST', '/journal-entries', {
      date: '2026-03-01',
      lines: debitCreditLines(mine.bank, theirs.sales, 100),
    });
    expect(cross.statusCode).toBe(400);
    expect(cross.json().error.code).toBe('account_not_found');
  });

  it('serves reports as JSON, CSV and PDF', async () => {
    const company = await createTestCompany(t.app);
    const a = await accountsOf(company);
    const call = api(company);
    await call('POST', '/journal-entries', sale(a, 250_000, '2026-01-15'));
    await call('POST', '/journal-entries', {
      date: '2026-02-01',
      memo: 'Rent',
      lines: [
        { accountId: a.bank, credit: 80_000 },
        { accountId: a.uncategorized_expense, debit: 80_000 },
      ],
    });
    const tb = await call('GET', '/reports/trial-balance?to=2026-12-31');
    expect(tb.json().totals).toMatchObject({ debit: 330_000, credit: 330_000 });
    const is = await call('GET', '/reports/income-statement?from=2026-01-01&to=2026-12-31');
    expect(is.json().totals.netIncome).toBe(170_000);
    const bs = await call('GET', '/reports/balance-sheet?asOf=2026-12-31');
    expect(bs.json()).toMatchObject({ balanced: true, currentYearEarnings: 170_000 });
    const cf = await call('GET', '/reports/cash-flow?from=2026-01-01&to=2026-12-31');
    expect(cf.json().totals.netChange).toBe(170_000);
    const gl = await call('GET', `/reports/general-ledger?accountId=${a.bank}&to=2026-12-31&limit=1`);
    expect(gl.json().rows).toHaveLength(1);
    expect(gl.json().rows[0].balance).toBe(250_000);
    const gl2 = await call(
      'GET',
      `/reports/general-ledger?accountId=${a.bank}&to=2026-12-31&limit=1&cursor=${gl.json().nextCursor}`,
    );
    expect(gl2.json().rows[0].balance).toBe(170_000);
    expect(gl2.json().nextCursor).toBeNull();
    const journal = await call('GET', '/reports/journal?to=2026-12-31');
    expect(journal.json().entries).toHaveLength(2);
    const tx = await call('GET', `/reports/account-transactions?to=2026-12-31&accountId=${a.bank}`);
    expect(tx.json().rows[0].split).toContain('Services');
    const csv = await call('GET', '/reports/trial-balance?to=2026-12-31&format=csv');
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body).toContain('Total,,,3300.00,3300.00,2500.00,2500.00');
    const pdf = await call('GET', '/reports/balance-sheet?asOf=2026-12-31&format=pdf&dateFormat=MM/DD/YYYY');
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const bad = await call('GET', '/reports/trial-balance?from=2026-12-31&to=2026-01-01');
    expect(bad.statusCode).toBe(400);
  });

  it('closes and reopens a fiscal year and moves the lock date, with audit rows', async () => {
    const company = await createTestCompany(t.app);
    const a = await accountsOf(company);
    const call = api(company);
    await call('POST', '/journal-entries', sale(a, 10_000, '2025-06-01'));
    const closed = await call('POST', '/fiscal-years/2025-12-31/close');
    expect(closed.statusCode).toBe(200);
    expect(closed.json().status).toBe('closed');
    const years = await call('GET', '/fiscal-years');
    expect(years.json().years.find((y: { endDate: string }) => y.endDate === '2025-12-31').status).toBe(
      'closed',
    );
    const bs = await call('GET', '/reports/balance-sheet?asOf=2026-01-31');
    expect(
      bs.json().equity.find((l: { accountId: string }) => l.accountId === a.retained_earnings).amount,
    ).toBe(10_000);
    const is = await call('GET', '/reports/income-statement?from=2025-01-01&to=2025-12-31');
    expect(is.json().totals.netIncome).toBe(10_000);
    expect((await call('POST', '/fiscal-years/2025-12-31/reopen')).statusCode).toBe(200);
    const locked = await call('PATCH', '/ledger/settings', { lockDate: '2025-12-31' });
    expect(locked.json().lockDate).toBe('2025-12-31');
    const refused = await call('POST', '/journal-entries', sale(a, 1, '2025-12-31'));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.code).toBe('period_locked');
    const audit = await call('GET', '/audit-log?entityType=fiscal_year');
    expect(audit.json().entries.map((e: { action: string }) => e.action)).toEqual([
      'fiscal_year.reopened',
      'fiscal_year.closed',
    ]);
  });

  it('manages accounts: add, rename, archive, refuse deleting one with postings, import CSV', async () => {
    const company = await createTestCompany(t.app);
    const a = await accountsOf(company);
    const call = api(company);
    const created = await call('POST', '/accounts', expenseAccountBody('6010', 'Web hosting'));
    expect(created.statusCode).toBe(201);
    const dup = await call('POST', '/accounts', expenseAccountBody('6010', 'Other'));
    expect(dup.json().error.code).toBe('account_code_taken');
    await call('POST', '/journal-entries', {
      date: '2026-03-01',
      lines: [
        { accountId: a.bank, credit: 500 },
        { accountId: created.json().id, debit: 500 },
      ],
    });
    const del = await call('DELETE', `/accounts/${created.json().id}`);
    expect(del.json().error.code).toBe('account_has_postings');
    const archived = await call('PATCH', `/accounts/${created.json().id}`, {
      archived: true,
      name: 'Hosting (old)',
    });
    expect(archived.json()).toMatchObject({ archived: true, name: 'Hosting (old)' });
    const refused = await call('POST', '/journal-entries', {
      date: '2026-03-02',
      lines: [
        { accountId: a.bank, credit: 500 },
        { accountId: created.json().id, debit: 500 },
      ],
    });
    expect(refused.json().error.code).toBe('account_archived');
    const imported = await call('POST', '/accounts/import', {
      csv: 'code,name,type,subtype,parent_code\n6400,Software,expense,operating_expense,\n6410,"Design tools, fonts",expense,operating_expense,6400\n',
    });
    expect(imported.json()).toEqual({ created: 1, updated: 1 });
    const badCsv = await call('POST', '/accounts/import', { csv: 'code,name,type\n9999,Thing,widget\n' });
    expect(badCsv.statusCode).toBe(400);
    expect(badCsv.json().error.code).toBe('csv_invalid');
    // Broken quoting is refused naming its line (csv-parse, the app's one CSV reader), not read some other way.
    const badQuote = await call('POST', '/accounts/import', {
      csv: '\ufeffcode,name,type\r\n6420,"Fonts ""Pro"", licences",expense\r\n6430,Bad "quote,expense\r\n',
    });
    expect(badQuote.statusCode).toBe(400);
    expect(badQuote.json().error).toMatchObject({
      code: 'csv_invalid',
      message: expect.stringContaining('line 3'),
    });
  });

  it('stores attachments with size and type limits', async () => {
    const company = await createTestCompany(t.app);
    const a = await accountsOf(company);
    const call = api(company);
    const entry = (await call('POST', '/journal-entries', sale(a, 100))).json();
    const upload = (name: string, type: string, data: Buffer) => {
      const boundary = '----kontor';
      const body = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`,
        ),
        data,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      return t.app.inject({
        method: 'POST',
        url: `/api/orgs/${company.id}/journal-entries/${entry.id}/attachments`,
        headers: {
          cookie: company.owner.cookie,
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
        payload: body,
      });
    };
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
    const ok = await upload('receipt.pdf', 'application/pdf', pdf);
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toMatchObject({
      fileName: 'receipt.pdf',
      contentType: 'application/pdf',
      sizeBytes: pdf.length,
    });
    const storedRows = () =>
      t.database.db
        .selectFrom('journal_attachments')
        .select(['id', 'storage_key'])
        .where('organization_id', '=', company.id)
        .execute();
    // Kept in the database (decision 0015), not as a file on disk.
    expect(await storedRows()).toEqual([{ id: ok.json().id, storage_key: null }]);
    // The declared type is not trusted: text claiming to be a PDF is kept as text.
    const fake = await upload('evil.pdf', 'application/pdf', Buffer.from('<script>alert(1)</script>'));
    expect(fake.statusCode).toBe(201);
    expect(fake.json().contentType).toBe('text/plain');
    await call('DELETE', `/journal-entries/${entry.id}/attachments/${fake.json().id}`);
    const exe = await upload('evil.pdf', 'application/pdf', Buffer.from('4d5a90000300000004000000', 'hex'));
    expect(exe.statusCode).toBe(415);
    const big = await upload(
      'big.png',
      'image/png',
      Buffer.concat([
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
        Buffer.alloc(10 * 1024 * 1024),
      ]),
    );
    expect(big.statusCode).toBe(413);
    const download = await call('GET', `/journal-entries/${entry.id}/attachments/${ok.json().id}`);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(pdf)).toBe(true);
    const withAttachments = await call('GET', `/journal-entries/${entry.id}`);
    expect(withAttachments.json().attachments).toHaveLength(1);
    expect(
      (await call('DELETE', `/journal-entries/${entry.id}/attachments/${ok.json().id}`)).statusCode,
    ).toBe(204);
    expect(await storedRows()).toEqual([]);
  });

  it('exports the journal for hledger and re-imports it to the same trial balance', async () => {
    const source = await createTestCompany(t.app);
    const a = await accountsOf(source);
    const call = api(source);
    const eur = await call('POST', '/accounts', {
      code: '1020',
      name: 'EUR account',
      type: 'asset',
      // a bank account would be a money account, made in the Wallet (decision 0022)
      subtype: 'current_asset',
      currency: 'EUR',
    });
    await call('POST', '/journal-entries', sale(a, 123_456, '2026-01-05'));
    await call('POST', '/journal-entries', {
      date: '2026-01-06',
      memo: 'EUR client; paid in euros',
      reference: 'INV-7',
      lines: [
        {
          accountId: eur.json().id,
          debit: 10_825,
          currency: 'EUR',
          amount: 10_000,
          rate: '1.0825',
          description: 'wire',
        },
        { accountId: a.sales, credit: 10_825 },
      ],
    });
    await call('POST', '/journal-entries', {
      date: '2026-02-01',
      lines: [
        { accountId: a.bank, credit: 4_321 },
        { accountId: a.bank_fees, debit: 4_321 },
      ],
    });
    const exported = await call('GET', '/ledger/export.journal');
    expect(exported.statusCode).toBe(200);
    expect(exported.body).toContain('2026-01-06 * (2) EUR client, paid in euros  ; ref: INV-7');
    expect(exported.body).toContain('100.00 EUR @@ 108.25 USD');
    const target = await createTestCompany(t.app);
    const imported = await api(target)('POST', '/ledger/import', { journal: exported.body });
    expect(imported.statusCode).toBe(200);
    expect(imported.json().entries).toBe(3);
    const tbOf = async (c: TestCompany) =>
      (await api(c)('GET', '/reports/trial-balance?to=2026-12-31'))
        .json()
        .rows.map((r: { code: string; closingBalance: number }) => [r.code, r.closingBalance]);
    expect(await tbOf(target)).toEqual(await tbOf(source));
    const broken = await api(target)('POST', '/ledger/import', {
      journal: '2026-01-01 Broken\n    Assets:Cash  10.00 USD\n    Income:Sales  -9.00 USD\n',
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error.message).toContain('do not balance');
  });
});
