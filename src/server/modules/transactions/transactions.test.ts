import { beforeAll, describe, expect, it } from 'vitest';
import type { Transaction } from '../../../shared/transactions.ts';
import type { MoneyAccount } from '../../../shared/wallet.ts';
import { companyCalls, expectRefusal } from '../../testing/api.ts';
import { addTestMoneyAccount } from '../../testing/money.ts';
import { setUpTestApp } from '../../testing/per-file-app.ts';
import { CHECKING_US_MAPPING } from '../../testing/statements.ts';
import { type TestCompany, addTestMember, createTestCompany } from '../../testing/companies.ts';
import {
  countRows,
  moneyAccountMismatches,
  statementFixture,
  trialBalanceDifference,
} from '../../testing/transactions.ts';

// Wallet, transactions, rules, reconciliation and transfers through the HTTP API, on PGlite
// (and PostgreSQL with TEST_DATABASE_URL).

const t = setUpTestApp();

const { call, ok } = companyCalls(() => t.app);

const accountByCode = async (company: TestCompany, code: string) => {
  const row = await t.database.db
    .selectFrom('accounts')
    .select(['id', 'name'])
    .where('organization_id', '=', company.id)
    .where('code', '=', code)
    .executeTakeFirstOrThrow();
  return row.id;
};

const addAccount = (company: TestCompany, body: Record<string, unknown>) =>
  addTestMoneyAccount(t.app, company, { openingDate: '2026-10-31', ...body });

const checkBooks = async (company: TestCompany) => {
  expect(await moneyAccountMismatches(t.database.db, company.id)).toEqual([]);
  expect(await trialBalanceDifference(t.database.db, company.id)).toBe(0);
};

describe('money accounts', () => {
  it('adds a bank account backed by a new ledger account, with its opening balance posted', async () => {
    const company = await createTestCompany(t.app);
    const account = await addAccount(company, {
      name: 'Operating account',
      institution: 'First Bank',
      accountNumber: '0001 2345 6789',
      openingBalance: 1_000_000,
    });
    expect(account).toMatchObject({
      balance: 1_000_000,
      baseBalance: 1_000_000,
      maskedNumber: '•••• 6789',
      ledgerAccountCode: '1011',
    });
    const entries = await t.database.db
      .selectFrom('journal_entries')
      .select(['source', 'date'])
      .where('organization_id', '=', company.id)
      .where('source', '=', 'opening_balance')
      .execute();
    expect(entries).toEqual([{ source: 'opening_balance', date: '2026-10-31' }]);
    const card = await addAccount(company, {
      name: 'Company Visa',
      kind: 'credit_card',
      openingBalance: -25_000,
    });
    expect(card).toMatchObject({ ledgerAccountCode: '2101', balance: -25_000 });
    const wallet = await ok(company, 'GET', '/wallet');
    expect(wallet.totalBase).toBe(975_000);
    await checkBooks(company);
  });

  it('converts a foreign account at the latest rate and refuses an opening balance without one', async () => {
    const company = await createTestCompany(t.app);
    const refused = await call(company, 'POST', '/wallet/accounts', {
      name: 'Euro account',
      kind: 'bank',
      currency: 'EUR',
      openingDate: '2026-10-31',
      openingBalance: 50_000,
    });
    expectRefusal(refused, 400, 'rate_required');
    expect(await countRows(t.database.db, 'journal_entries', company.id)).toBe(0);
    await ok(company, 'POST', '/wallet/rates', { currency: 'EUR', date: '2026-10-01', rate: '1.08' });
    const eur = await addAccount(company, { name: 'Euro account', currency: 'EUR', openingBalance: 50_000 });
    expect(eur).toMatchObject({ balance: 50_000, baseBalance: 54_000, rate: '1.08' });
    await ok(company, 'POST', '/wallet/rates', { currency: 'EUR', date: '2026-11-15', rate: '1.1' });
    const wallet = await ok(company, 'GET', '/wallet');
    // The base balance is the ledger's book value (what the balance sheet shows); the latest rate is shown beside it.
    expect(wallet.accounts.find((a: MoneyAccount) => a.id === eur.id)).toMatchObject({
      balance: 50_000,
      baseBalance: 54_000,
      rate: '1.1',
      rateDate: '2026-11-15',
    });
    await checkBooks(company);
  });

  it('refuses bad input with a clear 400 and archives only an empty account', async () => {
    const company = await createTestCompany(t.app);
    const bad = await call(company, 'POST', '/wallet/accounts', {
      name: '',
      kind: 'vault',
      currency: 'usd',
      openingDate: '2026-02-30',
    });
    expectRefusal(bad, 400, 'validation_failed');
    const account = await addAccount(company, { name: 'Petty cash', kind: 'cash', openingBalance: 5_000 });
    const archive = await call(company, 'PATCH', `/wallet/accounts/${account.id}`, { archived: true });
    expectRefusal(archive, 409, 'account_has_balance');
  });
});

