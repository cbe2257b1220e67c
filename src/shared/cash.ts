import { type BalanceSheet, CASH_SUBTYPES } from './ledger.ts';

// The cash position read off a balance sheet: its bank, cash and cash-equivalent lines. The
// dashboard shows this, and tests compare it with the wallet's cash total: both come from the
// ledger's one balance query (ledgerBalancesAsOf), so they agree to the cent.

export type CashPosition = {
  cash: number;
  cashAccounts: { accountId: string; code: string; name: string; amount: number }[];
};

export const cashPositionOf = (bs: BalanceSheet): CashPosition => {
  const cashAccounts = bs.assets
    .filter((l) => CASH_SUBTYPES.includes(l.subtype))
    .map((l) => ({ accountId: l.accountId, code: l.code, name: l.name, amount: l.amount }));
  return { cash: cashAccounts.reduce((s, a) => s + a.amount, 0), cashAccounts };
};
