import { randomUUID } from 'node:crypto';
import type { Insertable, Updateable } from 'kysely';
import type { Executor } from '../../db/transaction.ts';
import type { Database } from '../../db/types.ts';
import { insertCompanyRow, updateCompanyRow } from '../invoices/queries.ts';

// SQL the payables module's files share: inserting and updating one row of its company tables,
// and reading a bill. Every query filters by organization_id first, the leading column of
// every key and index here. Each area keeps its own SQL beside it (bills-queries.ts, …).

export type { Executor };

/** The tables of this module whose rows are keyed (organization_id, id). */
export type PayablesTable =
  | 'suppliers'
  | 'bills'
  | 'bill_payments'
  | 'bill_payment_batches'
  | 'supplier_credits'
  | 'supplier_credit_allocations'
  | 'supplier_credit_refunds'
  | 'bill_schedules';

/** Inserts one row of a company's table under a new id; answers the id (invoices' insertCompanyRow). */
export const insertPayablesRow: <T extends PayablesTable>(
  db: Executor,
  table: T,
  organizationId: string,
  values: Omit<Insertable<Database[T]>, 'organization_id' | 'id'>,
) => Promise<string> = insertCompanyRow;

/** Updates one row of a company's table by its id (invoices' updateCompanyRow). */
export const updatePayablesRow: <T extends PayablesTable>(
  db: Executor,
  table: T,
  organizationId: string,
  id: string,
  set: Updateable<Database[T]>,
) => ReturnType<typeof updateCompanyRow> = updateCompanyRow;

export const selectBill = (
  db: Executor,
  organizationId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
) => {
  const q = db
    .selectFrom('bills')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id);
  return (options.forUpdate ? q.forUpdate() : q).executeTakeFirst();
};

export const insertBillEvent = (
  db: Executor,
  event: {
    organizationId: string;
    billId: string;
    kind: string;
    message: string;
    actorUserId: string | null;
    at: Date;
  },
) =>
  db
    .insertInto('bill_events')
    .values({
      organization_id: event.organizationId,
      id: randomUUID(),
      bill_id: event.billId,
      kind: event.kind,
      message: event.message,
      actor_user_id: event.actorUserId,
      created_at: event.at,
    })
    .execute();
