import { sql } from 'kysely';
import { containsPattern } from '../invoices/queries.ts';
import type { Executor } from './queries.ts';

// SQL of the suppliers: the list (search, archived), one supplier, and the figures a supplier
// carries in the base currency: what the company owes on open bills and the supplier credit
// not yet applied or refunded.

/**
 * A supplier's open balance (open and partially paid bills' balance_base) and the credit they
 * gave that is left (each issued credit's posted base less the credit_base its live
 * applications used and the amount_base its live refunds took back), both in the base currency.
 */
const supplierBalances = [
  sql<string>`coalesce((select sum(b.balance_base) from bills b where b.organization_id = s.organization_id and b.supplier_id = s.id and b.status in ('open', 'partially_paid')), 0)::bigint`.as(
    'balance',
  ),
  sql<string>`coalesce((select sum(sc.total_base
      - coalesce((select sum(a.credit_base) from supplier_credit_allocations a where a.organization_id = sc.organization_id and a.credit_id = sc.id and a.reversed_at is null), 0)
      - coalesce((select sum(r.amount_base) from supplier_credit_refunds r where r.organization_id = sc.organization_id and r.credit_id = sc.id and r.reversed_at is null), 0))
    from supplier_credits sc where sc.organization_id = s.organization_id and sc.supplier_id = s.id and sc.status = 'issued'), 0)::bigint`.as(
    'credit',
  ),
];

const supplierList = (
  db: Executor,
  organizationId: string,
  params: { search?: string; includeArchived: boolean },
) =>
  db
    .selectFrom('suppliers as s')
    .where('s.organization_id', '=', organizationId)
    .$if(!params.includeArchived, (q) => q.where('s.archived_at', 'is', null))
    .$if(Boolean(params.search), (q) => {
      const like = containsPattern(params.search!);
      return q.where((eb) =>
        eb.or([eb('s.name', 'ilike', like), eb('s.company', 'ilike', like), eb('s.email', 'ilike', like)]),
      );
    });

export const selectSuppliers = (
  db: Executor,
  organizationId: string,
  params: { search?: string; includeArchived: boolean; limit: number; offset: number },
) =>
  supplierList(db, organizationId, params)
    .selectAll('s')
    .select(supplierBalances)
    .orderBy(sql`lower(s.name)`)
    .orderBy('s.id')
    .limit(params.limit)
    .offset(params.offset)
    .execute();

export const countSuppliers = async (
  db: Executor,
  organizationId: string,
  params: { search?: string; includeArchived: boolean },
) =>
  (
    await supplierList(db, organizationId, params)
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow()
  ).n;

export const selectSupplier = (db: Executor, organizationId: string, id: string) =>
  db
    .selectFrom('suppliers as s')
    .selectAll('s')
    .select(supplierBalances)
    .where('s.organization_id', '=', organizationId)
    .where('s.id', '=', id)
    .executeTakeFirst();

export type SupplierRow = NonNullable<Awaited<ReturnType<typeof selectSupplier>>>;

/** The lower-cased names of the company's suppliers (archived ones too): what an import skips. */
export const selectSupplierNames = async (db: Executor, organizationId: string) =>
  new Set(
    (
      await db
        .selectFrom('suppliers')
        .select(sql<string>`lower(name)`.as('name'))
        .where('organization_id', '=', organizationId)
        .execute()
    ).map((r) => r.name),
  );

/** Whether the supplier has any bill (drafts too) or supplier credit: their currency is then fixed. */
export const supplierHasDocuments = async (db: Executor, organizationId: string, supplierId: string) => {
  const bill = await db
    .selectFrom('bills')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('supplier_id', '=', supplierId)
    .limit(1)
    .executeTakeFirst();
  if (bill) return true;
  const credit = await db
    .selectFrom('supplier_credits')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('supplier_id', '=', supplierId)
    .limit(1)
    .executeTakeFirst();
  return Boolean(credit);
};
