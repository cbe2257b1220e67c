import { type SqlBool, sql } from 'kysely';
import {
  BILL_STATUSES,
  type BillList,
  type BillListQuery,
  type BillTotals,
  type billListQuerySchema,
} from '../../../shared/payables.ts';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { decodeCursor, keysetPage } from '../../db/cursor.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { companyToday, loadCompany } from '../invoices/common.ts';
import { containsPattern } from '../invoices/queries.ts';
import { toBillSummary } from './bill-read.ts';
import type { Executor } from './queries.ts';

// The bill list (keyset pages) and the totals per status. Order: newest first (issue date,
// then id, both descending — the index bills_issue_date); with `dueBy` (the payment run's
// question "what is due by then?") the soonest due first (due date, then id, ascending).
// Overdue is derived in SQL exactly as billDisplayStatus does: open or partially paid with a
// due date before the company's today; the 'open' and 'partially_paid' filters leave those out.

type Filter = Pick<z.output<typeof billListQuerySchema>, 'status' | 'search' | 'supplierId' | 'dueBy'>;

const statusCondition = (status: string, today: string) => {
  switch (status) {
    case 'all':
      return sql<SqlBool>`true`;
    case 'overdue':
      return sql<SqlBool>`b.status in ('open', 'partially_paid') and b.due_date < ${today}`;
    case 'open':
    case 'partially_paid':
      return sql<SqlBool>`b.status = ${status} and b.due_date >= ${today}`;
    default:
      return sql<SqlBool>`b.status = ${status}`;
  }
};

const filtered = (db: Executor, organizationId: string, filter: Filter, today: string) =>
  db
    .selectFrom('bills as b')
    .innerJoin('suppliers as s', (j) =>
      j.onRef('s.organization_id', '=', 'b.organization_id').onRef('s.id', '=', 'b.supplier_id'),
    )
    .where('b.organization_id', '=', organizationId)
    .where(statusCondition(filter.status, today))
    .$if(Boolean(filter.supplierId), (q) => q.where('b.supplier_id', '=', filter.supplierId!))
    .$if(Boolean(filter.dueBy), (q) =>
      q.where('b.due_date', '<=', filter.dueBy!).where('b.status', 'in', ['open', 'partially_paid']),
    )
    .$if(Boolean(filter.search), (q) => {
      const like = containsPattern(filter.search!);
      // Suppliers are few: match them first (a hashed subplan), so the bill scan needs no join.
      return q.where(
        sql<SqlBool>`(b.number ilike ${like} or b.reference ilike ${like}
          or b.supplier_id in (select s2.id from suppliers s2 where s2.organization_id = ${organizationId}
                                 and (s2.name ilike ${like} or s2.company ilike ${like})))`,
      );
    });

/** One page of the company's bills. */
export const selectBillList = async (
  db: Executor,
  organizationId: string,
  query: z.output<typeof billListQuerySchema>,
  now: Date,
): Promise<BillList> => {
  const company = await loadCompany(db, organizationId);
  const today = companyToday(now, company.time_zone);
  const byDue = Boolean(query.dueBy);
  const cursor = decodeCursor(query.cursor, { date: 'date', id: 'string' });
  const q = filtered(db, organizationId, query, today).select([
    'b.id',
    'b.number',
    'b.supplier_id',
    's.name as supplier_name',
    'b.reference',
    'b.issue_date',
    'b.due_date',
    'b.currency',
    'b.total',
    'b.amount_due',
    'b.status',
  ]);
  const { page, nextCursor } = await keysetPage(q, {
    keys: [[byDue ? 'b.due_date' : 'b.issue_date', 'date'], ['b.id']],
    after: cursor && [cursor.date, cursor.id],
    limit: query.limit,
    direction: byDue ? 'asc' : 'desc',
  });
  return {
    bills: page.map((r) => toBillSummary(r, today)),
    nextCursor: nextCursor((last) => ({ date: byDue ? last.due_date : last.issue_date, id: last.id })),
    baseCurrency: company.base_currency,
  };
};

export const listBills = (
  ctx: AppContext,
  member: MemberContext,
  query: z.output<typeof billListQuerySchema>,
) => selectBillList(ctx.database.db, member.organizationId, query, ctx.now());

/**
 * Count, total and amount due per status (overdue derived), in the base currency: a posted
 * bill's total_base and balance_base, an unposted one's total at its rate. 'all' counts every
 * bill and sums the posted, not void ones.
 */
export const selectBillTotals = async (
  db: Executor,
  organizationId: string,
  now: Date,
): Promise<BillTotals> => {
  const company = await loadCompany(db, organizationId);
  const today = companyToday(now, company.time_zone);
  const { rows } = await sql<{ status: string; count: number; total: string; amount_due: string }>`
    select case when status in ('open', 'partially_paid') and due_date < ${today} then 'overdue' else status end as status,
           count(*)::int as count,
           coalesce(sum(case when status in ('draft', 'awaiting_approval')
                             then round(total * exchange_rate::numeric) else total_base end), 0)::text as total,
           coalesce(sum(case when status in ('open', 'partially_paid') then balance_base else 0 end), 0)::text as amount_due
      from bills
     where organization_id = ${organizationId}
     group by 1`.execute(db);
  const totals = Object.fromEntries(
    [...BILL_STATUSES, 'all'].map((s) => [s, { count: 0, total: 0, amountDue: 0 }]),
  ) as BillTotals['totals'];
  for (const r of rows) {
    const bucket = totals[r.status as keyof typeof totals];
    if (!bucket) continue;
    bucket.count += Number(r.count);
    bucket.total += Number(r.total);
    bucket.amountDue += Number(r.amount_due);
    totals.all.count += Number(r.count);
    if (!['void', 'draft', 'awaiting_approval'].includes(r.status)) totals.all.total += Number(r.total);
    totals.all.amountDue += Number(r.amount_due);
  }
  return { baseCurrency: company.base_currency, totals };
};

export const billTotals = (ctx: AppContext, member: MemberContext) =>
  selectBillTotals(ctx.database.db, member.organizationId, ctx.now());

export type { BillListQuery };