describe('statement import', () => {
  let company: TestCompany;
  let account: MoneyAccount;

  beforeAll(async () => {
    company = await createTestCompany(t.app);
    account = await addAccount(company, { name: 'Checking', openingBalance: 500_000 });
  });

  it('suggests the mapping, previews, imports, and re-importing adds nothing', async () => {
    const content = statementFixture('checking-us.csv');
    const sniff = await ok(company, 'POST', '/statement-imports/sniff', {
      moneyAccountId: account.id,
      content,
    });
    expect(sniff.header).toEqual(['Date', 'Description', 'Payee', 'Amount', 'Transaction ID']);
    expect(sniff.savedMapping).toBeNull();
    const input = {
      moneyAccountId: account.id,
      fileName: 'checking-us.csv',
      content,
      mapping: CHECKING_US_MAPPING,
    };
    const preview = await ok(company, 'POST', '/statement-imports/preview', input);
    expect(preview).toMatchObject({
      totalRows: 10,
      newRows: 10,
      duplicateRows: 0,
      moneyIn: 662_000,
      moneyOut: 126_885,
    });
    expect(await countRows(t.database.db, 'bank_transactions', company.id)).toBe(0);
    const result = await ok(company, 'POST', '/statement-imports', input);
    expect(result).toMatchObject({ imported: 10, duplicates: 0 });
    const wallet = await ok(company, 'GET', `/wallet/accounts/${account.id}`);
    expect(wallet).toMatchObject({ balance: 500_000 + 662_000 - 126_885, uncategorizedCount: 10 });
    await checkBooks(company);

    // The mapping is remembered for the account, and the same file again adds nothing.
    const again = await ok(company, 'POST', '/statement-imports', {
      moneyAccountId: account.id,
      fileName: 'checking-us.csv',
      content,
    });
    expect(again).toMatchObject({ id: null, imported: 0, duplicates: 10 });
    const againPreview = await ok(company, 'POST', '/statement-imports/preview', {
      ...input,
      mapping: undefined,
    });
    expect(againPreview.rows.every((r: { duplicate: boolean }) => r.duplicate)).toBe(true);
    expect(await countRows(t.database.db, 'bank_transactions', company.id)).toBe(10);
    expect(await countRows(t.database.db, 'statement_imports', company.id)).toBe(1);
  });

  it('keeps two identical lines of one file but still adds nothing on re-import (OFX)', async () => {
    const card = await addAccount(company, { name: 'Card', kind: 'credit_card' });
    const content = statementFixture('card-ofx2.ofx');
    const first = await ok(company, 'POST', '/statement-imports', {
      moneyAccountId: card.id,
      fileName: 'card.ofx',
      content,
    });
    expect(first.imported).toBe(3);
    const second = await ok(company, 'POST', '/statement-imports', {
      moneyAccountId: card.id,
      fileName: 'card.ofx',
      content,
    });
    expect(second.imported).toBe(0);
    const qfx = await addAccount(company, { name: 'Old bank', openingBalance: 0 });
    const sgml = await ok(company, 'POST', '/statement-imports', {
      moneyAccountId: qfx.id,
      fileName: 'checking.qfx',
      content: statementFixture('checking-ofx1.qfx'),
    });
    expect(sgml.imported).toBe(4);
    const balance = await ok(company, 'GET', `/wallet/accounts/${qfx.id}`);
    expect(balance.balance).toBe(-24_518 + 412_000 - 7_200 - 120_000);
    await checkBooks(company);
  });

  it('two imports of the same file racing add it once', async () => {
    const racing = await addAccount(company, { name: 'Racing' });
    const input = {
      moneyAccountId: racing.id,
      fileName: 'checking.qfx',
      content: statementFixture('checking-ofx1.qfx'),
    };
    const [a, b] = await Promise.all([
      ok(company, 'POST', '/statement-imports', input),
      ok(company, 'POST', '/statement-imports', input),
    ]);
    expect(a.imported + b.imported).toBe(4);
    expect(a.duplicates + b.duplicates).toBe(4);
    await checkBooks(company);
  });

  it('imports CAMT.053 into a euro account at the stored rate', async () => {
    await ok(company, 'POST', '/wallet/rates', { currency: 'EUR', date: '2026-10-01', rate: '1.0825' });
    const eur = await addAccount(company, {
      name: 'Euro account',
      currency: 'EUR',
      openingBalance: 1_000_000,
    });
    const result = await ok(company, 'POST', '/statement-imports', {
      moneyAccountId: eur.id,
      fileName: 'camt053-eur.xml',
      content: statementFixture('camt053-eur.xml'),
    });
    expect(result.imported).toBe(3);
    const after = await ok(company, 'GET', `/wallet/accounts/${eur.id}`);
    expect(after.balance).toBe(1_133_810);
    // A statement in the wrong currency is refused.
    const usd = await call(company, 'POST', '/statement-imports/preview', {
      moneyAccountId: account.id,
      fileName: 'camt053-eur.xml',
      content: statementFixture('camt053-eur.xml'),
    });
    expect(usd.status).toBe(400);
    expect(usd.body.error.details.errors[0].reason).toMatch(/is in EUR/);
    await checkBooks(company);
  });

  it('refuses a broken file of each kind whole, with line and reason, importing nothing', async () => {
    const fresh = await addAccount(company, { name: 'Fresh' });
    const before = await countRows(t.database.db, 'bank_transactions', company.id);
    const entriesBefore = await countRows(t.database.db, 'journal_entries', company.id);
    const cases = [
      { fileName: 'broken.csv', mapping: CHECKING_US_MAPPING, line: 5 },
      { fileName: 'broken.ofx', line: 29 },
      { fileName: 'broken-camt053.xml', line: undefined },
      { fileName: 'camt053-bad-entry.xml', line: 12 },
    ];
    for (const c of cases) {
      await ok(company, 'POST', '/wallet/rates', { currency: 'EUR', date: '2026-01-01', rate: '1.1' });
      const target = c.fileName.includes('camt')
        ? (await addAccount(company, { name: `EUR ${c.fileName}`, currency: 'EUR' })).id
        : fresh.id;
      const res = await call(company, 'POST', '/statement-imports', {
        moneyAccountId: target,
        fileName: c.fileName,
        content: statementFixture(c.fileName),
        ...(c.mapping ? { mapping: c.mapping } : {}),
      });
      expectRefusal(res, 400, 'statement_invalid');
      expect(res.body.error.message).toMatch(/^The file was not imported: line \d+: /);
      const first = res.body.error.details.errors[0];
      if (c.line) expect(first.line).toBe(c.line);
      expect(first.reason.length).toBeGreaterThan(5);
    }
    expect(await countRows(t.database.db, 'bank_transactions', company.id)).toBe(before);
    expect(await countRows(t.database.db, 'journal_entries', company.id)).toBe(entriesBefore);
  });
});

