import { randomUUID } from 'node:crypto';
import { badRequest, conflict, notFound } from '../../../shared/errors.ts';
import {
  type TransactionCreate,
  type TransactionUpdate,
  descriptionKey,
} from '../../../shared/transactions.ts';
import type { AppContext } from '../../context.ts';
import { type Executor, inTransaction } from '../../db/transaction.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { recordMemberAudit } from '../audit/record.ts';
import { assertNotReconciled } from '../bank-transactions/guard.ts';
import { nextDedupeKey } from '../bank-transactions/keys.ts';
import {
  deleteBankTransactions,
  insertBankTransactions,
  replaceSplits,
  updateBankTransaction,
} from '../bank-transactions/writes.ts';
import { postJournalEntry, reverseJournalEntry } from '../ledger/posting.ts';
import { selectMoneyAccount, selectRateOn } from '../wallet/queries.ts';
import {
  checkCategory,
  entryForTransaction,
  loadPostingContext,
  missingRateError,
  type PostableTransaction,
  type PostingContext,
  postableOf,
} from './posting-context.ts';
import { selectSplits, selectTransactionsForUpdate } from './queries.ts';
import { readTransaction } from './read-service.ts';
import { notifyBankLinesAdded } from '../notifications/events.ts';
import { emitTransactionEvent } from '../webhooks/emit.ts';

// Bank transactions: recording one posts it to the ledger in the same database transaction;
// changing what it posts (date, amount, category, split, tax) reverses the old entry and posts
// a new one; a reconciled transaction is locked. Every write goes through the bank-transactions
// module; the rules stay here. Reading: read-service.ts; categorising many: categorize.ts.

const paymentError = () =>
  conflict(
    'transaction_is_payment',
    "This line is the money of an invoice payment or refund; its entry is the payment's. Remove the payment on the invoice to undo it.",
  );

const transferError = () =>
  conflict(
    'transaction_is_transfer',
    'This is one side of a transfer between your accounts. Delete the transfer and record it again to change the amount, date or accounts.',
  );

const loadMoneyAccountForPosting = async (trx: Executor, organizationId: string, id: string) => {
  const money = await selectMoneyAccount(trx, organizationId, id, { forUpdate: true });
  if (!money) throw notFound('Money account not found.');
  return { ...money, currency: money.currency.trim() };
};

const rateFor = async (
  trx: Executor,
  pc: PostingContext,
  currency: string,
  date: string,
  given?: string | null,
) => {
  if (currency === pc.baseCurrency) return null;
  if (given) return given;
  const found = await selectRateOn(trx, pc.organizationId, currency, date);
  if (!found) throw missingRateError(currency, pc.baseCurrency, date);
  return found.rate;
};

const checkSplits = (
  pc: PostingContext,
  amount: number,
  splits: { categoryAccountId: string; amount: number }[],
) => {
  for (const s of splits) checkCategory(pc, s.categoryAccountId);
  const total = splits.reduce((sum, s) => sum + s.amount, 0);
  if (total !== amount) {
    throw badRequest(
      'split_mismatch',
      `The parts add up to ${total} but the transaction is ${amount} (minor units). Make the parts add up to the whole amount.`,
      { partsTotal: total, amount },
    );
  }
};

