import { badRequest, conflict, notFound } from '../../../shared/errors.ts';
import { defaultFormatter } from '../../../shared/format.ts';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import type { AuditAction } from '../audit/actions.ts';
import { recordAudit } from '../audit/record.ts';
import { findSystemAccount } from '../ledger/accounts.ts';
import type { PostingLineInput } from '../ledger/posting.ts';
import { settledStatus } from './common.ts';
import { type Executor, insertEvent, selectInvoice, updateCompanyRow } from './queries.ts';
import { emitBillEvent, emitInvoiceEvent } from '../webhooks/emit.ts';

// What every service that changes an invoice does inside its transaction: lock the invoice,
// refuse a transition it is not in the state for, write its new settled figures and status,
// add a line to its history, and book an exchange difference. The services are
// `(ctx, member, input)`; these helpers take the transaction and the actor.

/** Who changes a document and when (jobs have no member, so no role). */
export type Actor = { organizationId: string; userId: string | null; now: Date };

export const actorOf = (ctx: AppContext, member: MemberContext): Actor => ({
  organizationId: member.organizationId,
  userId: member.userId,
  now: ctx.now(),
});

export type InvoiceRow = NonNullable<Awaited<ReturnType<typeof selectInvoice>>>;
type LockedInvoice = Awaited<ReturnType<typeof lockInvoice>>;

/**
 * The shape of a change to one invoice: in a transaction, as the member, with the invoice
 * locked (404 if it is not in the company) before anything else.
 */
export const withLockedInvoice = <T>(
  ctx: AppContext,
  member: MemberContext,
  invoiceId: string,
  work: (trx: Executor, actor: Actor, row: LockedInvoice) => Promise<T>,
) =>
  inTransaction(ctx.database.db, async (trx) => {
    const actor = actorOf(ctx, member);
    return work(trx, actor, await lockInvoice(trx, actor.organizationId, invoiceId));
  });

/**
 * A route-facing service `(ctx, member, input)` changing the invoice `input.invoiceId`: its
 * work runs as withLockedInvoice's, with the input.
 */
export const invoiceChange =
  <I extends { invoiceId: string }, T>(
    work: (trx: Executor, actor: Actor, row: LockedInvoice, input: I) => Promise<T>,
  ) =>
  (ctx: AppContext, member: MemberContext, input: I) =>
    withLockedInvoice(ctx, member, input.invoiceId, (trx, actor, row) => work(trx, actor, row, input));

/** The invoice row, locked for the transaction, with its currency trimmed; 404 if missing. */
export const lockInvoice = async (db: Executor, organizationId: string, id: string) => {
  const row = await selectInvoice(db, organizationId, id, { forUpdate: true });
  if (!row) throw notFound('Invoice not found.');
  return { ...row, currency: row.currency.trim() };
};

const STATUS_WORDS: Record<string, string> = {
  draft: 'a draft',
  sent: 'sent',
  partially_paid: 'partially paid',
  paid: 'paid',
  void: 'void',
};

/** A refused transition, with the status it is in and what to do instead. */
export const refuseTransition = (action: string, status: string, hint: string) =>
  conflict(
    'invalid_transition',
    `This invoice is ${STATUS_WORDS[status] ?? status}, so it cannot be ${action}. ${hint}`,
    {
      status,
    },
  );

/** Refuses paying a draft, a void or a paid invoice; `voidHint` says where the money goes instead. */
export const refuseUnpayable = (status: string, voidHint: string, paidHint = 'Nothing is left to pay.') => {
  if (status === 'draft') throw refuseTransition('paid', status, 'Send it first; a draft is not owed yet.');
  if (status === 'void') throw refuseTransition('paid', status, voidHint);
  if (status === 'paid') throw refuseTransition('paid again', status, paidHint);
};

/** Refuses a date before the invoice's issue date. */
export const refuseBeforeIssue = (date: string, issueDate: string, code: string, message: string) => {
  if (date < issueDate) throw badRequest(code, message);
};

export const addEvent = (db: Executor, actor: Actor, invoiceId: string, kind: string, message: string) =>
  insertEvent(db, {
    organizationId: actor.organizationId,
    invoiceId,
    kind,
    message,
    actorUserId: actor.userId,
    at: actor.now,
  });

/**
 * The audit row of a change the actor makes (recordMemberAudit's shape; a job's actor has no
 * user): `recordActorAudit(trx, actor, 'credit_note.voided', ['credit_note', id], { before, after })`.
 */
