import { randomUUID } from 'node:crypto';
import { type Selectable, type Updateable, sql } from 'kysely';
import { badRequest, conflict, notFound } from '../../../shared/errors.ts';
import type { Reconciliation } from '../../../shared/transactions.ts';
import type { AppContext } from '../../context.ts';
import { recordMemberAudit } from '../audit/record.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Executor } from '../../db/transaction.ts';
import type { ReconciliationsTable } from '../../db/types.ts';
import { selectMoneyAccount, selectOpenReconciliation } from '../wallet/queries.ts';
import { assertNotReconciled } from '../bank-transactions/guard.ts';
import {
  lockReconciledLines,
  releaseReconciliationTicks,
  setReconciliationTicks,
  unlockReconciledLines,
} from '../bank-transactions/writes.ts';

// Reconciliation: the user picks an account, the statement's end date and balance, and ticks
// off the transactions the statement shows. The difference is the statement balance minus
// (the balance reconciled before + the ticked amounts); finishing needs it to be zero and
// locks the ticked transactions. Only the latest reconciliation of an account can be undone.
// The status changes are written by the bank-transactions module.

const RECONCILIATION_COLUMNS = [
  'id',
  'money_account_id',
  'statement_date',
  'statement_balance',
  'opening_balance',
  'status',
  'completed_at',
  'created_at',
] as const;
type ReconciliationRow = Pick<Selectable<ReconciliationsTable>, (typeof RECONCILIATION_COLUMNS)[number]>;

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** The company's reconciliations, as ReconciliationRow. */
const reconciliations = (db: Executor, organizationId: string) =>
  db
    .selectFrom('reconciliations')
    .select(RECONCILIATION_COLUMNS)
    .where('organization_id', '=', organizationId);