export const recordTransaction = (ctx: AppContext, member: MemberContext, input: TransactionCreate) =>
  inTransaction(ctx.database.db, async (trx) => {
    const { organizationId, userId } = member;
    const money = await loadMoneyAccountForPosting(trx, organizationId, input.moneyAccountId);
    if (money.archived_at)
      throw conflict('account_archived', `${money.name} is archived; unarchive it to record transactions.`);
    if (input.date < money.opening_date) {
      throw badRequest(
        'before_opening',
        `${money.name} opens on ${money.opening_date}; record transactions on or after that date.`,
      );
    }
    const pc = await loadPostingContext(trx, organizationId);
    if (input.categoryAccountId) checkCategory(pc, input.categoryAccountId);
    const rate = await rateFor(trx, pc, money.currency, input.date, input.rate);
    const id = randomUUID();
    const tx: PostableTransaction = {
      id,
      date: input.date,
      description: input.description,
      amount: input.amount,
      categoryKind: input.categoryAccountId ? 'account' : 'none',
      categoryAccountId: input.categoryAccountId ?? null,
      splits: [],
      taxRate: input.categoryAccountId ? (input.taxRate ?? null) : null,
      rate,
    };
    const entry = await postJournalEntry(trx, {
      organizationId,
      actorUserId: userId,
      ...entryForTransaction(pc, money, tx),
    });
    const dedupeKey = await nextDedupeKey(trx, organizationId, money.id, input);
    await insertBankTransactions(trx, [
      {
        organization_id: organizationId,
        id,
        money_account_id: money.id,
        date: input.date,
        description: input.description,
        payee: input.payee || null,
        amount: input.amount,
        status: tx.categoryKind === 'none' ? 'uncategorized' : 'categorized',
        category_kind: tx.categoryKind,
        category_account_id: tx.categoryAccountId,
        transfer_id: null,
        tax_rate: tx.taxRate,
        notes: input.notes ?? '',
        rate,
        entry_id: entry.id,
        import_id: null,
        external_id: null,
        dedupe_key: dedupeKey,
        description_key: descriptionKey(input.description),
        rule_id: null,
        reconciliation_id: null,
        created_by: userId,
      },
    ]);
    const created = await readTransaction(trx, organizationId, id);
    await recordMemberAudit(trx, member, 'bank_transaction.created', ['bank_transaction', id], {
      after: created,
    });
    // A line at or above the company's large-transaction threshold notifies its members.
    await notifyBankLinesAdded(ctx, trx, organizationId, { transactionIds: [id] });
    await emitTransactionEvent(trx, { organizationId, now: ctx.now() }, 'transaction.created', id);
    return created;
  });

const lockOne = async (trx: Executor, organizationId: string, id: string) => {
  const [row] = await selectTransactionsForUpdate(trx, organizationId, [id]);
  if (!row) throw notFound('Transaction not found.');
  return row;
};

