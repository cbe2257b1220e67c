import { randomUUID } from 'node:crypto';
import { badRequest, conflict, notFound } from '../../../shared/errors.ts';
import {
  LEDGER_VOLUME_LIMIT,
  convertMinor,
  convertMinorExact,
  currencyExponent,
  divideRoundHalfAwayFromZero,
  isCurrencyCode,
} from '../../../shared/money.ts';
import { descriptionKey } from '../../../shared/transactions.ts';
import {
  type BalanceHistory,
  type MoneyAccount,
  type MoneyAccountKind,
  type Transfer,
  type WalletSummary,
  lastFourOf,
  type moneyAccountCreateSchema,
  type moneyAccountUpdateSchema,
  type transferInputSchema,
} from '../../../shared/wallet.ts';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { recordAudit } from '../audit/record.ts';
import type { MemberContext } from '../companies/guard.ts';
import { createAccount, findSystemAccount, updateAccount } from '../ledger/accounts.ts';
import { addMonthsToMonthStart, monthEnd, monthStart } from '../ledger/dates.ts';
import {
  type PostingLineInput,
  inTransaction,
  postJournalEntry,
  reverseJournalEntry,
} from '../ledger/posting.ts';
import type { Executor } from '../ledger/queries.ts';
import { dedupePrefix } from '../transactions/posting-context.ts';
import { countDedupePrefix, insertBankTransactions } from '../transactions/queries.ts';
import {
  type MoneyAccountRow,
  addToBalance,
  listRates,
  selectAccountCodes,
  selectBaseCurrency,
  selectLatestRates,
  selectMonthlyMovements,
  selectMoneyAccount,
  selectMoneyAccounts,
  selectRateOn,
  selectTransfer,
  upsertRate,
} from './queries.ts';

// Money accounts (bank, cash, credit cards, payment-processor balances), each backed by a
// ledger account created through the ledger's account service; balances in each account's
// currency and in the base currency at the latest rate; exchange rates; transfers.

type CreateInput = z.output<typeof moneyAccountCreateSchema>;
type UpdateInput = z.output<typeof moneyAccountUpdateSchema>;
type TransferInputParsed = z.output<typeof transferInputSchema>;

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

