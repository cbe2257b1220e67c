import { cashPositionOf } from '../../../shared/cash.ts';
import type { BalanceSheet, IncomeStatement } from '../../../shared/ledger.ts';

// The dashboard's figures, derived from the ledger's reports (never computed from anything
// but posted entries): cash is every bank, cash and cash-equivalent account; receivables and
// payables are the balances of the accounts of those kinds. The balance sheet's lines come
// from ledgerBalancesAsOf (server ledger/balances.ts), the query the wallet reads too, so the
// cash here is the wallet's cash total (docs/ledger.md, "Money accounts").

export type Position = {
  cash: number;
  cashAccounts: { accountId: string; code: string; name: string; amount: number }[];
  receivables: number;
  payables: number;
};

export const positionFrom = (bs: BalanceSheet): Position => {
  const { cash, cashAccounts } = cashPositionOf(bs);
  return {
    cash,
    cashAccounts,
    receivables: bs.assets
      .filter((l) => l.subtype === 'accounts_receivable')
      .reduce((s, l) => s + l.amount, 0),
    payables: bs.liabilities
      .filter((l) => l.subtype === 'accounts_payable')
      .reduce((s, l) => s + l.amount, 0),
  };
};

/** Income and expenses (cost of sales included) of a period, from its income statement. */
export const incomeAndExpenses = (is: IncomeStatement) => ({
  income: is.totals.income,
  expenses: is.totals.costOfSales + is.totals.expenses,
  net: is.totals.netIncome,
});
