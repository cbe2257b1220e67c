import { randomUUID } from 'node:crypto';
import { badRequest, conflict, notFound } from '../../../shared/errors.ts';
import { convertMinor, isCurrencyCode } from '../../../shared/money.ts';
import {
  type BalanceHistory,
  type MoneyAccount,
  type MoneyAccountKind,
  type WalletSummary,
  MONEY_ACCOUNT_KIND_LABELS,
  isLiabilityMoneyAccountKind,
  lastFourOf,
  type moneyAccountCreateSchema,
  type moneyAccountUpdateSchema,
} from '../../../shared/wallet.ts';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { recordAudit } from '../audit/record.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { createAccount, deleteAccount, findSystemAccount, updateAccount } from '../ledger/accounts.ts';
import { ledgerBalancesAsOf } from '../ledger/balances.ts';
import { accountHasPostings } from '../ledger/queries.ts';
import { addMonthsToMonthStart, monthEnd, monthStart } from '../ledger/dates.ts';
import { type Executor, inTransaction } from '../../db/transaction.ts';
import { type PostingLineInput, postJournalEntry, reverseJournalEntry } from '../ledger/posting.ts';
import {
  type MoneyAccountRow,
  listRates,
  moneyAccountHasActivity,
  selectAccountCodes,
  selectBaseCurrency,
  selectLatestRates,
  selectMoneyAccount,
  selectMoneyAccounts,
  selectMonthlyLedgerMovements,
  selectDefaultDepositAccount,
  selectRateOn,
  setDefaultDepositAccount,
  upsertRate,
} from './queries.ts';

// Money accounts (bank, cash, credit cards, payment-processor balances). A money account is
// one ledger account of the chart with its wallet details (decision 0022): created, renamed,
// archived and deleted together with it, here. Balances are never stored: they are the ledger
// balances of the accounts (ledgerBalancesAsOf), so the wallet, the balance sheet's cash and
// bank lines and the dashboard's cash position are one number. Transfers between money
// accounts live in the transfers module, above this one and transactions.

type CreateInput = z.output<typeof moneyAccountCreateSchema>;
type UpdateInput = z.output<typeof moneyAccountUpdateSchema>;

const LEDGER_PLACE: Record<
  MoneyAccountKind,
  { type: 'asset' | 'liability'; subtype: string; codes: [number, number] }
> = {
  cash: { type: 'asset', subtype: 'cash', codes: [1001, 1009] },
  bank: { type: 'asset', subtype: 'bank', codes: [1011, 1049] },
  payment_processor: { type: 'asset', subtype: 'cash_equivalent', codes: [1060, 1099] },
  credit_card: { type: 'liability', subtype: 'credit_card', codes: [2101, 2199] },
  // A loan owes money like a card: a liability of its own subtype, never cash (shared/cash.ts
  // counts only CASH_SUBTYPES), never a deposit account.
  loan: { type: 'liability', subtype: 'loan', codes: [2701, 2799] },
};

const iso = (d: Date | string) => new Date(d).toISOString();

/** A rate numeric(24,10) comes back padded; show it as given. */
export const tidyRate = (rate: string) =>
  rate.includes('.') ? rate.replace(/0+$/, '').replace(/\.$/, '') : rate;

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

export const baseCurrencyOf = async (db: Executor, organizationId: string) => {
  const base = await selectBaseCurrency(db, organizationId);
  if (!base) throw notFound('Company not found.');
  return base;
};

const todayOf = (ctx: AppContext) => ctx.now().toISOString().slice(0, 10);

/**
 * The money accounts with their ledger balances at the end of `asOf` (today by default): each
 * in its own currency and in the base currency (the book value), the cash total (bank, cash
 * and payment processors: the balance sheet's cash and bank lines) and what the cards owe.
 */
