import { type Insertable, type Updateable, sql } from 'kysely';
import { notFound } from '../../../shared/errors.ts';
import type { Executor } from '../../db/transaction.ts';
import type { BankTransactionSplitsTable, BankTransactionsTable } from '../../db/types.ts';
import { findReconciledLines, reconciledLineError } from './guard.ts';

// The one writer of the bank-transaction tables (bank_transactions, bank_transaction_splits;
// attachments rows go through the attachment module, decision 0015). The rules — what may be
// recorded, categorised, deleted, ticked — stay in the callers' services (transactions,
// transfers, reconciliation, statement import, invoices); this module only writes, and
// refuses to change a line a completed reconciliation locks (guard.ts), whoever asks.
// See docs/transactions.md, "Who writes what", and decision 0024.

export type BankTransactionInsert = Insertable<BankTransactionsTable>;
/** What an edit may change; status and reconciliation_id change only through the reconciliation functions. */
export type BankTransactionPatch = Omit<
  Updateable<BankTransactionsTable>,
  'organization_id' | 'id' | 'status' | 'reconciliation_id' | 'money_account_id' | 'created_at' | 'created_by'
> & { status?: 'uncategorized' | 'categorized' };

const chunks = <T>(items: T[], size: number) => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
};

const affected = (result: { numAffectedRows?: bigint } | { numUpdatedRows?: bigint } | undefined) => {
  if (!result) return undefined;
  const n =
    'numAffectedRows' in result
      ? result.numAffectedRows
      : (result as { numUpdatedRows?: bigint }).numUpdatedRows;
  return n === undefined ? undefined : Number(n);
};

/** After a write that skipped reconciled rows: refuses with the lock's message if any of `ids` is locked. */
const refuseIfLocked = async (db: Executor, organizationId: string, ids: string[]) => {
  const locked = await findReconciledLines(db, organizationId, { ids });
  if (locked.length > 0) throw reconciledLineError(locked);
};

// --- Recording -------------------------------------------------------------------------------

/** Inserts new lines as given (1,500 a statement). Statement imports use bulk.ts instead. */
export const insertBankTransactions = async (db: Executor, rows: BankTransactionInsert[]) => {
  for (const part of chunks(rows, 1500)) await db.insertInto('bank_transactions').values(part).execute();
};

// --- Editing ---------------------------------------------------------------------------------

/** Changes one line. Refuses (409, naming the statement date) a line a reconciliation locks. */
export const updateBankTransaction = async (
  db: Executor,
  organizationId: string,
  id: string,
  patch: BankTransactionPatch,
) => {
  const result = await db
    .updateTable('bank_transactions')
    .set({ ...patch, updated_at: new Date() })
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .where('status', '<>', 'reconciled')
    .executeTakeFirst();
  if (affected(result) === 0) {
    await refuseIfLocked(db, organizationId, [id]);
    throw notFound('Transaction not found.');
  }
};

export type SplitInsert = Insertable<BankTransactionSplitsTable>;

export const insertSplits = async (db: Executor, rows: SplitInsert[]) => {
  for (const part of chunks(rows, 5000))
    await db.insertInto('bank_transaction_splits').values(part).execute();
};

export const deleteSplits = (db: Executor, organizationId: string, transactionIds: string[]) =>
  transactionIds.length === 0
    ? Promise.resolve()
    : db
        .deleteFrom('bank_transaction_splits')
        .where('organization_id', '=', organizationId)
        .where('transaction_id', 'in', transactionIds)
        .execute()
        .then(() => undefined);

/** Replaces one line's split parts (none: the line is no longer split). */
export const replaceSplits = async (
  db: Executor,
  organizationId: string,
  transactionId: string,
  parts: { categoryAccountId: string; amount: number; description?: string | null }[],
) => {
  await deleteSplits(db, organizationId, [transactionId]);
  await insertSplits(
    db,
    parts.map((s, i) => ({
      organization_id: organizationId,
      transaction_id: transactionId,
      line_no: i + 1,
      category_account_id: s.categoryAccountId,
      amount: s.amount,
      description: s.description || null,
    })),
  );
};

/**
 * Moves lines to new entries, categories and statuses in one statement per 5,000. A line a
 * reconciliation locks is refused, and nothing of the batch is kept (the caller's transaction).
 */
