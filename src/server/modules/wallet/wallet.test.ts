import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MoneyAccount, WalletSummary } from '../../../shared/wallet.ts';
import { type TestAnswer, type TestMethod, companyCalls, expectRefusal } from '../../testing/api.ts';
import { setUpTestApp } from '../../testing/per-file-app.ts';
import { type TestCompany, addTestMember, createTestCompany } from '../../testing/companies.ts';
import { setUpInvoicing } from '../../testing/invoices.ts';
import { addTestMoneyAccount, threeScreens } from '../../testing/money.ts';

// One model for money (issue 13 §1, §2, §6; decision 0022): every bank, cash and card account
// of the chart is a money account, the wallet's balances are the ledger's, and the wallet, the
// balance sheet's cash lines and the dashboard's cash agree. PGlite by default, PostgreSQL
// with TEST_DATABASE_URL.

const t = setUpTestApp();
beforeAll(() => t.clock.set('2026-11-20T12:00:00Z'));

const { call, ok } = companyCalls(() => t.app);

const journalCount = async (company: TestCompany) =>
  Number(
    (
      await sql<{
        n: string;
      }>`select count(*) as n from journal_entries where organization_id = ${company.id}`.execute(
        t.database.db,
      )
    ).rows[0]!.n,
  );

/** A sent invoice of `units` consulting hours (12,500 + 20 % tax each). */
const sentInvoice = async (
  company: TestCompany,
  fx: { customerId: string; taxRateId: string },
  units = 1,
) => {
  const inv = await ok(company, 'POST', '/invoices', {
    customerId: fx.customerId,
    issueDate: '2026-11-02',
    lines: [
      {
        description: 'Consulting hour',
        quantity: String(units),
        unitPrice: 12_500,
        taxRateIds: [fx.taxRateId],
      },
    ],
  });
  await ok(company, 'POST', `/invoices/${inv.id}/send`, { email: false });
  return inv.id as string;
};

/** Chart requests that would make, unmake or remove a money account: each must be refused with 409. */
const expectChartRefuses = async (company: TestCompany, requests: [TestMethod, string, unknown?][]) => {
  const answers: TestAnswer[] = [];
  for (const [method, url, body] of requests) {
    const res = await call(company, method, url, body);
    expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBe(409);
    answers.push(res);
  }
  return answers;
};

const expectOneNumber = async (company: TestCompany, asOf = '2026-11-20') => {
  const s = await threeScreens(t.app, t.database.db, company, asOf);
  for (const a of s.perAccount) expect(a.wallet, a.name).toEqual(a.ledger);
  expect(s.walletCash).toBe(s.balanceSheetCash);
  expect(s.trialBalance).toBe(0);
  expect(s.balanced).toBe(true);
  return s;
};

