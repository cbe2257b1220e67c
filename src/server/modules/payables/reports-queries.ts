import { sql } from 'kysely';
import type { Executor } from './queries.ts';

// SQL of the payables reports: what the company owed each supplier on a date (bills still
// open then, and supplier credit not yet used then), read from the kept balances.

/**
 * Each bill's payable (base currency) as it stood on `asOf`. The kept balance_base is today's;
 * adding back what live payments and credit applications dated after `asOf` cleared gives the
 * balance then. Only bills open now, or settled by something dated after `asOf`, are read, so
 * today's report reads the open bills alone (as invoices' selectOpenBalancesAsOf does).
 */
export const selectOpenBillsAsOf = async (db: Executor, organizationId: string, asOf: string) => {
  const result = await sql<{ supplier_id: string; supplier_name: string; due_date: string; balance: string }>`
    with later as (
      select bill_id, amount_base from bill_payments
       where organization_id = ${organizationId} and reversal_entry_id is null and date > ${asOf}
      union all
      select bill_id, amount_base from supplier_credit_allocations
       where organization_id = ${organizationId} and reversed_at is null and date > ${asOf}
    ), later_by_bill as (
      select bill_id, sum(amount_base) as amount from later group by bill_id
    ), candidates as (
      select id from bills
       where organization_id = ${organizationId} and status in ('open', 'partially_paid') and issue_date <= ${asOf}
      union
      select bill_id from later_by_bill
    )
    select b.supplier_id, s.name as supplier_name, b.due_date,
           (b.balance_base + coalesce(l.amount, 0))::bigint as balance
      from candidates k
      join bills b on b.organization_id = ${organizationId} and b.id = k.id
      left join later_by_bill l on l.bill_id = b.id
      join suppliers s on s.organization_id = b.organization_id and s.id = b.supplier_id
     where b.status in ('open', 'partially_paid', 'paid') and b.issue_date <= ${asOf}
       and b.balance_base + coalesce(l.amount, 0) <> 0`.execute(db);
  return result.rows;
};

/**
 * Each supplier's credit left on `asOf` (base currency): issued credits dated by then, less
 * what live applications (credit_base: at the credit's rate) and refunds dated by then used of
 * them. The ledger debited accounts payable with it, so the aging nets it from what the
 * supplier is owed. An application at another rate than the bill's posts the difference to
 * accounts payable as an exchange gain or loss on its date, so bills (amount_base) and credits
 * (credit_base) together still equal the ledger.
 */
export const selectUnusedCreditsAsOf = async (db: Executor, organizationId: string, asOf: string) => {
  const result = await sql<{ supplier_id: string; supplier_name: string; credit: string }>`
    with used as (
      select credit_id, credit_base as amount_base from supplier_credit_allocations
       where organization_id = ${organizationId} and reversed_at is null and date <= ${asOf}
      union all
      select credit_id, amount_base from supplier_credit_refunds
       where organization_id = ${organizationId} and reversal_entry_id is null and date <= ${asOf}
    ), used_by_credit as (
      select credit_id, sum(amount_base) as amount from used group by credit_id
    )
    select c.supplier_id, s.name as supplier_name,
           sum(c.total_base - coalesce(u.amount, 0))::bigint as credit
      from supplier_credits c
      left join used_by_credit u on u.credit_id = c.id
      join suppliers s on s.organization_id = c.organization_id and s.id = c.supplier_id
     where c.organization_id = ${organizationId} and c.status = 'issued' and c.date <= ${asOf}
     group by c.supplier_id, s.name
    having sum(c.total_base - coalesce(u.amount, 0)) <> 0`.execute(db);
  return result.rows;
};
