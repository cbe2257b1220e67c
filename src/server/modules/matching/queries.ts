import type { Executor } from '../../db/transaction.ts';

// The matching module's own table, bank_transaction_matches (migration 20261125_0400).

export const selectMatchRows = (db: Executor, organizationId: string, transactionId: string) =>
  db
    .selectFrom('bank_transaction_matches')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('transaction_id', '=', transactionId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

export const selectMatchesOfPayments = (db: Executor, organizationId: string, paymentIds: string[]) =>
  paymentIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('bank_transaction_matches')
        .select(['payment_id', 'transaction_id'])
        .where('organization_id', '=', organizationId)
        .where('payment_id', 'in', paymentIds)
        .execute();

export type MatchRowInsert = {
  organization_id: string;
  id: string;
  transaction_id: string;
  kind: 'invoice' | 'payment';
  invoice_id: string;
  payment_id: string;
  amount: number;
  previous_entry_id: string;
  replaced_line: string | null;
  created_by: string | null;
};

export const insertMatchRows = (db: Executor, rows: MatchRowInsert[]) =>
  db.insertInto('bank_transaction_matches').values(rows).execute();

export const deleteMatchRows = (db: Executor, organizationId: string, transactionId: string) =>
  db
    .deleteFrom('bank_transaction_matches')
    .where('organization_id', '=', organizationId)
    .where('transaction_id', '=', transactionId)
    .execute();
