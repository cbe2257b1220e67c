import { roleCan } from '../../http/permissions.ts';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { loadCompany, toBase } from '../invoices/common.ts';
import { postBill } from './bill-posting.ts';
import { aboveThreshold, auditBill, getBill } from './bill-read.ts';
import { ensurePayablesSettings } from './bills-queries.ts';
import {
  type Actor,
  actorOf,
  addBillEvent,
  billChange,
  describeAmount,
  lockBill,
  refuseBillTransition,
} from './documents.ts';
import { type Executor, updatePayablesRow } from './queries.ts';
import { emitBillEvent } from '../webhooks/emit.ts';

// Approval, maker-checker by threshold (payables_settings.approval_threshold, base currency;
// null: no bill needs approval). Submitting a draft:
// - total in base ≤ threshold (or no threshold): it posts and opens, whoever submits;
// - above it, by someone who may approve (accountant, admin, owner): it posts and opens, their
//   submission being the approval (as a journal entry posted by an approver is);
// - above it, by anyone else (a member, or a recurring schedule): it waits, awaiting_approval,
//   until someone with 'approve' approves it (posts and opens) or rejects it (back to draft with
//   the reason). Editing it meanwhile sends it back to draft (bills.ts).

/**
 * Submits a draft bill in the caller's transaction (the API, the recurring runner with
 * canApprove false); answers the stored status it ends in ('open' or 'awaiting_approval').
 */
export const submitBillDocument = async (
  trx: Executor,
  actor: Actor,
  billId: string,
  { canApprove }: { canApprove: boolean },
) =>
  inTransaction(trx, async (db) => {
    const { organizationId } = actor;
    const row = await lockBill(db, organizationId, billId);
    if (row.status === 'awaiting_approval')
      throw refuseBillTransition(
        'submitted again',
        row.status,
        'An accountant or admin must approve or reject it.',
      );
    if (row.status !== 'draft') throw refuseBillTransition('submitted', row.status, 'It is already posted.');
    const before = await getBill(db, organizationId, billId, actor.now);
    const [company, settings] = await Promise.all([
      loadCompany(db, organizationId),
      ensurePayablesSettings(db, organizationId),
    ]);
    const threshold = settings.approval_threshold === null ? null : Number(settings.approval_threshold);
    const totalBase = toBase(row.total, row.currency, row.exchange_rate, company.base_currency);
    const needsApproval = aboveThreshold(totalBase, threshold);
    const submitted = { submitted_at: actor.now, submitted_by: actor.userId, updated_at: actor.now };
    if (needsApproval && !canApprove) {
      await updatePayablesRow(db, 'bills', organizationId, billId, {
        status: 'awaiting_approval',
        ...submitted,
      });
      await addBillEvent(
        db,
        actor,
        billId,
        'submitted',
        `Submitted for approval: ${describeAmount(totalBase, company.base_currency)} is above the approval threshold of ${describeAmount(threshold!, company.base_currency)}`,
      );
      await auditBill(db, actor, billId, 'bill.submitted', before);
      return 'awaiting_approval' as const;
    }
    await postBill(db, actor, billId);
    await updatePayablesRow(db, 'bills', organizationId, billId, {
      ...submitted,
      ...(needsApproval ? { approved_at: actor.now, approved_by: actor.userId } : {}),
    });
    await addBillEvent(
      db,
      actor,
      billId,
      needsApproval ? 'approved' : 'submitted',
      needsApproval ? 'Submitted and approved (above the approval threshold)' : 'Submitted; open for payment',
    );
    await auditBill(db, actor, billId, needsApproval ? 'bill.approved' : 'bill.submitted', before);
    if (needsApproval) await emitBillEvent(db, actor, 'bill.approved', billId);
    return 'open' as const;
  });

export const submitBill = (ctx: AppContext, member: MemberContext, input: { billId: string }) =>
  inTransaction(ctx.database.db, async (trx) => {
    const actor = actorOf(ctx, member);
    await submitBillDocument(trx, actor, input.billId, { canApprove: roleCan(member.role, 'approve') });
    return getBill(trx, actor.organizationId, input.billId, actor.now);
  });

/** Approves a bill awaiting approval: it posts and opens. */
export const approveBill = billChange(async (trx, actor, row, { billId }: { billId: string }) => {
  if (row.status === 'draft')
    throw refuseBillTransition(
      'approved',
      row.status,
      'Submit it first; a draft is not waiting for approval.',
    );
  if (row.status !== 'awaiting_approval')
    throw refuseBillTransition('approved', row.status, 'It is already posted.');
  const before = await getBill(trx, actor.organizationId, billId, actor.now);
  await postBill(trx, actor, billId);
  await updatePayablesRow(trx, 'bills', actor.organizationId, billId, {
    approved_at: actor.now,
    approved_by: actor.userId,
  });
  await addBillEvent(trx, actor, billId, 'approved', 'Approved; open for payment');
  await emitBillEvent(trx, actor, 'bill.approved', billId);
  return auditBill(trx, actor, billId, 'bill.approved', before);
});

/** Rejects a bill awaiting approval: back to draft, with the reason in its history. */
export const rejectBill = billChange(
  async (trx, actor, row, { billId, reason }: { billId: string; reason: string }) => {
    if (row.status !== 'awaiting_approval') {
      throw refuseBillTransition(
        'rejected',
        row.status,
        row.status === 'draft' ? 'It is not waiting for approval.' : 'It is already posted: void it instead.',
      );
    }
    const before = await getBill(trx, actor.organizationId, billId, actor.now);
    await updatePayablesRow(trx, 'bills', actor.organizationId, billId, {
      status: 'draft',
      submitted_at: null,
      submitted_by: null,
      updated_at: actor.now,
    });
    await addBillEvent(
      trx,
      actor,
      billId,
      'rejected',
      `Rejected${reason ? `: ${reason}` : ''}; back to draft`,
    );
    return auditBill(trx, actor, billId, 'bill.rejected', before);
  },
);
