import type { z } from 'zod';
import { badRequest, conflict, notFound } from '../../../shared/errors.ts';
import type { Bill, billPaymentInputSchema } from '../../../shared/payables.ts';
import type { PaidBill } from '../../../shared/payables-paying.ts';
import { assertNotReconciled } from '../bank-transactions/guard.ts';
import { recordDocumentLine, reverseDocumentLines } from '../bank-transactions/register.ts';
import { loadCompany, toBase } from '../invoices/common.ts';
import { DEPOSIT_SUBTYPES } from '../invoices/payments.ts';
import { findSystemAccount } from '../ledger/accounts.ts';
import { type PostingLineInput, postJournalEntry, reverseJournalEntry } from '../ledger/posting.ts';
import { selectAccountsByIds } from '../ledger/queries.ts';
import { tidyRate } from '../wallet/rates.ts';
import { selectRateOn } from '../wallet/queries.ts';
import { getBill } from './bill-read.ts';
import { selectSupplier } from './bills-queries.ts';
import {
  type Actor,
  type LockedBill,
  addBillEvent,
  billChange,
  describeAmount,
  exchangeLines,
  recordActorAudit,
  refuseBeforeBill,
  refuseBillUnpayable,
  settleBill,
} from './documents.ts';
import { type Executor, insertPayablesRow, updatePayablesRow } from './queries.ts';

// Paying one bill from a money account (issue 15 §4, decision 0033): Dr accounts payable for
// the payable cleared at the BILL's rate (the last payment clears exactly what is left of it),
// Cr the money account's ledger account for the cash at the PAYMENT's rate, the difference a
// realised exchange gain or loss; the money account's register line (money out) is written
// by the bank-transactions module, so the Wallet and the ledger agree. A payment is never
// edited or deleted: removing it posts the reversal and takes its register line back.

type PaymentFields = z.output<typeof billPaymentInputSchema>;

/** The chart account of a money account, checked: a live bank or cash account of the company in one of `currencies`. */
export const requireMoneyAccount = async (
  db: Executor,
  organizationId: string,
  ledgerAccountId: string,
  currencies: { document: string; base: string },
  what = 'payment',
) => {
  const [account] = await selectAccountsByIds(db, organizationId, [ledgerAccountId]);
  if (!account) {
    throw badRequest(
      'account_not_found',
      `The ${what} account does not exist in this company. Choose one of its bank or cash accounts.`,
    );
  }
  if (account.type !== 'asset' || !DEPOSIT_SUBTYPES.includes(account.subtype)) {
    throw badRequest(
      'invalid_payment_account',
      `Choose a bank or cash account for the ${what}; ${account.code} ${account.name} is not one.`,
    );
  }
  if (account.archived_at) {
    throw badRequest(
      'account_archived',
      `${account.code} ${account.name} is archived. Restore it or choose another account.`,
    );
  }
  const currency = account.currency.trim();
  const { document, base } = currencies;
  if (currency !== base && currency !== document) {
    throw badRequest(
      'payment_currency_mismatch',
      `${account.name} is kept in ${currency}; a ${document} ${what} goes through a ${document}${document === base ? '' : ` or ${base}`} account.`,
    );
  }
  return { id: account.id, code: account.code, name: account.name, currency };
};

export type MoneyAccount = Awaited<ReturnType<typeof requireMoneyAccount>>;

/** The rate of `currency` on `date`: the one given, else the company's rate on or before that day. */
export const rateOnDate = async (
  db: Executor,
  organizationId: string,
  currency: string,
  base: string,
  date: string,
  given?: string,
) => {
  if (currency === base) return '1';
  if (given) return given;
  const found = await selectRateOn(db, organizationId, currency, date);
  if (!found) {
    throw badRequest(
      'exchange_rate_required',
      `Enter the exchange rate: how many ${base} one ${currency} was worth on ${date}. No ${currency} rate is recorded on or before that date (add one in the Wallet, or give it here).`,
      { currency, date },
    );
  }
  return tidyRate(found.rate);
};

/** The payable a payment of `amount` clears on a bill, in base at the bill's rate; the last one clears what is left. */
export const payableCleared = (
  row: Pick<LockedBill, 'amount_due' | 'balance_base' | 'currency' | 'exchange_rate'>,
  amount: number,
  base: string,
) =>
  amount === row.amount_due
    ? row.balance_base
    : Math.min(row.balance_base, toBase(amount, row.currency, row.exchange_rate, base));