describe('one model: money accounts are the chart’s money accounts', () => {
  it('gives a new company a money account for each bank, cash and card account, the bank as deposit account', async () => {
    const company = await createTestCompany(t.app);
    const wallet = await ok<WalletSummary>(company, 'GET', '/wallet');
    const byCode = Object.fromEntries(wallet.accounts.map((a) => [a.ledgerAccountCode, a]));
    expect(Object.keys(byCode).sort()).toEqual(['1000', '1010', '1050', '2100']);
    expect(byCode['1010']).toMatchObject({
      kind: 'bank',
      name: 'Business bank account',
      isDefaultDeposit: true,
    });
    expect(byCode['1000']!.kind).toBe('cash');
    expect(byCode['1050']!.kind).toBe('payment_processor');
    expect(byCode['2100']!.kind).toBe('credit_card');
    expect(wallet.defaultDepositAccountId).toBe(byCode['1010']!.id);
    expect(wallet).toMatchObject({ cashBase: 0, cardsBase: 0, loansBase: 0, totalBase: 0 });
  });

  it('records an invoice payment into the deposit account: wallet = balance sheet cash = dashboard cash', async () => {
    // The issue's flow: a new company, the user adds their bank account with its opening
    // balance, then records an invoice payment without naming an account.
    const company = await createTestCompany(t.app);
    const fx = await setUpInvoicing(t.app, t.database, company);
    const checking = await addTestMoneyAccount(t.app, company, {
      name: 'Checking',
      openingDate: '2026-11-01',
      openingBalance: 1_407_500,
    });
    // The chart's 1010 was untouched, so the account the user added is the deposit account.
    expect(checking.isDefaultDeposit).toBe(true);
    const invoiceId = await sentInvoice(company, fx, 8); // 8 × 15,000 = 120,000 due
    await ok(company, 'POST', `/invoices/${invoiceId}/payments`, { date: '2026-11-05', amount: 120_000 });
    const s = await expectOneNumber(company);
    expect(s.wallet.accounts.find((a) => a.id === checking.id)!.balance).toBe(1_407_500 + 120_000);
    expect(s.walletCash).toBe(1_407_500 + 120_000);
    // The wallet as of a date before the payment: the same agreement, without it.
    const before = await expectOneNumber(company, '2026-11-04');
    expect(before.walletCash).toBe(1_407_500);
    // A payment into the chart's bank account, named by its ledger account: the wallet sees it.
    const bank = s.wallet.accounts.find((a) => a.ledgerAccountCode === '1010')!;
    const second = await sentInvoice(company, fx, 1);
    await ok(company, 'POST', `/invoices/${second}/payments`, {
      date: '2026-11-06',
      amount: 15_000,
      depositAccountId: bank.ledgerAccountId,
    });
    const after = await expectOneNumber(company);
    expect(after.wallet.accounts.find((a) => a.id === bank.id)!.balance).toBe(15_000);
    expect(after.walletCash).toBe(1_407_500 + 120_000 + 15_000);
    // A second account the user adds does not take over: the deposit account has activity.
    const savings = await addTestMoneyAccount(t.app, company, {
      name: 'Savings',
      openingDate: '2026-11-01',
    });
    expect(savings.isDefaultDeposit).toBe(false);
    // The balance-over-time chart reads the same ledger: October empty, today the wallet's total.
    const history = await ok(company, 'GET', '/wallet/history?months=2');
    expect(history.points.map((p: { date: string }) => p.date)).toEqual(['2026-10-31', '2026-11-20']);
    expect(history.points[0].totalBase).toBe(0);
    expect(history.points[1].totalBase).toBe(after.wallet.totalBase);
    expect(history.points[1].balances[checking.id]).toBe(1_527_500);
  });

  it('refuses a payment into another company’s or an archived money account, recording nothing', async () => {
    const company = await createTestCompany(t.app);
    const other = await createTestCompany(t.app, { name: 'Other Co' });
    const fx = await setUpInvoicing(t.app, t.database, company);
    const otherBank = (await ok<WalletSummary>(other, 'GET', '/wallet')).accounts.find(
      (a) => a.ledgerAccountCode === '1010',
    )!;
    const cash = (await ok<WalletSummary>(company, 'GET', '/wallet')).accounts.find(
      (a) => a.kind === 'cash',
    )!;
    await ok(company, 'PATCH', `/wallet/accounts/${cash.id}`, { archived: true });
    const invoiceId = await sentInvoice(company, fx, 1);
    const entries = await journalCount(company);
    const foreign = await call(company, 'POST', `/invoices/${invoiceId}/payments`, {
      date: '2026-11-05',
      amount: 15_000,
      depositAccountId: otherBank.ledgerAccountId,
    });
    expectRefusal(foreign, 400, 'account_not_found');
    const archived = await call(company, 'POST', `/invoices/${invoiceId}/payments`, {
      date: '2026-11-05',
      amount: 15_000,
      depositAccountId: cash.ledgerAccountId,
    });
    expectRefusal(archived, 400, 'account_archived');
    expect(await journalCount(company)).toBe(entries);
    expect((await ok(company, 'GET', `/invoices/${invoiceId}`)).amountDue).toBe(15_000);
    await expectOneNumber(company);
  });

  it('chooses the deposit account, and refuses another company’s, an archived one or a card', async () => {
    const company = await createTestCompany(t.app);
    const other = await createTestCompany(t.app, { name: 'Other Co' });
    const otherWallet = await ok<WalletSummary>(other, 'GET', '/wallet');
    const wallet = await ok<WalletSummary>(company, 'GET', '/wallet');
    const card = wallet.accounts.find((a) => a.kind === 'credit_card')!;
    const cash = wallet.accounts.find((a) => a.kind === 'cash')!;
    const entries = await journalCount(company);

    const foreign = await call(company, 'PUT', '/wallet/deposit-account', {
      moneyAccountId: otherWallet.accounts[0]!.id,
    });
    expectRefusal(foreign, 400, 'money_account_not_found');
    const cardRes = await call(company, 'PUT', '/wallet/deposit-account', { moneyAccountId: card.id });
    expectRefusal(cardRes, 400, 'invalid_deposit_account');

    const chosen = await ok<WalletSummary>(company, 'PUT', '/wallet/deposit-account', {
      moneyAccountId: cash.id,
    });
    expect(chosen.defaultDepositAccountId).toBe(cash.id);
    expect(chosen.accounts.filter((a) => a.isDefaultDeposit).map((a) => a.id)).toEqual([cash.id]);
    // The deposit account cannot be archived; another (empty) one can, and then cannot be chosen.
    const archiveDeposit = await call(company, 'PATCH', `/wallet/accounts/${cash.id}`, { archived: true });
    expectRefusal(archiveDeposit, 409, 'default_deposit_account');
    const bank = wallet.accounts.find((a) => a.ledgerAccountCode === '1010')!;
    await ok(company, 'PATCH', `/wallet/accounts/${bank.id}`, { archived: true });
    const archived = await call(company, 'PUT', '/wallet/deposit-account', { moneyAccountId: bank.id });
    expectRefusal(archived, 400, 'account_archived');
    expect((await ok<WalletSummary>(company, 'GET', '/wallet')).defaultDepositAccountId).toBe(cash.id);
    expect(await journalCount(company)).toBe(entries);

    // A viewer cannot choose it.
    const viewer = await addTestMember(t.app, company, 'viewer');
    const asViewer = await call(
      company,
      'PUT',
      '/wallet/deposit-account',
      { moneyAccountId: cash.id },
      viewer,
    );
    expect(asViewer.status).toBe(403);
  });

  it('refuses to make, unmake or remove a money account from the chart, pointing to the Wallet', async () => {
    const company = await createTestCompany(t.app);
    const wallet = await ok<WalletSummary>(company, 'GET', '/wallet');
    const bank = wallet.accounts.find((a) => a.ledgerAccountCode === '1010')!;
    const [created] = await expectChartRefuses(company, [
      ['POST', '/accounts', { code: '1020', name: 'Second bank', type: 'asset', subtype: 'bank' }],
      ['PATCH', `/accounts/${bank.ledgerAccountId}`, { archived: true }],
      ['PATCH', `/accounts/${bank.ledgerAccountId}`, { subtype: 'current_asset' }],
      ['DELETE', `/accounts/${bank.ledgerAccountId}`],
    ]);
    expectRefusal(created!, 409, 'money_account_in_wallet');
    expect(created!.body.error.message).toMatch(/Wallet/);
    // Renaming in the chart renames the money account: one name.
    await ok(company, 'PATCH', `/accounts/${bank.ledgerAccountId}`, { name: 'Main checking' });
    expect((await ok<MoneyAccount>(company, 'GET', `/wallet/accounts/${bank.id}`)).name).toBe(
      'Main checking',
    );
    const after = await ok<WalletSummary>(company, 'GET', '/wallet');
    expect(after.accounts).toHaveLength(wallet.accounts.length);
  });
});