describe('categorising, rules, splits and edits', () => {
  let company: TestCompany;
  let account: MoneyAccount;
  let software: string;
  let travel: string;
  let sales: string;
  let fees: string;

  beforeAll(async () => {
    company = await createTestCompany(t.app);
    account = await addAccount(company, { name: 'Checking', openingBalance: 500_000 });
    software = await accountByCode(company, '6400');
    travel = await accountByCode(company, '6800');
    sales = await accountByCode(company, '4000');
    fees = await accountByCode(company, '6100');
  });

  const list = (query = '') =>
    ok<{ transactions: Transaction[]; nextCursor: string | null }>(company, 'GET', `/transactions${query}`);

  it('applies rules on import in priority order, suggests from history, and categorises the rest in bulk', async () => {
    // The lower priority number wins: both match AWS, the first sets Software.
    await ok(company, 'POST', '/transaction-rules', {
      name: 'AWS',
      priority: 10,
      descriptionContains: 'amazon web services',
      setCategoryAccountId: software,
      setPayee: 'AWS',
    });
    await ok(company, 'POST', '/transaction-rules', {
      name: 'Anything Amazon',
      priority: 20,
      descriptionContains: 'amazon',
      setCategoryAccountId: travel,
    });
    await ok(company, 'POST', '/transaction-rules', {
      name: 'Big deposits',
      priority: 30,
      direction: 'in',
      minAmount: 300_000,
      setCategoryAccountId: sales,
    });
    const badRule = await call(company, 'POST', '/transaction-rules', {
      name: 'No condition',
      setCategoryAccountId: software,
    });
    expect(badRule.status).toBe(400);
    const result = await ok(company, 'POST', '/statement-imports', {
      moneyAccountId: account.id,
      fileName: 'checking-us.csv',
      content: statementFixture('checking-us.csv'),
      mapping: CHECKING_US_MAPPING,
    });
    expect(result).toMatchObject({ imported: 10, categorizedByRules: 3 });
    const aws = (await list('?search=amazon')).transactions;
    expect(aws.map((x) => [x.categoryAccountId, x.payee, x.status])).toEqual([
      [software, 'AWS', 'categorized'],
      [software, 'AWS', 'categorized'],
    ]);
    const uncategorized = (await list('?categoryId=uncategorized&limit=100')).transactions;
    expect(uncategorized).toHaveLength(7);

    // Categorise one Starbucks by hand; the other then gets it as a suggestion, never applied.
    const coffee = (await list('?search=starbucks')).transactions;
    await ok(company, 'PATCH', `/transactions/${coffee[0]!.id}`, { categoryAccountId: travel });
    const other = await ok<Transaction>(company, 'GET', `/transactions/${coffee[1]!.id}`);
    expect(other.status).toBe('uncategorized');
    expect(other.suggestion).toEqual({ categoryAccountId: travel, categoryName: 'Travel', count: 1 });

    const rest = (await list('?categoryId=uncategorized&limit=100')).transactions.map((x) => x.id);
    const bulk = await ok(company, 'POST', '/transactions/bulk-categorize', {
      transactionIds: rest,
      categoryAccountId: fees,
    });
    expect(bulk).toEqual({ updated: 6, unchanged: 0 });
    expect((await list('?categoryId=uncategorized')).transactions).toHaveLength(0);
    const totals = await ok(company, 'GET', '/transactions/totals?type=expense');
    expect(totals.byCurrency).toEqual([{ currency: 'USD', count: 8, moneyIn: 0, moneyOut: 126_885 }]);
    await checkBooks(company);
  });

  it('edits a categorised transaction by reversing and reposting in one go', async () => {
    const [tx] = (await list('?search=wework')).transactions;
    const entriesBefore = await countRows(t.database.db, 'journal_entries', company.id);
    const edited = await ok<Transaction>(company, 'PATCH', `/transactions/${tx!.id}`, {
      amount: -90_000,
      categoryAccountId: software,
      notes: 'Desk upgrade',
    });
    expect(edited).toMatchObject({ amount: -90_000, categoryAccountId: software, notes: 'Desk upgrade' });
    expect(edited.entryId).not.toBe(tx!.entryId);
    expect(await countRows(t.database.db, 'journal_entries', company.id)).toBe(entriesBefore + 2);
    const reversal = await t.database.db
      .selectFrom('journal_entries')
      .select('reverses_entry_id')
      .where('organization_id', '=', company.id)
      .where('reverses_entry_id', '=', tx!.entryId)
      .executeTakeFirst();
    expect(reversal).toBeDefined();
    // Notes alone post nothing new.
    await ok(company, 'PATCH', `/transactions/${tx!.id}`, { notes: 'Desk upgrade, annual' });
    expect(await countRows(t.database.db, 'journal_entries', company.id)).toBe(entriesBefore + 2);
    await checkBooks(company);
  });

  it('splits a transaction across categories and refuses parts that do not add up', async () => {
    const [tx] = (await list('?search=stripe')).transactions;
    const bad = await call(company, 'PATCH', `/transactions/${tx!.id}`, {
      splits: [
        { categoryAccountId: sales, amount: 400_000 },
        { categoryAccountId: fees, amount: 1 },
      ],
    });
    expectRefusal(bad, 400, 'split_mismatch');
    const split = await ok<Transaction>(company, 'PATCH', `/transactions/${tx!.id}`, {
      splits: [
        { categoryAccountId: sales, amount: 425_000, description: 'Gross sales' },
        { categoryAccountId: fees, amount: -13_000, description: 'Stripe fees' },
      ],
    });
    expect(split.categoryKind).toBe('split');
    expect(split.splits.map((s) => [s.categoryName, s.amount])).toEqual([
      ['Sales', 425_000],
      ['Bank fees', -13_000],
    ]);
    const byFees = (await list(`?categoryId=${fees}&search=stripe`)).transactions;
    expect(byFees.map((x) => x.id)).toEqual([tx!.id]);
    await checkBooks(company);
  });

  it('records, applies rules on demand and deletes a manual transaction', async () => {
    const created = await ok<Transaction>(company, 'POST', '/transactions', {
      moneyAccountId: account.id,
      date: '2026-11-19',
      description: 'Amazon Web Services invoice 7781',
      amount: -5_000,
    });
    expect(created.status).toBe('uncategorized');
    const applied = await ok(company, 'POST', '/transactions/apply-rules', {});
    expect(applied.categorized).toBe(1);
    expect((await ok<Transaction>(company, 'GET', `/transactions/${created.id}`)).categoryAccountId).toBe(
      software,
    );
    const taxed = await ok<Transaction>(company, 'POST', '/transactions', {
      moneyAccountId: account.id,
      date: '2026-11-19',
      description: 'Office chair',
      amount: -12_000,
      categoryAccountId: software,
      taxRate: 2000,
    });
    const lines = await t.database.db
      .selectFrom('journal_lines')
      .select(['debit', 'credit'])
      .where('organization_id', '=', company.id)
      .where('entry_id', '=', taxed.entryId!)
      .orderBy('line_no')
      .execute();
    expect(lines).toEqual([
      { debit: 0, credit: 12_000 },
      { debit: 2_000, credit: 0 },
      { debit: 10_000, credit: 0 },
    ]);
    await ok(company, 'DELETE', `/transactions/${taxed.id}`);
    expect((await call(company, 'GET', `/transactions/${taxed.id}`)).status).toBe(404);
    await checkBooks(company);
  });

  it('pages with a keyset cursor in every sort order without repeats or gaps', async () => {
    for (const sort of ['date', 'amount', 'description'] as const) {
      for (const direction of ['asc', 'desc'] as const) {
        const seen: string[] = [];
        let cursor: string | null = null;
        do {
          const page: { transactions: Transaction[]; nextCursor: string | null } = await list(
            `?sort=${sort}&direction=${direction}&limit=3${cursor ? `&cursor=${cursor}` : ''}`,
          );
          seen.push(...page.transactions.map((x) => x.id));
          cursor = page.nextCursor;
        } while (cursor);
        expect(new Set(seen).size).toBe(seen.length);
        expect(seen.length).toBe(11);
      }
    }
    const bad = await call(company, 'GET', '/transactions?cursor=not-a-cursor');
    expect(bad.status).toBe(400);
    const csv = await t.app.inject({
      method: 'GET',
      url: `/api/orgs/${company.id}/transactions/export.csv?type=income`,
      headers: { cookie: company.owner.cookie },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.body.split('\r\n')[0]).toBe(
      'Date,Account,Description,Payee,Category,Status,Currency,Amount,Notes',
    );
    expect(csv.body).toContain('"CLIENT PAYMENT INV-2026-031 ""NORTHWIND"""');
  });
});

describe('attachments', () => {
  it('attaches a receipt, lists, downloads and removes it; refuses other file types', async () => {
    const company = await createTestCompany(t.app);
    const account = await addAccount(company, { name: 'Checking' });
    const tx = await ok<Transaction>(company, 'POST', '/transactions', {
      moneyAccountId: account.id,
      date: '2026-11-03',
      description: 'Lunch',
      amount: -2_350,
    });
    const pdf = Buffer.from('%PDF-1.4 receipt');
    const added = await ok(company, 'POST', `/transactions/${tx.id}/attachments`, {
      fileName: 'receipt.pdf',
      contentType: 'application/pdf',
      dataBase64: pdf.toString('base64'),
    });
    expect(added).toMatchObject({ fileName: 'receipt.pdf', sizeBytes: pdf.length });
    const listed = await ok(company, 'GET', `/transactions/${tx.id}/attachments`);
    expect(listed.attachments).toHaveLength(1);
    const file = await t.app.inject({
      method: 'GET',
      url: `/api/orgs/${company.id}/transactions/${tx.id}/attachments/${added.id}`,
      headers: { cookie: company.owner.cookie },
    });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(pdf)).toBe(true);
    const exe = await call(company, 'POST', `/transactions/${tx.id}/attachments`, {
      fileName: 'x.exe',
      contentType: 'application/x-msdownload',
      dataBase64: 'TVqQAAMAAAAEAAAA',
    });
    expect(exe.status).toBe(415);
    const other = await createTestCompany(t.app);
    expect((await call(other, 'GET', `/transactions/${tx.id}/attachments`)).status).toBe(404);
    expect((await call(other, 'GET', `/transactions/${tx.id}/attachments/${added.id}`)).status).toBe(404);
    await ok(company, 'DELETE', `/transactions/${tx.id}/attachments/${added.id}`);
    expect((await ok(company, 'GET', `/transactions/${tx.id}/attachments`)).attachments).toEqual([]);
  });
});

