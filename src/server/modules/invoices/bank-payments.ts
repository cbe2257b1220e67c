import { badRequest, conflict, notFound } from '../../../shared/errors.ts';
import type { PostingLineInput } from '../ledger/posting.ts';
import { addCredit } from './credit-pool.ts';
import {
  type Actor,
  addEvent,
  describeAmount,
  lockInvoice,
  recordActorAudit,
  refuseUnpayable,
  settleInvoice,
  settledWords,
} from './documents.ts';
import { undoPayment } from './payments.ts';
import { type Executor, insertCompanyRow, paymentsWithInvoice, sameCompany } from './queries.ts';

// Invoice payments whose cash is a bank line (issue 13 §4, matching). The matching module posts
// the line's entry through the ledger (Dr the money account, Cr accounts receivable for each
// invoice); these functions check the invoices, write the payment rows that point at that
// entry, and keep each invoice's paid amount, open balance and status, as recordPayment does
// for a payment typed by hand. Base-currency invoices only: the line's amount is the
// receivable it clears. A line worth more than the invoices it settles may keep the excess as
// the customer's credit (Cr Customer credit), carried on the first invoice's payment as
// recordPayment does with keepExcessAsCredit; unmatching takes that credit back.

export type BankAllocation = { invoiceId: string; amount: number };

export type PreparedBankPayment = {
  invoiceId: string;
  number: string;
  customerId: string;
  amount: number;
  status: string;
  amountPaid: number;
  balanceBase: number;
  total: number;
  amountCredited: number;
  amountDue: number;
};

/**
 * Locks and checks the invoices a bank line would settle. Refuses (4xx, nothing written) a
 * missing invoice, a draft, void or paid one, another currency, a date before the invoice,
 * and an amount above what is still due.
 */
export const prepareBankPayments = async (
  trx: Executor,
  organizationId: string,
  allocations: BankAllocation[],
  line: { date: string; currency: string; baseCurrency: string },
): Promise<PreparedBankPayment[]> => {
  const ids = allocations.map((a) => a.invoiceId);
  if (new Set(ids).size !== ids.length)
    throw badRequest('duplicate_invoice', 'Each invoice can appear only once in a match.');
  const prepared: PreparedBankPayment[] = [];
  // Locked in id order so two matches over the same invoices cannot deadlock.
  for (const a of [...allocations].sort((x, y) => (x.invoiceId < y.invoiceId ? -1 : 1))) {
    const row = await lockInvoice(trx, organizationId, a.invoiceId);
    const currency = row.currency;
    const number = row.number ?? 'draft';
    refuseUnpayable(row.status, 'Match the line to another invoice.', 'Nothing is left to pay on it.');
    if (currency !== line.currency || currency !== line.baseCurrency) {
      throw badRequest(
        'currency_mismatch',
        `Invoice ${number} is in ${currency} and the bank line in ${line.currency}; only ${line.baseCurrency} lines and invoices are matched. Record the payment on the invoice instead.`,
      );
    }
    if (a.amount > row.amount_due) {
      throw badRequest(
        'overpayment',
        `${describeAmount(a.amount, currency)} is more than the ${describeAmount(row.amount_due, currency)} still due on invoice ${number}. Settle at most the amount due; the rest of the line can be kept as the customer's credit.`,
        { invoiceId: row.id, amountDue: row.amount_due },
      );
    }
    if (line.date < row.issue_date) {
      throw badRequest(
        'payment_before_invoice',
        `The bank line (${line.date}) is dated before invoice ${number} (${row.issue_date}).`,
        { invoiceId: row.id },
      );
    }
    prepared.push({
      invoiceId: row.id,
      number,
      customerId: row.customer_id,
      amount: a.amount,
      status: row.status,
      amountPaid: row.amount_paid,
      balanceBase: row.balance_base,
      total: row.total,
      amountCredited: row.amount_credited,
      amountDue: row.amount_due,
    });
  }
  // Back in the caller's order, so the entry's lines follow what the person chose.
  return ids.map((id) => prepared.find((p) => p.invoiceId === id)!);
};

/** The receivable credits of the line's entry: one per invoice, with its customer. */
export const receivableCredits = (
  receivableAccountId: string,
  prepared: PreparedBankPayment[],
): PostingLineInput[] =>
  prepared.map((p) => ({
    accountId: receivableAccountId,
    credit: p.amount,
    description: `Payment for invoice ${p.number}`,
    contactId: p.customerId,
  }));

