import { notFound } from '../../../shared/errors.ts';
import type { Executor } from '../../db/transaction.ts';
import type { BankTransactionsTable } from '../../db/types.ts';
import { nextDedupeKey } from './keys.ts';
import { deleteBankTransactions, insertBankTransactions, updateBankTransaction } from './writes.ts';

// The bank-transaction writes of matching (issue 13 §4; the rules live in modules/matching).
// A matched line becomes the register line of the invoice payment(s) it is the cash of:
// category kind 'payment', its entry the payment's (Dr money account, Cr receivable). When the
// payment was recorded by hand and already had its own register line, that line is merged
// away: deleted here, kept whole by the caller, and put back unchanged on unmatch.

type Row = {
  [K in keyof BankTransactionsTable]: BankTransactionsTable[K] extends { __select__: infer S }
    ? S
    : BankTransactionsTable[K];
};
export type BankLineRow = Row;

/** One line, locked for the rest of the transaction; 404 when the company has no such line. */
export const lockLineForMatching = async (trx: Executor, organizationId: string, id: string) => {
  const row = await trx
    .selectFrom('bank_transactions')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw notFound('Transaction not found.');
  return row as unknown as Row;
};

/** The line is now the cash of an invoice payment: its entry is the payment's. */
export const setLineMatched = (
  trx: Executor,
  organizationId: string,
  id: string,
  match: { entryId: string; paymentId: string; invoiceId: string },
) =>
  updateBankTransaction(trx, organizationId, id, {
    category_kind: 'payment',
    category_account_id: null,
    status: 'categorized',
    source_kind: 'invoice_payment',
    source_id: match.paymentId,
    invoice_id: match.invoiceId,
    entry_id: match.entryId,
    rule_id: null,
  });

/** The line is now the cash of bill payments (a money-out line matched to bills): its entry pays them. */
export const setLineMatchedToBill = (
  trx: Executor,
  organizationId: string,
  id: string,
  match: { entryId: string; paymentId: string },
) =>
  updateBankTransaction(trx, organizationId, id, {
    category_kind: 'payment',
    category_account_id: null,
    status: 'categorized',
    source_kind: 'bill_payment',
    source_id: match.paymentId,
    invoice_id: null,
    entry_id: match.entryId,
    rule_id: null,
  });

/** The line waits to be matched or categorised again, posted to suspense by `entryId`. */
export const setLineUnmatched = (trx: Executor, organizationId: string, id: string, entryId: string) =>
  updateBankTransaction(trx, organizationId, id, {
    category_kind: 'none',
    category_account_id: null,
    status: 'uncategorized',
    source_kind: null,
    source_id: null,
    invoice_id: null,
    entry_id: entryId,
  });

/** The register line a payment recorded by hand wrote for itself, if any (not the line being matched). */
export const findPaymentRegisterLine = async (
  trx: Executor,
  organizationId: string,
  paymentId: string,
  exceptId: string,
) => {
  const row = await trx
    .selectFrom('bank_transactions')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('source_kind', '=', 'invoice_payment')
    .where('source_id', '=', paymentId)
    .where('category_kind', '=', 'payment')
    .where('amount', '>', 0)
    .where('id', '<>', exceptId)
    .forUpdate()
    .executeTakeFirst();
  return (row as unknown as Row | undefined) ?? null;
};

/** Removes a payment's own register line, merged into the imported line (refused if reconciled). */
export const removeMergedLine = (trx: Executor, organizationId: string, id: string) =>
  deleteBankTransactions(trx, organizationId, [id]);

const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : String(v));

/** The merged-away line as it was, to put back on unmatch. */
export const snapshotLine = (row: Row) => ({
  ...row,
  created_at: iso(row.created_at),
  updated_at: iso(row.updated_at),
});
export type LineSnapshot = ReturnType<typeof snapshotLine>;

/**
 * Puts a merged-away register line back as it was. Its dedupe key is kept unless another line
 * of the account took it meanwhile (a same-day, same-amount, same-text line recorded while it
 * was merged); then it gets the next free one, as a new line would.
 */
export const restoreMergedLine = async (trx: Executor, snapshot: LineSnapshot) => {
  const { created_at, updated_at, ...rest } = snapshot;
  const taken = await trx
    .selectFrom('bank_transactions')
    .select('id')
    .where('organization_id', '=', snapshot.organization_id)
    .where('money_account_id', '=', snapshot.money_account_id)
    .where('dedupe_key', '=', snapshot.dedupe_key)
    .executeTakeFirst();
  const dedupeKey = taken
    ? await nextDedupeKey(trx, snapshot.organization_id, snapshot.money_account_id, {
        date: snapshot.date,
        amount: snapshot.amount,
        description: snapshot.description,
      })
    : snapshot.dedupe_key;
  await insertBankTransactions(trx, [
    {
      ...(rest as unknown as Parameters<typeof insertBankTransactions>[1][number]),
      dedupe_key: dedupeKey,
      reconciliation_id: null,
      created_at: new Date(created_at),
      updated_at: new Date(updated_at),
    },
  ]);
};