const baseCurrencyOf = async (db: Executor, organizationId: string) => {
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

const rateOrThrow = async (
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
const impliedRate = (
  baseAmount: number,
  baseCurrency: string,
  foreignAmount: number,
  foreignCurrency: string,
) => {
  const scale = 10n ** 10n;
  const scaled = divideRoundHalfAwayFromZero(
    BigInt(baseAmount) * 10n ** BigInt(currencyExponent(foreignCurrency)) * scale,
    BigInt(foreignAmount) * 10n ** BigInt(currencyExponent(baseCurrency)),
  );
  const whole = scaled / scale;
  const fraction = (scaled % scale).toString().padStart(10, '0');
  return tidyRate(`${whole}.${fraction}`);
};

const toTransfer = (
  row: NonNullable<Awaited<ReturnType<typeof selectTransfer>>>,
  fromCurrency: string,
  toCurrency: string,
): Transfer => ({
  id: row.id,
  date: row.date,
  fromAccountId: row.from_money_account_id,
  toAccountId: row.to_money_account_id,
  fromAmount: row.from_amount,
  toAmount: row.to_amount,
  fromCurrency,
  toCurrency,
  rate: tidyRate(String(row.rate)),
  memo: row.memo,
  entryId: row.entry_id,
});

export const createTransfer = (ctx: AppContext, member: MemberContext, input: TransferInputParsed) =>
  inTransaction(ctx.database.db, async (trx) => {
    const { organizationId, userId } = member;
    // Lock both accounts in a fixed order so two opposite transfers cannot deadlock.
    const [firstId, secondId] = [input.fromAccountId, input.toAccountId].sort();
    const first = await selectMoneyAccount(trx, organizationId, firstId!, { forUpdate: true });
    const second = await selectMoneyAccount(trx, organizationId, secondId!, { forUpdate: true });
    // Match by id: an unknown (or another company's) id must not fall back to the other account.
    const from = [first, second].find((a) => a?.id === input.fromAccountId);
    const to = [first, second].find((a) => a?.id === input.toAccountId);
    if (!from || !to) throw notFound('Money account not found.');
    for (const a of [from, to]) {
      if (a.archived_at)
        throw conflict('account_archived', `${a.name} is archived; unarchive it to move money.`);
      if (input.date < a.opening_date) {
        throw badRequest(
          'before_opening',
          `${a.name} opens on ${a.opening_date}; transfer on or after that date.`,
        );
      }
    }
    const base = await baseCurrencyOf(trx, organizationId);
    const fromCurrency = from.currency.trim();
    const toCurrency = to.currency.trim();
    let toAmount: number;
    let rate: string;
    if (fromCurrency === toCurrency) {
      if (input.toAmount !== undefined && input.toAmount !== input.amount) {
        throw badRequest(
          'amount_mismatch',
          'Both accounts use the same currency, so the same amount leaves and arrives.',
        );
      }
      toAmount = input.amount;
      rate = '1';
    } else if (input.toAmount !== undefined) {
      toAmount = input.toAmount;
      rate = impliedRate(toAmount, toCurrency, input.amount, fromCurrency);
    } else if (input.rate) {
      toAmount = convertMinor(input.amount, fromCurrency, input.rate, toCurrency);
      rate = tidyRate(input.rate);
      if (toAmount <= 0) throw badRequest('invalid_amount', 'At this rate nothing arrives; check the rate.');
    } else {
      throw badRequest(
        'rate_required',
        `The accounts are in ${fromCurrency} and ${toCurrency}: give the amount that arrives or the rate.`,
      );
    }
    // Base value of each side: a base-currency side is exact; a foreign side takes its value
    // from the other side when that is base, else from the latest stored rate.
    let fromBase: number;
    let toBase: number;
    let fromRate: string | null = null;
    let toRate: string | null = null;
    if (fromCurrency === base) fromBase = input.amount;
    else if (toCurrency === base) {
      fromBase = toAmount;
      fromRate = impliedRate(toAmount, base, input.amount, fromCurrency);
    } else {
      fromRate = (await rateOrThrow(trx, organizationId, fromCurrency, base, input.date))!;
      fromBase = convertMinor(input.amount, fromCurrency, fromRate, base);
    }
    if (toCurrency === base) toBase = toAmount;
    else if (fromCurrency === base) {
      toBase = input.amount;
      toRate = impliedRate(input.amount, base, toAmount, toCurrency);
    } else {
      toRate = (await rateOrThrow(trx, organizationId, toCurrency, base, input.date))!;
      toBase = convertMinor(toAmount, toCurrency, toRate, base);
    }
    const id = randomUUID();
    const memo = input.memo || `Transfer from ${from.name} to ${to.name}`;
    const lines: PostingLineInput[] = [
      {
        accountId: to.ledger_account_id,
        debit: toBase,
        ...(toCurrency !== base ? { currency: toCurrency, amount: toAmount, rate: toRate! } : {}),
        description: memo,
      },
      {
        accountId: from.ledger_account_id,
        credit: fromBase,
        ...(fromCurrency !== base ? { currency: fromCurrency, amount: input.amount, rate: fromRate! } : {}),
        description: memo,
      },
    ];
    if (toBase !== fromBase) {
      // Two foreign currencies at their own stored rates: the difference is an exchange gain or loss.
      const fx = await findSystemAccount(trx, organizationId, 'exchange_gain_loss');
      const diff = toBase - fromBase;
      lines.push({
        accountId: fx.id,
        ...(diff > 0 ? { credit: diff } : { debit: -diff }),
        description: 'Exchange difference',
      });
    }
    const entry = await postJournalEntry(trx, {
      organizationId,
      actorUserId: userId,
      date: input.date,
      memo,
      source: 'transfer',
      sourceId: id,
      lines,
    });
    await trx
      .insertInto('transfers')
      .values({
        organization_id: organizationId,
        id,
        date: input.date,
        from_money_account_id: from.id,
        to_money_account_id: to.id,
        from_amount: input.amount,
        to_amount: toAmount,
        rate,
        memo: input.memo,
        entry_id: entry.id,
        created_by: userId,
      })
      .execute();
    const sides = [
      {
        account: from,
        amount: -input.amount,
        description: input.memo || `Transfer to ${to.name}`,
        rate: fromRate,
      },
      {
        account: to,
        amount: toAmount,
        description: input.memo || `Transfer from ${from.name}`,
        rate: toRate,
      },
    ];
    for (const side of sides) {
      const prefix = dedupePrefix(input.date, side.amount, side.description);
      const n = (await countDedupePrefix(trx, organizationId, side.account.id, prefix)) + 1;
      await insertBankTransactions(trx, [
        {
          organization_id: organizationId,
          id: randomUUID(),
          money_account_id: side.account.id,
          date: input.date,
          description: side.description,
          payee: null,
          amount: side.amount,
          status: 'categorized',
          category_kind: 'transfer',
          category_account_id: null,
          transfer_id: id,
          tax_rate: null,
          notes: '',
          rate: side.rate,
          entry_id: entry.id,
          import_id: null,
          external_id: null,
          dedupe_key: `${prefix}#${n}`,
          description_key: descriptionKey(side.description),
          rule_id: null,
          reconciliation_id: null,
          created_by: userId,
        },
      ]);
      await addToBalance(trx, organizationId, side.account.id, side.amount);
    }
    const row = (await selectTransfer(trx, organizationId, id))!;
    const transfer = toTransfer(row, fromCurrency, toCurrency);
    await recordAudit(trx, {
      organizationId,
      actorUserId: userId,
      action: 'transfer.created',
      entityType: 'transfer',
      entityId: id,
      after: transfer,
    });
    return transfer;
  });

export const deleteTransfer = (ctx: AppContext, member: MemberContext, id: string) =>
  inTransaction(ctx.database.db, async (trx) => {
    const { organizationId, userId } = member;
    const row = await selectTransfer(trx, organizationId, id);
    if (!row) throw notFound('Transfer not found.');
    const legs = await trx
      .selectFrom('bank_transactions')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('transfer_id', '=', id)
      .forUpdate()
      .execute();
    if (legs.some((l) => l.status === 'reconciled' || l.reconciliation_id)) {
      throw conflict(
        'transaction_reconciled',
        'A side of this transfer is reconciled or being reconciled. Undo that reconciliation first.',
      );
    }
    await reverseJournalEntry(trx, {
      organizationId,
      entryId: row.entry_id,
      actorUserId: userId,
      memo: 'Transfer deleted',
    });
    await trx
      .deleteFrom('bank_transactions')
      .where('organization_id', '=', organizationId)
      .where('transfer_id', '=', id)
      .execute();
    for (const leg of legs) await addToBalance(trx, organizationId, leg.money_account_id, -leg.amount);
    await trx
      .deleteFrom('transfers')
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .execute();
    await recordAudit(trx, {
      organizationId,
      actorUserId: userId,
      action: 'transfer.deleted',
      entityType: 'transfer',
      entityId: id,
      before: row,
    });
  });
