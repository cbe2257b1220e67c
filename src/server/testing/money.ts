import { sql } from 'kysely';
import { expect } from 'vitest';
import { cashPositionOf } from '../../shared/cash.ts';
import type { BalanceSheet } from '../../shared/ledger.ts';
import type { MoneyAccount, WalletSummary } from '../../shared/wallet.ts';
import type { App } from '../app.ts';
import type { Executor } from '../db/transaction.ts';
import { okCompanyRoute } from './api.ts';
import type { TestCompany } from './companies.ts';

// "Three screens, one number" (issue 13 §2): the wallet, the balance sheet's cash and bank
// lines and the dashboard's cash position, read over the API as the app reads them, beside
// each money account's balance summed straight from the posted lines.

const get = async <T>(app: App, company: TestCompany, url: string): Promise<T> => {
  const res = await app.inject({
    method: 'GET',
    url: `/api/orgs/${company.id}${url}`,
    headers: { cookie: company.owner.cookie },
  });
  if (res.statusCode !== 200) throw new Error(`GET ${url} → ${res.statusCode} ${res.body}`);
  return res.json() as T;
};

/** Each money account's balance in its own currency and in base, summed from journal_lines directly. */
export const rawLedgerBalances = async (db: Executor, organizationId: string, asOf: string) => {
  const result = await sql<{ id: string; amount: string; base: string }>`
    select m.id,
           coalesce(sum(case when l.currency is null then l.debit - l.credit
                             when l.debit > 0 then l.amount else -l.amount end), 0)::bigint as amount,
           coalesce(sum(l.debit - l.credit), 0)::bigint as base
      from money_accounts m
      left join journal_lines l
        on l.organization_id = m.organization_id and l.account_id = m.ledger_account_id and l.date <= ${asOf}
     where m.organization_id = ${organizationId}
     group by m.id`.execute(db);
  return new Map(result.rows.map((r) => [r.id, { amount: Number(r.amount), base: Number(r.base) }]));
};

export const threeScreens = async (app: App, db: Executor, company: TestCompany, asOf: string) => {
  const wallet = await get<WalletSummary>(app, company, `/wallet?asOf=${asOf}`);
  const bs = await get<BalanceSheet>(app, company, `/reports/balance-sheet?asOf=${asOf}`);
  const raw = await rawLedgerBalances(db, company.id, asOf);
  const tb = await sql<{ diff: string }>`
    select coalesce(sum(debit - credit), 0)::bigint as diff
      from journal_lines where organization_id = ${company.id} and date <= ${asOf}`.execute(db);
  return {
    wallet,
    /** Per money account: [wallet balance, ledger balance] in its own currency and in base. */
    perAccount: wallet.accounts.map((a) => ({
      id: a.id,
      name: a.name,
      wallet: { amount: a.balance, base: a.baseBalance },
      ledger: raw.get(a.id) ?? { amount: 0, base: 0 },
    })),
    walletCash: wallet.cashBase,
    balanceSheetCash: cashPositionOf(bs).cash,
    balanced: bs.balanced,
    trialBalance: Number(tb.rows[0]?.diff ?? 0),
  };
};

/** Adds a money account through the API, a USD bank account unless the body says otherwise; it must be created. */
export const addTestMoneyAccount = (app: App, company: TestCompany, body: Record<string, unknown>) =>
  okCompanyRoute<MoneyAccount>(app, company, 'POST', '/wallet/accounts', {
    kind: 'bank',
    currency: 'USD',
    ...body,
  });

/** Adds a USD bank account through the API as the wallet page does; it must be created. */
export const addTestBankAccount = async (
  client: { post: (url: string, body: unknown) => Promise<{ status: number; body: any }> },
  name: string,
  openingDate: string,
): Promise<MoneyAccount> => {
  const res = await client.post('/wallet/accounts', { name, kind: 'bank', currency: 'USD', openingDate });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};
