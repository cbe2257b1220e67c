import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordAudit } from './modules/audit/record.ts';
import { postJournalEntries } from './modules/ledger/posting.ts';
import { callCompanyRoute } from './testing/api.ts';
import { createTestApp } from './testing/app.ts';
import { createTestCompany, type TestCompany } from './testing/companies.ts';
import { testDatabaseKind } from './testing/db.ts';
import { systemAccountsOf } from './testing/ledger.ts';

// Issue 11 §8: every cursor-paginated list returns every row exactly once, even when thousands
// of rows share one creation instant (one database transaction: now() is the same for all).
// Each list is walked page by page through the API and every id must appear exactly once.

const N = 2500;
const DATE = '2026-03-15';

let t: Awaited<ReturnType<typeof createTestApp>>;
let dataDir: string;
let company: TestCompany;
let accounts: Record<string, string>;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kontor-pages-'));
  t = await createTestApp({ env: { DATA_DIR: dataDir } });
  company = await createTestCompany(t.app);
  accounts = await systemAccountsOf(t.app, company);
  // N entries posted in one transaction through the ledger's batch path: one created_at.
  await postJournalEntries(
    t.database.db,
    company.id,
    Array.from({ length: N }, (_, i) => ({
      date: DATE,
      memo: `Sale ${i}`,
      source: 'manual' as const,
      actorUserId: company.owner.id,
      lines: [
        { accountId: accounts.bank!, debit: 100 + (i % 7) },
        { accountId: accounts.services!, credit: 100 + (i % 7) },
      ],
    })),
    company.owner.id,
  );
}, 300_000);