export const getWalletSummary = async (
  ctx: AppContext,
  member: MemberContext,
  asOf: string = todayOf(ctx),
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

export const getMoneyAccount = async (
  ctx: AppContext,
  member: MemberContext,
  id: string,
  db: Executor = ctx.database.db,
) => {
  const summary = await getWalletSummary({ ...ctx, database: { ...ctx.database, db } }, member);
  const account = summary.accounts.find((a) => a.id === id);
  if (!account) throw notFound('Money account not found.');
  return account;
};

const nextFreeCode = (taken: string[], [from, to]: [number, number]) => {
  const used = new Set(taken);
  for (let code = from; code <= to; code += 1) if (!used.has(String(code))) return String(code);
  // The range is full: fall back to a suffixed code in the same family.
  for (let n = 1; n < 10_000; n += 1) if (!used.has(`${from}-${n}`)) return `${from}-${n}`;
  throw conflict('no_free_code', 'No free account code is left for this kind of account.');
};

export const rateOrThrow = async (
  db: Executor,
  organizationId: string,
  currency: string,
  base: string,
  date: string,
  given?: string,
) => {
  if (currency === base) return null;
  if (given) return given;
  const found = await selectRateOn(db, organizationId, currency, date);
  if (!found) {
    throw badRequest(
      'rate_required',
      `Give the ${currency} to ${base} exchange rate on ${date} for the opening balance, or add the rate first.`,
      { currency, date },
    );
  }
  return found.rate;
};

/** The line of a money account for a signed amount of its own currency (positive = debit). */
const moneyLine = (
  ledgerAccountId: string,
  currency: string,
  base: string,
  amount: number,
  rate: string | null,
  description: string,
) => {
  const abs = Math.abs(amount);
  const baseAbs = currency === base ? abs : convertMinor(abs, currency, rate!, base);
  return {
    line: {
      accountId: ledgerAccountId,
      ...(amount > 0 ? { debit: baseAbs } : { credit: baseAbs }),
      ...(currency !== base ? { currency, amount: abs, rate: rate! } : {}),
      description,
    } satisfies PostingLineInput,
    baseSigned: amount > 0 ? baseAbs : -baseAbs,
  };
};

/**
 * Posts a money account's opening entry (Dr/Cr the account, Cr/Dr opening balance equity) and
 * returns its id; null for a zero opening balance, which posts nothing.
 */
const postOpeningEntry = async (
  trx: Executor,
  member: MemberContext,
  account: { id: string; name: string; ledgerAccountId: string; currency: string },
  opening: { balance: number; date: string; rate?: string | undefined },
) => {
  if (opening.balance === 0) return null;
  const { organizationId, userId } = member;
  const base = await baseCurrencyOf(trx, organizationId);
  const rate = await rateOrThrow(trx, organizationId, account.currency, base, opening.date, opening.rate);
  const equity = await findSystemAccount(trx, organizationId, 'opening_balance_equity');
  const { line, baseSigned } = moneyLine(
    account.ledgerAccountId,
    account.currency,
    base,
    opening.balance,
    rate,
    'Opening balance',
  );
  const entry = await postJournalEntry(trx, {
    organizationId,
    actorUserId: userId,
    date: opening.date,
    memo: `Opening balance of ${account.name}`,
    source: 'opening_balance',
    sourceId: account.id,
    lines: [
      line,
      {
        accountId: equity.id,
        ...(baseSigned > 0 ? { credit: baseSigned } : { debit: -baseSigned }),
        description: account.name,
      },
    ],
  });
  return entry.id;
};

export const createMoneyAccount = (ctx: AppContext, member: MemberContext, input: CreateInput) =>
  inTransaction(ctx.database.db, async (trx) => {
    const { organizationId, userId } = member;
    if (!isCurrencyCode(input.currency))
      throw badRequest('invalid_currency', `"${input.currency}" is not a currency code.`);
    const place = LEDGER_PLACE[input.kind];
    const code = nextFreeCode(await selectAccountCodes(trx, organizationId), place.codes);
    const ledgerAccount = await createAccount(
      trx,
      organizationId,
      userId,
      {
        code,
        name: input.name,
        type: place.type,
        subtype: place.subtype,
        currency: input.currency,
        description: [
          input.institution,
          lastFourOf(input.accountNumber) ? `•••• ${lastFourOf(input.accountNumber)}` : '',
        ]
          .filter(Boolean)
          .join(' '),
      },
      { moneyAccount: true },
    );
    const id = randomUUID();
    await trx
      .insertInto('money_accounts')
      .values({
        organization_id: organizationId,
        id,
        ledger_account_id: ledgerAccount.id,
        name: input.name,
        kind: input.kind,
        currency: input.currency,
        institution: input.institution,
        account_number_last4: lastFourOf(input.accountNumber),
        opening_balance: input.openingBalance,
        opening_date: input.openingDate,
        created_by: userId,
      })
      .execute();
    const openingEntryId = await postOpeningEntry(
      trx,
      member,
      { id, name: input.name, ledgerAccountId: ledgerAccount.id, currency: input.currency },
      { balance: input.openingBalance, date: input.openingDate, rate: input.openingRate },
    );
    if (openingEntryId)
      await trx
        .updateTable('money_accounts')
        .set({ opening_entry_id: openingEntryId })
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .execute();
    // A new bank, cash or processor account becomes the deposit account when the company has
    // none, or when the current one is still untouched (the chart's "Business bank account" of
    // a new company, before anything was posted to it): the account a new user adds is the
    // one their money goes into.
    if (!isLiabilityMoneyAccountKind(input.kind)) {
      const current = await selectDefaultDepositAccount(trx, organizationId);
      const untouched =
        current &&
        !(await accountHasPostings(trx, organizationId, current.ledger_account_id)) &&
        !(await moneyAccountHasActivity(trx, organizationId, current.id));
      if (!current || untouched) await setDefaultDepositAccount(trx, organizationId, id);
    }
    const account = await getMoneyAccount(ctx, member, id, trx);
    await recordAudit(trx, {
      organizationId,
      actorUserId: userId,
      action: 'money_account.created',
      entityType: 'money_account',
      entityId: id,
      after: account,
    });
    return account;
  });

/** A completed reconciliation on or after `date` of the account, if any: it locks that history. */
const reconciledOnOrAfter = (trx: Executor, organizationId: string, id: string, date: string) =>
  trx
    .selectFrom('reconciliations')
    .select(['id', 'statement_date'])
    .where('organization_id', '=', organizationId)
    .where('money_account_id', '=', id)
    .where('status', '=', 'completed')
    .where('statement_date', '>=', date)
    .orderBy('statement_date', 'desc')
    .limit(1)
    .executeTakeFirst();

/**
 * Changes the opening balance and/or date: refused once a completed reconciliation covers the
 * old or the new date; otherwise the old opening entry is reversed on its own date and the new
 * one posted, both through the ledger (which refuses dates on or before its lock date).
 */
const changeOpening = async (
  trx: Executor,
  member: MemberContext,
  row: NonNullable<Awaited<ReturnType<typeof selectMoneyAccount>>>,
  input: UpdateInput,
) => {
  const { organizationId, userId } = member;
  const balance = input.openingBalance ?? row.opening_balance;
  const date = input.openingDate ?? row.opening_date;
  if (balance === row.opening_balance && date === row.opening_date) return false;
  if (row.archived_at)
    throw conflict(
      'account_archived',
      `${row.name} is archived; unarchive it to change its opening balance.`,
    );
  const earliest = [date, row.opening_date].sort()[0]!;
  const reconciled = await reconciledOnOrAfter(trx, organizationId, row.id, earliest);
  if (reconciled) {
    throw conflict(
      'opening_reconciled',
      `${row.name} is reconciled to ${reconciled.statement_date}, which covers its opening on ${earliest}. Undo that reconciliation first to change the opening balance or date.`,
      { reconciledTo: reconciled.statement_date },
    );
  }
  if (date > row.opening_date) {
    const first = await trx
      .selectFrom('bank_transactions')
      .select((eb) => eb.fn.min('date').as('date'))
      .where('organization_id', '=', organizationId)
      .where('money_account_id', '=', row.id)
      .executeTakeFirst();
    if (first?.date && String(first.date) < date) {
      throw conflict(
        'transactions_before_opening',
        `${row.name} has transactions from ${String(first.date)}; its opening date can be at most that day.`,
        { firstTransactionDate: String(first.date) },
      );
    }
  }
  if (row.opening_entry_id) {
    await reverseJournalEntry(trx, {
      organizationId,
      actorUserId: userId,
      entryId: row.opening_entry_id,
      memo: `Opening balance of ${row.name} changed`,
    });
  }
  const entryId = await postOpeningEntry(
    trx,
    member,
    { id: row.id, name: row.name, ledgerAccountId: row.ledger_account_id, currency: row.currency.trim() },
    { balance, date, rate: input.openingRate },
  );
  await trx
    .updateTable('money_accounts')
    .set({ opening_balance: balance, opening_date: date, opening_entry_id: entryId, updated_at: new Date() })
    .where('organization_id', '=', organizationId)
    .where('id', '=', row.id)
    .execute();
  return true;
};

export const updateMoneyAccount = (ctx: AppContext, member: MemberContext, id: string, input: UpdateInput) =>
  inTransaction(ctx.database.db, async (trx) => {
    const { organizationId, userId } = member;
    const row = await selectMoneyAccount(trx, organizationId, id, { forUpdate: true });
    if (!row) throw notFound('Money account not found.');
    const before = await getMoneyAccount(ctx, member, id, trx);
    if (input.archived === true && !row.archived_at) {
      if (before.balance !== 0) {
        throw conflict(
          'account_has_balance',
          `${row.name} still holds a balance. Transfer it to another account first, then archive it.`,
        );
      }
      if (row.is_default_deposit) {
        throw conflict(
          'default_deposit_account',
          `${row.name} is the deposit account. Choose another deposit account in the Wallet first, then archive it.`,
        );
      }
      const open = await trx
        .selectFrom('reconciliations')
        .select('id')
        .where('organization_id', '=', organizationId)
        .where('money_account_id', '=', id)
        .where('status', '=', 'in_progress')
        .executeTakeFirst();
      if (open)
        throw conflict(
          'reconciliation_in_progress',
          'Finish or cancel the reconciliation in progress first.',
        );
    }
    // Unarchive first so a new opening can post to the (again open) ledger account.
    if (input.archived === false && row.archived_at) {
      await updateAccount(
        trx,
        organizationId,
        row.ledger_account_id,
        userId,
        { archived: false },
        { moneyAccount: true },
      );
      await trx
        .updateTable('money_accounts')
        .set({ archived_at: null })
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .execute();
      row.archived_at = null;
    }
    const openingChanged =
      input.openingBalance !== undefined || input.openingDate !== undefined
        ? await changeOpening(trx, member, row, input)
        : false;
    await trx
      .updateTable('money_accounts')
      .set({
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.institution !== undefined ? { institution: input.institution } : {}),
        ...(input.accountNumber !== undefined
          ? { account_number_last4: lastFourOf(input.accountNumber) }
          : {}),
        ...(input.archived === true ? { archived_at: row.archived_at ?? new Date() } : {}),
        updated_at: new Date(),
      })
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .execute();
    // The ledger account follows: same name, archived with it (an archived account takes no postings).
    if (input.name !== undefined || input.archived === true) {
      await updateAccount(
        trx,
        organizationId,
        row.ledger_account_id,
        userId,
        {
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.archived === true ? { archived: true } : {}),
        },
        { moneyAccount: true },
      );
    }
    const after = await getMoneyAccount(ctx, member, id, trx);
    if (openingChanged) {
      await recordAudit(trx, {
        organizationId,
        actorUserId: userId,
        action: 'money_account.opening_changed',
        entityType: 'money_account',
        entityId: id,
        before: { openingBalance: before.openingBalance, openingDate: before.openingDate },
        after: { openingBalance: after.openingBalance, openingDate: after.openingDate },
      });
    }
    await recordAudit(trx, {
      organizationId,
      actorUserId: userId,
      action:
        input.archived === true && !before.archived
          ? 'money_account.archived'
          : input.archived === false && before.archived
            ? 'money_account.unarchived'
            : 'money_account.updated',
      entityType: 'money_account',
      entityId: id,
      before,
      after,
    });
    return after;
  });

