import { badRequest, conflict, notFound } from '../../../shared/errors.ts';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { type Actor, actorOf, settleDocument } from '../invoices/documents.ts';
import { type Executor, insertBillEvent, selectBill } from './queries.ts';

// What every service that changes a bill does inside its transaction (as invoices/documents.ts
// does for invoices): lock the bill, refuse a transition it is not in the state for, write its
// new settled figures and status, and add a line to its history. Services are
// `(ctx, member, input)`; these helpers take the transaction and the actor. The actor, its
// audit helper, describeAmount and exchangeLines are invoicing's (invoices/documents.ts).

export type { Actor };
export { actorOf };
export {
  describeAmount,
  exchangeLines,
  recordActorAudit,
} from '../invoices/documents.ts';

export type BillRow = NonNullable<Awaited<ReturnType<typeof selectBill>>>;
export type LockedBill = Awaited<ReturnType<typeof lockBill>>;

/** The bill row, locked for the transaction, with its currency trimmed; 404 if missing. */
export const lockBill = async (db: Executor, organizationId: string, id: string) => {
  const row = await selectBill(db, organizationId, id, { forUpdate: true });
  if (!row) throw notFound('Bill not found.');
  return { ...row, currency: row.currency.trim() };
};

/**
 * A route-facing service `(ctx, member, input)` changing the bill `input.billId`: in a
 * transaction, as the member, with the bill locked (404 if it is not in the company) first.
 */
export const billChange =
  <I extends { billId: string }, T>(
    work: (trx: Executor, actor: Actor, row: LockedBill, input: I) => Promise<T>,
  ) =>
  (ctx: AppContext, member: MemberContext, input: I) =>
    inTransaction(ctx.database.db, async (trx) => {
      const actor = actorOf(ctx, member);
      return work(trx, actor, await lockBill(trx, actor.organizationId, input.billId), input);
    });

const STATUS_WORDS: Record<string, string> = {
  draft: 'a draft',
  awaiting_approval: 'awaiting approval',
  open: 'open',
  partially_paid: 'partially paid',
  paid: 'paid',
  void: 'void',
};

/** A refused transition (409 invalid_transition), with the status it is in and what to do instead. */
export const refuseBillTransition = (action: string, status: string, hint: string) =>
  conflict(
    'invalid_transition',
    `This bill is ${STATUS_WORDS[status] ?? status}, so it cannot be ${action}. ${hint}`,
    {
      status,
    },
  );

/** Refuses paying (or crediting) a bill that is not owed: a draft, one awaiting approval, a void or a paid one. */
export const refuseBillUnpayable = (status: string, action = 'paid') => {
  if (status === 'draft')
    throw refuseBillTransition(action, status, 'Submit it first; a draft is not owed yet.');
  if (status === 'awaiting_approval')
    throw refuseBillTransition(action, status, 'An accountant or admin must approve it first.');
  if (status === 'void') throw refuseBillTransition(action, status, 'A void bill is not owed.');
  if (status === 'paid')
    throw refuseBillTransition(`${action} again`, status, 'Nothing is left to pay on it.');
};

/** Refuses a date before the bill's issue date. */
export const refuseBeforeBill = (date: string, issueDate: string, what: string) => {
  if (date < issueDate)
    throw badRequest('date_before_bill', `The ${what} date cannot be before the bill date (${issueDate}).`);
};

export const addBillEvent = (db: Executor, actor: Actor, billId: string, kind: string, message: string) =>
  insertBillEvent(db, {
    organizationId: actor.organizationId,
    billId,
    kind,
    message,
    actorUserId: actor.userId,
    at: actor.now,
  });

/** Settles a bill (invoices' settleDocument): with nothing paid or credited it is 'open'. */
export const settleBill = (
  trx: Executor,
  actor: Actor,
  row: Pick<BillRow, 'id' | 'total' | 'amount_paid' | 'amount_credited'>,
  change: { paid?: number; credited?: number; balanceBase: number },
) => settleDocument(trx, actor, ['bills', 'open'], row, change);
