import type { Insertable } from 'kysely';
import type { Executor } from '../../db/transaction.ts';
import type { Database } from '../../db/types.ts';

// The matching module's own table, bank_transaction_matches (migration 20261125_0400).

/** Whether the company has a bank line or statement import with this id. */
export const companyRowExists = async (
  db: Executor,
  table: 'bank_transactions' | 'statement_imports',
  organizationId: string,
  id: string,
) =>
  (await db
    .selectFrom(table)
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst()) !== undefined;

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

export type MatchRowInsert = Insertable<Database['bank_transaction_matches']>;

export const insertMatchRows = (db: Executor, rows: MatchRowInsert[]) =>
  db.insertInto('bank_transaction_matches').values(rows).execute();

export const deleteMatchRows = (db: Executor, organizationId: string, transactionId: string) =>
  db
    .deleteFrom('bank_transaction_matches')
    .where('organization_id', '=', organizationId)
    .where('transaction_id', '=', transactionId)
    .execute();