/**
 * Deletes a money account and its ledger account, only while it is empty: no bank lines,
 * transfers, reconciliations, imports or postings (an opening balance is a posting). One with
 * activity is archived instead.
 */
export const deleteMoneyAccount = (ctx: AppContext, member: MemberContext, id: string) =>
  inTransaction(ctx.database.db, async (trx) => {
    const { organizationId, userId } = member;
    const row = await selectMoneyAccount(trx, organizationId, id, { forUpdate: true });
    if (!row) throw notFound('Money account not found.');
    const before = await getMoneyAccount(ctx, member, id, trx);
    if (row.opening_entry_id || (await moneyAccountHasActivity(trx, organizationId, id))) {
      throw conflict(
        'account_has_activity',
        `${row.name} has transactions or an opening balance and cannot be deleted; archive it instead.`,
      );
    }
    if (row.is_default_deposit) {
      throw conflict(
        'default_deposit_account',
        `${row.name} is the deposit account. Choose another deposit account in the Wallet first.`,
      );
    }
    await trx
      .deleteFrom('categorization_rules')
      .where('organization_id', '=', organizationId)
      .where('money_account_id', '=', id)
      .execute();
    await trx
      .deleteFrom('money_accounts')
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .execute();
    // The ledger refuses when the account has postings or is one of its system accounts.
    await deleteAccount(trx, organizationId, row.ledger_account_id, userId, { moneyAccount: true });
    await recordAudit(trx, {
      organizationId,
      actorUserId: userId,
      action: 'money_account.deleted',
      entityType: 'money_account',
      entityId: id,
      before,
    });
  });

