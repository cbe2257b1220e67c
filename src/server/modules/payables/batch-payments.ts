import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { AppError, badRequest, conflict, notFound } from '../../../shared/errors.ts';
import type { BillBatchPayment, billBatchPaymentInputSchema } from '../../../shared/payables.ts';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { assertNotReconciled } from '../bank-transactions/guard.ts';
import { recordDocumentLine, reverseDocumentLines } from '../bank-transactions/register.ts';
import { iso, loadCompany, splitToBase, toBase } from '../invoices/common.ts';
import { sameCompany } from '../invoices/queries.ts';
import { findSystemAccount } from '../ledger/accounts.ts';
import { type PostingLineInput, postJournalEntry, reverseJournalEntry } from '../ledger/posting.ts';
import {
  type LockedBill,
  actorOf,
  addBillEvent,
  describeAmount,
  exchangeLines,
  lockBill,
  recordActorAudit,
  refuseBeforeBill,
  refuseBillUnpayable,
  settleBill,
} from './documents.ts';
import {
  payableCleared,
  rateOnDate,
  refuseIfMatched,
  refuseOverpayment,
  requireMoneyAccount,
  settledWords,
  undoBillPayment,
} from './payments.ts';
import { type Executor, insertPayablesRow, updatePayablesRow } from './queries.ts';

// A batch payment (issue 15 §4): several bills paid at once from one money account, as the
// bank shows one debit. One journal entry (Dr accounts payable per bill, each at its bill's
// rate with the supplier as contact; Cr the money account once, at the day's rate; the
// difference a realised exchange gain or loss), one register line, and one bill_payments row
// per bill pointing at the batch. Every bill is checked before anything is written: one bad
// bill refuses the whole batch with a 4xx naming it. The bills are in the money account's
// currency. Removing a batch reverses its entry and register line and puts every bill back.

type BatchFields = z.output<typeof billBatchPaymentInputSchema>;

/** Runs a check on one bill of the batch; a refusal names the bill. */
const aboutBill = <T>(bill: { id: string; number: string }, check: () => T): T => {
  try {
    return check();
  } catch (error) {
    if (error instanceof AppError) {
      const details = typeof error.details === 'object' && error.details !== null ? error.details : {};
      throw new AppError(
        error.status,
        error.code,
        error.message.startsWith(`Bill ${bill.number}`) || error.message.includes(`bill ${bill.number}`)
          ? error.message
          : `Bill ${bill.number}: ${error.message}`,
        { ...details, billId: bill.id },
      );
    }
    throw error;
  }
};

/** Locks the batch's bills (in id order, as every payment locks them) and checks each. */
const lockBatchBills = async (trx: Executor, organizationId: string, input: BatchFields) => {
  const ids = input.bills.map((b) => b.billId);
  if (new Set(ids).size !== ids.length) {
    throw badRequest(
      'bill_listed_twice',
      'Each bill can appear only once in a batch; pay it once with the total.',
    );
  }
  const rows = new Map<string, LockedBill>();
  for (const id of [...ids].sort()) {
    try {
      rows.set(id, await lockBill(trx, organizationId, id));
    } catch (error) {
      if (error instanceof AppError && error.status === 404)
        throw notFound(`Bill ${id} was not found in this company; take it out of the batch.`);
      throw error;
    }
  }
  const chosen = input.bills.map((b) => ({ row: rows.get(b.billId)!, amount: b.amount }));
  for (const { row, amount } of chosen) {
    aboutBill(row, () => {
      refuseBillUnpayable(row.status);
      refuseOverpayment(row, amount);
      refuseBeforeBill(input.date, row.issue_date, 'payment');
    });
  }
  const currencies = [...new Set(chosen.map((c) => c.row.currency))];
  if (currencies.length > 1) {
    const odd = chosen.find((c) => c.row.currency !== chosen[0]!.row.currency)!.row;
    throw badRequest(
      'batch_currency_mismatch',
      `Bill ${odd.number} is in ${odd.currency} and bill ${chosen[0]!.row.number} in ${chosen[0]!.row.currency}; a batch pays bills of one currency. Pay them in separate batches.`,
      { billId: odd.id },
    );
  }
  return { chosen, currency: currencies[0]! };
};

