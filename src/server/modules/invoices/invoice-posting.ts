import type { z } from 'zod';
import { badRequest } from '../../../shared/errors.ts';
import { formatDocumentNumber, type sendInvoiceSchema } from '../../../shared/invoices.ts';
import { requireVerifiedSender } from '../../auth/verification.ts';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { assertCompanyWithinLimit } from '../billing/limits.ts';
import { findSystemAccount } from '../ledger/accounts.ts';
import { type PostingLineInput, postJournalEntry, reverseJournalEntry } from '../ledger/posting.ts';
import { loadCompany, postLinesSplit, toBase } from './common.ts';
import { type Actor, actorOf, addEvent, lockInvoice, refuseTransition, invoiceChange } from './documents.ts';
import { emailInvoice } from './email.ts';
import { auditInvoice, getInvoice } from './invoice-read.ts';
import {
  type Executor,
  deleteTaxPostings,
  selectCustomer,
  selectLines,
  selectTaxRates,
  takeDocumentNumber,
  updateCompanyRow,
} from './queries.ts';
import { emitInvoiceEvent } from '../webhooks/emit.ts';

// Sending and voiding: sending a draft takes the next number and posts receivable, income and
// tax in the same transaction as the status change; voiding reverses that posting. Overdue is
// never stored: it is derived from the due date (invoice-read.ts).

/**
 * Sends (approves) a draft: gives it the next number and posts Dr receivable, Cr income per
 * account and Cr tax payable per rate, all in one transaction with the status change.
 */
export const postInvoice = (db: Executor, actor: Actor, id: string) =>
  inTransaction(db, async (trx) => {
    const { organizationId } = actor;
    const row = await lockInvoice(trx, organizationId, id);
    if (row.status !== 'draft') {
      throw refuseTransition('sent again', row.status, 'Email it to the customer again instead.');
    }
    if (row.total <= 0)
      throw badRequest(
        'invoice_total_zero',
        'An invoice for nothing cannot be sent. Add an amount to a line.',
      );
    // Issuing (not drafting) counts against the payer's invoices a month (402, nothing written).
    await assertCompanyWithinLimit(trx, { organizationId, key: 'invoicesPerMonth', adding: 1 }, actor.now);
    const company = await loadCompany(trx, organizationId);
    const base = company.base_currency;
    const lines = await selectLines(trx, organizationId, [id]);
    const taxRates = new Map((await selectTaxRates(trx, organizationId)).map((t) => [t.id, t]));
    const receivable = await findSystemAccount(trx, organizationId, 'accounts_receivable');
    const customer = await selectCustomer(trx, organizationId, row.customer_id);

    const totalBase = toBase(row.total, row.currency, row.exchange_rate, base);
    if (totalBase <= 0) {
      throw badRequest(
        'invoice_total_zero',
        `The invoice comes to nothing in ${base} at this exchange rate.`,
      );
    }
    const foreign = row.currency !== base ? { currency: row.currency, rate: row.exchange_rate } : null;
    const settings = await takeDocumentNumber(trx, organizationId, 'invoice');
    const number = formatDocumentNumber(settings.prefix, settings.number);
    const memo = `Invoice ${number} to ${customer?.name ?? 'customer'}`;
    const { ledgerLines: incomeLines, taxRows } = postLinesSplit(
      lines,
      taxRates,
      {
        organizationId,
        documentId: id,
        date: row.issue_date,
        number,
        currency: row.currency,
        exchangeRate: row.exchange_rate,
        contactId: row.customer_id,
      },
      { base, totalBase, side: 'credit', memo },
    );
    const ledgerLines: PostingLineInput[] = [
      {
        accountId: receivable.id,
        debit: totalBase,
        ...(foreign ? { ...foreign, amount: row.total } : {}),
        description: memo,
        contactId: row.customer_id,
      },
      ...incomeLines,
    ];
    const entry = await postJournalEntry(trx, {
      organizationId,
      date: row.issue_date,
      memo,
      reference: number,
      source: 'invoice',
      sourceId: id,
      lines: ledgerLines,
      actorUserId: actor.userId,
    });
    if (taxRows.length > 0) await trx.insertInto('invoice_tax_postings').values(taxRows).execute();
    const before = await getInvoice(trx, organizationId, id, actor.now);
    await updateCompanyRow(trx, 'invoices', organizationId, id, {
      status: 'sent',
      number,
      journal_entry_id: entry.id,
      total_base: totalBase,
      balance_base: totalBase,
      sent_at: actor.now,
      updated_at: actor.now,
    });
    await addEvent(trx, actor, id, 'sent', `Sent as ${number}; journal entry ${entry.number} posted`);
    await emitInvoiceEvent(trx, actor, 'invoice.sent', id);
    return auditInvoice(trx, actor, id, 'invoice.sent', before);
  });

/** Voids a sent invoice with nothing paid or credited: its posting is reversed on its own date. */
export const voidInvoice = invoiceChange(
  async (trx, actor, row, { invoiceId: id, reason }: { invoiceId: string; reason: string }) => {
    const { organizationId } = actor;
    if (row.status === 'draft') throw refuseTransition('voided', row.status, 'Delete the draft instead.');
    if (row.status === 'void') throw refuseTransition('voided', row.status, 'It is already void.');
    if (row.amount_paid > 0) {
      throw refuseTransition(
        'voided',
        row.status,
        'It has payments: delete them first (each is reversed in the ledger).',
      );
    }
    if (row.amount_credited > 0) {
      throw refuseTransition('voided', row.status, 'It has credit notes: void them first.');
    }
    const before = await getInvoice(trx, organizationId, id, actor.now);
    const reversal = await reverseJournalEntry(trx, {
      organizationId,
      entryId: row.journal_entry_id!,
      memo: `Void of invoice ${row.number}${reason ? `: ${reason}` : ''}`,
      actorUserId: actor.userId,
    });
    await deleteTaxPostings(trx, organizationId, id);
    await updateCompanyRow(trx, 'invoices', organizationId, id, {
      status: 'void',
      void_entry_id: reversal.id,
      voided_at: actor.now,
      balance_base: 0,
      updated_at: actor.now,
    });
    await addEvent(
      trx,
      actor,
      id,
      'voided',
      `Voided${reason ? `: ${reason}` : ''}; journal entry ${reversal.number} reverses the posting`,
    );
    return auditInvoice(trx, actor, id, 'invoice.voided', before);
  },
);

/**
 * The send route: posts the draft and, when asked, emails the PDF. A sender who has not
 * verified their address is refused before anything is posted (403, the draft stays); a mail
 * failure after the posting committed is reported, not rolled back.
 */
export const sendInvoice = async (
  ctx: AppContext,
  member: MemberContext,
  input: z.output<typeof sendInvoiceSchema> & { invoiceId: string },
) => {
  const actor = actorOf(ctx, member);
  if (input.email) await requireVerifiedSender(ctx, member.userId);
  let invoice = await postInvoice(ctx.database.db, actor, input.invoiceId);
  let emailedTo: string | null = null;
  let emailError: string | null = null;
  if (input.email) {
    try {
      emailedTo = (await emailInvoice(ctx, actor, invoice.id, { to: input.to, message: input.message })).to;
      invoice = await getInvoice(ctx.database.db, actor.organizationId, invoice.id, actor.now);
    } catch (error) {
      emailError = error instanceof Error ? error.message : String(error);
    }
  }
  return { ...invoice, emailedTo, emailError };
};
