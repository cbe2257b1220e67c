import { sql } from 'kysely';
import { deleteDocumentRows, sameCompany, selectDocumentLines } from '../invoices/queries.ts';
import type { Executor } from './queries.ts';

// SQL of bills (beside queries.ts's shared pieces): the payables settings row and the bill
// numbering, a supplier, a bill's lines, payments, credits applied, history and attachments,
// and the live bill with a supplier's reference (duplicate detection). Every query filters by
// organization_id first. The list's SQL is in bills-list.ts.

/** The company's payables settings, created with its defaults the first time it is read. */
export const ensurePayablesSettings = async (db: Executor, organizationId: string) => {
  await db
    .insertInto('payables_settings')
    .values({ organization_id: organizationId })
    .onConflict((oc) => oc.column('organization_id').doNothing())
    .execute();
  return db
    .selectFrom('payables_settings')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
};

/** Takes the next bill number (the row lock of the update serialises numbering). */
export const takeBillNumber = async (db: Executor, organizationId: string) => {
  await ensurePayablesSettings(db, organizationId);
  return db
    .updateTable('payables_settings')
    .set({ next_bill_number: sql`next_bill_number + 1` })
    .where('organization_id', '=', organizationId)
    .returning([sql<number>`next_bill_number - 1`.as('number'), 'bill_prefix as prefix'])
    .executeTakeFirstOrThrow();
};

export const selectSupplier = (db: Executor, organizationId: string, id: string) =>
  db
    .selectFrom('suppliers')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();

export const selectBillLines = (db: Executor, organizationId: string, documentIds: string[]) =>
  selectDocumentLines(db, 'bill_lines', organizationId, documentIds);

export const deleteBillLines = (db: Executor, organizationId: string, documentId: string) =>
  deleteDocumentRows(db, 'bill_lines', organizationId, documentId);

export const deleteBillTaxPostings = (db: Executor, organizationId: string, documentId: string) =>
  deleteDocumentRows(db, 'bill_tax_postings', organizationId, documentId);

/** A bill's payments, oldest first, with the money account's name and the bank line matched to each. */
export const selectBillPayments = (db: Executor, organizationId: string, billId: string) =>
  db
    .selectFrom('bill_payments as p')
    .innerJoin('accounts as a', sameCompany('a', 'p.payment_account_id'))
    .leftJoin('bank_transaction_bill_matches as m', (join) =>
      join.onRef('m.organization_id', '=', 'p.organization_id').onRef('m.payment_id', '=', 'p.id'),
    )
    .selectAll('p')
    .select(['a.name as payment_account_name', 'm.transaction_id as bank_transaction_id'])
    .where('p.organization_id', '=', organizationId)
    .where('p.bill_id', '=', billId)
    .orderBy('p.date')
    .orderBy('p.created_at')
    .execute();

/** The supplier credits applied to a bill, with each credit's number. */
export const selectCreditsApplied = (db: Executor, organizationId: string, billId: string) =>
  db
    .selectFrom('supplier_credit_allocations as x')
    .innerJoin('supplier_credits as c', sameCompany('c', 'x.credit_id'))
    .select(['x.id', 'x.credit_id', 'c.number as credit_number', 'x.date', 'x.amount', 'x.reversed_at'])
    .where('x.organization_id', '=', organizationId)
    .where('x.bill_id', '=', billId)
    .orderBy('x.date')
    .orderBy('x.created_at')
    .execute();

export const selectBillEvents = (db: Executor, organizationId: string, billId: string) =>
  db
    .selectFrom('bill_events as e')
    .leftJoin('user as u', 'u.id', 'e.actor_user_id')
    .select(['e.id', 'e.kind', 'e.message', 'e.created_at', 'u.name as actor_name'])
    .where('e.organization_id', '=', organizationId)
    .where('e.bill_id', '=', billId)
    .orderBy('e.created_at')
    .orderBy('e.seq')
    .execute();

export const selectBillAttachments = (db: Executor, organizationId: string, billId: string) =>
  db
    .selectFrom('bill_attachments')
    .select(['id', 'file_name', 'content_type', 'size_bytes', 'created_at'])
    .where('organization_id', '=', organizationId)
    .where('bill_id', '=', billId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

/**
 * The live (not void) bill of a supplier with this reference, ignoring case — what the
 * partial unique index bills_supplier_reference allows only once; none for an empty reference.
 */
export const selectLiveBillWithReference = (
  db: Executor,
  organizationId: string,
  supplierId: string,
  reference: string,
  exceptId?: string,
) =>
  reference === ''
    ? Promise.resolve(undefined)
    : db
        .selectFrom('bills')
        .select(['id', 'number', 'reference'])
        .where('organization_id', '=', organizationId)
        .where('supplier_id', '=', supplierId)
        .where(sql`lower(reference)`, '=', reference.toLowerCase())
        .where('reference', '<>', '')
        .where('status', '<>', 'void')
        .$if(Boolean(exceptId), (q) => q.where('id', '<>', exceptId!))
        .executeTakeFirst();

/**
 * Drafts and bills awaiting approval post nothing; their base-currency totals (at their rate)
 * as the list's totals sum them: this bill's, and all of them together.
 */
export const selectUnpostedTotals = async (db: Executor, organizationId: string, billId: string) => {
  const { rows } = await sql<{ own: string | null; all: string | null }>`
    select max(round(total * exchange_rate::numeric)) filter (where id = ${billId})::text as own,
           sum(round(total * exchange_rate::numeric))::text as all
      from bills
     where organization_id = ${organizationId} and status in ('draft', 'awaiting_approval')`.execute(db);
  return { own: BigInt(rows[0]?.own ?? '0'), all: BigInt(rows[0]?.all ?? '0') };
};