/** Pays several bills at once; answers the batch. */
export const payBills = (ctx: AppContext, member: MemberContext, input: BatchFields) =>
  inTransaction(ctx.database.db, async (trx): Promise<BillBatchPayment> => {
    const actor = actorOf(ctx, member);
    const { organizationId } = actor;
    const { chosen, currency } = await lockBatchBills(trx, organizationId, input);
    const company = await loadCompany(trx, organizationId);
    const base = company.base_currency;
    const money = await requireMoneyAccount(trx, organizationId, input.paymentAccountId, {
      document: currency,
      base,
    });
    if (money.currency !== currency) {
      throw badRequest(
        'batch_currency_mismatch',
        `${money.name} is kept in ${money.currency} and the bills are in ${currency}; a batch is paid from an account in the bills' currency. Pay foreign bills one by one, or from a ${currency} account.`,
      );
    }
    const rate = await rateOnDate(trx, organizationId, currency, base, input.date);
    const total = chosen.reduce((s, c) => s + c.amount, 0);
    const parts = chosen.map((c, i) => ({
      ...c,
      key: String(i),
      amountBase: payableCleared(c.row, c.amount, base),
    }));
    const paidBase = toBase(total, currency, rate, base);
    // Each payment's share of the cash in base, adding up to the one conversion of the total.
    const paidSplit = splitToBase(
      parts.map((p) => ({ key: p.key, amount: p.amount })),
      currency,
      rate,
      base,
      paidBase,
    );
    if (paidBase <= 0) throw badRequest('payment_too_small', `The batch comes to nothing in ${base}.`);
    const clearedBase = parts.reduce((s, p) => s + p.amountBase, 0);
    const payable = await findSystemAccount(trx, organizationId, 'accounts_payable');
    const batchId = randomUUID();
    const count = parts.length;
    const memo = `Batch payment of ${count} bill${count === 1 ? '' : 's'} from ${money.name}`;
    const description = input.reference ? `${memo} (${input.reference})` : memo;
    const lines: PostingLineInput[] = [
      ...parts
        .filter((p) => p.amountBase > 0)
        .map(
          (p): PostingLineInput => ({
            accountId: payable.id,
            debit: p.amountBase,
            description: `Payment of bill ${p.row.number}`,
            contactId: p.row.supplier_id,
          }),
        ),
      {
        accountId: money.id,
        credit: paidBase,
        ...(money.currency !== base ? { currency, amount: total, rate } : {}),
        description,
      },
      ...(await exchangeLines(
        trx,
        organizationId,
        clearedBase - paidBase,
        `batch payment ${batchId.slice(0, 8)}`,
      )),
    ];
    const entry = await postJournalEntry(trx, {
      organizationId,
      date: input.date,
      memo,
      reference: input.reference || null,
      source: 'bill_payment',
      sourceId: batchId,
      lines,
      actorUserId: actor.userId,
    });
    await trx
      .insertInto('bill_payment_batches')
      .values({
        organization_id: organizationId,
        id: batchId,
        date: input.date,
        payment_account_id: money.id,
        currency,
        total,
        bill_count: count,
        reference: input.reference,
        journal_entry_id: entry.id,
        created_by: actor.userId,
        created_at: actor.now,
      })
      .execute();
    for (const [i, p] of parts.entries()) {
      const id = await insertPayablesRow(trx, 'bill_payments', organizationId, {
        bill_id: p.row.id,
        batch_id: batchId,
        date: input.date,
        amount: p.amount,
        currency,
        exchange_rate: rate,
        amount_base: p.amountBase,
        paid_base: paidSplit[i]!.base,
        payment_account_id: money.id,
        method: input.method,
        reference: input.reference,
        journal_entry_id: entry.id,
        created_by: actor.userId,
        created_at: actor.now,
      });
      const status = await settleBill(trx, actor, p.row, {
        paid: p.row.amount_paid + p.amount,
        balanceBase: p.row.balance_base - p.amountBase,
      });
      await addBillEvent(
        trx,
        actor,
        p.row.id,
        'payment',
        `Payment of ${describeAmount(p.amount, currency)} from ${money.name} in a batch of ${count}; ${settledWords(status)}`,
      );
      await recordActorAudit(trx, actor, 'bill.payment_recorded', ['bill_payment', id], {
        before: { billStatus: p.row.status, amountPaid: p.row.amount_paid },
        after: {
          billId: p.row.id,
          batchId,
          date: input.date,
          amount: p.amount,
          currency,
          billStatus: status,
        },
      });
    }
    // One cash movement: one register line for the whole batch (money out).
    await recordDocumentLine(trx, {
      organizationId,
      ledgerAccountId: money.id,
      date: input.date,
      amount: -total,
      description,
      entryId: entry.id,
      rate: money.currency !== base ? rate : null,
      source: { kind: 'bill_payment_batch', id: batchId },
      createdBy: actor.userId,
    });
    await recordActorAudit(trx, actor, 'bill_batch_payment.recorded', ['bill_payment_batch', batchId], {
      after: {
        date: input.date,
        paymentAccountId: money.id,
        currency,
        total,
        bills: parts.map((p) => ({ billId: p.row.id, amount: p.amount })),
        journalEntryId: entry.id,
      },
    });
    return getBatch(trx, organizationId, batchId);
  });