afterAll(async () => {
  await t?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** GET of a company route that must answer 200; its JSON. */
const get = async (url: string) => {
  const res = await callCompanyRoute(t.app, company, 'GET', url);
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
};

/** Walks a list to its end; returns the ids in page order. */
const walk = async (url: string, rowsOf: (body: any) => unknown[], idOf: (row: any) => string) => {
  const ids: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 10_000; page += 1) {
    const sep = url.includes('?') ? '&' : '?';
    const body = await get(`${url}${cursor ? `${sep}cursor=${encodeURIComponent(cursor)}` : ''}`);
    ids.push(...rowsOf(body).map(idOf));
    cursor = body.nextCursor;
    if (!cursor) return ids;
  }
  throw new Error('the list never ended');
};

const expectEachOnce = (ids: string[], expected: number) => {
  const counts = new Map<string, number>();
  for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  expect([...counts.values()].filter((n) => n > 1)).toEqual([]);
  expect(counts.size).toBe(expected);
};

describe(`cursor pagination returns every row once (${testDatabaseKind()})`, () => {
  it('the fixture really shares one creation instant', async () => {
    const { rows } = await sql<{ n: number }>`
      select count(distinct created_at)::int as n from journal_entries
       where organization_id = ${company.id} and source = 'manual'`.execute(t.database.db);
    expect(rows[0]!.n).toBe(1);
  });

  // The plain lists: walked to the end, every row must come once.
  const lists: [
    name: string,
    url: string,
    rowsOf: (body: any) => unknown[],
    idOf: (row: any) => string,
    count: number,
  ][] = [
    [
      'journal entries (newest first, page size 100)',
      '/journal-entries?limit=100',
      (b) => b.entries,
      (e) => e.id,
      N,
    ],
    [
      'journal entries with a filter and a small page',
      `/journal-entries?limit=37&status=posted&from=${DATE}&to=${DATE}`,
      (b) => b.entries,
      (e) => e.id,
      N,
    ],
    [
      'journal report',
      '/reports/journal?from=2026-01-01&to=2026-12-31&limit=200',
      (b) => b.entries,
      (e) => e.id,
      N,
    ],
    [
      'account transactions',
      '/reports/account-transactions?from=2026-01-01&to=2026-12-31&limit=200',
      (b) => b.rows,
      (r) => `${r.entryId}:${r.lineNo}`,
      2 * N,
    ],
  ];
  for (const [name, url, rowsOf, idOf, count] of lists) {
    it(name, async () => {
      expectEachOnce(await walk(url, rowsOf, idOf), count);
    });
  }

  it('general ledger of one account, with an exact running balance', async () => {
    const rows: { entryId: string; debit: number; credit: number; balance: number }[] = [];
    let cursor: string | null = null;
    do {
      const body = await get(
        `/reports/general-ledger?accountId=${accounts.bank}&from=2026-01-01&to=2026-12-31&limit=500${cursor ? `&cursor=${cursor}` : ''}`,
      );
      rows.push(...body.rows);
      cursor = body.nextCursor;
    } while (cursor);
    expectEachOnce(
      rows.map((r) => r.entryId),
      N,
    );
    let running = 0;
    for (const r of rows) {
      running += r.debit - r.credit;
      expect(r.balance).toBe(running);
    }
  });

  it('bank transactions, in every sort order', async () => {
    const created = await callCompanyRoute(t.app, company, 'POST', '/wallet/accounts', {
      name: 'Operating',
      kind: 'bank',
      currency: 'USD',
      openingBalance: 0,
      openingDate: '2026-01-01',
    });
    expect(created.status).toBe(201);
    const moneyAccountId = created.body.id as string;
    // Test fixture: N bank rows inserted by one statement (one created_at), all with the same
    // date, amount and description, so only the id tells them apart.
    const entryId = (
      await sql<{
        id: string;
      }>`select id from journal_entries where organization_id = ${company.id} limit 1`.execute(t.database.db)
    ).rows[0]!.id;
    await sql`
      insert into bank_transactions (organization_id, id, money_account_id, date, description, amount, status,
                                     category_kind, entry_id, dedupe_key, description_key)
      select ${company.id}, ${randomUUID()} || '-' || lpad(g::text, 5, '0'), ${moneyAccountId}, ${DATE}::date,
             'Card payment', -1250, 'uncategorized', 'none', ${entryId}, 'k' || g, 'card payment'
        from generate_series(1, ${N}) g`.execute(t.database.db);
    for (const sort of ['date', 'amount', 'description'] as const) {
      for (const direction of ['desc', 'asc'] as const) {
        const ids = await walk(
          `/transactions?moneyAccountId=${moneyAccountId}&sort=${sort}&direction=${direction}&limit=200`,
          (b) => b.transactions,
          (r) => r.id,
        );
        expectEachOnce(ids, N);
      }
    }
  });

  it('audit log', async () => {
    await t.database.db.transaction().execute(async (trx) => {
      for (let i = 0; i < N; i += 1) {
        await recordAudit(trx, {
          organizationId: company.id,
          actorUserId: null,
          action: 'journal_entry.posted',
          entityType: 'test',
          entityId: `row-${i}`,
          before: null,
          after: { i },
        });
      }
    });
    const ids = await walk(
      '/audit-log?entityType=test&limit=200',
      (b) => b.entries,
      (e) => e.id,
    );
    expectEachOnce(ids, N);
  });

  it('refuses a forged cursor with 400, never 500', async () => {
    const forged = [
      'not base64 at all!',
      Buffer.from('{"date":"2026-13-45","created":"x","id":"a"}').toString('base64url'),
      Buffer.from('{"date":"2026-03-15","created":"2026-03-15T00:00:00.000Z","id":"a"}').toString(
        'base64url',
      ),
      Buffer.from('{"date":"2026-03-15","number":"1","line":1}').toString('base64url'),
      Buffer.from('["2026-03-15","a"]').toString('base64url'),
    ];
    for (const cursor of forged) {
      for (const url of ['/journal-entries', '/reports/journal?to=2026-12-31', '/transactions']) {
        const res = await callCompanyRoute(
          t.app,
          company,
          'GET',
          `${url}${url.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(cursor)}`,
        );
        expect(res.status, `${url} ${cursor}`).toBe(400);
        expect(res.body.error.code).toBe('invalid_cursor');
      }
    }
    // A general-ledger cursor carrying a running balance no ledger can hold.
    const huge = Buffer.from(
      JSON.stringify({ date: '2026-03-15', number: 1, line: 1, balance: Number.MAX_SAFE_INTEGER }),
    ).toString('base64url');
    const res = await callCompanyRoute(
      t.app,
      company,
      'GET',
      `/reports/general-ledger?accountId=${accounts.bank}&to=2026-12-31&cursor=${huge}`,
    );
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_cursor');
  });
});
