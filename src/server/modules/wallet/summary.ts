import { notFound } from '../../../shared/errors.ts';
import {
  type BalanceHistory,
  type MoneyAccount,
  type WalletSummary,
  isLiabilityMoneyAccountKind,
} from '../../../shared/wallet.ts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/transaction.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { ledgerBalancesAsOf } from '../ledger/balances.ts';
import { addMonthsToMonthStart, monthEnd, monthStart } from '../ledger/dates.ts';
import {
  type MoneyAccountRow,
  selectLatestRates,
  selectMoneyAccounts,
  selectMonthlyLedgerMovements,
} from './queries.ts';
import { baseCurrencyOf, tidyRate } from './rates.ts';

// Reading the wallet: the money accounts with their ledger balances (never stored: they are
// the ledger balances of the accounts, so the wallet, the balance sheet's cash and bank lines
// and the dashboard's cash position are one number), one account, and balances over time.

const iso = (d: Date | string) => new Date(d).toISOString();

type Balance = { amount: number; base: number };

const toMoneyAccount = (
  row: MoneyAccountRow,
  baseCurrency: string,
  rates: Map<string, { rate: string; date: string }>,
  balance: Balance,
): MoneyAccount => {
  const currency = row.currency.trim();
  const rate = currency === baseCurrency ? null : (rates.get(currency) ?? null);
  return {
    id: row.id,
    ledgerAccountId: row.ledger_account_id,
    ledgerAccountCode: row.ledger_account_code,
    name: row.name,
    kind: row.kind,
    currency,
    institution: row.institution,
    maskedNumber: row.account_number_last4 ? `•••• ${row.account_number_last4}` : null,
    openingBalance: row.opening_balance,
    openingDate: row.opening_date,
    balance: balance.amount,
    baseBalance: balance.base,
    rate: rate ? tidyRate(rate.rate) : null,
    rateDate: rate?.date ?? null,
    uncategorizedCount: Number(row.uncategorized_count),
    lastReconciledDate: row.last_reconciled_date,
    isDefaultDeposit: row.is_default_deposit,
    openingEditable:
      row.archived_at === null &&
      (row.last_reconciled_date === null || row.last_reconciled_date < row.opening_date),
    archived: row.archived_at !== null,
    createdAt: iso(row.created_at as Date),
  };
};

const todayOf = (ctx: AppContext) => ctx.now().toISOString().slice(0, 10);

/** The context with its database replaced by `db`, e.g. the transaction a service is in. */
export const withExecutor = (ctx: AppContext, db: Executor): AppContext => ({
  ...ctx,
  database: { ...ctx.database, db },
});

/**
 * The money accounts with their ledger balances at the end of `asOf` (today by default): each
 * in its own currency and in the base currency (the book value), the cash total (bank, cash
 * and payment processors: the balance sheet's cash and bank lines) and what the cards owe.
 */
export const getWalletSummary = async (
  ctx: AppContext,
  member: MemberContext,
  { asOf = todayOf(ctx) }: { asOf?: string } = {},
): Promise<WalletSummary> => {
  const db = ctx.database.db;
  const base = await baseCurrencyOf(db, member.organizationId);
  const [rows, latest] = await Promise.all([
    selectMoneyAccounts(db, member.organizationId),
    selectLatestRates(db, member.organizationId, null),
  ]);
  const balances = await ledgerBalancesAsOf(
    db,
    member.organizationId,
    asOf,
    rows.map((r) => r.ledger_account_id),
  );
  const rates = new Map(latest.map((r) => [r.currency, r]));
  const accounts = rows.map((r) =>
    toMoneyAccount(r, base, rates, balances.get(r.ledger_account_id) ?? { amount: 0, base: 0 }),
  );
  const sum = (xs: MoneyAccount[]) => xs.reduce((s, a) => s + a.baseBalance, 0);
  const cashBase = sum(accounts.filter((a) => !isLiabilityMoneyAccountKind(a.kind)));
  const cardsBase = sum(accounts.filter((a) => a.kind === 'credit_card'));
  const loansBase = sum(accounts.filter((a) => a.kind === 'loan'));
  return {
    baseCurrency: base,
    asOf,
    accounts,
    cashBase,
    cardsBase,
    loansBase,
    totalBase: cashBase + cardsBase + loansBase,
    defaultDepositAccountId: rows.find((r) => r.is_default_deposit)?.id ?? null,
  };
};

export const getMoneyAccount = async (ctx: AppContext, member: MemberContext, { id }: { id: string }) => {
  const summary = await getWalletSummary(ctx, member);
  const account = summary.accounts.find((a) => a.id === id);
  if (!account) throw notFound('Money account not found.');
  return account;
};

/** Month-end ledger balances of every open account (and their base-currency total) over the last `months` months. */
export const balanceHistory = async (
  ctx: AppContext,
  member: MemberContext,
  { months }: { months: number },
): Promise<BalanceHistory> => {
  const db = ctx.database.db;
  const today = todayOf(ctx);
  const summary = await getWalletSummary(ctx, member, { asOf: today });
  const from = addMonthsToMonthStart(monthStart(today), -(months - 1));
  const live = summary.accounts.filter((a) => !a.archived);
  const byLedger = new Map(live.map((a) => [a.ledgerAccountId, a]));
  const movements = await selectMonthlyLedgerMovements(
    db,
    member.organizationId,
    live.map((a) => a.ledgerAccountId),
    from,
    today,
  );
  const running = new Map<string, number>(live.map((a) => [a.id, 0]));
  let runningBase = 0;
  const add = (m: { account_id: string; total: number; baseTotal: number }) => {
    const a = byLedger.get(m.account_id);
    if (!a) return;
    running.set(a.id, (running.get(a.id) ?? 0) + m.total);
    runningBase += m.baseTotal;
  };
  for (const m of movements) if (m.before) add(m);
  const points: BalanceHistory['points'] = [];
  for (let i = 0; i < months; i += 1) {
    const month = addMonthsToMonthStart(from, i);
    const end = i === months - 1 ? today : monthEnd(month);
    for (const m of movements) if (!m.before && m.month === month) add(m);
    const balances: Record<string, number> = {};
    for (const a of live) balances[a.id] = running.get(a.id) ?? 0;
    // The book value in the base currency, as the balance sheet would show it that day.
    points.push({ date: end, totalBase: runningBase, balances });
  }
  return { baseCurrency: summary.baseCurrency, points };
};
