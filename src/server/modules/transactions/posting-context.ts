import { badRequest } from '../../../shared/errors.ts';
import type { Account } from '../../../shared/ledger.ts';
import { findSystemAccount, listAccounts } from '../ledger/accounts.ts';
import type { Executor } from '../../db/transaction.ts';
import { selectBaseCurrency, selectRatesOf } from '../wallet/queries.ts';
import type { BulkEntryInput } from '../ledger/bulk.ts';
import { type TransactionPart, transactionLines } from './lines.ts';
import type { BankTransactionRow } from './queries.ts';

// What posting a bank transaction needs to know about the company, loaded once per request:
// the base currency, the suspense accounts uncategorised money goes to, the tax account and
// which accounts may serve as a category.

export type PostingContext = {
  organizationId: string;
  baseCurrency: string;
  uncategorizedIncomeId: string;
  uncategorizedExpenseId: string;
  taxAccountId: string | null;
  accounts: Map<string, Account>;
  moneyLedgerIds: Set<string>;
};

export const loadPostingContext = async (db: Executor, organizationId: string): Promise<PostingContext> => {
  const baseCurrency = await selectBaseCurrency(db, organizationId);
  if (!baseCurrency) throw badRequest('company_not_found', 'Company not found.');
  const accounts = await listAccounts(db, organizationId);
  const bySystemKey = new Map(accounts.filter((a) => a.systemKey).map((a) => [a.systemKey!, a]));
  // Uncategorised money still posts, so the bank balance is right; it waits in these
  // suspense accounts until someone categorises it.
  const income =
    bySystemKey.get('uncategorized_income') ??
    (await findSystemAccount(db, organizationId, 'uncategorized_income'));
  const expense =
    bySystemKey.get('uncategorized_expense') ??
    (await findSystemAccount(db, organizationId, 'uncategorized_expense'));
  const money = await db
    .selectFrom('money_accounts')
    .select('ledger_account_id')
    .where('organization_id', '=', organizationId)
    .execute();
  return {
    organizationId,
    baseCurrency,
    uncategorizedIncomeId: income.id,
    uncategorizedExpenseId: expense.id,
    taxAccountId: bySystemKey.get('sales_tax_payable')?.id ?? null,
    accounts: new Map(accounts.map((a) => [a.id, a])),
    moneyLedgerIds: new Set(money.map((m) => m.ledger_account_id)),
  };
};

/** A category must be a live base-currency account of the company that is not itself a money account. */
export const checkCategory = (pc: PostingContext, accountId: string) => {
  const account = pc.accounts.get(accountId);
  if (!account) throw badRequest('invalid_category', 'The category does not exist in this company.');
  if (account.archived)
    throw badRequest('invalid_category', `${account.name} is archived; choose another category.`);
  if (pc.moneyLedgerIds.has(accountId)) {
    throw badRequest('invalid_category', `${account.name} is a money account; record a transfer instead.`);
  }
  if (account.currency !== pc.baseCurrency) {
    throw badRequest(
      'invalid_category',
      `${account.name} is kept in ${account.currency}; choose a ${pc.baseCurrency} category.`,
    );
  }
  return account;
};

export type PostableTransaction = {
  id: string;
  date: string;
  description: string;
  amount: number;
  categoryKind: 'none' | 'account' | 'split' | 'transfer' | 'payment';
  categoryAccountId: string | null;
  splits: TransactionPart[];
  taxRate: number | null;
  rate: string | null;
};

export type PostableMoneyAccount = { ledger_account_id: string; currency: string };

export const partsOf = (pc: PostingContext, tx: PostableTransaction): TransactionPart[] => {
  if (tx.categoryKind === 'split') return tx.splits;
  if (tx.categoryKind === 'account') return [{ accountId: tx.categoryAccountId!, amount: tx.amount }];
  return [
    { accountId: tx.amount > 0 ? pc.uncategorizedIncomeId : pc.uncategorizedExpenseId, amount: tx.amount },
  ];
};

export const entryForTransaction = (
  pc: PostingContext,
  money: PostableMoneyAccount,
  tx: PostableTransaction,
): BulkEntryInput => ({
  date: tx.date,
  memo: tx.description,
  source: 'bank',
  sourceId: tx.id,
  lines: transactionLines({
    moneyLedgerAccountId: money.ledger_account_id,
    currency: money.currency.trim(),
    baseCurrency: pc.baseCurrency,
    amount: tx.amount,
    parts: partsOf(pc, tx),
    taxRate: tx.categoryKind === 'account' ? tx.taxRate : null,
    taxAccountId: pc.taxAccountId,
    rate: tx.rate,
    description: tx.description,
  }),
});

/** Finds rates of one currency by date from a preloaded, date-ordered list. */
export const rateBook = async (
  db: Executor,
  organizationId: string,
  currency: string,
  baseCurrency: string,
) => {
  const rates = currency === baseCurrency ? [] : await selectRatesOf(db, organizationId, currency);
  return (date: string): string | null => {
    if (currency === baseCurrency) return null;
    let lo = 0;
    let hi = rates.length - 1;
    let found: string | null = null;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (rates[mid]!.date <= date) {
        found = rates[mid]!.rate;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  };
};

export const missingRateError = (currency: string, baseCurrency: string, date: string) =>
  badRequest(
    'rate_required',
    `There is no ${currency} to ${baseCurrency} exchange rate on or before ${date}. Add one under Wallet → Exchange rates, or give the rate with the transaction.`,
    { currency, date },
  );

// The dedupe key belongs to the bank-transactions module, the one writer of bank lines.
export { dedupePrefix, normalizeDescription } from '../bank-transactions/keys.ts';

/** A stored bank transaction as posting sees it, with its split parts. */
export const postableOf = (
  row: BankTransactionRow,
  splits: { category_account_id: string; amount: number; description: string | null }[],
): PostableTransaction => ({
  id: row.id,
  date: row.date,
  description: row.description,
  amount: row.amount,
  categoryKind: row.category_kind,
  categoryAccountId: row.category_account_id,
  splits: splits.map((s) => ({
    accountId: s.category_account_id,
    amount: s.amount,
    description: s.description,
  })),
  taxRate: row.tax_rate,
  rate: row.rate,
});
