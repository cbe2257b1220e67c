import { randomUUID } from 'node:crypto';
import { badRequest, conflict, notFound } from '../../../shared/errors.ts';
import {
  LEDGER_VOLUME_LIMIT,
  convertMinor,
  convertMinorExact,
  isCurrencyCode,
} from '../../../shared/money.ts';
import {
  type BalanceHistory,
  type MoneyAccount,
  type MoneyAccountKind,
  type WalletSummary,
  lastFourOf,
  type moneyAccountCreateSchema,
  type moneyAccountUpdateSchema,
} from '../../../shared/wallet.ts';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { recordAudit } from '../audit/record.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { createAccount, findSystemAccount, updateAccount } from '../ledger/accounts.ts';
import { addMonthsToMonthStart, monthEnd, monthStart } from '../ledger/dates.ts';
import { type Executor, inTransaction } from '../../db/transaction.ts';
import { type PostingLineInput, postJournalEntry } from '../ledger/posting.ts';
import {
  type MoneyAccountRow,
  listRates,
  selectAccountCodes,
  selectBaseCurrency,
  selectLatestRates,
  selectMonthlyMovements,
  selectMoneyAccount,
  selectMoneyAccounts,
  selectRateOn,
  upsertRate,
} from './queries.ts';

// Money accounts (bank, cash, credit cards, payment-processor balances), each backed by a
// ledger account created through the ledger's account service; balances in each account's
// currency and in the base currency at the latest rate; exchange rates. Transfers
// between money accounts live in the transfers module, above this one and transactions.

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
};

const iso = (d: Date | string) => new Date(d).toISOString();

/** A rate numeric(24,10) comes back padded; show it as given. */
export const tidyRate = (rate: string) =>
  rate.includes('.') ? rate.replace(/0+$/, '').replace(/\.$/, '') : rate;

/**
 * A balance converted at the latest stored rate, for display. Balances are within the ledger's
 * volume limit, but a stored rate is any positive decimal, so the product may not be: beyond
 * the limit the account counts as not convertible (null, listed under missingRates) instead of
 * failing the read (decision 0013).
 */
const displayInBase = (balance: number, currency: string, rate: string, base: string): number | null => {
  const value = convertMinorExact(balance, currency, rate, base);
  const limit = BigInt(LEDGER_VOLUME_LIMIT);
  return value <= limit && value >= -limit ? Number(value) : null;
};

/**
 * The exact sum of base-currency balances. Base-currency accounts alone stay within the volume
 * limit; if converted ones would take the total out of JavaScript's exact range, they are left
 * out (and reported as not convertible) rather than answering an inexact figure.
 */
const exactBaseTotal = (parts: { base: boolean; value: number | null }[]) => {
  const sum = (xs: { value: number | null }[]) => xs.reduce((s, x) => s + BigInt(x.value ?? 0), 0n);
  const all = sum(parts);
  if (all <= BigInt(Number.MAX_SAFE_INTEGER) && all >= -BigInt(Number.MAX_SAFE_INTEGER)) {
    return { total: Number(all), convertedIncluded: true };
  }
  return { total: Number(sum(parts.filter((p) => p.base))), convertedIncluded: false };
};

const toMoneyAccount = (
  row: MoneyAccountRow,
  baseCurrency: string,
  rates: Map<string, { rate: string; date: string }>,
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
    balance: row.balance,
    baseBalance:
      currency === baseCurrency
        ? row.balance
        : rate
          ? displayInBase(row.balance, currency, rate.rate, baseCurrency)
          : null,
    rate: rate ? tidyRate(rate.rate) : null,
    rateDate: rate?.date ?? null,
    uncategorizedCount: Number(row.uncategorized_count),
    lastReconciledDate: row.last_reconciled_date,
    archived: row.archived_at !== null,
    createdAt: iso(row.created_at as Date),
  };
};

export const baseCurrencyOf = async (db: Executor, organizationId: string) => {
  const base = await selectBaseCurrency(db, organizationId);
  if (!base) throw notFound('Company not found.');
  return base;
};

