import type { z } from 'zod';
import { badRequest, notFound } from '../../../shared/errors.ts';
import type { Invoice, paymentInputSchema } from '../../../shared/invoices.ts';
import type { AppContext } from '../../context.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { findSystemAccount } from '../ledger/accounts.ts';
import { type PostingLineInput, postJournalEntry, reverseJournalEntry } from '../ledger/posting.ts';
import { selectAccountsByIds } from '../ledger/queries.ts';
import { assertNotReconciled } from '../bank-transactions/guard.ts';
import { recordDocumentLine, reverseDocumentLines } from '../bank-transactions/register.ts';
import { selectDefaultDepositAccount } from '../wallet/queries.ts';
import { loadCompany, toBase } from './common.ts';
import { addCredit, takeBackKeptCredit } from './credit-pool.ts';
import {
  type Actor,
  type InvoiceRow,
  addEvent,
  describeAmount,
  exchangeLines,
  recordActorAudit,
  refuseBeforeIssue,
  refuseIfFromBankLine,
  refuseUnpayable,
  settleInvoice,
  settledWords,
  invoiceChange,
} from './documents.ts';
import { getInvoice } from './invoice-read.ts';
import { type Executor, insertCompanyRow, lockInvoiceDocument, updateCompanyRow } from './queries.ts';

// Payments against invoices: Dr the bank or cash account the money went into, Cr accounts
// receivable, in one transaction with the invoice's new balance and status. A payment is
// never edited or deleted: removing one posts a reversing entry. A foreign-currency payment
// clears the receivable at the invoice's rate and banks the cash at the payment's rate; the
// difference is an exchange gain or loss.

export const DEPOSIT_SUBTYPES = ['bank', 'cash', 'cash_equivalent'];

/**
 * Records a payment typed in by hand; answers the payment's id. The route runs it once per
 * Idempotency-Key (scope `invoice_payment:<invoice id>`, runIdempotentRequest).
 */
