import { badRequest, conflict, notFound } from '../../../shared/errors.ts';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { type Actor, actorOf } from '../invoices/documents.ts';
import { type Executor, insertBillEvent, selectBill, updatePayablesRow } from './queries.ts';

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

/** The stored status an approved bill has with what is paid and credited on it. */
export const billSettledStatus = (total: number, paid: number, credited: number) => {
  if (paid + credited >= total) return 'paid' as const;
  if (paid + credited > 0) return 'partially_paid' as const;
  return 'open' as const;
};

/**
 * Writes a bill's new amount paid or credited and its open base balance, with the status they
 * give; returns that status.
 */
export const settleBill = async (
  trx: Executor,
  actor: Actor,
  row: Pick<BillRow, 'id' | 'total' | 'amount_paid' | 'amount_credited'>,
  change: { paid?: number; credited?: number; balanceBase: number },
) => {
  const paid = change.paid ?? row.amount_paid;
  const credited = change.credited ?? row.amount_credited;
  const status = billSettledStatus(row.total, paid, credited);
  await updatePayablesRow(trx, 'bills', actor.organizationId, row.id, {
    ...(change.paid !== undefined ? { amount_paid: paid } : {}),
    ...(change.credited !== undefined ? { amount_credited: credited } : {}),
    balance_base: change.balanceBase,
    status,
    updated_at: actor.now,
  });
  return status;
};
