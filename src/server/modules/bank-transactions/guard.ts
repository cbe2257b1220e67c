import { conflict } from '../../../shared/errors.ts';
import type { RegisterSourceKind } from '../../../shared/transactions.ts';
import type { Executor } from '../../db/transaction.ts';
import { bankLinesWithAccount } from './read.ts';

// A completed reconciliation locks its lines (issue 13 §7): editing, categorising, deleting,
// reversing, matching or unmatching one is refused with a 409 that names the statement date,
// until that reconciliation is undone. Callers check first (assertNotReconciled) to give the
// clear message; the writers in writes.ts refuse reconciled rows again, so no caller that
// forgets the check can change a locked line.

export type ReconciledLine = {
  id: string;
  statementDate: string;
  reconciliationId: string;
  accountName: string;
};

/** Which bank lines a check is about: these ids, or the register lines of one document. */
export type LineSelection = { ids: string[] } | { source: { kind: RegisterSourceKind; id: string } };

export const reconciledLineError = (lines: ReconciledLine[]) => {
  const first = lines[0]!;
  const what = lines.length === 1 ? 'This transaction is' : `${lines.length} of these transactions are`;
  return conflict(
    'transaction_reconciled',
    `${what} reconciled and locked by the reconciliation of ${first.accountName} to the statement of ${first.statementDate}. Undo that reconciliation (Transactions → Reconcile) to change it.`,
    {
      ids: lines.map((l) => l.id),
      reconciliationId: first.reconciliationId,
      statementDate: first.statementDate,
    },
  );
};

/** The lines among `ids` (or of a document's register lines) that a completed reconciliation locks. */
export const findReconciledLines = async (
  db: Executor,
  organizationId: string,
  which: LineSelection,
): Promise<ReconciledLine[]> => {
  if ('ids' in which && which.ids.length === 0) return [];
  let q = bankLinesWithAccount(db)
    .innerJoin('reconciliations as r', (j) =>
      j.onRef('r.organization_id', '=', 't.organization_id').onRef('r.id', '=', 't.reconciliation_id'),
    )
    .select(['t.id', 'r.id as reconciliation_id', 'r.statement_date', 'm.name'])
    .where('t.organization_id', '=', organizationId)
    .where('t.status', '=', 'reconciled');
  if ('ids' in which) q = q.where('t.id', 'in', which.ids);
  else q = q.where('t.source_kind', '=', which.source.kind).where('t.source_id', '=', which.source.id);
  const rows = await q.orderBy('r.statement_date', 'desc').orderBy('t.id').execute();
  return rows.map((r) => ({
    id: r.id,
    statementDate: r.statement_date,
    reconciliationId: r.reconciliation_id,
    accountName: r.name,
  }));
};

/**
 * Refuses (409 transaction_reconciled, naming the statement date) when any of the lines is
 * locked by a completed reconciliation. For matching, unmatching, editing, categorising,
 * deleting and reversing.
 */
export const assertNotReconciled = async (db: Executor, organizationId: string, which: LineSelection) => {
  const locked = await findReconciledLines(db, organizationId, which);
  if (locked.length > 0) throw reconciledLineError(locked);
};