const selectReconciliation = (db: Executor, organizationId: string, id: string, forUpdate = false) => {
  let q = reconciliations(db, organizationId).where('id', '=', id);
  if (forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
};

const view = async (
  db: Executor,
  organizationId: string,
  row: ReconciliationRow,
): Promise<Reconciliation> => {
  const ticked = await db
    .selectFrom('bank_transactions')
    .select(['id', 'amount'])
    .where('organization_id', '=', organizationId)
    .where('reconciliation_id', '=', row.id)
    .orderBy('date')
    .orderBy('id')
    .execute();
  const account = await selectMoneyAccount(db, organizationId, row.money_account_id);
  const cleared = row.opening_balance + ticked.reduce((s, t) => s + t.amount, 0);
  return {
    id: row.id,
    moneyAccountId: row.money_account_id,
    currency: account?.currency.trim() ?? '',
    statementDate: row.statement_date,
    statementBalance: row.statement_balance,
    openingBalance: row.opening_balance,
    clearedBalance: cleared,
    difference: row.statement_balance - cleared,
    status: row.status,
    tickedIds: ticked.map((t) => t.id),
    completedAt: iso(row.completed_at),
    createdAt: iso(row.created_at)!,
  };
};

/** Opening balance plus everything reconciled so far. */
const reconciledBalance = async (
  db: Executor,
  organizationId: string,
  moneyAccountId: string,
  openingBalance: number,
) => {
  const row = await db
    .selectFrom('bank_transactions')
    .select(sql<number>`coalesce(sum(amount), 0)::bigint`.as('total'))
    .where('organization_id', '=', organizationId)
    .where('money_account_id', '=', moneyAccountId)
    .where('status', '=', 'reconciled')
    .executeTakeFirstOrThrow();
  return openingBalance + Number(row.total);
};

export const startReconciliation = (
  ctx: AppContext,
  member: MemberContext,
  input: { moneyAccountId: string; statementDate: string; statementBalance: number },
) =>
  inTransaction(ctx.database.db, async (trx) => {
    const { organizationId, userId } = member;
    const account = await selectMoneyAccount(trx, organizationId, input.moneyAccountId, { forUpdate: true });
    if (!account) throw notFound('Money account not found.');
    if (account.archived_at) throw conflict('account_archived', `${account.name} is archived.`);
    const open = await selectOpenReconciliation(trx, organizationId, account.id);
    if (open) {
      throw conflict(
        'reconciliation_in_progress',
        `A reconciliation of ${account.name} is already in progress; finish or cancel it first.`,
        {
          reconciliationId: open.id,
        },
      );
    }
    const last = await trx
      .selectFrom('reconciliations')
      .select('statement_date')
      .where('organization_id', '=', organizationId)
      .where('money_account_id', '=', account.id)
      .where('status', '=', 'completed')
      .orderBy('statement_date', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (last && input.statementDate < last.statement_date) {
      throw badRequest(
        'statement_date_too_early',
        `${account.name} is already reconciled through ${last.statement_date}; pick a later statement date.`,
      );
    }
    if (input.statementDate < account.opening_date) {
      throw badRequest(
        'statement_date_too_early',
        `${account.name} opens on ${account.opening_date}; pick a later statement date.`,
      );
    }
    const id = randomUUID();
    await trx
      .insertInto('reconciliations')
      .values({
        organization_id: organizationId,
        id,
        money_account_id: account.id,
        statement_date: input.statementDate,
        statement_balance: input.statementBalance,
        opening_balance: await reconciledBalance(trx, organizationId, account.id, account.opening_balance),
        status: 'in_progress',
        created_by: userId,
      })
      .execute();
    const result = await view(trx, organizationId, (await selectReconciliation(trx, organizationId, id))!);
    await recordMemberAudit(trx, member, 'reconciliation.started', ['reconciliation', id], {
      after: { ...result, tickedIds: undefined },
    });
    return result;
  });

export const getReconciliation = async (ctx: AppContext, member: MemberContext, { id }: { id: string }) => {
  const row = await selectReconciliation(ctx.database.db, member.organizationId, id);
  if (!row) throw notFound('Reconciliation not found.');
  return view(ctx.database.db, member.organizationId, row);
};

export const listReconciliations = async (
  ctx: AppContext,
  member: MemberContext,
  { moneyAccountId }: { moneyAccountId?: string },
) => {
  let q = reconciliations(ctx.database.db, member.organizationId);
  if (moneyAccountId) q = q.where('money_account_id', '=', moneyAccountId);
  const rows = await q.orderBy('created_at', 'desc').limit(100).execute();
  return {
    reconciliations: await Promise.all(rows.map((r) => view(ctx.database.db, member.organizationId, r))),
  };
};

const lockInProgress = async (trx: Executor, organizationId: string, id: string) => {
  const row = await selectReconciliation(trx, organizationId, id, true);
  if (!row) throw notFound('Reconciliation not found.');
  if (row.status !== 'in_progress')
    throw conflict('reconciliation_closed', 'This reconciliation is already finished.');
  return row;
};

export const tickTransactions = (
  ctx: AppContext,
  member: MemberContext,
  input: { id: string; transactionIds: string[]; ticked: boolean },
) =>
  inTransaction(ctx.database.db, async (trx) => {
    const { organizationId } = member;
    const { id } = input;
    const row = await lockInProgress(trx, organizationId, id);
    const ids = [...new Set(input.transactionIds)];
    const rows = await trx
      .selectFrom('bank_transactions')
      .select(['id', 'money_account_id', 'status', 'date', 'reconciliation_id'])
      .where('organization_id', '=', organizationId)
      .where('id', 'in', ids)
      .forUpdate()
      .execute();
    if (rows.length !== ids.length)
      throw notFound('Some of these transactions were not found; reload the list.');
    for (const t of rows) {
      if (t.money_account_id !== row.money_account_id) {
        throw badRequest('wrong_account', 'Only transactions of the account being reconciled can be ticked.');
      }
      if (input.ticked && t.date > row.statement_date) {
        throw badRequest(
          'after_statement',
          `A transaction dated ${t.date} is after the statement date ${row.statement_date}.`,
        );
      }
    }
    await assertNotReconciled(trx, organizationId, { ids });
    await setReconciliationTicks(trx, organizationId, ids, input.ticked ? id : null);
    return view(trx, organizationId, row);
  });

/** Moves a reconciliation to `completed` or `undone` and records it; gives it as it is now. */
const changeStatus = async (
  trx: Executor,
  member: MemberContext,
  id: string,
  values: Updateable<ReconciliationsTable>,
  action: 'reconciliation.completed' | 'reconciliation.undone',
) => {
  const { organizationId } = member;
  await trx
    .updateTable('reconciliations')
    .set(values)
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .execute();
  const result = await view(trx, organizationId, (await selectReconciliation(trx, organizationId, id))!);
  await recordMemberAudit(trx, member, action, ['reconciliation', id], { after: result });
  return result;
};

export const finishReconciliation = (ctx: AppContext, member: MemberContext, { id }: { id: string }) =>
  inTransaction(ctx.database.db, async (trx) => {
    const { organizationId, userId } = member;
    const row = await lockInProgress(trx, organizationId, id);
    const current = await view(trx, organizationId, row);
    if (current.difference !== 0) {
      throw conflict(
        'reconciliation_not_balanced',
        `The difference is ${current.difference} (minor units), not zero. Tick or untick transactions until the cleared balance matches the statement.`,
        { difference: current.difference },
      );
    }
    await lockReconciledLines(trx, organizationId, id);
    return changeStatus(
      trx,
      member,
      id,
      { status: 'completed', completed_by: userId, completed_at: new Date() },
      'reconciliation.completed',
    );
  });

export const cancelReconciliation = (ctx: AppContext, member: MemberContext, { id }: { id: string }) =>
  inTransaction(ctx.database.db, async (trx) => {
    const { organizationId } = member;
    await lockInProgress(trx, organizationId, id);
    await releaseReconciliationTicks(trx, organizationId, id);
    await trx
      .deleteFrom('reconciliations')
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .execute();
    await recordMemberAudit(trx, member, 'reconciliation.cancelled', ['reconciliation', id]);
  });

/** Undoes the latest completed reconciliation of an account: its transactions unlock. */
export const undoLastReconciliation = (
  ctx: AppContext,
  member: MemberContext,
  { moneyAccountId }: { moneyAccountId: string },
) =>
  inTransaction(ctx.database.db, async (trx) => {
    const { organizationId } = member;
    const account = await selectMoneyAccount(trx, organizationId, moneyAccountId, { forUpdate: true });
    if (!account) throw notFound('Money account not found.');
    const open = await selectOpenReconciliation(trx, organizationId, moneyAccountId);
    if (open)
      throw conflict(
        'reconciliation_in_progress',
        'Finish or cancel the reconciliation in progress before undoing an earlier one.',
      );
    const last = await trx
      .selectFrom('reconciliations')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('money_account_id', '=', moneyAccountId)
      .where('status', '=', 'completed')
      .orderBy('statement_date', 'desc')
      .orderBy('completed_at', 'desc')
      .limit(1)
      .forUpdate()
      .executeTakeFirst();
    if (!last) throw notFound(`${account.name} has no finished reconciliation to undo.`);
    await unlockReconciledLines(trx, organizationId, last.id);
    return changeStatus(
      trx,
      member,
      last.id,
      { status: 'undone', undone_at: new Date() },
      'reconciliation.undone',
    );
  });
