import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../testing/app.ts';
import { type TestCompany, createTestCompany } from '../../testing/companies.ts';
import * as migration from '../../db/migrations/20261124_0800_account_names_and_journal_imports.ts';
import { createTestDatabase, testDatabaseKind } from '../../testing/db.ts';
import { createTestCompanyInDatabase } from '../../testing/companies.ts';
import { expenseAccountBody } from '../../testing/ledger.ts';

// Account names are unique per company ignoring case (index accounts_name_ci, migration
// 20261124_0800): creating, renaming and importing answer 4xx with a clear message and change
// nothing; the journal import answers 409 for a file already imported and 400 naming the line.

let t: Awaited<ReturnType<typeof createTestApp>>;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const call = (company: TestCompany) => (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  t.app.inject({
    method,
    url: `/api/orgs/${company.id}${url}`,
    headers: { cookie: company.owner.cookie },
    ...(payload ? { payload } : {}),
  });

describe(`account names and journal import over HTTP (${testDatabaseKind()})`, () => {
  it('refuses a second account whose name differs only in case, on create, rename and CSV import', async () => {
    const company = await createTestCompany(t.app);
    const api = call(company);
    const created = await api('POST', '/accounts', expenseAccountBody('6901', 'Coffee'));
    expect(created.statusCode).toBe(201);
    const dup = await api('POST', '/accounts', expenseAccountBody('6902', 'COFFEE'));
    expect(dup.statusCode).toBe(409);
    expect(dup.json().error).toMatchObject({ code: 'account_name_taken' });
    expect(dup.json().error.message).toMatch(/"Coffee" \(code 6901\) already exists/);
    const other = await api('POST', '/accounts', expenseAccountBody('6903', 'Tea'));
    const rename = await api('PATCH', `/accounts/${other.json().id ?? other.json().account?.id}`, {
      name: 'coffee',
    });
    expect(rename.statusCode).toBe(409);
    expect(rename.json().error.code).toBe('account_name_taken');
    // Renaming an account to another case of its own name is fine.
    const own = await api('PATCH', `/accounts/${created.json().id ?? created.json().account?.id}`, {
      name: 'COFFEE',
    });
    expect(own.statusCode).toBe(200);
    const csv = await api('POST', '/accounts/import', {
      csv: 'code,name,type\n7001,Snacks,expense\n7002,snacks,expense\n7003,rent,expense\n',
    });
    expect(csv.statusCode).toBe(400);
    expect(csv.json().error.message).toMatch(/Row 3: the name "snacks" is already used by row 2/);
    expect(csv.json().error.message).toMatch(/Row 4: the name "rent" is already used by account/);
    // Swapping two names in one import works (both renames land).
    const swap = await api('POST', '/accounts/import', {
      csv: 'code,name,type\n6901,Tea,expense\n6903,Coffee,expense\n',
    });
    expect(swap.statusCode).toBe(200);
    const list = (await api('GET', '/accounts')).json().accounts as { code: string; name: string }[];
    expect(list.filter((a) => ['6901', '6903'].includes(a.code)).map((a) => [a.code, a.name])).toEqual([
      ['6901', 'Tea'],
      ['6903', 'Coffee'],
    ]);
  });

  it('imports a journal once, refuses it again with 409, and names the line of a bad one', async () => {
    const company = await createTestCompany(t.app);
    const api = call(company);
    const journal =
      '~ monthly\n    Expenses:Rent  $1\n    Assets:Bank\n\n2026-01-05 Rent\n    Expenses:Rent   $500\n    Assets:Bank\n';
    const first = await api('POST', '/ledger/import', { journal });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ entries: 1, noticeCount: 2 });
    expect(first.json().notices[0]).toEqual({
      line: 1,
      message: expect.stringMatching(/periodic transaction/),
    });
    expect(first.json().accounts).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ journalName: 'Expenses:Rent', name: 'Rent', created: false }),
      ]),
    );
    const again = await api('POST', '/ledger/import', { journal });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.code).toBe('journal_already_imported');
    const bad = await api('POST', '/ledger/import', {
      journal: '2026-01-05 x\n    Expenses:Rent  $5 = $1\n    Assets:Bank\n',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({ code: 'journal_invalid', details: { line: 2 } });
  });

  it('migration 0800 renames existing duplicates (keeping system accounts and the oldest) before adding the index', async () => {
    const handle = await createTestDatabase();
    try {
      const db = handle.db;
      const org = await createTestCompanyInDatabase(db);
      await migration.down(db as never);
      const add = (code: string, name: string, created: string) =>
        db
          .insertInto('accounts')
          .values({
            organization_id: org.id,
            id: crypto.randomUUID(),
            code,
            name,
            type: 'expense',
            subtype: 'operating_expense',
            parent_id: null,
            currency: 'USD',
            system_key: null,
            created_at: created,
          })
          .execute();
      await add('9001', 'bank FEES', '2020-01-01'); // older, but Bank fees is a system account: it keeps its name
      await add('9002', 'Coffee', '2021-01-01');
      await add('9003', 'COFFEE', '2020-06-01');
      await add('9004', 'Coffee (9005)', '2022-01-01');
      await add('9005', 'coffee', '2023-01-01');
      await migration.up(db as never);
      const names = await db
        .selectFrom('accounts')
        .select(['code', 'name'])
        .where('organization_id', '=', org.id)
        .where((eb) => eb.or([eb('code', 'like', '9%'), eb('name', 'ilike', 'bank fees%')]))
        .orderBy('code')
        .execute();
      const byCode = Object.fromEntries(names.map((n) => [n.code, n.name]));
      expect(byCode['9003']).toBe('COFFEE'); // the oldest keeps its name
      expect(byCode['9002']).toBe('Coffee (9002)');
      expect(byCode['9004']).toBe('Coffee (9005)');
      // "coffee (9005)" would collide with 9004's name, so the id is appended too.
      expect(byCode['9005']).toMatch(/^coffee \(9005\) [0-9a-f-]{36}$/);
      expect(byCode['9001']).toBe('bank FEES (9001)');
      expect(names.some((n) => n.name === 'Bank fees')).toBe(true);
      const lower = names.map((n) => n.name.toLowerCase());
      expect(new Set(lower).size).toBe(lower.length);
      // And the index now refuses a new duplicate.
      await expect(add('9006', 'coffee (9002)', '2024-01-01')).rejects.toThrow(/accounts_name_ci/);
    } finally {
      await handle.close();
    }
  });
});