export const recordPayment = invoiceChange(
  async (
    trx,
    actor,
    row,
    { invoiceId, ...input }: z.output<typeof paymentInputSchema> & { invoiceId: string },
  ) => {
    const { organizationId } = actor;
    const currency = row.currency;
    refuseUnpayable(row.status, 'Record the money against another invoice.');
    if (input.amount > row.amount_due && !input.keepExcessAsCredit) {
      throw badRequest(
        'overpayment',
        `The payment of ${describeAmount(input.amount, currency)} is more than the ${describeAmount(row.amount_due, currency)} still due. Enter at most the amount due, or keep the excess as the customer's credit.`,
        { amountDue: row.amount_due },
      );
    }
    // An overpayment settles the invoice; the excess becomes the customer's credit (credit.ts).
    const excess = Math.max(0, input.amount - row.amount_due);
    const applied = input.amount - excess;
    refuseBeforeIssue(
      input.date,
      row.issue_date,
      'payment_before_invoice',
      `The payment date cannot be before the invoice date (${row.issue_date}).`,
    );
    const company = await loadCompany(trx, organizationId);
    const base = company.base_currency;
    // The money account the money went into (by its ledger account), else the company's deposit account.
    const depositAccountId =
      input.depositAccountId ?? (await selectDefaultDepositAccount(trx, organizationId))?.ledger_account_id;
    if (!depositAccountId)
      throw badRequest(
        'deposit_account_required',
        'Choose the money account the payment went into (the company has no deposit account set in the Wallet).',
      );
    const [deposit] = await selectAccountsByIds(trx, organizationId, [depositAccountId]);
    if (!deposit)
      throw badRequest('account_not_found', 'The deposit account does not exist in this company.');
    if (deposit.type !== 'asset' || !DEPOSIT_SUBTYPES.includes(deposit.subtype)) {
      throw badRequest(
        'invalid_deposit_account',
        `Choose a bank or cash account for the deposit; ${deposit.code} ${deposit.name} is not one.`,
      );
    }
    if (deposit.archived_at)
      throw badRequest('account_archived', `Account ${deposit.code} ${deposit.name} is archived.`);
    const depositCurrency = deposit.currency.trim();
    if (depositCurrency !== base && depositCurrency !== currency) {
      throw badRequest(
        'deposit_currency_mismatch',
        `${deposit.name} is kept in ${depositCurrency}; a ${currency} payment goes into a ${currency} or ${base} account.`,
      );
    }
    const paymentRate = currency === base ? '1' : (input.exchangeRate ?? row.exchange_rate);
    // The last payment clears exactly what is left of the receivable.
    const clears = applied === row.amount_due;
    const amountBase = clears
      ? row.balance_base
      : Math.min(row.balance_base, toBase(applied, currency, row.exchange_rate, base));
    const depositBase = toBase(input.amount, currency, paymentRate, base);
    // The excess is carried on the customer credit account at the payment's rate.
    const creditBase = excess > 0 ? toBase(excess, currency, paymentRate, base) : 0;
    if (depositBase <= 0) throw badRequest('payment_too_small', `The payment comes to nothing in ${base}.`);
    const receivable = await findSystemAccount(trx, organizationId, 'accounts_receivable');
    const memo = `Payment for invoice ${row.number}`;
    const lines: PostingLineInput[] = [
      {
        accountId: deposit.id,
        debit: depositBase,
        ...(depositCurrency !== base ? { currency, amount: input.amount, rate: paymentRate } : {}),
        description: input.reference ? `${memo} (${input.reference})` : memo,
        contactId: row.customer_id,
      },
    ];
    if (amountBase > 0)
      lines.push({
        accountId: receivable.id,
        credit: amountBase,
        description: memo,
        contactId: row.customer_id,
      });
    const creditAccount = excess > 0 ? await findSystemAccount(trx, organizationId, 'customer_credit') : null;
    if (creditAccount && creditBase > 0)
      lines.push({
        accountId: creditAccount.id,
        credit: creditBase,
        description: `Overpayment of ${row.number} kept as credit`,
        contactId: row.customer_id,
      });
    lines.push(
      ...(await exchangeLines(trx, organizationId, depositBase - amountBase - creditBase, `${row.number}`)),
    );
    const entry = await postJournalEntry(trx, {
      organizationId,
      date: input.date,
      memo,
      reference: input.reference || row.number,
      source: 'payment',
      sourceId: invoiceId,
      lines,
      actorUserId: actor.userId,
    });
    const id = await insertCompanyRow(trx, 'invoice_payments', organizationId, {
      invoice_id: invoiceId,
      date: input.date,
      amount: input.amount,
      currency,
      exchange_rate: paymentRate,
      amount_base: amountBase,
      deposit_base: depositBase,
      deposit_account_id: deposit.id,
      method: input.method,
      reference: input.reference,
      journal_entry_id: entry.id,
      created_by: actor.userId,
      created_at: actor.now,
      credit_amount: excess,
    });
    // Every cash movement is in the register: the payment's line in the money account.
    await recordDocumentLine(trx, {
      organizationId,
      ledgerAccountId: deposit.id,
      date: input.date,
      amount: depositCurrency === currency ? input.amount : depositBase,
      description: input.reference ? `${memo} (${input.reference})` : memo,
      entryId: entry.id,
      rate: depositCurrency !== base ? paymentRate : null,
      source: { kind: 'invoice_payment', id },
      invoiceId,
      createdBy: actor.userId,
    });
    if (excess > 0)
      await addCredit(trx, actor, {
        customerId: row.customer_id,
        currency,
        date: input.date,
        kind: 'overpayment',
        amount: excess,
        amountBase: creditBase,
        exchangeRate: paymentRate,
        invoiceId,
        paymentId: id,
        journalEntryId: entry.id,
        reference: input.reference,
      });
    const status = await settleInvoice(trx, actor, row, {
      paid: row.amount_paid + applied,
      balanceBase: row.balance_base - amountBase,
    });
    await addEvent(
      trx,
      actor,
      invoiceId,
      'payment',
      `Payment of ${describeAmount(input.amount, currency)} recorded into ${deposit.name}; ${settledWords(status)}${excess > 0 ? `; ${describeAmount(excess, currency)} kept as the customer's credit` : ''}`,
    );
    await recordActorAudit(trx, actor, 'invoice.payment_recorded', ['invoice_payment', id], {
      before: { invoiceStatus: row.status, amountPaid: row.amount_paid },
      after: {
        invoiceId,
        date: input.date,
        amount: input.amount,
        creditAmount: excess,
        currency,
        depositAccountId: deposit.id,
        invoiceStatus: status,
        journalEntryId: entry.id,
      },
    });
    return { paymentId: id };
  },
);

