import { sql } from 'kysely';
import type { Executor } from '../../db/transaction.ts';

// SQL of the invoicing reports: open balances as of a date (aged receivables) and tax totals
// (sales from invoice_tax_postings, purchases from payables' bill_tax_postings).

/**
 * Each invoice's receivable (base currency) as it stood on `asOf`. The kept open balance is
 * today's; adding back what was paid or credited after `asOf` gives the balance then. So only
 * invoices open now, or settled by something dated after `asOf`, are read — for today's
 * report that is the open invoices alone, however many paid ones the company has.
 */
export const selectOpenBalancesAsOf = async (db: Executor, organizationId: string, asOf: string) => {
  const result = await sql<{ customer_id: string; customer_name: string; due_date: string; balance: number }>`
    with later as (
      select invoice_id, amount_base from invoice_payments
       where organization_id = ${organizationId} and reversal_entry_id is null and date > ${asOf}
      union all
      select invoice_id, amount_base from credit_notes
       where organization_id = ${organizationId} and status = 'issued' and date > ${asOf}
      union all
      select invoice_id, receivable_base from customer_credit_entries
       where organization_id = ${organizationId} and kind = 'applied' and date > ${asOf}
    ), later_by_invoice as (
      select invoice_id, sum(amount_base) as amount from later group by invoice_id
    ), candidates as (
      select id from invoices
       where organization_id = ${organizationId} and status in ('sent', 'partially_paid') and issue_date <= ${asOf}
      union
      select invoice_id from later_by_invoice
    )
    select i.customer_id, c.name as customer_name, i.due_date,
           (i.balance_base + coalesce(l.amount, 0))::bigint as balance
      from candidates k
      join invoices i on i.organization_id = ${organizationId} and i.id = k.id
      left join later_by_invoice l on l.invoice_id = i.id
      join customers c on c.organization_id = i.organization_id and c.id = i.customer_id
     where i.status in ('sent', 'partially_paid', 'paid') and i.issue_date <= ${asOf}
       and i.balance_base + coalesce(l.amount, 0) <> 0`.execute(db);
  return result.rows;
};

export const selectTaxTotals = async (db: Executor, organizationId: string, from: string, to: string) => {
  const result = await sql<{ tax_rate_id: string; taxable: number; tax: number }>`
    select tax_rate_id, sum(taxable_base)::bigint as taxable, sum(tax_base)::bigint as tax
      from invoice_tax_postings
     where organization_id = ${organizationId} and date >= ${from} and date <= ${to}
     group by tax_rate_id`.execute(db);
  return result.rows;
};

/**
 * Purchase (input) tax per rate in the period: bills positive, supplier credits negative, as
 * payables writes bill_tax_postings beside each posting (voids remove theirs).
 */
export const selectPurchaseTaxTotals = async (
  db: Executor,
  organizationId: string,
  from: string,
  to: string,
) => {
  const result = await sql<{ tax_rate_id: string; taxable: number; tax: number }>`
    select tax_rate_id, sum(taxable_base)::bigint as taxable, sum(tax_base)::bigint as tax
      from bill_tax_postings
     where organization_id = ${organizationId} and date >= ${from} and date <= ${to}
     group by tax_rate_id`.execute(db);
  return result.rows;
};