export const updateTransaction = (
  ctx: AppContext,
  member: MemberContext,
  input: TransactionUpdate & { id: string },
) =>
  inTransaction(ctx.database.db, async (trx) => {
    const { organizationId, userId } = member;
    const { id } = input;
    const row = await lockOne(trx, organizationId, id);
    await assertNotReconciled(trx, organizationId, { ids: [id] });
    const before = await readTransaction(trx, organizationId, id);
    const postingFields = ['date', 'amount', 'categoryAccountId', 'splits', 'taxRate'] as const;
    const touchesPosting = postingFields.some((f) => input[f] !== undefined);
    if (row.category_kind === 'transfer' && touchesPosting) throw transferError();
    if (row.category_kind === 'payment' && touchesPosting) throw paymentError();
    const money = await loadMoneyAccountForPosting(trx, organizationId, row.money_account_id);
    const oldSplits = (await selectSplits(trx, organizationId, [id])).map((s) => ({ ...s }));
    const next = postableOf(row, oldSplits);
    if (input.date !== undefined) {
      if (input.date < money.opening_date) {
        throw badRequest(
          'before_opening',
          `${money.name} opens on ${money.opening_date}; use that date or a later one.`,
        );
      }
      next.date = input.date;
    }
    if (input.amount !== undefined) next.amount = input.amount;
    if (input.description !== undefined) next.description = input.description;
    let pc: PostingContext | null = null;
    if (touchesPosting) {
      pc = await loadPostingContext(trx, organizationId);
      if (input.splits) {
        checkSplits(pc, next.amount, input.splits);
        next.categoryKind = 'split';
        next.categoryAccountId = null;
        next.splits = input.splits.map((s) => ({
          accountId: s.categoryAccountId,
          amount: s.amount,
          description: s.description ?? null,
        }));
        next.taxRate = null;
      } else if (input.categoryAccountId !== undefined) {
        if (input.categoryAccountId) checkCategory(pc, input.categoryAccountId);
        next.categoryKind = input.categoryAccountId ? 'account' : 'none';
        next.categoryAccountId = input.categoryAccountId;
        next.splits = [];
      } else if (next.categoryKind === 'split' && input.amount !== undefined) {
        checkSplits(
          pc,
          next.amount,
          next.splits.map((s) => ({ categoryAccountId: s.accountId, amount: s.amount })),
        );
      }
      if (input.taxRate !== undefined) next.taxRate = next.categoryKind === 'account' ? input.taxRate : null;
      if (next.categoryKind !== 'account') next.taxRate = null;
      if (money.currency !== pc.baseCurrency && (input.date !== undefined || !next.rate)) {
        next.rate = await rateFor(trx, pc, money.currency, next.date);
      }
    }
    let entryId = row.entry_id;
    if (touchesPosting && pc) {
      await reverseJournalEntry(trx, { organizationId, entryId: row.entry_id, actorUserId: userId });
      const entry = await postJournalEntry(trx, {
        organizationId,
        actorUserId: userId,
        ...entryForTransaction(pc, money, next),
      });
      entryId = entry.id;
    }
    await updateBankTransaction(trx, organizationId, id, {
      date: next.date,
      amount: next.amount,
      description: next.description,
      description_key: descriptionKey(next.description),
      ...(input.payee !== undefined ? { payee: input.payee || null } : {}),
      ...(input.notes !== undefined ? { notes: input.notes } : {}),
      category_kind: next.categoryKind,
      category_account_id: next.categoryAccountId,
      status: next.categoryKind === 'none' ? 'uncategorized' : 'categorized',
      tax_rate: next.taxRate,
      rate: next.rate,
      entry_id: entryId,
      ...(input.categoryAccountId !== undefined || input.splits ? { rule_id: null } : {}),
    });
    if (input.splits || (input.categoryAccountId !== undefined && row.category_kind === 'split')) {
      await replaceSplits(trx, organizationId, id, input.splits ?? []);
    }
    const after = await readTransaction(trx, organizationId, id);
    await recordMemberAudit(trx, member, 'bank_transaction.updated', ['bank_transaction', id], {
      before,
      after,
    });
    // Given a category (or a new one): `transaction.categorized` (webhooks).
    if (
      next.categoryKind !== 'none' &&
      (input.categoryAccountId !== undefined || input.splits) &&
      (row.category_kind !== next.categoryKind ||
        row.category_account_id !== next.categoryAccountId ||
        input.splits)
    )
      await emitTransactionEvent(trx, { organizationId, now: ctx.now() }, 'transaction.categorized', id);
    return after;
  });

export const deleteTransaction = (ctx: AppContext, member: MemberContext, { id }: { id: string }) =>
  inTransaction(ctx.database.db, async (trx) => {
    const { organizationId, userId } = member;
    const row = await lockOne(trx, organizationId, id);
    await assertNotReconciled(trx, organizationId, { ids: [id] });
    if (row.category_kind === 'transfer') throw transferError();
    if (row.category_kind === 'payment') throw paymentError();
    if (row.reconciliation_id) {
      throw conflict(
        'transaction_in_reconciliation',
        'This transaction is ticked in a reconciliation in progress; untick it first.',
      );
    }
    const before = await readTransaction(trx, organizationId, id);
    await reverseJournalEntry(trx, {
      organizationId,
      entryId: row.entry_id,
      actorUserId: userId,
      memo: `Deleted bank transaction: ${row.description}`,
    });
    await deleteBankTransactions(trx, organizationId, [id]);
    await recordMemberAudit(trx, member, 'bank_transaction.deleted', ['bank_transaction', id], { before });
  });
