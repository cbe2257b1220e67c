import type { z } from 'zod';
import { badRequest, notFound } from '../../../shared/errors.ts';
import type { customerRefundInputSchema, refundInputSchema } from '../../../shared/invoice-credit.ts';
import type { Invoice } from '../../../shared/invoices.ts';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { recordDocumentLine } from '../bank-transactions/register.ts';
import { findSystemAccount } from '../ledger/accounts.ts';
import { type PostingLineInput, postJournalEntry } from '../ledger/posting.ts';
import { selectMoneyAccount } from '../wallet/queries.ts';
import { loadCompany, toBase } from './common.ts';
import {
  creditPool,
  customerCreditLines,
  getCustomerCredit,
  insertEntry,
  latestRate,
  lockCustomer,
  refuseMoreThanCredit,
  releasedBase,
} from './credit-pool.ts';
import {
  type Actor,
  actorOf,
  addEvent,
  describeAmount,
  exchangeLines,
  recordActorAudit,
  refuseTransition,
  invoiceChange,
} from './documents.ts';
import { getInvoice } from './invoice-read.ts';
import type { Executor } from './queries.ts';

// Refunds of customer credit (decision 0028): Dr customer credit, Cr the money account's ledger
// account, with the cash line in the account's register — from the customer's credit page, from
// an invoice that was overpaid, or for a credit note that put money on the credit.

type RefundTarget = {
  customerId: string;
  currency: string;
  invoiceId?: string | null;
  creditNoteId?: string | null;
  /** What the refund is for, in the journal memo ("invoice INV-7", "credit note CN-2"). */
  about?: string;
};

/** Pays some of the customer's credit back out of a money account. Runs in the caller's transaction. */
const refundInTransaction = async (
  trx: Executor,
  actor: Actor,
  target: RefundTarget,
  input: z.output<typeof refundInputSchema>,
) => {
  const { organizationId } = actor;
  const { customerId, currency } = target;
  const customer = await lockCustomer(trx, organizationId, customerId);
  const money = await selectMoneyAccount(trx, organizationId, input.moneyAccountId);
  if (!money)
    throw badRequest('money_account_not_found', 'The money account does not exist in this company.');
  if (money.archived_at)
    throw badRequest('money_account_archived', `${money.name} is archived; choose another money account.`);
  const company = await loadCompany(trx, organizationId);
  const base = company.base_currency;
  const moneyCurrency = money.currency.trim();
  if (moneyCurrency !== base && moneyCurrency !== currency) {
    throw badRequest(
      'money_account_currency_mismatch',
      `${money.name} is kept in ${moneyCurrency}; a ${currency} refund is paid from a ${currency} or ${base} account.`,
    );
  }
  const pool = await creditPool(trx, organizationId, customerId, currency);
  if (input.amount > pool.amount) throw refuseMoreThanCredit(input.amount, pool.amount, currency);
  const released = releasedBase(pool, input.amount);
  const rate =
    currency === base
      ? '1'
      : (input.exchangeRate ?? (await latestRate(trx, organizationId, customerId, currency)));
  const cashBase = toBase(input.amount, currency, rate, base);
  if (cashBase <= 0) throw badRequest('refund_too_small', `The refund comes to nothing in ${base}.`);
  const creditAccount = await findSystemAccount(trx, organizationId, 'customer_credit');
  const memo = `Refund to ${customer.name}${target.about ? ` for ${target.about}` : ''}`;
  const description = input.reference ? `${memo} (${input.reference})` : memo;
  const lines: PostingLineInput[] = [
    {
      accountId: money.ledger_account_id,
      credit: cashBase,
      ...(moneyCurrency !== base ? { currency, amount: input.amount, rate } : {}),
      description,
      contactId: customerId,
    },
  ];
  lines.push(
    ...customerCreditLines(creditAccount.id, released, memo, customerId),
    ...(await exchangeLines(trx, organizationId, released - cashBase, `refund to ${customer.name}`)),
  );
  const journal = await postJournalEntry(trx, {
    organizationId,
    date: input.date,
    memo,
    reference: input.reference || null,
    source: 'payment',
    sourceId: customerId,
    lines,
    actorUserId: actor.userId,
  });
  const id = await insertEntry(trx, actor, {
    customerId,
    currency,
    date: input.date,
    kind: 'refund',
    amount: -input.amount,
    amountBase: -released,
    exchangeRate: rate,
    invoiceId: target.invoiceId ?? null,
    creditNoteId: target.creditNoteId ?? null,
    moneyAccountId: money.id,
    journalEntryId: journal.id,
    reference: input.reference,
  });
  // The cash movement's line in the money account's register (bank-transactions is its writer).
  await recordDocumentLine(trx, {
    organizationId,
    ledgerAccountId: money.ledger_account_id,
    date: input.date,
    amount: -(moneyCurrency === currency ? input.amount : cashBase),
    description,
    payee: customer.name,
    entryId: journal.id,
    rate: moneyCurrency !== base ? rate : null,
    source: { kind: 'refund', id },
    invoiceId: target.invoiceId ?? null,
    createdBy: actor.userId,
  });
  if (target.invoiceId)
    await addEvent(
      trx,
      actor,
      target.invoiceId,
      'refund',
      `Refund of ${describeAmount(input.amount, currency)} paid to ${customer.name} from ${money.name}`,
    );
  await recordActorAudit(trx, actor, 'customer_credit.refunded', ['customer_credit_entry', id], {
    before: { credit: pool.amount },
    after: {
      customerId,
      currency,
      amount: input.amount,
      date: input.date,
      moneyAccountId: money.id,
      invoiceId: target.invoiceId ?? null,
      creditNoteId: target.creditNoteId ?? null,
      journalEntryId: journal.id,
    },
  });
  return { refundId: id, journalEntryId: journal.id, moneyAccountId: money.id };
};