describe('loans are money accounts (issue 13: bank, cash, card, loan)', () => {
  it('adds a loan as a liability of subtype loan, owed and never cash nor a deposit account', async () => {
    const company = await createTestCompany(t.app);
    const before = await ok<WalletSummary>(company, 'GET', '/wallet');
    const loan = await addTestMoneyAccount(t.app, company, {
      name: 'Equipment loan',
      kind: 'loan',
      openingBalance: -500_000,
      openingDate: '2026-11-01',
    });
    expect(loan.kind).toBe('loan');
    expect(loan.balance).toBe(-500_000);
    const chart = await ok<any[]>(company, 'GET', '/accounts');
    const ledgerAccount = (Array.isArray(chart) ? chart : (chart as any).accounts).find(
      (a: any) => a.id === loan.ledgerAccountId,
    );
    expect(ledgerAccount).toMatchObject({ type: 'liability', subtype: 'loan' });
    expect(loan.ledgerAccountCode).toBe('2701');

    const wallet = await ok<WalletSummary>(company, 'GET', '/wallet');
    // What the loan owes is not cash: the cash total, the balance sheet's cash and the
    // dashboard's stay where they were; the loan shows on its own line.
    expect(wallet.cashBase).toBe(before.cashBase);
    expect(wallet.loansBase).toBe(-500_000);
    expect(wallet.cardsBase).toBe(before.cardsBase);
    expect(wallet.totalBase).toBe(wallet.cashBase + wallet.cardsBase - 500_000);
    const s = await expectOneNumber(company);
    expect(s.balanceSheetCash).toBe(before.cashBase);
    // The deposit account stays the bank: a loan never receives customer payments.
    expect(wallet.defaultDepositAccountId).toBe(before.defaultDepositAccountId);

    const entries = await journalCount(company);
    const deposit = await call(company, 'PUT', '/wallet/deposit-account', { moneyAccountId: loan.id });
    expectRefusal(deposit, 400, 'invalid_deposit_account');
    expect(deposit.body.error.message).toMatch(/Equipment loan is a loan/);
    // The chart cannot unmake or remove it on its own: it is the Wallet's.
    const refused = await expectChartRefuses(company, [
      ['PATCH', `/accounts/${loan.ledgerAccountId}`, { subtype: 'long_term_liability' }],
      ['POST', '/accounts', { code: '2710', name: 'Van loan', type: 'liability', subtype: 'loan' }],
    ]);
    for (const res of refused) expectRefusal(res, 409, 'money_account_in_wallet');
    expect(await journalCount(company)).toBe(entries);
    expect((await ok<WalletSummary>(company, 'GET', '/wallet')).defaultDepositAccountId).toBe(
      before.defaultDepositAccountId,
    );
  });
});

