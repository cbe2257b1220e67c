import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { badRequest, notFound } from '../../../shared/errors.ts';
import type { Invoice, paymentInputSchema } from '../../../shared/invoices.ts';
import { runIdempotent } from '../../http/idempotency.ts';
import { recordAudit } from '../audit/record.ts';
import { findSystemAccount } from '../ledger/accounts.ts';
import {
  type PostingLineInput,
  inTransaction,
  postJournalEntry,
  reverseJournalEntry,
} from '../ledger/posting.ts';
import { selectAccountsByIds } from '../ledger/queries.ts';
import { assertNotReconciled } from '../bank-transactions/guard.ts';
import { recordDocumentLine, reverseDocumentLines } from '../bank-transactions/register.ts';
import { selectDefaultDepositAccount } from '../wallet/queries.ts';
import { loadCompany, settledStatus, toBase } from './common.ts';
import { refuseIfFromBankLine } from './bank-payments.ts';
import { addCredit, takeBackCredit } from './credit.ts';
import { type Actor, addEvent, describeAmount, getInvoice, refuseTransition } from './invoices.ts';
import { type Executor, selectInvoice } from './queries.ts';

// Payments against invoices: Dr the bank or cash account the money went into, Cr accounts
// receivable, in one transaction with the invoice's new balance and status. A payment is
// never edited or deleted: removing one posts a reversing entry. A foreign-currency payment
// clears the receivable at the invoice's rate and banks the cash at the payment's rate; the
// difference is an exchange gain or loss.

export const DEPOSIT_SUBTYPES = ['bank', 'cash', 'cash_equivalent'];