/**
 * The posting line for the part of a bank line kept as credit: refused unless every invoice is
 * settled in full and all are of one customer (the credit is that customer's).
 */
export const excessCredit = (
  creditAccountId: string,
  prepared: PreparedBankPayment[],
  excess: number,
  currency: string,
): PostingLineInput => {
  const owing = prepared.find((p) => p.amount < p.amountDue);
  if (owing) {
    throw badRequest(
      'excess_with_open_invoice',
      `Invoice ${owing.number} would still be owed ${describeAmount(owing.amountDue - owing.amount, currency)}; settle each invoice in full before keeping the rest of the line (${describeAmount(excess, currency)}) as credit.`,
      { invoiceId: owing.invoiceId },
    );
  }
  if (new Set(prepared.map((p) => p.customerId)).size > 1) {
    throw badRequest(
      'excess_several_customers',
      "The invoices belong to different customers; the excess can be kept as credit only when the line settles one customer's invoices.",
    );
  }
  const first = prepared[0]!;
  return {
    accountId: creditAccountId,
    credit: excess,
    description: `Overpayment of ${first.number} kept as credit`,
    contactId: first.customerId,
  };
};

/**
 * Writes the payment rows (pointing at the line's entry) and the invoices' new balances. An
 * excess is added to the first payment (its amount is then the cash, its credit_amount the part
 * kept) and goes to the customer's credit.
 */
export const insertBankPayments = async (
  trx: Executor,
  actor: Actor,
  prepared: PreparedBankPayment[],
  line: {
    transactionId: string;
    date: string;
    currency: string;
    entryId: string;
    depositAccountId: string;
    depositName: string;
    reference: string;
    excess?: number;
  },
) => {
  const ids: string[] = [];
  for (const [i, p] of prepared.entries()) {
    const excess = i === 0 ? (line.excess ?? 0) : 0;
    const id = await insertCompanyRow(trx, 'invoice_payments', actor.organizationId, {
      invoice_id: p.invoiceId,
      date: line.date,
      amount: p.amount + excess,
      currency: line.currency,
      exchange_rate: '1',
      amount_base: p.amount,
      deposit_base: p.amount + excess,
      credit_amount: excess,
      deposit_account_id: line.depositAccountId,
      method: 'bank_transfer',
      reference: line.reference.slice(0, 100),
      journal_entry_id: line.entryId,
      created_by: actor.userId,
      created_at: actor.now,
    });
    ids.push(id);
    if (excess > 0)
      await addCredit(trx, actor, {
        customerId: p.customerId,
        currency: line.currency,
        date: line.date,
        kind: 'overpayment',
        amount: excess,
        amountBase: excess,
        exchangeRate: '1',
        invoiceId: p.invoiceId,
        paymentId: id,
        journalEntryId: line.entryId,
        reference: line.reference.slice(0, 100),
      });
    const status = await settleInvoice(
      trx,
      actor,
      { id: p.invoiceId, total: p.total, amount_paid: p.amountPaid, amount_credited: p.amountCredited },
      { paid: p.amountPaid + p.amount, balanceBase: p.balanceBase - p.amount },
    );
    await addEvent(
      trx,
      actor,
      p.invoiceId,
      'payment',
      `Payment of ${describeAmount(p.amount + excess, line.currency)} matched from a bank line in ${line.depositName}; ${settledWords(status)}${excess > 0 ? `; ${describeAmount(excess, line.currency)} kept as the customer's credit` : ''}`,
    );
    await recordActorAudit(trx, actor, 'invoice.payment_recorded', ['invoice_payment', id], {
      before: { invoiceStatus: p.status, amountPaid: p.amountPaid },
      after: {
        invoiceId: p.invoiceId,
        date: line.date,
        amount: p.amount + excess,
        creditAmount: excess,
        currency: line.currency,
        depositAccountId: line.depositAccountId,
        invoiceStatus: status,
        journalEntryId: line.entryId,
        bankTransactionId: line.transactionId,
      },
    });
  }
  return ids;
};

/**
 * Undoes payments written by insertBankPayments: each is marked reversed by the reversal of
 * the line's entry, and its invoice is owed again.
 */