describe('money account settings', () => {
  it('changes the opening balance and date through the ledger, audited, until a reconciliation covers them', async () => {
    const company = await createTestCompany(t.app);
    const acct = await addTestMoneyAccount(t.app, company, {
      name: 'Checking',
      openingDate: '2026-10-01',
      openingBalance: 100_000,
    });
    expect(acct.openingEditable).toBe(true);
    const changed = await ok<MoneyAccount>(company, 'PATCH', `/wallet/accounts/${acct.id}`, {
      openingBalance: 250_000,
      openingDate: '2026-09-15',
    });
    expect(changed).toMatchObject({ openingBalance: 250_000, openingDate: '2026-09-15', balance: 250_000 });
    await expectOneNumber(company);
    expect((await expectOneNumber(company, '2026-09-30')).walletCash).toBe(250_000);
    const audit = await sql<{ action: string }>`
      select action from audit_log where organization_id = ${company.id} and entity_id = ${acct.id} order by created_at`.execute(
      t.database.db,
    );
    expect(audit.rows.map((r) => r.action)).toContain('money_account.opening_changed');
    // The old opening entry is reversed, the new one posted: nothing is edited in place.
    const openings = await sql<{ source: string }>`
      select source from journal_entries where organization_id = ${company.id}
         and (source = 'opening_balance' or source = 'reversal') order by number`.execute(t.database.db);
    expect(openings.rows.map((r) => r.source)).toEqual(['opening_balance', 'reversal', 'opening_balance']);

    // Reconcile to a date on or after the opening: the opening is locked.
    const started = await ok(company, 'POST', '/reconciliations', {
      moneyAccountId: acct.id,
      statementDate: '2026-10-31',
      statementBalance: 250_000,
    });
    await ok(company, 'POST', `/reconciliations/${started.id}/finish`, {});
    const locked = await ok<MoneyAccount>(company, 'GET', `/wallet/accounts/${acct.id}`);
    expect(locked.openingEditable).toBe(false);
    const entries = await journalCount(company);
    const refused = await call(company, 'PATCH', `/wallet/accounts/${acct.id}`, { openingBalance: 1 });
    expectRefusal(refused, 409, 'opening_reconciled');
    expect(refused.body.error.message).toMatch(/reconciled to 2026-10-31/);
    expect(await journalCount(company)).toBe(entries);
    expect((await ok<MoneyAccount>(company, 'GET', `/wallet/accounts/${acct.id}`)).openingBalance).toBe(
      250_000,
    );
  });

  it('refuses bad opening input and another company’s account with a 4xx, changing nothing', async () => {
    const company = await createTestCompany(t.app);
    const other = await createTestCompany(t.app, { name: 'Other Co' });
    const acct = await addTestMoneyAccount(t.app, company, {
      name: 'Checking',
      openingDate: '2026-10-01',
    });
    const entries = await journalCount(company);
    for (const body of [{ openingDate: '2026-02-30' }, { openingBalance: 1.5 }, { openingBalance: 'ten' }]) {
      const res = await call(company, 'PATCH', `/wallet/accounts/${acct.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    const cross = await call(other, 'PATCH', `/wallet/accounts/${acct.id}`, { openingBalance: 5_000 });
    expect(cross.status).toBe(404);
    const crossDelete = await call(other, 'DELETE', `/wallet/accounts/${acct.id}`);
    expect(crossDelete.status).toBe(404);
    expect(await journalCount(company)).toBe(entries);
    expect((await ok<MoneyAccount>(company, 'GET', `/wallet/accounts/${acct.id}`)).openingBalance).toBe(0);
  });

  it('deletes an empty account with its ledger account; one with activity is archived instead', async () => {
    const company = await createTestCompany(t.app);
    const empty = await addTestMoneyAccount(t.app, company, {
      name: 'Unused box',
      kind: 'cash',
      openingDate: '2026-10-01',
    });
    const used = await addTestMoneyAccount(t.app, company, {
      name: 'Used',
      openingDate: '2026-10-01',
    });
    await ok(company, 'POST', '/transactions', {
      moneyAccountId: used.id,
      date: '2026-10-05',
      description: 'Coffee',
      amount: -500,
    });
    const late = await call(company, 'PATCH', `/wallet/accounts/${used.id}`, { openingDate: '2026-10-10' });
    expectRefusal(late, 409, 'transactions_before_opening');
    const refused = await call(company, 'DELETE', `/wallet/accounts/${used.id}`);
    expectRefusal(refused, 409, 'account_has_activity');
    const withBalance = await call(company, 'PATCH', `/wallet/accounts/${used.id}`, { archived: true });
    expectRefusal(withBalance, 409, 'account_has_balance');
    const system = (await ok<WalletSummary>(company, 'GET', '/wallet')).accounts.find(
      (a) => a.ledgerAccountCode === '1000',
    )!;
    const systemDelete = await call(company, 'DELETE', `/wallet/accounts/${system.id}`);
    expect(systemDelete.status).toBe(409);
    expect(await ok<MoneyAccount>(company, 'GET', `/wallet/accounts/${system.id}`)).toMatchObject({
      archived: false,
    });

    const del = await call(company, 'DELETE', `/wallet/accounts/${empty.id}`);
    expect(del.status).toBe(204);
    expect((await call(company, 'GET', `/wallet/accounts/${empty.id}`)).status).toBe(404);
    const ledger = await call(company, 'GET', `/accounts/${empty.ledgerAccountId}`);
    expect(ledger.status).toBe(404);
  });
});