/** A refund from the customer's credit in one currency. */
export const refundCustomerCredit = (
  ctx: AppContext,
  member: MemberContext,
  input: z.output<typeof customerRefundInputSchema> & { customerId: string },
) =>
  inTransaction(ctx.database.db, async (trx) => {
    const { currency, customerId, ...rest } = input;
    const result = await refundInTransaction(trx, actorOf(ctx, member), { customerId, currency }, rest);
    return { ...result, credit: await getCustomerCredit(trx, member.organizationId, customerId) };
  });

/** A refund of an invoice's customer's credit (an overpayment of it), from the invoice page. */
export const refundForInvoice = invoiceChange(
  async (
    trx,
    actor,
    row,
    input: z.output<typeof refundInputSchema> & { invoiceId: string },
  ): Promise<Invoice> => {
    const { invoiceId, ...refund } = input;
    if (row.status === 'draft')
      throw refuseTransition('refunded', row.status, 'Nothing has been paid on a draft.');
    if (row.status === 'void')
      throw refuseTransition('refunded', row.status, "Refund from the customer's credit instead.");
    await refundInTransaction(
      trx,
      actor,
      { customerId: row.customer_id, currency: row.currency, invoiceId, about: `invoice ${row.number}` },
      refund,
    );
    return getInvoice(trx, actor.organizationId, invoiceId, actor.now);
  },
);

/** Refunds (part of) what a credit note put on the customer's credit, as cash. */
export const refundCreditNote = invoiceChange(
  async (
    trx,
    actor,
    row,
    input: z.output<typeof refundInputSchema> & { invoiceId: string; creditNoteId: string },
  ): Promise<Invoice> => {
    const { organizationId } = actor;
    const { invoiceId, creditNoteId, ...refund } = input;
    const note = await trx
      .selectFrom('credit_notes')
      .select(['id', 'number', 'status', 'to_credit', 'currency'])
      .where('organization_id', '=', organizationId)
      .where('invoice_id', '=', invoiceId)
      .where('id', '=', creditNoteId)
      .executeTakeFirst();
    if (!note) throw notFound('Credit note not found.');
    const currency = note.currency.trim();
    if (note.status === 'void')
      throw badRequest('credit_note_void', `Credit note ${note.number} is void; there is nothing to refund.`);
    const refunded = await trx
      .selectFrom('customer_credit_entries')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('n'))
      .where('organization_id', '=', organizationId)
      .where('credit_note_id', '=', creditNoteId)
      .where('kind', '=', 'refund')
      .executeTakeFirstOrThrow();
    const refundable = note.to_credit + Number(refunded.n);
    if (refundable <= 0) {
      throw badRequest(
        'nothing_to_refund',
        note.to_credit === 0
          ? `Credit note ${note.number} only reduced what ${row.number} asked for; no money was paid for it, so there is nothing to refund.`
          : `Credit note ${note.number} has already been refunded.`,
      );
    }
    if (refund.amount > refundable) {
      throw badRequest(
        'exceeds_credit',
        `${describeAmount(refund.amount, currency)} is more than the ${describeAmount(refundable, currency)} of credit note ${note.number} left to refund.`,
        { available: refundable },
      );
    }
    await refundInTransaction(
      trx,
      actor,
      { customerId: row.customer_id, currency, invoiceId, creditNoteId, about: `credit note ${note.number}` },
      refund,
    );
    return getInvoice(trx, organizationId, invoiceId, actor.now);
  },
);