export const updateCategorisation = async (
  db: Executor,
  organizationId: string,
  rows: {
    id: string;
    entryId: string;
    categoryKind: 'none' | 'account' | 'split';
    categoryAccountId: string | null;
    payee?: string | null;
    taxRate?: number | null;
    ruleId?: string | null;
  }[],
) => {
  for (const part of chunks(rows, 5000)) {
    const result = await sql`
      update bank_transactions t
         set entry_id = v.entry_id,
             category_kind = v.category_kind,
             category_account_id = v.category_account_id,
             status = case when v.category_kind = 'none' then 'uncategorized' else 'categorized' end,
             payee = case when v.set_payee then v.payee else t.payee end,
             tax_rate = case when v.set_tax then v.tax_rate else t.tax_rate end,
             rule_id = v.rule_id,
             updated_at = now()
        from unnest(
          ${part.map((r) => r.id)}::text[],
          ${part.map((r) => r.entryId)}::text[],
          ${part.map((r) => r.categoryKind)}::text[],
          ${part.map((r) => r.categoryAccountId)}::text[],
          ${part.map((r) => r.payee !== undefined)}::boolean[],
          ${part.map((r) => r.payee ?? null)}::text[],
          ${part.map((r) => r.taxRate !== undefined)}::boolean[],
          ${part.map((r) => r.taxRate ?? null)}::integer[],
          ${part.map((r) => r.ruleId ?? null)}::text[]
        ) as v(id, entry_id, category_kind, category_account_id, set_payee, payee, set_tax, tax_rate, rule_id)
       where t.organization_id = ${organizationId} and t.id = v.id
         and t.status <> 'reconciled' and t.category_kind not in ('transfer', 'payment')`.execute(db);
    const n = affected(result);
    if (n !== undefined && n !== part.length) {
      await refuseIfLocked(
        db,
        organizationId,
        part.map((r) => r.id),
      );
      throw notFound(`${part.length - n} of the transactions were not found or cannot be categorised.`);
    }
  }
};

// --- Deleting --------------------------------------------------------------------------------

/** Deletes lines (their splits and attachments go with them). Refuses if any is reconciled. */
export const deleteBankTransactions = async (db: Executor, organizationId: string, ids: string[]) => {
  if (ids.length === 0) return;
  await refuseIfLocked(db, organizationId, ids);
  for (const part of chunks(ids, 5000)) {
    await db
      .deleteFrom('bank_transactions')
      .where('organization_id', '=', organizationId)
      .where('id', 'in', part)
      .where('status', '<>', 'reconciled')
      .execute();
  }
};

// --- Reconciliation --------------------------------------------------------------------------

/** Ticks (reconciliationId) or unticks (null) lines in a reconciliation in progress. */
export const setReconciliationTicks = async (
  db: Executor,
  organizationId: string,
  ids: string[],
  reconciliationId: string | null,
) => {
  if (ids.length === 0) return;
  await refuseIfLocked(db, organizationId, ids);
  for (const part of chunks(ids, 5000)) {
    await db
      .updateTable('bank_transactions')
      .set({ reconciliation_id: reconciliationId })
      .where('organization_id', '=', organizationId)
      .where('id', 'in', part)
      .where('status', '<>', 'reconciled')
      .execute();
  }
};

/** Cancelling a reconciliation in progress: its ticked lines are free again. */
export const releaseReconciliationTicks = (db: Executor, organizationId: string, reconciliationId: string) =>
  db
    .updateTable('bank_transactions')
    .set({ reconciliation_id: null })
    .where('organization_id', '=', organizationId)
    .where('reconciliation_id', '=', reconciliationId)
    .where('status', '<>', 'reconciled')
    .execute()
    .then(() => undefined);

/** Finishing a reconciliation: its ticked lines become reconciled, and locked. */
export const lockReconciledLines = (db: Executor, organizationId: string, reconciliationId: string) =>
  db
    .updateTable('bank_transactions')
    .set({ status: 'reconciled', updated_at: new Date() })
    .where('organization_id', '=', organizationId)
    .where('reconciliation_id', '=', reconciliationId)
    .execute()
    .then(() => undefined);

/** Undoing a completed reconciliation: its lines unlock and go back to (un)categorised. */
export const unlockReconciledLines = (db: Executor, organizationId: string, reconciliationId: string) =>
  db
    .updateTable('bank_transactions')
    .set({
      status: sql`case when category_kind = 'none' then 'uncategorized' else 'categorized' end`,
      reconciliation_id: null,
      updated_at: new Date(),
    })
    .where('organization_id', '=', organizationId)
    .where('reconciliation_id', '=', reconciliationId)
    .execute()
    .then(() => undefined);