/** Refuses paying (or crediting) more than a bill's amount due (400 overpayment, naming it). */
export const refuseOverpayment = (
  row: Pick<LockedBill, 'amount_due' | 'number' | 'id' | 'currency'>,
  amount: number,
  what = 'payment of',
) => {
  if (amount > row.amount_due) {
    throw badRequest(
      'overpayment',
      `The ${what} ${describeAmount(amount, row.currency)} is more than the ${describeAmount(row.amount_due, row.currency)} still due on bill ${row.number}. Enter at most the amount due.`,
      { billId: row.id, amountDue: row.amount_due },
    );
  }
};

/** "paid in full" or "partially paid", for a history line. */
export const settledWords = (status: string) => (status === 'paid' ? 'paid in full' : 'partially paid');

const supplierName = async (db: Executor, organizationId: string, supplierId: string) =>
  (await selectSupplier(db, organizationId, supplierId))?.name ?? '';

/** Records a payment of one bill; answers the bill as it is now with the payment's id. */
export const payBill = billChange(
  async (trx, actor, row, { billId, ...input }: PaymentFields & { billId: string }): Promise<PaidBill> => {
    const { organizationId } = actor;
    const currency = row.currency;
    refuseBillUnpayable(row.status);
    refuseOverpayment(row, input.amount);
    refuseBeforeBill(input.date, row.issue_date, 'payment');
    const company = await loadCompany(trx, organizationId);
    const base = company.base_currency;
    const money = await requireMoneyAccount(trx, organizationId, input.paymentAccountId, {
      document: currency,
      base,
    });
    const rate = await rateOnDate(trx, organizationId, currency, base, input.date, input.exchangeRate);
    const amountBase = payableCleared(row, input.amount, base);
    const paidBase = toBase(input.amount, currency, rate, base);
    if (paidBase <= 0) throw badRequest('payment_too_small', `The payment comes to nothing in ${base}.`);
    const payable = await findSystemAccount(trx, organizationId, 'accounts_payable');
    const payee = await supplierName(trx, organizationId, row.supplier_id);
    const memo = `Payment of bill ${row.number}${payee ? ` to ${payee}` : ''}`;
    const description = input.reference ? `${memo} (${input.reference})` : memo;
    const lines: PostingLineInput[] = [
      ...(amountBase > 0
        ? [{ accountId: payable.id, debit: amountBase, description: memo, contactId: row.supplier_id }]
        : []),
      {
        accountId: money.id,
        credit: paidBase,
        ...(money.currency !== base ? { currency, amount: input.amount, rate } : {}),
        description,
        contactId: row.supplier_id,
      },
      ...(await exchangeLines(trx, organizationId, amountBase - paidBase, `bill ${row.number}`)),
    ];
    const entry = await postJournalEntry(trx, {
      organizationId,
      date: input.date,
      memo,
      reference: input.reference || row.number,
      source: 'bill_payment',
      sourceId: billId,
      lines,
      actorUserId: actor.userId,
    });
    const id = await insertPayablesRow(trx, 'bill_payments', organizationId, {
      bill_id: billId,
      batch_id: null,
      date: input.date,
      amount: input.amount,
      currency,
      exchange_rate: rate,
      amount_base: amountBase,
      paid_base: paidBase,
      payment_account_id: money.id,
      method: input.method,
      reference: input.reference,
      journal_entry_id: entry.id,
      created_by: actor.userId,
      created_at: actor.now,
    });
    // The cash movement's line in the money account's register (money out).
    await recordDocumentLine(trx, {
      organizationId,
      ledgerAccountId: money.id,
      date: input.date,
      amount: -(money.currency === currency ? input.amount : paidBase),
      description,
      payee: payee || null,
      entryId: entry.id,
      rate: money.currency !== base ? rate : null,
      source: { kind: 'bill_payment', id },
      createdBy: actor.userId,
    });
    const status = await settleBill(trx, actor, row, {
      paid: row.amount_paid + input.amount,
      balanceBase: row.balance_base - amountBase,
    });
    await addBillEvent(
      trx,
      actor,
      billId,
      'payment',
      `Payment of ${describeAmount(input.amount, currency)} from ${money.name}; ${settledWords(status)}`,
    );
    await recordActorAudit(trx, actor, 'bill.payment_recorded', ['bill_payment', id], {
      before: { billStatus: row.status, amountPaid: row.amount_paid },
      after: {
        billId,
        date: input.date,
        amount: input.amount,
        currency,
        exchangeRate: rate,
        paymentAccountId: money.id,
        billStatus: status,
        journalEntryId: entry.id,
      },
    });
    return { ...(await getBill(trx, organizationId, billId, actor.now)), paymentId: id };
  },
);

