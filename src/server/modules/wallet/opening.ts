import { conflict } from '../../../shared/errors.ts';
import { convertMinor } from '../../../shared/money.ts';
import type { moneyAccountUpdateSchema } from '../../../shared/wallet.ts';
import type { z } from 'zod';
import type { Executor } from '../../db/transaction.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { findSystemAccount } from '../ledger/accounts.ts';
import { type PostingLineInput, postJournalEntry, reverseJournalEntry } from '../ledger/posting.ts';
import { type selectMoneyAccount, updateMoneyAccountRow } from './queries.ts';
import { baseCurrencyOf, rateOrThrow } from './rates.ts';

// A money account's opening balance: its entry (Dr/Cr the account, Cr/Dr opening balance
// equity) posted when the account is added, and reversed and posted again when it changes.

type UpdateInput = z.output<typeof moneyAccountUpdateSchema>;

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
export const postOpeningEntry = async (
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
export const changeOpening = async (
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
  await updateMoneyAccountRow(trx, organizationId, row.id, {
    opening_balance: balance,
    opening_date: date,
    opening_entry_id: entryId,
    updated_at: new Date(),
  });
  return true;
};