describe('reconciliation', () => {
  it('ticks to a zero difference, locks the rows, and undoes the last one', async () => {
    const company = await createTestCompany(t.app);
    const account = await addAccount(company, { name: 'Checking', openingBalance: 100_000 });
    await ok(company, 'POST', '/statement-imports', {
      moneyAccountId: account.id,
      fileName: 'checking.qfx',
      content: statementFixture('checking-ofx1.qfx'),
    });
    const txs = (await ok(company, 'GET', '/transactions?sort=date&direction=asc'))
      .transactions as Transaction[];
    const rec = await ok(company, 'POST', '/reconciliations', {
      moneyAccountId: account.id,
      statementDate: '2026-11-05',
      statementBalance: 100_000 - 24_518 + 412_000 - 7_200,
    });
    expect(rec).toMatchObject({ openingBalance: 100_000, difference: 412_000 - 24_518 - 7_200 });
    const candidates = (await ok(company, 'GET', `/transactions?reconciliationId=${rec.id}`))
      .transactions as Transaction[];
    expect(candidates).toHaveLength(3);
    const after = await call(company, 'POST', `/reconciliations/${rec.id}/tick`, {
      transactionIds: [txs[3]!.id],
      ticked: true,
    });
    expect(after.status).toBe(400);
    let state = await ok(company, 'POST', `/reconciliations/${rec.id}/tick`, {
      transactionIds: [txs[0]!.id, txs[1]!.id],
      ticked: true,
    });
    expect(state.difference).toBe(-7_200);
    const early = await call(company, 'POST', `/reconciliations/${rec.id}/finish`);
    expectRefusal(early, 409, 'reconciliation_not_balanced');
    state = await ok(company, 'POST', `/reconciliations/${rec.id}/tick`, {
      transactionIds: [txs[2]!.id],
      ticked: true,
    });
    expect(state.difference).toBe(0);
    const done = await ok(company, 'POST', `/reconciliations/${rec.id}/finish`);
    expect(done.status).toBe('completed');
    const locked = await call(company, 'PATCH', `/transactions/${txs[0]!.id}`, { description: 'changed' });
    expectRefusal(locked, 409, 'transaction_reconciled');
    const bulk = await call(company, 'POST', '/transactions/bulk-categorize', {
      transactionIds: [txs[1]!.id],
      categoryAccountId: await accountByCode(company, '4000'),
    });
    expect(bulk.status).toBe(409);
    expect((await call(company, 'DELETE', `/transactions/${txs[2]!.id}`)).status).toBe(409);
    // The next reconciliation starts from the reconciled balance.
    const next = await ok(company, 'POST', '/reconciliations', {
      moneyAccountId: account.id,
      statementDate: '2026-11-20',
      statementBalance: 0,
    });
    expect(next.openingBalance).toBe(100_000 - 24_518 + 412_000 - 7_200);
    await ok(company, 'DELETE', `/reconciliations/${next.id}`);
    const undone = await ok(company, 'POST', '/reconciliations/undo-last', { moneyAccountId: account.id });
    expect(undone.status).toBe('undone');
    const unlocked = await ok<Transaction>(company, 'PATCH', `/transactions/${txs[0]!.id}`, {
      description: 'AWS (checked)',
    });
    expect(unlocked.status).toBe('uncategorized');
    expect(
      (await call(company, 'POST', '/reconciliations/undo-last', { moneyAccountId: account.id })).status,
    ).toBe(404);
    await checkBooks(company);
  });
});