/** Makes a bank, cash or payment-processor account the company's deposit account. */
export const setDepositAccount = (ctx: AppContext, member: MemberContext, moneyAccountId: string) =>
  inTransaction(ctx.database.db, async (trx) => {
    const { organizationId, userId } = member;
    const row = await selectMoneyAccount(trx, organizationId, moneyAccountId, { forUpdate: true });
    if (!row)
      throw badRequest('money_account_not_found', 'That money account does not exist in this company.');
    if (row.archived_at)
      throw badRequest('account_archived', `${row.name} is archived; choose an open account.`);
    if (isLiabilityMoneyAccountKind(row.kind))
      throw badRequest(
        'invalid_deposit_account',
        `${row.name} is a ${MONEY_ACCOUNT_KIND_LABELS[row.kind].toLowerCase()}; choose a bank, cash or processor account.`,
      );
    const before = await getWalletSummary({ ...ctx, database: { ...ctx.database, db: trx } }, member);
    await setDefaultDepositAccount(trx, organizationId, moneyAccountId);
    await recordAudit(trx, {
      organizationId,
      actorUserId: userId,
      action: 'money_account.deposit_default_set',
      entityType: 'money_account',
      entityId: moneyAccountId,
      before: { defaultDepositAccountId: before.defaultDepositAccountId },
      after: { defaultDepositAccountId: moneyAccountId },
    });
    return getWalletSummary({ ...ctx, database: { ...ctx.database, db: trx } }, member);
  });