export const recordPayment = (
  db: Executor,
  actor: Actor,
  invoiceId: string,
  input: z.output<typeof paymentInputSchema>,
  idempotencyKey: string | null = null,
) =>
  inTransaction(db, async (trx) => {
    const { organizationId } = actor;
    const result = await runIdempotent(
      trx,
      {
        organizationId,
        key: idempotencyKey,
        scope: `invoice_payment:${invoiceId}`,
        payload: input,
        what: 'payment',
      },
      async () => {
        const row = await selectInvoice(trx, organizationId, invoiceId, { forUpdate: true });
        if (!row) throw notFound('Invoice not found.');
        const currency = row.currency.trim();
        if (row.status === 'draft')
          throw refuseTransition('paid', row.status, 'Send it first; a draft is not owed yet.');
        if (row.status === 'void')
          throw refuseTransition('paid', row.status, 'Record the money against another invoice.');
        if (row.status === 'paid')
          throw refuseTransition('paid again', row.status, 'Nothing is left to pay.');
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
        if (input.date < row.issue_date) {
          throw badRequest(
            'payment_before_invoice',
            `The payment date cannot be before the invoice date (${row.issue_date}).`,
          );
        }
        const company = await loadCompany(trx, organizationId);
        const base = company.base_currency;
        // The money account the money went into (by its ledger account), else the company's deposit account.
        const depositAccountId =
          input.depositAccountId ??
          (await selectDefaultDepositAccount(trx, organizationId))?.ledger_account_id;
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
        if (depositBase <= 0)
          throw badRequest('payment_too_small', `The payment comes to nothing in ${base}.`);
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
        const creditAccount =
          excess > 0 ? await findSystemAccount(trx, organizationId, 'customer_credit') : null;
        if (creditAccount && creditBase > 0)
          lines.push({
            accountId: creditAccount.id,
            credit: creditBase,
            description: `Overpayment of ${row.number} kept as credit`,
            contactId: row.customer_id,
          });
        const difference = depositBase - amountBase - creditBase;
        if (difference !== 0) {
          const fx = await findSystemAccount(trx, organizationId, 'exchange_gain_loss');
          lines.push({
            accountId: fx.id,
            ...(difference > 0 ? { credit: difference } : { debit: -difference }),
            description: `Exchange ${difference > 0 ? 'gain' : 'loss'} on ${row.number}`,
          });
        }
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
        const id = randomUUID();
        await trx
          .insertInto('invoice_payments')
          .values({
            organization_id: organizationId,
            id,
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
          })
          .execute();
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
        const paid = row.amount_paid + applied;
        const status = settledStatus(row.total, paid, row.amount_credited);
        await trx
          .updateTable('invoices')
          .set({
            amount_paid: paid,
            balance_base: row.balance_base - amountBase,
            status,
            updated_at: actor.now,
          })
          .where('organization_id', '=', organizationId)
          .where('id', '=', invoiceId)
          .execute();
        await addEvent(
          trx,
          actor,
          invoiceId,
          'payment',
          `Payment of ${describeAmount(input.amount, currency)} recorded into ${deposit.name}; ${status === 'paid' ? 'paid in full' : 'partially paid'}${excess > 0 ? `; ${describeAmount(excess, currency)} kept as the customer's credit` : ''}`,
        );
        await recordAudit(trx, {
          organizationId,
          actorUserId: actor.userId,
          action: 'invoice.payment_recorded',
          entityType: 'invoice_payment',
          entityId: id,
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
        return { statusCode: 201, body: { paymentId: id } };
      },
    );
    const invoice = await getInvoice(trx, organizationId, invoiceId, actor.now);
    return { replayed: result.replayed, paymentId: result.body.paymentId, invoice };
  });

/** Removes a payment by posting its reversal; the invoice is owed again. */
export const deletePayment = (
  db: Executor,
  actor: Actor,
  invoiceId: string,
  paymentId: string,
): Promise<Invoice> =>
  inTransaction(db, async (trx) => {
    const { organizationId } = actor;
    const row = await selectInvoice(trx, organizationId, invoiceId, { forUpdate: true });
    if (!row) throw notFound('Invoice not found.');
    const payment = await trx
      .selectFrom('invoice_payments')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('invoice_id', '=', invoiceId)
      .where('id', '=', paymentId)
      .forUpdate()
      .executeTakeFirst();
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
    // The part kept as credit goes too (refused if that credit was already used).
    const credited = await trx
      .selectFrom('customer_credit_entries')
      .select(['amount', 'amount_base'])
      .where('organization_id', '=', organizationId)
      .where('payment_id', '=', paymentId)
      .where('kind', '=', 'overpayment')
      .executeTakeFirst();
    if (credited)
      await takeBackCredit(
        trx,
        actor,
        {
          customerId: row.customer_id,
          currency: payment.currency.trim(),
          date: reversal.date,
          kind: 'payment_removed',
          amount: credited.amount,
          amountBase: credited.amount_base,
          invoiceId,
          paymentId,
          journalEntryId: reversal.id,
        },
        'payment',
      );
    await trx
      .updateTable('invoice_payments')
      .set({ reversal_entry_id: reversal.id, reversed_at: actor.now })
      .where('organization_id', '=', organizationId)
      .where('id', '=', paymentId)
      .execute();
    const paid = row.amount_paid - (payment.amount - payment.credit_amount);
    const status = settledStatus(row.total, paid, row.amount_credited);
    await trx
      .updateTable('invoices')
      .set({
        amount_paid: paid,
        balance_base: row.balance_base + payment.amount_base,
        status,
        updated_at: actor.now,
      })
      .where('organization_id', '=', organizationId)
      .where('id', '=', invoiceId)
      .execute();
    await addEvent(
      trx,
      actor,
      invoiceId,
      'payment_removed',
      `Payment of ${describeAmount(payment.amount, payment.currency.trim())} removed; journal entry ${reversal.number} reverses it`,
    );
    await recordAudit(trx, {
      organizationId,
      actorUserId: actor.userId,
      action: 'invoice.payment_reversed',
      entityType: 'invoice_payment',
      entityId: paymentId,
      before: { amount: payment.amount, invoiceStatus: row.status },
      after: { reversalEntryId: reversal.id, invoiceStatus: status },
    });
    return getInvoice(trx, organizationId, invoiceId, actor.now);
  });