export const recordActorAudit = (
  db: Executor,
  { organizationId, userId }: Actor,
  action: AuditAction,
  [entityType, entityId]: [entityType: string, entityId: string],
  change: { before?: unknown; after?: unknown } = {},
) => recordAudit(db, { organizationId, actorUserId: userId, action, entityType, entityId, ...change });

/**
 * An amount in a history line or a message: "$2,000.00", "€5.00", "CA$12.00" (the one
 * formatter; the text is kept as written, and the language sets only the number style).
 */
export const describeAmount = (amount: number, currency: string) => defaultFormatter.amount(amount, currency);

/**
 * Writes a posted document's (an invoice's, or a bill's) new amount paid or credited and its
 * open base balance, with the status they give; returns that status.
 */
export const settleDocument = async <U extends 'sent' | 'open'>(
  trx: Executor,
  actor: Actor,
  [table, unsettled]: [table: 'invoices' | 'bills', unsettled: U],
  row: { id: string; total: number; amount_paid: number; amount_credited: number },
  change: { paid?: number; credited?: number; balanceBase: number },
) => {
  const paid = change.paid ?? row.amount_paid;
  const credited = change.credited ?? row.amount_credited;
  const status = settledStatus(row.total, paid, credited, unsettled);
  await updateCompanyRow(trx, table as 'invoices', actor.organizationId, row.id, {
    ...(change.paid !== undefined ? { amount_paid: paid } : {}),
    ...(change.credited !== undefined ? { amount_credited: credited } : {}),
    balance_base: change.balanceBase,
    status: status as 'sent',
    updated_at: actor.now,
  });
  // Settled in full by this change: `invoice.paid` / `bill.paid` (webhooks), in its transaction.
  if (
    status === 'paid' &&
    settledStatus(row.total, row.amount_paid, row.amount_credited, unsettled) !== 'paid'
  ) {
    if (table === 'invoices') await emitInvoiceEvent(trx, actor, 'invoice.paid', row.id);
    else await emitBillEvent(trx, actor, 'bill.paid', row.id);
  }
  return status;
};

/** Settles an invoice (settleDocument): with nothing paid or credited it is 'sent'. */
export const settleInvoice = (
  trx: Executor,
  actor: Actor,
  row: Pick<InvoiceRow, 'id' | 'total' | 'amount_paid' | 'amount_credited'>,
  change: { paid?: number; credited?: number; balanceBase: number },
) => settleDocument(trx, actor, ['invoices', 'sent'], row, change);

/** "paid in full" or "partially paid", for the history line of a settlement. */
export const settledWords = (status: string) => (status === 'paid' ? 'paid in full' : 'partially paid');

/** A posting line's side for a signed amount: positive is a debit, negative a credit. */
export const debitOrCredit = (amount: number) => (amount > 0 ? { debit: amount } : { credit: -amount });

/**
 * The exchange gain (difference > 0: credit) or loss (debit) line that balances an entry whose
 * cash and receivable or credit moved by different base amounts ("Exchange gain on …"); none
 * when they agree.
 */
export const exchangeLines = async (
  trx: Executor,
  organizationId: string,
  difference: number,
  on: string,
): Promise<PostingLineInput[]> => {
  if (difference === 0) return [];
  const fx = await findSystemAccount(trx, organizationId, 'exchange_gain_loss');
  return [
    {
      accountId: fx.id,
      ...debitOrCredit(-difference),
      description: `Exchange ${difference > 0 ? 'gain' : 'loss'} on ${on}`,
    },
  ];
};

/**
 * A payment matched to a bank line (its cash is that line: the match created it, or made the
 * line its register line) is removed by unmatching the line, not from the invoice: removing it
 * here would reverse the line's cash or leave the line pointing at a reversed entry.
 */
export const refuseIfFromBankLine = async (trx: Executor, organizationId: string, paymentId: string) => {
  const match = await trx
    .selectFrom('bank_transaction_matches')
    .select('transaction_id')
    .where('organization_id', '=', organizationId)
    .where('payment_id', '=', paymentId)
    .executeTakeFirst();
  if (match) {
    throw conflict(
      'payment_matched_to_bank_line',
      'This payment is matched to a bank line. Unmatch the line on the Transactions page to remove it.',
      { transactionId: match.transaction_id },
    );
  }
};