// --- Balance over time -------------------------------------------------------------------

/** Month-end ledger balances of every open account (and their base-currency total) over the last `months` months. */
export const balanceHistory = async (
  ctx: AppContext,
  member: MemberContext,
  months: number,
  today: string,
): Promise<BalanceHistory> => {
  const db = ctx.database.db;
  const summary = await getWalletSummary(ctx, member, today);
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

// --- Exchange rates -------------------------------------------------------------------------

export const setExchangeRate = async (
  ctx: AppContext,
  member: MemberContext,
  input: { currency: string; date: string; rate: string },
) =>
  inTransaction(ctx.database.db, async (trx) => {
    const base = await baseCurrencyOf(trx, member.organizationId);
    if (!isCurrencyCode(input.currency))
      throw badRequest('invalid_currency', `"${input.currency}" is not a currency code.`);
    if (input.currency === base)
      throw badRequest('base_currency_rate', `${base} is the base currency; its rate is always 1.`);
    await upsertRate(trx, { organizationId: member.organizationId, ...input, createdBy: member.userId });
    await recordAudit(trx, {
      organizationId: member.organizationId,
      actorUserId: member.userId,
      action: 'exchange_rate.set',
      entityType: 'exchange_rate',
      entityId: `${input.currency}:${input.date}`,
      after: input,
    });
    return { currency: input.currency, date: input.date, rate: tidyRate(input.rate) };
  });

export const listExchangeRates = async (ctx: AppContext, member: MemberContext) =>
  (await listRates(ctx.database.db, member.organizationId, 200)).map((r) => ({
    currency: r.currency.trim(),
    date: r.date,
    rate: tidyRate(r.rate),
  }));