/** What the payment route answers: the invoice as it is now, with the payment's id. */
export const paymentAnswer = async (
  ctx: AppContext,
  member: MemberContext,
  input: { invoiceId: string; paymentId: string },
) => ({
  ...(await getInvoice(ctx.database.db, member.organizationId, input.invoiceId, ctx.now())),
  paymentId: input.paymentId,
});

/** Removes a payment by posting its reversal; the invoice is owed again. */
export const deletePayment = invoiceChange(
  async (
    trx,
    actor,
    row,
    { invoiceId, paymentId }: { invoiceId: string; paymentId: string },
  ): Promise<Invoice> => {
    const { organizationId } = actor;
    const payment = await lockInvoiceDocument(trx, 'invoice_payments', organizationId, invoiceId, paymentId);
    if (!payment) throw notFound('Payment not found.');
    // A payment matched to a bank line is removed by unmatching the line (decision 0026).
    await refuseIfFromBankLine(trx, organizationId, paymentId);
    if (payment.reversal_entry_id) {
      throw badRequest(
        'payment_already_reversed',
        'This payment was already removed (its reversal is posted).',
      );
    }
    // A payment whose money a completed reconciliation took in stays (409 naming the statement date).
    await assertNotReconciled(trx, organizationId, { source: { kind: 'invoice_payment', id: paymentId } });
    const reversal = await reverseJournalEntry(trx, {
      organizationId,
      entryId: payment.journal_entry_id,
      memo: `Payment for invoice ${row.number} removed`,
      actorUserId: actor.userId,
    });
    await reverseDocumentLines(trx, {
      organizationId,
      source: { kind: 'invoice_payment', id: paymentId },
      date: reversal.date,
      description: `Payment for invoice ${row.number} removed`,
      entryId: reversal.id,
      createdBy: actor.userId,
    });
    await undoPayment(trx, actor, row, payment, {
      reversalEntryId: reversal.id,
      reversalDate: reversal.date,
      what: 'payment',
      message: `Payment of ${describeAmount(payment.amount, payment.currency.trim())} removed; journal entry ${reversal.number} reverses it`,
    });
    return getInvoice(trx, organizationId, invoiceId, actor.now);
  },
);

type PaymentRow = {
  id: string;
  amount: number;
  amount_base: number;
  credit_amount: number;
  currency: string;
};

/**
 * Undoes a payment whose entry the caller has reversed (removed by hand, or unmatched from its
 * bank line): the credit it kept is taken back (409 credit_already_used if it was applied or
 * refunded), the payment is marked reversed, and its invoice is owed again.
 */
export const undoPayment = async (
  trx: Executor,
  actor: Actor,
  row: InvoiceRow,
  payment: PaymentRow,
  reversal: { reversalEntryId: string; reversalDate: string; what: string; message: string },
) => {
  const { organizationId } = actor;
  const { reversalEntryId } = reversal;
  await takeBackKeptCredit(
    trx,
    actor,
    { paymentId: payment.id },
    {
      customerId: row.customer_id,
      currency: payment.currency.trim(),
      date: reversal.reversalDate,
      kind: 'payment_removed',
      invoiceId: row.id,
      paymentId: payment.id,
      journalEntryId: reversalEntryId,
    },
    reversal.what,
  );
  await updateCompanyRow(trx, 'invoice_payments', organizationId, payment.id, {
    reversal_entry_id: reversalEntryId,
    reversed_at: actor.now,
  });
  const status = await settleInvoice(trx, actor, row, {
    paid: row.amount_paid - (payment.amount - payment.credit_amount),
    balanceBase: row.balance_base + payment.amount_base,
  });
  await addEvent(trx, actor, row.id, 'payment_removed', reversal.message);
  await recordActorAudit(trx, actor, 'invoice.payment_reversed', ['invoice_payment', payment.id], {
    before: { amount: payment.amount, invoiceStatus: row.status },
    after: { reversalEntryId, invoiceStatus: status },
  });
};
