import type { z } from 'zod';
import { badRequest, conflict, notFound } from '../../../shared/errors.ts';
import type { SupplierCredit, supplierRefundInputSchema } from '../../../shared/payables.ts';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { assertNotReconciled } from '../bank-transactions/guard.ts';
import { recordDocumentLine, reverseDocumentLines } from '../bank-transactions/register.ts';
import { loadCompany, toBase } from '../invoices/common.ts';
import { findSystemAccount } from '../ledger/accounts.ts';
import { type PostingLineInput, postJournalEntry, reverseJournalEntry } from '../ledger/posting.ts';
import { selectSupplier } from './bills-queries.ts';
import { creditBaseUsed, getCredit, lockCredit, refuseCreditUse } from './credits.ts';
import { actorOf, describeAmount, exchangeLines, recordActorAudit } from './documents.ts';
import { rateOnDate, requireMoneyAccount } from './payments.ts';
import { insertPayablesRow, updatePayablesRow } from './queries.ts';

// Refunds of a supplier credit: the supplier pays back what is left of it. Dr the money
// account (cash at the day's rate), Cr accounts payable (the credit used, at the credit's
// rate; all of what is left when the refund empties it), the difference a realised exchange
// gain or loss; the money account's register line (money in) is written by the
// bank-transactions module. Removing a refund posts its reversal and takes the line back,
// refused once a completed reconciliation took the line in.

export const refundCredit = (
  ctx: AppContext,
  member: MemberContext,
  input: z.output<typeof supplierRefundInputSchema> & { creditId: string },
) =>
  inTransaction(ctx.database.db, async (trx): Promise<SupplierCredit> => {
    const actor = actorOf(ctx, member);
    const { organizationId } = actor;
    const credit = await lockCredit(trx, organizationId, input.creditId);
    refuseCreditUse(credit, input.amount, 'refund');
    if (input.date < credit.date) {
      throw badRequest(
        'date_before_credit',
        `The refund date cannot be before the supplier credit's date (${credit.date}).`,
      );
    }
    const company = await loadCompany(trx, organizationId);
    const base = company.base_currency;
    const currency = credit.currency;
    const money = await requireMoneyAccount(
      trx,
      organizationId,
      input.paymentAccountId,
      { document: currency, base },
      'refund',
    );
    const rate = await rateOnDate(trx, organizationId, currency, base, input.date);
    const cashBase = toBase(input.amount, currency, rate, base);
    if (cashBase <= 0) throw badRequest('refund_too_small', `The refund comes to nothing in ${base}.`);
    const released = await creditBaseUsed(trx, credit, input.amount, base);
    const payable = await findSystemAccount(trx, organizationId, 'accounts_payable');
    const supplier = await selectSupplier(trx, organizationId, credit.supplier_id);
    const memo = `Refund of supplier credit ${credit.number}${supplier ? ` from ${supplier.name}` : ''}`;
    const description = input.reference ? `${memo} (${input.reference})` : memo;
    const lines: PostingLineInput[] = [
      {
        accountId: money.id,
        debit: cashBase,
        ...(money.currency !== base ? { currency, amount: input.amount, rate } : {}),
        description,
        contactId: credit.supplier_id,
      },
      ...(released > 0
        ? [{ accountId: payable.id, credit: released, description: memo, contactId: credit.supplier_id }]
        : []),
      ...(await exchangeLines(trx, organizationId, cashBase - released, `refund of ${credit.number}`)),
    ];
    const entry = await postJournalEntry(trx, {
      organizationId,
      date: input.date,
      memo,
      reference: input.reference || credit.number,
      source: 'supplier_credit',
      sourceId: credit.id,
      lines,
      actorUserId: actor.userId,
    });
    const id = await insertPayablesRow(trx, 'supplier_credit_refunds', organizationId, {
      credit_id: credit.id,
      date: input.date,
      amount: input.amount,
      amount_base: released,
      payment_account_id: money.id,
      reference: input.reference,
      journal_entry_id: entry.id,
      created_by: actor.userId,
      created_at: actor.now,
    });
    // The cash movement's line in the money account's register (money in).
    await recordDocumentLine(trx, {
      organizationId,
      ledgerAccountId: money.id,
      date: input.date,
      amount: money.currency === currency ? input.amount : cashBase,
      description,
      payee: supplier?.name ?? null,
      entryId: entry.id,
      rate: money.currency !== base ? rate : null,
      source: { kind: 'supplier_refund', id },
      createdBy: actor.userId,
    });
    await updatePayablesRow(trx, 'supplier_credits', organizationId, credit.id, {
      amount_refunded: credit.amount_refunded + input.amount,
      updated_at: actor.now,
    });
    await recordActorAudit(trx, actor, 'supplier_credit.refunded', ['supplier_credit_refund', id], {
      before: { amountLeft: credit.amount_left },
      after: {
        creditId: credit.id,
        date: input.date,
        amount: input.amount,
        currency,
        paymentAccountId: money.id,
        journalEntryId: entry.id,
      },
    });
    return getCredit(trx, organizationId, credit.id);
  });

export const removeRefund = (
  ctx: AppContext,
  member: MemberContext,
  input: { creditId: string; refundId: string },
) =>
  inTransaction(ctx.database.db, async (trx): Promise<SupplierCredit> => {
    const actor = actorOf(ctx, member);
    const { organizationId } = actor;
    const credit = await lockCredit(trx, organizationId, input.creditId);
    const refund = await trx
      .selectFrom('supplier_credit_refunds')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('credit_id', '=', credit.id)
      .where('id', '=', input.refundId)
      .forUpdate()
      .executeTakeFirst();
    if (!refund) throw notFound('Refund not found.');
    if (refund.reversal_entry_id)
      throw conflict('refund_already_reversed', 'This refund was already removed (its reversal is posted).');
    await assertNotReconciled(trx, organizationId, { source: { kind: 'supplier_refund', id: refund.id } });
    const memo = `Refund of supplier credit ${credit.number} removed`;
    const reversal = await reverseJournalEntry(trx, {
      organizationId,
      entryId: refund.journal_entry_id,
      memo,
      actorUserId: actor.userId,
    });
    await reverseDocumentLines(trx, {
      organizationId,
      source: { kind: 'supplier_refund', id: refund.id },
      date: reversal.date,
      description: memo,
      entryId: reversal.id,
      createdBy: actor.userId,
    });
    await updatePayablesRow(trx, 'supplier_credit_refunds', organizationId, refund.id, {
      reversal_entry_id: reversal.id,
      reversed_at: actor.now,
    });
    await updatePayablesRow(trx, 'supplier_credits', organizationId, credit.id, {
      amount_refunded: credit.amount_refunded - refund.amount,
      updated_at: actor.now,
    });
    await recordActorAudit(
      trx,
      actor,
      'supplier_credit.refund_reversed',
      ['supplier_credit_refund', refund.id],
      {
        before: { amount: refund.amount },
        after: { reversalEntryId: reversal.id, amount: describeAmount(refund.amount, credit.currency) },
      },
    );
    return getCredit(trx, organizationId, credit.id);
  });