export const getWalletSummary = async (ctx: AppContext, member: MemberContext): Promise<WalletSummary> => {
  const db = ctx.database.db;
  const base = await baseCurrencyOf(db, member.organizationId);
  const [rows, latest] = await Promise.all([
    selectMoneyAccounts(db, member.organizationId),
    selectLatestRates(db, member.organizationId, null),
  ]);
  const rates = new Map(latest.map((r) => [r.currency, r]));
  const accounts = rows.map((r) => toMoneyAccount(r, base, rates));
  const live = accounts.filter((a) => !a.archived);
  const { total, convertedIncluded } = exactBaseTotal(
    live.map((a) => ({ base: a.currency === base, value: a.baseBalance })),
  );
  if (!convertedIncluded) for (const a of accounts) if (a.currency !== base) a.baseBalance = null;
  return {
    baseCurrency: base,
    accounts,
    totalBase: total,
    missingRates: [...new Set(live.filter((a) => a.baseBalance === null).map((a) => a.currency))],
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

export const createMoneyAccount = (ctx: AppContext, member: MemberContext, input: CreateInput) =>
  inTransaction(ctx.database.db, async (trx) => {
    const { organizationId, userId } = member;
    if (!isCurrencyCode(input.currency))
      throw badRequest('invalid_currency', `"${input.currency}" is not a currency code.`);
    const base = await baseCurrencyOf(trx, organizationId);
    const place = LEDGER_PLACE[input.kind];
    const code = nextFreeCode(await selectAccountCodes(trx, organizationId), place.codes);
    const ledgerAccount = await createAccount(trx, organizationId, userId, {
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
    });
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
        balance: input.openingBalance,
        created_by: userId,
      })
      .execute();
    if (input.openingBalance !== 0) {
      const rate = await rateOrThrow(
        trx,
        organizationId,
        input.currency,
        base,
        input.openingDate,
        input.openingRate,
      );
      const equity = await findSystemAccount(trx, organizationId, 'opening_balance_equity');
      const { line, baseSigned } = moneyLine(
        ledgerAccount.id,
        input.currency,
        base,
        input.openingBalance,
        rate,
        'Opening balance',
      );
      const entry = await postJournalEntry(trx, {
        organizationId,
        actorUserId: userId,
        date: input.openingDate,
        memo: `Opening balance of ${input.name}`,
        source: 'opening_balance',
        sourceId: id,
        lines: [
          line,
          {
            accountId: equity.id,
            ...(baseSigned > 0 ? { credit: baseSigned } : { debit: -baseSigned }),
            description: input.name,
          },
        ],
      });
      await trx
        .updateTable('money_accounts')
        .set({ opening_entry_id: entry.id })
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .execute();
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

export const updateMoneyAccount = (ctx: AppContext, member: MemberContext, id: string, input: UpdateInput) =>
  inTransaction(ctx.database.db, async (trx) => {
    const { organizationId, userId } = member;
    const row = await selectMoneyAccount(trx, organizationId, id, { forUpdate: true });
    if (!row) throw notFound('Money account not found.');
    const before = await getMoneyAccount(ctx, member, id, trx);
    if (input.archived === true && row.balance !== 0) {
      throw conflict(
        'account_has_balance',
        `${row.name} still holds a balance. Transfer it to another account first, then archive it.`,
      );
    }
    if (input.archived === true) {
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
    await trx
      .updateTable('money_accounts')
      .set({
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.institution !== undefined ? { institution: input.institution } : {}),
        ...(input.accountNumber !== undefined
          ? { account_number_last4: lastFourOf(input.accountNumber) }
          : {}),
        ...(input.archived !== undefined
          ? { archived_at: input.archived ? (row.archived_at ?? new Date()) : null }
          : {}),
        updated_at: new Date(),
      })
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .execute();
    // The ledger account follows: same name, archived with it (an archived account takes no postings).
    if (input.name !== undefined || input.archived !== undefined) {
      await updateAccount(trx, organizationId, row.ledger_account_id, userId, {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.archived !== undefined ? { archived: input.archived } : {}),
      });
    }
    const after = await getMoneyAccount(ctx, member, id, trx);
    await recordAudit(trx, {
      organizationId,
      actorUserId: userId,
      action: input.archived === true ? 'money_account.archived' : 'money_account.updated',
      entityType: 'money_account',
      entityId: id,
      before,
      after,
    });
    return after;
  });

// --- Balance over time -------------------------------------------------------------------

/** Month-end balances of every account over the last `months` months, and the total at today's rates. */
export const balanceHistory = async (
  ctx: AppContext,
  member: MemberContext,
  months: number,
  today: string,
): Promise<BalanceHistory> => {
  const db = ctx.database.db;
  const summary = await getWalletSummary(ctx, member);
  const from = addMonthsToMonthStart(monthStart(today), -(months - 1));
  const movements = await selectMonthlyMovements(db, member.organizationId, from);
  const live = summary.accounts.filter((a) => !a.archived);
  const running = new Map<string, number>();
  for (const a of live) running.set(a.id, a.openingDate < from ? a.openingBalance : 0);
  for (const m of movements)
    if (m.before) running.set(m.money_account_id, (running.get(m.money_account_id) ?? 0) + Number(m.total));
  const points: BalanceHistory['points'] = [];
  for (let i = 0; i < months; i += 1) {
    const month = addMonthsToMonthStart(from, i);
    const end = i === months - 1 ? today : monthEnd(month);
    for (const a of live) {
      if (a.openingDate >= month && a.openingDate <= monthEnd(month))
        running.set(a.id, (running.get(a.id) ?? 0) + a.openingBalance);
    }
    for (const m of movements) {
      if (!m.before && m.month === month)
        running.set(m.money_account_id, (running.get(m.money_account_id) ?? 0) + Number(m.total));
    }
    const balances: Record<string, number> = {};
    const parts: { base: boolean; value: number | null }[] = [];
    for (const a of live) {
      const balance = running.get(a.id) ?? 0;
      balances[a.id] = balance;
      if (a.currency === summary.baseCurrency) parts.push({ base: true, value: balance });
      else if (a.rate)
        parts.push({ base: false, value: displayInBase(balance, a.currency, a.rate, summary.baseCurrency) });
    }
    points.push({ date: end, totalBase: exactBaseTotal(parts).total, balances });
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

// --- Transfers ------------------------------------------------------------------------------

/** Base units per one foreign unit implied by a pair of amounts, to 10 decimals. */
