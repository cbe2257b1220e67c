import { randomUUID } from 'node:crypto';
import { badRequest, conflict, notFound } from '../../../shared/errors.ts';
import { convertMinor, currencyExponent, divideRoundHalfAwayFromZero } from '../../../shared/money.ts';
import { descriptionKey } from '../../../shared/transactions.ts';
import type { Transfer, transferInputSchema } from '../../../shared/wallet.ts';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { recordMemberAudit } from '../audit/record.ts';
import { findSystemAccount } from '../ledger/accounts.ts';
import { type PostingLineInput, postJournalEntry, reverseJournalEntry } from '../ledger/posting.ts';
import { assertNotReconciled } from '../bank-transactions/guard.ts';
import { nextDedupeKey } from '../bank-transactions/keys.ts';
import { deleteBankTransactions, insertBankTransactions } from '../bank-transactions/writes.ts';
import { selectMoneyAccount, selectTransfer } from '../wallet/queries.ts';
import { baseCurrencyOf, rateOrThrow, tidyRate } from '../wallet/rates.ts';

// Transfers between two money accounts: one journal entry and a bank-transaction leg on each
// account. They sit above both the wallet (money accounts, rates) and the transactions module
// (bank transactions), so that neither of those imports the other. The legs are written by the
// bank-transactions module.

type TransferInputParsed = z.output<typeof transferInputSchema>;

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
      const dedupeKey = await nextDedupeKey(trx, organizationId, side.account.id, {
        date: input.date,
        amount: side.amount,
        description: side.description,
      });
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
          dedupe_key: dedupeKey,
          description_key: descriptionKey(side.description),
          rule_id: null,
          reconciliation_id: null,
          created_by: userId,
        },
      ]);
    }
    const row = (await selectTransfer(trx, organizationId, id))!;
    const transfer = toTransfer(row, fromCurrency, toCurrency);
    await recordMemberAudit(trx, member, 'transfer.created', ['transfer', id], { after: transfer });
    return transfer;
  });

export const deleteTransfer = (ctx: AppContext, member: MemberContext, { id }: { id: string }) =>
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
    await assertNotReconciled(trx, organizationId, { ids: legs.map((l) => l.id) });
    if (legs.some((l) => l.reconciliation_id)) {
      throw conflict(
        'transaction_in_reconciliation',
        'A side of this transfer is ticked in a reconciliation in progress; untick it or cancel that reconciliation first.',
      );
    }
    await reverseJournalEntry(trx, {
      organizationId,
      entryId: row.entry_id,
      actorUserId: userId,
      memo: 'Transfer deleted',
    });
    await deleteBankTransactions(
      trx,
      organizationId,
      legs.map((l) => l.id),
    );
    await trx
      .deleteFrom('transfers')
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .execute();
    await recordMemberAudit(trx, member, 'transfer.deleted', ['transfer', id], { before: row });
  });
