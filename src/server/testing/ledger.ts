import type { App } from '../app.ts';
import { okCompanyRoute } from './api.ts';
import type { TestCompany } from './companies.ts';

// Ledger set-up for route tests, through the API.

/** A company's system accounts (`bank`, `services`, `accounts_receivable`, …) by key, as GET /accounts lists them. */
export const systemAccountsOf = async (app: App, company: TestCompany) => {
  const body = await okCompanyRoute<{ accounts: { id: string; systemKey: string | null }[] }>(
    app,
    company,
    'GET',
    '/accounts',
  );
  return Object.fromEntries(
    body.accounts.filter((a) => a.systemKey).map((a) => [a.systemKey!, a.id]),
  ) as Record<string, string>;
};

/** The body of POST /accounts for an operating expense account. */
export const expenseAccountBody = (code: string, name: string) => ({
  code,
  name,
  type: 'expense',
  subtype: 'operating_expense',
});

/** The two lines of a simple entry: `debit` on one account, `credit` (the same unless given) on the other. */
export const debitCreditLines = <Id extends string | undefined>(
  debitAccountId: Id,
  creditAccountId: Id,
  debit: number,
  credit = debit,
) => [
  { accountId: debitAccountId, debit },
  { accountId: creditAccountId, credit },
];

/** The body of POST /journal-entries for a posted entry of two lines: `amount` debited to one account, credited to the other. */
export const postedEntryBody = (
  date: string,
  memo: string,
  debitAccountId: string | undefined,
  creditAccountId: string | undefined,
  amount: number,
) => ({
  date,
  memo,
  status: 'posted',
  lines: debitCreditLines(debitAccountId, creditAccountId, amount),
});
