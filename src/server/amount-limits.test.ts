import fc from 'fast-check';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { LEDGER_VOLUME_LIMIT, MAX_AMOUNT_MINOR } from '../shared/money.ts';
import { postJournalEntries } from './modules/ledger/posting.ts';
import { keptBalancesMismatch } from './testing/ledger-checks.ts';
import { createTestCompany, type TestCompany } from './testing/companies.ts';
import { testDatabaseKind } from './testing/db.ts';
import { postedEntryBody, systemAccountsOf } from './testing/ledger.ts';
import { setUpTestAppWithDataDir } from './testing/per-file-app.ts';

// Issue 11 §2 (decision 0013): one bound per amount field (±MAX_AMOUNT_MINOR), refused with
// 400 naming the field; the ledger's volume limit keeps every sum exact. The largest amounts
// are posted until the limit refuses the next one, and then every GET of the company (walked
// from the OpenAPI document) still answers 2xx, with figures equal to BigInt arithmetic.

const MAX = MAX_AMOUNT_MINOR;
const BIG_MAX = BigInt(MAX);

const t = setUpTestAppWithDataDir('amounts');

const api = (company: TestCompany) => (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
  t.app.inject({
    method,
    url: `/api/orgs/${company.id}${url}`,
    headers: { cookie: company.owner.cookie },
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });

const systemAccounts = (company: TestCompany) => systemAccountsOf(t.app, company);

const fieldsOf = (body: { error: { details?: { field: string }[] } }) =>
  (body.error.details ?? []).map((d) => d.field);

describe(`amount bound and exact sums (${testDatabaseKind()})`, () => {
  it('refuses every amount beyond the bound with 400 naming the field, and stores nothing', async () => {
    const company = await createTestCompany(t.app);
    const call = api(company);
    const a = await systemAccounts(company);
    /** A 400 naming `field` among the refused fields. */
    const expectFieldRefused = async (
      method: 'GET' | 'POST',
      url: string,
      payload: unknown,
      field: string,
    ) => {
      const refused = await call(method, url, payload);
      expect(refused.statusCode).toBe(400);
      expect(fieldsOf(refused.json())).toContain(field);
    };

    let res = await call('POST', '/journal-entries', {
      date: '2026-03-01',
      memo: 'Too big',
      status: 'posted',
      lines: [
        { accountId: a.bank, debit: MAX + 1 },
        { accountId: a.services, credit: MAX + 1 },
      ],
    });
    expect(res.statusCode).toBe(400);
    expect(fieldsOf(res.json())).toEqual(expect.arrayContaining(['lines.0.debit', 'lines.1.credit']));
    expect(res.json().error.message).toMatch(/at most 999,999,999,999 minor units/);

    // A foreign line whose conversion is beyond the bound: the converted amount is refused too.
    res = await call('POST', '/journal-entries', {
      date: '2026-03-01',
      memo: 'Converted too big',
      status: 'posted',
      lines: [
        { accountId: a.bank, debit: MAX, currency: 'EUR', amount: MAX, rate: '2' },
        { accountId: a.services, credit: MAX },
      ],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('amount_too_large');

    await expectFieldRefused(
      'POST',
      '/wallet/accounts',
      {
        name: 'Card',
        kind: 'credit_card',
        currency: 'USD',
        openingBalance: -(MAX + 1),
        openingDate: '2026-01-01',
      },
      'openingBalance',
    );

    await expectFieldRefused(
      'POST',
      '/transactions',
      {
        moneyAccountId: 'whatever',
        date: '2026-03-01',
        description: 'x',
        amount: -(MAX + 1),
      },
      'amount',
    );

    await expectFieldRefused(
      'POST',
      '/wallet/transfers',
      {
        fromAccountId: 'a',
        toAccountId: 'b',
        date: '2026-03-01',
        amount: MAX + 1,
      },
      'amount',
    );

    await expectFieldRefused('GET', `/transactions?minAmount=${MAX + 1}`, undefined, 'minAmount');

    const customer = await call('POST', '/customers', { name: 'Big customer' });
    expect(customer.statusCode).toBe(201);
    const customerId = customer.json().id;
    await expectFieldRefused(
      'POST',
      '/invoices',
      {
        customerId,
        issueDate: '2026-03-01',
        lines: [{ description: 'x', quantity: '1', unitPrice: MAX + 1 }],
      },
      'lines.0.unitPrice',
    );
    // Each line within the bound, the product (quantity × price) beyond it.
    res = await call('POST', '/invoices', {
      customerId,
      issueDate: '2026-03-01',
      lines: [{ description: 'x', quantity: '2', unitPrice: MAX }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/too large/);
    // Lines within the bound, the document total beyond it.
    res = await call('POST', '/invoices', {
      customerId,
      issueDate: '2026-03-01',
      lines: [
        { description: 'x', quantity: '1', unitPrice: MAX },
        { description: 'y', quantity: '1', unitPrice: 1 },
      ],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toMatch(/invoice total is too large/);

    const entries = await call('GET', '/journal-entries');
    expect(entries.json().entries).toEqual([]);
    const invoices = await call('GET', '/invoices');
    expect(invoices.statusCode).toBe(200);
    expect(invoices.json().totalCount).toBe(0);
  });

  it('a year-end close carries balances beyond the field bound: it closes and reopens', async () => {
    const company = await createTestCompany(t.app);
    const call = api(company);
    const a = await systemAccounts(company);
    for (let i = 0; i < 3; i += 1) {
      const res = await call(
        'POST',
        '/journal-entries',
        postedEntryBody('2025-06-01', `Largest sale ${i}`, a.bank, a.services, MAX),
      );
      expect(res.statusCode).toBe(201);
    }
    let res = await call('POST', '/fiscal-years/2025-12-31/close', {});
    expect(res.statusCode, res.body).toBe(200);
    const bs = (await call('GET', '/reports/balance-sheet?asOf=2026-01-31')).json();
    expect(BigInt(bs.totals.assets)).toBe(3n * BIG_MAX);
    expect(BigInt(bs.totals.liabilitiesAndEquity)).toBe(3n * BIG_MAX);
    res = await call('POST', '/fiscal-years/2025-12-31/reopen', {});
    expect(res.statusCode, res.body).toBe(200);
    const is = (await call('GET', '/reports/income-statement?from=2025-01-01&to=2025-12-31')).json();
    expect(BigInt(is.totals.netIncome)).toBe(3n * BIG_MAX);
  });

  it('property: random postings near the bound give reports equal to BigInt sums; beyond it nothing changes', async () => {
    const company = await createTestCompany(t.app);
    const call = api(company);
    const a = await systemAccounts(company);
    const keys = ['bank', 'services', 'wages', 'equipment', 'loans_payable', 'sales'] as const;
    const net = new Map<string, bigint>();
    let posted = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            dr: fc.constantFrom(...keys),
            cr: fc.constantFrom(...keys),
            amount: fc.oneof(
              fc.integer({ min: MAX - 1_000_000, max: MAX }),
              fc.integer({ min: 1, max: MAX }),
            ),
          }),
          { minLength: 1, maxLength: 4 },
        ),
        fc.integer({ min: MAX + 1, max: Number.MAX_SAFE_INTEGER }),
        async (postings, tooBig) => {
          for (const p of postings) {
            if (p.dr === p.cr) continue;
            const res = await call(
              'POST',
              '/journal-entries',
              postedEntryBody('2026-04-01', 'Random', a[p.dr], a[p.cr], p.amount),
            );
            expect(res.statusCode, res.body).toBe(201);
            posted += 1;
            net.set(a[p.dr]!, (net.get(a[p.dr]!) ?? 0n) + BigInt(p.amount));
            net.set(a[p.cr]!, (net.get(a[p.cr]!) ?? 0n) - BigInt(p.amount));
          }
          const refused = await call(
            'POST',
            '/journal-entries',
            postedEntryBody('2026-04-01', 'Too big', a.bank, a.services, tooBig),
          );
          expect(refused.statusCode).toBe(400);
          expect(fieldsOf(refused.json())).toContain('lines.0.debit');
          const tb = (await call('GET', '/reports/trial-balance?to=2026-12-31')).json();
          for (const row of tb.rows as { accountId: string; debit: number; credit: number }[]) {
            expect(BigInt(row.debit) - BigInt(row.credit), row.accountId).toBe(net.get(row.accountId) ?? 0n);
          }
          const list = (await call('GET', '/journal-entries?limit=200')).json();
          expect(list.entries.length).toBe(Math.min(posted, 200));
        },
      ),
      { numRuns: 12 },
    );
  }, 300_000);

  it('posts the largest amounts up to the ledger limit; every read answers 2xx with exact figures', async () => {
    const company = await createTestCompany(t.app);
    const call = api(company);
    const a = await systemAccounts(company);
    // Expected debit and credit totals per account, in BigInt.
    const debit = new Map<string, bigint>();
    const credit = new Map<string, bigint>();
    let volume = 0n;
    const book = (dr: string, cr: string, amount: number) => {
      debit.set(dr, (debit.get(dr) ?? 0n) + BigInt(amount));
      credit.set(cr, (credit.get(cr) ?? 0n) + BigInt(amount));
      volume += 2n * BigInt(amount);
    };

    // A money account opened with the largest balance.
    let res = await call('POST', '/wallet/accounts', {
      name: 'Operating',
      kind: 'bank',
      currency: 'USD',
      openingBalance: MAX,
      openingDate: '2026-01-01',
    });
    expect(res.statusCode).toBe(201);
    const operating = res.json();
    book(operating.ledgerAccountId, a.opening_balance_equity!, MAX);

    // A largest money-in bank transaction (posts to uncategorised income): the account now
    // holds twice the per-field bound, exactly.
    /** A largest money-in line of the operating account. */
    const largestReceipt = (date: string, description: string) =>
      call('POST', '/transactions', { moneyAccountId: operating.id, date, description, amount: MAX });
    res = await largestReceipt('2026-02-03', 'Largest receipt');
    expect(res.statusCode).toBe(201);
    book(operating.ledgerAccountId, a.uncategorized_income!, MAX);

    // A sent invoice of the largest total, left open (receivables, aging, customer balance).
    const customer = (await call('POST', '/customers', { name: 'Largest customer' })).json();
    res = await call('POST', '/invoices', {
      customerId: customer.id,
      issueDate: '2026-02-10',
      lines: [{ description: 'Everything', quantity: '1', unitPrice: MAX }],
    });
    expect(res.statusCode).toBe(201);
    const invoice = res.json();
    res = await call('POST', `/invoices/${invoice.id}/send`, {});
    expect(res.statusCode).toBe(200);
    const invoiceEntry = (await call('GET', `/journal-entries/${res.json().journalEntryId}`)).json();
    for (const l of invoiceEntry.lines as { accountId: string; debit: number; credit: number }[]) {
      if (l.debit) debit.set(l.accountId, (debit.get(l.accountId) ?? 0n) + BigInt(l.debit));
      if (l.credit) credit.set(l.accountId, (credit.get(l.accountId) ?? 0n) + BigInt(l.credit));
    }
    volume += 2n * BIG_MAX;

    // A largest draft invoice too (drafts are summed in the invoice list).
    res = await call('POST', '/invoices', {
      customerId: customer.id,
      issueDate: '2026-02-11',
      lines: [{ description: 'Draft', quantity: '1', unitPrice: MAX }],
    });
    expect(res.statusCode).toBe(201);

    // A EUR account whose latest stored rate makes its converted balance absurd: reads must
    // still answer (the account counts as not convertible).
    res = await call('POST', '/wallet/accounts', {
      name: 'Euro',
      kind: 'bank',
      currency: 'EUR',
      openingBalance: 100_000,
      openingDate: '2026-01-01',
      openingRate: '1.1',
    });
    expect(res.statusCode).toBe(201);
    const euro = res.json();
    debit.set(euro.ledgerAccountId, 110_000n);
    credit.set(a.opening_balance_equity!, (credit.get(a.opening_balance_equity!) ?? 0n) + 110_000n);
    volume += 110_000n * 2n + 100_000n;
    res = await call('POST', '/wallet/rates', {
      currency: 'EUR',
      date: '2026-02-01',
      rate: '99999999999999.9',
    });
    expect(res.statusCode).toBe(200);

    // Then the largest entries through the ledger's batch path, as many as the limit allows.
    const patterns: [string, string][] = [
      [a.bank!, a.services!],
      [a.wages!, a.bank!],
      [a.equipment!, a.loans_payable!],
      [a.accounts_receivable!, a.sales!],
    ];
    const fits = Number((BigInt(LEDGER_VOLUME_LIMIT) - volume) / (2n * BIG_MAX));
    const batch = fits - 3;
    const entries = Array.from({ length: batch }, (_, i) => {
      const [dr, cr] = patterns[i % patterns.length]!;
      book(dr, cr, MAX);
      return {
        date: `2026-0${3 + (i % 6)}-15`,
        memo: `Largest ${i}`,
        source: 'manual' as const,
        actorUserId: company.owner.id,
        lines: [
          { accountId: dr, debit: MAX },
          { accountId: cr, credit: MAX },
        ],
      };
    });
    for (let i = 0; i < entries.length; i += 100) {
      await postJournalEntries(t.database.db, company.id, entries.slice(i, i + 100), company.owner.id);
    }
    // The last three that fit through the API, then the next is refused and changes nothing.
    for (let i = 0; i < 3; i += 1) {
      res = await call(
        'POST',
        '/journal-entries',
        postedEntryBody('2026-09-01', `API largest ${i}`, a.bank, a.services, MAX),
      );
      expect(res.statusCode, res.body).toBe(201);
      book(a.bank!, a.services!, MAX);
    }
    expect(volume).toBeLessThanOrEqual(BigInt(LEDGER_VOLUME_LIMIT));
    res = await call(
      'POST',
      '/journal-entries',
      postedEntryBody('2026-09-02', 'One too many', a.bank, a.services, MAX),
    );
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('ledger_limit_reached');
    res = await largestReceipt('2026-09-03', 'Also too many');
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('ledger_limit_reached');

    const stored = await sql<{ volume: string; debits: string }>`
      select (select posted_volume::text from ledger_settings where organization_id = ${company.id}) as volume,
             (select sum(debit)::text from journal_lines where organization_id = ${company.id}) as debits`.execute(
      t.database.db,
    );
    expect(BigInt(stored.rows[0]!.volume)).toBe(volume);
    const totalDebit = [...debit.values()].reduce((s, v) => s + v, 0n);
    expect(BigInt(stored.rows[0]!.debits)).toBe(totalDebit);
    expect(await keptBalancesMismatch(t.database.db, company.id)).toEqual([]);

    // Exact figures.
    res = await call('GET', '/reports/trial-balance?from=2026-01-01&to=2026-12-31');
    expect(res.statusCode).toBe(200);
    const tb = res.json();
    expect(BigInt(tb.totals.debit)).toBe(totalDebit);
    expect(BigInt(tb.totals.credit)).toBe(totalDebit);
    for (const row of tb.rows as { accountId: string; debit: number; credit: number }[]) {
      expect(BigInt(row.debit), row.accountId).toBe(debit.get(row.accountId) ?? 0n);
      expect(BigInt(row.credit), row.accountId).toBe(credit.get(row.accountId) ?? 0n);
    }
    res = await call('GET', '/wallet');
    expect(res.statusCode).toBe(200);
    const wallet = res.json();
    const op = wallet.accounts.find((x: { id: string }) => x.id === operating.id);
    const opExpected =
      (debit.get(operating.ledgerAccountId) ?? 0n) - (credit.get(operating.ledgerAccountId) ?? 0n);
    expect(opExpected).toBe(2n * BIG_MAX);
    expect(BigInt(op.balance)).toBe(opExpected);
    // Balances are the ledger's (decision 0022): the total is every money account's book value,
    // the EUR account's at its posting rate whatever the latest stored rate says.
    const net = (id: string) => (debit.get(id) ?? 0n) - (credit.get(id) ?? 0n);
    expect(BigInt(wallet.totalBase)).toBe(
      (wallet.accounts as { ledgerAccountId: string }[]).reduce((sum, x) => sum + net(x.ledgerAccountId), 0n),
    );
    expect(wallet.accounts.find((x: { id: string }) => x.id === euro.id)).toMatchObject({
      balance: 100_000,
      baseBalance: 110_000,
    });
    res = await call('GET', '/reports/balance-sheet?asOf=2026-12-31');
    expect(res.statusCode).toBe(200);
    const bs = res.json();
    expect(bs.totals.assets).toBe(bs.totals.liabilitiesAndEquity);
    res = await call('GET', '/invoices');
    expect(res.statusCode).toBe(200);

    // Every GET of the company answers 2xx.
    const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<
        string,
        Record<string, { parameters?: { in: string; name: string; required?: boolean }[] }>
      >;
    };
    const fill: Record<string, string> = {
      from: '2026-01-01',
      to: '2026-12-31',
      asOf: '2026-12-31',
      accountId: operating.ledgerAccountId,
      moneyAccountId: operating.id,
    };
    const failures: string[] = [];
    let checked = 0;
    for (const [p, ops] of Object.entries(doc.paths)) {
      const op = ops.get;
      if (!op || !p.startsWith('/api/orgs/{organizationId}')) continue;
      const pathParams = (op.parameters ?? []).filter((x) => x.in === 'path').map((x) => x.name);
      if (pathParams.some((n) => n !== 'organizationId')) continue;
      const query = (op.parameters ?? [])
        .filter((x) => x.in === 'query' && (x.required || x.name in fill))
        .map((x) => `${x.name}=${encodeURIComponent(fill[x.name] ?? '')}`)
        .join('&');
      const url = `${p.replace('/api/orgs/{organizationId}', '')}${query ? `?${query}` : ''}`;
      const r = await call('GET', url);
      checked += 1;
      if (url === '/invoice-settings/logo' && r.statusCode === 404) continue; // no logo uploaded
      if (r.statusCode < 200 || r.statusCode >= 300)
        failures.push(`${url} → ${r.statusCode} ${r.body.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(20);
  }, 300_000);
});