/** A payment matched to a bank line is the line's cash: it goes by unmatching the line. */
export const refuseIfMatched = async (trx: Executor, organizationId: string, paymentIds: string[]) => {
  if (paymentIds.length === 0) return;
  const match = await trx
    .selectFrom('bank_transaction_bill_matches')
    .select(['transaction_id', 'payment_id'])
    .where('organization_id', '=', organizationId)
    .where('payment_id', 'in', paymentIds)
    .executeTakeFirst();
  if (match) {
    throw conflict(
      'payment_matched_to_bank_line',
      'This payment is matched to a bank line. Unmatch the line on the Transactions page to remove it.',
      { transactionId: match.transaction_id, paymentId: match.payment_id },
    );
  }
};

type PaymentRow = { id: string; amount: number; amount_base: number; currency: string };

/** Puts a bill's payment back (its entry already reversed): marks it reversed, the bill owed again. */
export const undoBillPayment = async (
  trx: Executor,
  actor: Actor,
  row: LockedBill,
  payment: PaymentRow,
  reversal: { id: string },
  message: string,
) => {
  await updatePayablesRow(trx, 'bill_payments', actor.organizationId, payment.id, {
    reversal_entry_id: reversal.id,
    reversed_at: actor.now,
  });
  const status = await settleBill(trx, actor, row, {
    paid: row.amount_paid - payment.amount,
    balanceBase: row.balance_base + payment.amount_base,
  });
  await addBillEvent(trx, actor, row.id, 'payment_removed', message);
  await recordActorAudit(trx, actor, 'bill.payment_reversed', ['bill_payment', payment.id], {
    before: { amount: payment.amount, billStatus: row.status },
    after: { reversalEntryId: reversal.id, billStatus: status },
  });
  return status;
};

/** Removes a payment by posting its reversal; the bill is owed again. */
export const removeBillPayment = billChange(
  async (trx, actor, row, { billId, paymentId }: { billId: string; paymentId: string }): Promise<Bill> => {
    const { organizationId } = actor;
    const payment = await trx
      .selectFrom('bill_payments')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('bill_id', '=', billId)
      .where('id', '=', paymentId)
      .forUpdate()
      .executeTakeFirst();
    if (!payment) throw notFound('Payment not found.');
    if (payment.reversal_entry_id) {
      throw conflict(
        'payment_already_reversed',
        'This payment was already removed (its reversal is posted).',
      );
    }
    if (payment.batch_id) {
      throw conflict(
        'payment_in_batch',
        'This payment is part of a batch payment (one bank line for several bills). Remove the whole batch instead.',
        { batchId: payment.batch_id },
      );
    }
    await refuseIfMatched(trx, organizationId, [paymentId]);
    // A payment whose register line a completed reconciliation took in stays (409 naming the statement).
    await assertNotReconciled(trx, organizationId, { source: { kind: 'bill_payment', id: paymentId } });
    const memo = `Payment of bill ${row.number} removed`;
    const reversal = await reverseJournalEntry(trx, {
      organizationId,
      entryId: payment.journal_entry_id,
      memo,
      actorUserId: actor.userId,
    });
    await reverseDocumentLines(trx, {
      organizationId,
      source: { kind: 'bill_payment', id: paymentId },
      date: reversal.date,
      description: memo,
      entryId: reversal.id,
      createdBy: actor.userId,
    });
    const currency = payment.currency.trim();
    await undoBillPayment(
      trx,
      actor,
      row,
      { ...payment, currency },
      reversal,
      `Payment of ${describeAmount(payment.amount, currency)} removed; journal entry ${reversal.number} reverses it`,
    );
    return getBill(trx, organizationId, billId, actor.now);
  },
);