/** A batch with its payments; 404 when it is not in the company. */
export const getBatch = async (db: Executor, organizationId: string, batchId: string) => {
  const batch = await db
    .selectFrom('bill_payment_batches')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', batchId)
    .executeTakeFirst();
  if (!batch) throw notFound('Batch payment not found.');
  const payments = await db
    .selectFrom('bill_payments as p')
    .innerJoin('accounts as a', sameCompany('a', 'p.payment_account_id'))
    .leftJoin('bank_transaction_bill_matches as m', (join) =>
      join.onRef('m.organization_id', '=', 'p.organization_id').onRef('m.payment_id', '=', 'p.id'),
    )
    .selectAll('p')
    .select(['a.name as payment_account_name', 'm.transaction_id as bank_transaction_id'])
    .where('p.organization_id', '=', organizationId)
    .where('p.batch_id', '=', batchId)
    .orderBy('p.created_at')
    .orderBy('p.id')
    .execute();
  return {
    id: batch.id,
    date: batch.date,
    amount: batch.total,
    currency: batch.currency.trim(),
    billCount: batch.bill_count,
    paymentAccountId: batch.payment_account_id,
    reference: batch.reference,
    journalEntryId: batch.journal_entry_id,
    payments: payments.map((p) => ({
      id: p.id,
      billId: p.bill_id,
      batchId: p.batch_id,
      date: p.date,
      amount: p.amount,
      currency: p.currency.trim(),
      exchangeRate: p.exchange_rate,
      paymentAccountId: p.payment_account_id,
      paymentAccountName: p.payment_account_name,
      method: p.method,
      reference: p.reference,
      journalEntryId: p.journal_entry_id,
      bankTransactionId: p.bank_transaction_id ?? null,
      reversed: p.reversal_entry_id !== null,
      reversalEntryId: p.reversal_entry_id,
      createdAt: iso(p.created_at as Date)!,
    })),
    reversed: batch.reversal_entry_id !== null,
  };
};

export const readBatch = (ctx: AppContext, member: MemberContext, input: { batchId: string }) =>
  getBatch(ctx.database.db, member.organizationId, input.batchId);

/** Removes a batch: its entry and register line reversed, every bill owed again. */
export const removeBatch = (ctx: AppContext, member: MemberContext, input: { batchId: string }) =>
  inTransaction(ctx.database.db, async (trx): Promise<BillBatchPayment> => {
    const actor = actorOf(ctx, member);
    const { organizationId } = actor;
    const batch = await trx
      .selectFrom('bill_payment_batches')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', '=', input.batchId)
      .forUpdate()
      .executeTakeFirst();
    if (!batch) throw notFound('Batch payment not found.');
    if (batch.reversal_entry_id)
      throw conflict(
        'batch_already_reversed',
        'This batch payment was already removed (its reversal is posted).',
      );
    const payments = await trx
      .selectFrom('bill_payments')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('batch_id', '=', batch.id)
      .execute();
    await refuseIfMatched(
      trx,
      organizationId,
      payments.map((p) => p.id),
    );
    await assertNotReconciled(trx, organizationId, { source: { kind: 'bill_payment_batch', id: batch.id } });
    // Bills locked in id order, as when paying.
    const rows = new Map<string, LockedBill>();
    for (const billId of [...new Set(payments.map((p) => p.bill_id))].sort())
      rows.set(billId, await lockBill(trx, organizationId, billId));
    const memo = `Batch payment of ${batch.bill_count} bill${batch.bill_count === 1 ? '' : 's'} removed`;
    const reversal = await reverseJournalEntry(trx, {
      organizationId,
      entryId: batch.journal_entry_id,
      memo,
      actorUserId: actor.userId,
    });
    await reverseDocumentLines(trx, {
      organizationId,
      source: { kind: 'bill_payment_batch', id: batch.id },
      date: reversal.date,
      description: memo,
      entryId: reversal.id,
      createdBy: actor.userId,
    });
    for (const payment of payments) {
      if (payment.reversal_entry_id) continue;
      const row = rows.get(payment.bill_id)!;
      const currency = payment.currency.trim();
      await undoBillPayment(
        trx,
        actor,
        row,
        { ...payment, currency },
        reversal,
        `Payment of ${describeAmount(payment.amount, currency)} removed with its batch; journal entry ${reversal.number} reverses it`,
      );
      // The same bill may be in a batch only once, but keep the row current for safety.
      rows.set(payment.bill_id, await lockBill(trx, organizationId, payment.bill_id));
    }
    await updatePayablesRow(trx, 'bill_payment_batches', organizationId, batch.id, {
      reversal_entry_id: reversal.id,
      reversed_at: actor.now,
    });
    await recordActorAudit(trx, actor, 'bill_batch_payment.reversed', ['bill_payment_batch', batch.id], {
      before: { total: batch.total, billCount: batch.bill_count },
      after: { reversalEntryId: reversal.id },
    });
    return getBatch(trx, organizationId, batch.id);
  });