describe('transfers', () => {
  it('moves money within one currency and across currencies as one entry each', async () => {
    const company = await createTestCompany(t.app);
    const checking = await addAccount(company, { name: 'Checking', openingBalance: 1_000_000 });
    const savings = await addAccount(company, { name: 'Savings' });
    const same = await ok(company, 'POST', '/wallet/transfers', {
      fromAccountId: checking.id,
      toAccountId: savings.id,
      date: '2026-11-10',
      amount: 250_000,
    });
    expect(same).toMatchObject({ fromAmount: 250_000, toAmount: 250_000, rate: '1' });
    await ok(company, 'POST', '/wallet/rates', { currency: 'EUR', date: '2026-11-01', rate: '1.08' });
    await ok(company, 'POST', '/wallet/rates', { currency: 'GBP', date: '2026-11-01', rate: '1.27' });
    const eur = await addAccount(company, { name: 'Euro', currency: 'EUR' });
    const gbp = await addAccount(company, { name: 'Sterling', currency: 'GBP' });
    const toEur = await ok(company, 'POST', '/wallet/transfers', {
      fromAccountId: checking.id,
      toAccountId: eur.id,
      date: '2026-11-11',
      amount: 108_000,
      toAmount: 100_000,
    });
    expect(toEur.rate).toBe('0.9259259259');
    const byRate = await ok(company, 'POST', '/wallet/transfers', {
      fromAccountId: eur.id,
      toAccountId: gbp.id,
      date: '2026-11-12',
      amount: 50_000,
      rate: '0.85',
    });
    expect(byRate.toAmount).toBe(42_500);
    const mismatch = await call(company, 'POST', '/wallet/transfers', {
      fromAccountId: checking.id,
      toAccountId: eur.id,
      date: '2026-11-12',
      amount: 100,
    });
    expectRefusal(mismatch, 400, 'rate_required');
    const wallet = await ok(company, 'GET', '/wallet');
    const mine = new Set([checking.id, savings.id, eur.id, gbp.id]);
    const balances = Object.fromEntries(
      wallet.accounts
        .filter((a: MoneyAccount) => mine.has(a.id))
        .map((a: MoneyAccount) => [a.name, a.balance]),
    );
    expect(balances).toEqual({ Checking: 642_000, Savings: 250_000, Euro: 50_000, Sterling: 42_500 });
    const legs = (await ok(company, 'GET', '/transactions?categoryId=transfer&limit=100'))
      .transactions as Transaction[];
    expect(legs).toHaveLength(6);
    const legEdit = await call(company, 'PATCH', `/transactions/${legs[0]!.id}`, { amount: 5 });
    expect(legEdit.status).toBe(409);
    await ok(company, 'DELETE', `/wallet/transfers/${same.id}`);
    expect((await ok(company, 'GET', `/wallet/accounts/${savings.id}`)).balance).toBe(0);
    await checkBooks(company);
    const history = await ok(company, 'GET', '/wallet/history?months=3');
    expect(history.points).toHaveLength(3);
  });
});

