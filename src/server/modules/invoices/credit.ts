import type { z } from 'zod';
import type { applyCreditInputSchema } from '../../../shared/invoice-credit.ts';
import type { Invoice } from '../../../shared/invoices.ts';
import { badRequest } from '../../../shared/errors.ts';
import { findSystemAccount } from '../ledger/accounts.ts';
import { type PostingLineInput, postJournalEntry } from '../ledger/posting.ts';
import { loadCompany, toBase } from './common.ts';
import {
  creditPool,
  customerCreditLines,
  insertEntry,
  lockCustomer,
  refuseMoreThanCredit,
  releasedBase,
} from './credit-pool.ts';
import {
  addEvent,
  describeAmount,
  exchangeLines,
  recordActorAudit,
  refuseBeforeIssue,
  refuseUnpayable,
  settleInvoice,
  settledWords,
  invoiceChange,
} from './documents.ts';
import { getInvoice } from './invoice-read.ts';

// Customer credit (decision 0028): what a customer has paid or been credited beyond what their
// invoices ask for. It is the company's liability to them, kept on the "Customer credit"
// account (system key customer_credit, contact = the customer) and itemised per customer and
// currency in customer_credit_entries (credit-pool.ts). It comes from overpayments
// (payments.ts) and from credit notes larger than what is left due (credit-notes.ts); it goes
// by being applied to another open invoice of the same customer and currency (here: Dr
// customer credit, Cr receivable), by being refunded out of a money account
// (credit-refunds.ts), or by the payment or credit note it came from being undone.
//
// Base amounts: each entry carries its base-currency amount. Using credit releases the base
// at the pool's average (all of it when the pool is emptied), so the liability account always
// equals the sum of the entries; a difference between that and what the receivable or the
// cash moves by is an exchange gain or loss, as with payments.

/** Applies some of the customer's credit to one of their open invoices in the same currency. */
export const applyCredit = invoiceChange(
  async (
    trx,
    actor,
    row,
    input: z.output<typeof applyCreditInputSchema> & { customerId: string },
  ): Promise<Invoice> => {
    // Lock order everywhere: invoice, then customer.
    const { organizationId } = actor;
    const { customerId } = input;
    const customer = await lockCustomer(trx, organizationId, customerId);
    if (row.customer_id !== customerId) {
      throw badRequest(
        'credit_other_customer',
        `Invoice ${row.number ?? '(draft)'} belongs to another customer; ${customer.name}'s credit can only settle their own invoices.`,
      );
    }
    const currency = row.currency;
    refuseUnpayable(row.status, 'Apply the credit to another invoice.');
    if (input.amount > row.amount_due) {
      throw badRequest(
        'exceeds_due',
        `${describeAmount(input.amount, currency)} is more than the ${describeAmount(row.amount_due, currency)} still due on ${row.number}.`,
        { amountDue: row.amount_due },
      );
    }
    refuseBeforeIssue(
      input.date,
      row.issue_date,
      'credit_before_invoice',
      `Credit cannot be applied before the invoice date (${row.issue_date}).`,
    );
    const pool = await creditPool(trx, organizationId, customerId, currency);
    if (pool.amount <= 0) {
      const other = await trx
        .selectFrom('customer_credit_entries')
        .select('currency')
        .where('organization_id', '=', organizationId)
        .where('customer_id', '=', customerId)
        .groupBy('currency')
        .having((eb) => eb.fn.sum('amount'), '>', 0)
        .execute();
      if (other.length > 0) {
        throw badRequest(
          'credit_currency_mismatch',
          `${customer.name}'s credit is in ${other.map((o) => o.currency.trim()).join(', ')}; invoice ${row.number} is in ${currency}. Credit only settles invoices in its own currency.`,
        );
      }
    }
    if (input.amount > pool.amount) throw refuseMoreThanCredit(input.amount, pool.amount, currency);
    const company = await loadCompany(trx, organizationId);
    const base = company.base_currency;
    const released = releasedBase(pool, input.amount);
    const clears = input.amount === row.amount_due;
    const receivableBase = clears
      ? row.balance_base
      : Math.min(row.balance_base, toBase(input.amount, currency, row.exchange_rate, base));
    const [creditAccount, receivable] = await Promise.all([
      findSystemAccount(trx, organizationId, 'customer_credit'),
      findSystemAccount(trx, organizationId, 'accounts_receivable'),
    ]);
    const memo = `Customer credit applied to invoice ${row.number}`;
    const lines: PostingLineInput[] = [
      ...customerCreditLines(creditAccount.id, released, memo, customerId),
      ...(receivableBase > 0
        ? [{ accountId: receivable.id, credit: receivableBase, description: memo, contactId: customerId }]
        : []),
      ...(await exchangeLines(trx, organizationId, released - receivableBase, `${row.number}`)),
    ];
    const entry =
      lines.length >= 2
        ? await postJournalEntry(trx, {
            organizationId,
            date: input.date,
            memo,
            reference: row.number,
            source: 'payment',
            sourceId: input.invoiceId,
            lines,
            actorUserId: actor.userId,
          })
        : null;
    const entryId = await insertEntry(trx, actor, {
      customerId,
      currency,
      date: input.date,
      kind: 'applied',
      amount: -input.amount,
      amountBase: -released,
      exchangeRate: row.exchange_rate,
      receivableBase: receivableBase,
      invoiceId: input.invoiceId,
      journalEntryId: entry?.id ?? null,
      reference: row.number ?? '',
    });
    const status = await settleInvoice(trx, actor, row, {
      paid: row.amount_paid + input.amount,
      balanceBase: row.balance_base - receivableBase,
    });
    await addEvent(
      trx,
      actor,
      input.invoiceId,
      'credit_applied',
      `${describeAmount(input.amount, currency)} of ${customer.name}'s credit applied; ${settledWords(status)}`,
    );
    await recordActorAudit(trx, actor, 'customer_credit.applied', ['customer_credit_entry', entryId], {
      before: { invoiceStatus: row.status, amountPaid: row.amount_paid, credit: pool.amount },
      after: {
        customerId,
        invoiceId: input.invoiceId,
        date: input.date,
        amount: input.amount,
        currency,
        invoiceStatus: status,
        journalEntryId: entry?.id ?? null,
      },
    });
    return getInvoice(trx, organizationId, input.invoiceId, actor.now);
  },
);