export const reverseBankPayments = async (
  trx: Executor,
  actor: Actor,
  paymentIds: string[],
  reversalEntryId: string,
  reversalDate: string,
) => {
  for (const paymentId of paymentIds) {
    const payment = await trx
      .selectFrom('invoice_payments')
      .selectAll()
      .where('organization_id', '=', actor.organizationId)
      .where('id', '=', paymentId)
      .forUpdate()
      .executeTakeFirst();
    if (!payment) throw notFound('Payment not found.');
    if (payment.reversal_entry_id)
      throw conflict('payment_already_reversed', 'This payment was already removed.');
    const row = await lockInvoice(trx, actor.organizationId, payment.invoice_id);
    await undoPayment(trx, actor, row, payment, {
      reversalEntryId,
      reversalDate,
      what: 'bank line',
      message: `Payment of ${describeAmount(payment.amount, payment.currency.trim())} unmatched from its bank line; the line waits to be matched or categorised again`,
    });
  }
};

/** A payment's columns for matching (p: the payment). */
const MATCH_PAYMENT_COLUMNS = [
  'p.id',
  'p.invoice_id',
  'p.date',
  'p.amount',
  'p.currency',
  'p.deposit_account_id',
] as const;

/** An open invoice's columns for matching (i: the invoice, c: its customer). */
const MATCH_INVOICE_COLUMNS = [
  'i.number',
  'i.reference',
  'i.customer_id',
  'c.name as customer_name',
  'i.amount_due',
  'i.issue_date',
  'i.due_date',
] as const;

/** Rows for matching as the matching module reads them: no null number, currency trimmed. */
const forMatching = <R extends { number: string | null; currency: string }>(rows: R[]) =>
  rows.map((r) => ({ ...r, number: r.number ?? '', currency: r.currency.trim() }));

/** A payment recorded by hand, for matching a bank line to it. */
export const selectPaymentForMatch = async (trx: Executor, organizationId: string, paymentId: string) =>
  paymentsWithInvoice(trx, organizationId)
    .select([...MATCH_PAYMENT_COLUMNS, 'p.journal_entry_id', 'p.reversal_entry_id', 'i.number'])
    .where('p.id', '=', paymentId)
    .forUpdate()
    .executeTakeFirst();

export type OpenInvoiceForMatching = {
  id: string;
  number: string;
  reference: string;
  customer_id: string;
  customer_name: string;
  currency: string;
  amount_due: number;
  issue_date: string;
  due_date: string;
};

/** Every invoice still owed (sent or partly paid) in a currency: what bank lines can settle. */
export const selectOpenInvoicesForMatching = async (
  db: Executor,
  organizationId: string,
  currency: string,
): Promise<OpenInvoiceForMatching[]> =>
  forMatching(
    await db
      .selectFrom('invoices as i')
      .innerJoin('customers as c', sameCompany('c', 'i.customer_id'))
      .select(['i.id', 'i.currency', ...MATCH_INVOICE_COLUMNS])
      .where('i.organization_id', '=', organizationId)
      .where('i.status', 'in', ['sent', 'partially_paid'])
      .where('i.currency', '=', currency)
      .execute(),
  );

/** Payments recorded by hand (not removed) into some ledger accounts, in a date range. */
export const selectRecordedPayments = async (
  db: Executor,
  organizationId: string,
  depositAccountIds: string[],
  from: string,
  to: string,
) => {
  if (depositAccountIds.length === 0) return [];
  return forMatching(
    await paymentsWithInvoice(db, organizationId)
      .innerJoin('customers as c', sameCompany('c', 'i.customer_id'))
      .select([...MATCH_PAYMENT_COLUMNS, ...MATCH_INVOICE_COLUMNS])
      .where('p.reversal_entry_id', 'is', null)
      .where('p.deposit_account_id', 'in', depositAccountIds)
      .where('p.date', '>=', from)
      .where('p.date', '<=', to)
      .execute(),
  );
};

/** Invoice number and customer of each invoice, for showing a match. */
export const selectInvoiceLabels = (db: Executor, organizationId: string, invoiceIds: string[]) =>
  invoiceIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('invoices as i')
        .innerJoin('customers as c', sameCompany('c', 'i.customer_id'))
        .select(['i.id', 'i.number', 'c.name as customer_name'])
        .where('i.organization_id', '=', organizationId)
        .where('i.id', 'in', invoiceIds)
        .execute();