describe('company isolation and roles', () => {
  it('never shows or changes another company’s wallet, transactions, rules or reconciliations', async () => {
    const a = await createTestCompany(t.app, { name: 'Company A' });
    const b = await createTestCompany(t.app, { name: 'Company B' });
    const accountA = await addAccount(a, { name: 'A checking', openingBalance: 10_000 });
    const txA = await ok<Transaction>(a, 'POST', '/transactions', {
      moneyAccountId: accountA.id,
      date: '2026-11-02',
      description: 'Secret',
      amount: -100,
    });
    const rec = await ok(a, 'POST', '/reconciliations', {
      moneyAccountId: accountA.id,
      statementDate: '2026-11-30',
      statementBalance: 9_900,
    });
    // B's owner using A's company id: 404 (not a member).
    for (const [method, url] of [
      ['GET', '/wallet'],
      ['GET', '/transactions'],
      ['GET', `/transactions/${txA.id}`],
      ['GET', `/reconciliations/${rec.id}`],
    ] as const) {
      const res = await t.app.inject({
        method,
        url: `/api/orgs/${a.id}${url}`,
        headers: { cookie: b.owner.cookie },
      });
      expect(res.statusCode, url).toBe(404);
    }
    // B's owner using A's ids inside B's company: not found, nothing changed.
    expect((await call(b, 'GET', `/transactions/${txA.id}`)).status).toBe(404);
    expect((await call(b, 'PATCH', `/transactions/${txA.id}`, { description: 'x' })).status).toBe(404);
    expect((await call(b, 'GET', `/wallet/accounts/${accountA.id}`)).status).toBe(404);
    expect(
      (
        await call(b, 'POST', '/transactions', {
          moneyAccountId: accountA.id,
          date: '2026-11-02',
          description: 'x',
          amount: 5,
        })
      ).status,
    ).toBe(404);
    expect(
      (await call(b, 'POST', `/reconciliations/${rec.id}/tick`, { transactionIds: [txA.id], ticked: true }))
        .status,
    ).toBe(404);
    expect(
      (
        await call(b, 'POST', '/statement-imports/preview', {
          moneyAccountId: accountA.id,
          fileName: 'x.qfx',
          content: statementFixture('checking-ofx1.qfx'),
        })
      ).status,
    ).toBe(404);
    expect((await ok(b, 'GET', '/transactions')).transactions).toEqual([]);
    // A viewer reads but cannot post.
    const viewer = await addTestMember(t.app, a, 'viewer');
    const read = await t.app.inject({
      method: 'GET',
      url: `/api/orgs/${a.id}/transactions`,
      headers: { cookie: viewer.cookie },
    });
    expect(read.statusCode).toBe(200);
    const write = await t.app.inject({
      method: 'POST',
      url: `/api/orgs/${a.id}/transactions`,
      headers: { cookie: viewer.cookie },
      payload: { moneyAccountId: accountA.id, date: '2026-11-02', description: 'x', amount: 5 },
    });
    expect(write.statusCode).toBe(403);
  });
});
