import { randomUUID } from 'node:crypto';
import { type Selectable, sql } from 'kysely';
import type { Database } from '../../db/types.ts';
import type { Executor } from '../../db/transaction.ts';

// SQL of the invoices module. Every query filters by organization_id first, the leading
// column of every key and index here.

/** The one executor type (db/transaction.ts), re-exported for this module's own files. */
export type { Executor };

/**
 * The join condition of a row to the one it points at, in the same company:
 * `.innerJoin('invoices as i', sameCompany('i', 'p.invoice_id'))` is
 * `i.organization_id = p.organization_id and i.id = p.invoice_id`.
 */
export const sameCompany =
  (alias: string, reference: string) =>
  <J extends { onRef: (...args: any[]) => any }>(j: J): J =>
    j
      .onRef(`${alias}.organization_id`, '=', `${reference.split('.')[0]}.organization_id`)
      .onRef(`${alias}.id`, '=', reference);

// --- Company and settings ----------------------------------------------------------------

export const selectCompany = (db: Executor, organizationId: string) =>
  db
    .selectFrom('organizations')
    .select(['id', 'name', 'base_currency', 'time_zone', 'address', 'tax_number', 'logo_content_type'])
    .select(sql<boolean>`logo_data is not null`.as('has_logo'))
    .where('id', '=', organizationId)
    .executeTakeFirst();

export const selectCompanyLogo = (db: Executor, organizationId: string) =>
  db
    .selectFrom('organizations')
    .select(['logo_data', 'logo_content_type'])
    .where('id', '=', organizationId)
    .executeTakeFirst();

/** The company's invoice settings, created with defaults on first use. */
export const ensureSettings = async (db: Executor, organizationId: string) => {
  await db
    .insertInto('invoice_settings')
    .values({ organization_id: organizationId })
    .onConflict((oc) => oc.column('organization_id').doNothing())
    .execute();
  return db
    .selectFrom('invoice_settings')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
};

/** Takes the next invoice or credit-note number; the row lock serialises numbering. */
export const takeDocumentNumber = async (
  db: Executor,
  organizationId: string,
  kind: 'invoice' | 'credit_note',
) => {
  await ensureSettings(db, organizationId);
  const column = kind === 'invoice' ? 'next_invoice_number' : 'next_credit_note_number';
  const prefix = kind === 'invoice' ? 'invoice_prefix' : 'credit_note_prefix';
  const row = await db
    .updateTable('invoice_settings')
    .set({ [column]: sql`${sql.ref(column)} + 1` })
    .where('organization_id', '=', organizationId)
    .returning([
      sql<number>`${sql.ref(column)} - 1`.as('number'),
      sql<string>`${sql.ref(prefix)}`.as('prefix'),
    ])
    .executeTakeFirstOrThrow();
  return row;
};

// --- Customers ----------------------------------------------------------------------------

export const selectCustomers = (
  db: Executor,
  organizationId: string,
  params: { search?: string; includeArchived: boolean; limit: number; offset: number },
) => {
  let q = db
    .selectFrom('customers as c')
    .selectAll('c')
    .select(
      sql<number>`coalesce((select sum(i.balance_base) from invoices i where i.organization_id = c.organization_id and i.customer_id = c.id and i.status in ('sent', 'partially_paid')), 0)::bigint`.as(
        'balance',
      ),
    )
    .select(
      sql<number>`coalesce((select sum(e.amount_base) from customer_credit_entries e where e.organization_id = c.organization_id and e.customer_id = c.id), 0)::bigint`.as(
        'credit',
      ),
    )
    .where('c.organization_id', '=', organizationId);
  if (!params.includeArchived) q = q.where('c.archived_at', 'is', null);
  if (params.search) {
    const like = `%${params.search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
    q = q.where((eb) =>
      eb.or([eb('c.name', 'ilike', like), eb('c.company', 'ilike', like), eb('c.email', 'ilike', like)]),
    );
  }
  return q.orderBy(sql`lower(c.name)`).orderBy('c.id').limit(params.limit).offset(params.offset).execute();
};

export const countCustomers = async (
  db: Executor,
  organizationId: string,
  params: { search?: string; includeArchived: boolean },
) => {
  let q = db
    .selectFrom('customers as c')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('c.organization_id', '=', organizationId);
  if (!params.includeArchived) q = q.where('c.archived_at', 'is', null);
  if (params.search) {
    const like = `%${params.search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
    q = q.where((eb) =>
      eb.or([eb('c.name', 'ilike', like), eb('c.company', 'ilike', like), eb('c.email', 'ilike', like)]),
    );
  }
  return (await q.executeTakeFirstOrThrow()).n;
};

export const selectCustomer = (db: Executor, organizationId: string, id: string) =>
  db
    .selectFrom('customers as c')
    .selectAll('c')
    .select(
      sql<number>`coalesce((select sum(i.balance_base) from invoices i where i.organization_id = c.organization_id and i.customer_id = c.id and i.status in ('sent', 'partially_paid')), 0)::bigint`.as(
        'balance',
      ),
    )
    .select(
      sql<number>`coalesce((select sum(e.amount_base) from customer_credit_entries e where e.organization_id = c.organization_id and e.customer_id = c.id), 0)::bigint`.as(
        'credit',
      ),
    )
    .where('c.organization_id', '=', organizationId)
    .where('c.id', '=', id)
    .executeTakeFirst();

// --- Tax rates and items ------------------------------------------------------------------

export const selectTaxRates = (db: Executor, organizationId: string) =>
  db
    .selectFrom('tax_rates')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('name')
    .orderBy('id')
    .execute();

/** Rows of a company's table by id (none for no ids). */
const selectByIds = async <T extends 'tax_rates' | 'items'>(
  db: Executor,
  table: T,
  organizationId: string,
  ids: string[],
) =>
  ids.length === 0
    ? []
    : ((await db
        .selectFrom(table as 'items')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('id', 'in', ids)
        .execute()) as unknown as Selectable<Database[T]>[]);

export const selectTaxRatesByIds = (db: Executor, organizationId: string, ids: string[]) =>
  selectByIds(db, 'tax_rates', organizationId, ids);

export const selectItems = (
  db: Executor,
  organizationId: string,
  params: { search?: string; includeArchived: boolean },
) => {
  let q = db.selectFrom('items').selectAll().where('organization_id', '=', organizationId);
  if (!params.includeArchived) q = q.where('archived_at', 'is', null);
  if (params.search) q = q.where('name', 'ilike', `%${params.search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`);
  return q.orderBy(sql`lower(name)`).orderBy('id').limit(500).execute();
};

export const selectItemsByIds = (db: Executor, organizationId: string, ids: string[]) =>
  selectByIds(db, 'items', organizationId, ids);

// --- Invoices -----------------------------------------------------------------------------

export const selectInvoice = (
  db: Executor,
  organizationId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
) => {
  const q = db
    .selectFrom('invoices')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id);
  return (options.forUpdate ? q.forUpdate() : q).executeTakeFirst();
};

/** A payment or a credit note of an invoice, locked for the transaction; undefined if missing. */
export const lockInvoiceDocument = async <T extends 'invoice_payments' | 'credit_notes'>(
  db: Executor,
  table: T,
  organizationId: string,
  invoiceId: string,
  id: string,
) =>
  (await db
    .selectFrom(table as 'credit_notes')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('invoice_id', '=', invoiceId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst()) as Selectable<Database[T]> | undefined;

export const selectLines = (db: Executor, organizationId: string, documentIds: string[]) =>
  documentIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('invoice_lines')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('document_id', 'in', documentIds)
        .orderBy('document_id')
        .orderBy('line_no')
        .execute();

export const deleteLines = (db: Executor, organizationId: string, documentId: string) =>
  db
    .deleteFrom('invoice_lines')
    .where('organization_id', '=', organizationId)
    .where('document_id', '=', documentId)
    .execute();

export const selectPayments = (db: Executor, organizationId: string, invoiceId: string) =>
  db
    .selectFrom('invoice_payments as p')
    .innerJoin('accounts as a', sameCompany('a', 'p.deposit_account_id'))
    .selectAll('p')
    .select('a.name as deposit_account_name')
    .where('p.organization_id', '=', organizationId)
    .where('p.invoice_id', '=', invoiceId)
    .orderBy('p.date')
    .orderBy('p.created_at')
    .execute();

export const selectCreditNotes = (db: Executor, organizationId: string, invoiceId: string) =>
  db
    .selectFrom('credit_notes')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('invoice_id', '=', invoiceId)
    .orderBy('date')
    .orderBy('created_at')
    .execute();

/** How much of an invoice's amount paid came from the customer's credit (credit.ts). */
export const selectCreditApplied = async (db: Executor, organizationId: string, invoiceId: string) => {
  const row = await db
    .selectFrom('customer_credit_entries')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('n'))
    .where('organization_id', '=', organizationId)
    .where('invoice_id', '=', invoiceId)
    .where('kind', '=', 'applied')
    .executeTakeFirstOrThrow();
  return -Number(row.n);
};

export const selectEvents = (db: Executor, organizationId: string, invoiceId: string) =>
  db
    .selectFrom('invoice_events as e')
    .leftJoin('user as u', 'u.id', 'e.actor_user_id')
    .select(['e.id', 'e.kind', 'e.message', 'e.created_at', 'u.name as actor_name'])
    .where('e.organization_id', '=', organizationId)
    .where('e.invoice_id', '=', invoiceId)
    .orderBy('e.created_at')
    .orderBy('e.seq')
    .execute();

export const insertEvent = (
  db: Executor,
  event: {
    organizationId: string;
    invoiceId: string;
    kind: string;
    message: string;
    actorUserId: string | null;
    at: Date;
  },
) =>
  db
    .insertInto('invoice_events')
    .values({
      organization_id: event.organizationId,
      id: randomUUID(),
      invoice_id: event.invoiceId,
      kind: event.kind,
      message: event.message,
      actor_user_id: event.actorUserId,
      created_at: event.at,
    })
    .execute();

export type ListFilter = {
  status: string;
  search?: string;
  customerId?: string;
  today: string;
};

// Overdue is derived in SQL from the due date, exactly as displayStatus does in TypeScript.
const statusCondition = (status: string, today: string) => {
  switch (status) {
    case 'all':
      return sql`true`;
    case 'overdue':
      return sql`i.status in ('sent', 'partially_paid') and i.due_date < ${today}`;
    case 'sent':
    case 'partially_paid':
      return sql`i.status = ${status} and i.due_date >= ${today}`;
    default:
      return sql`i.status = ${status}`;
  }
};

const filterSql = (organizationId: string, filter: ListFilter, withStatus: boolean) => {
  const parts = [sql`i.organization_id = ${organizationId}`];
  if (withStatus) parts.push(statusCondition(filter.status, filter.today));
  if (filter.customerId) parts.push(sql`i.customer_id = ${filter.customerId}`);
  if (filter.search) {
    const like = `%${filter.search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
    // Customers are few: match them first, then invoices by customer, number or reference,
    // so the invoice scan needs no join.
    parts.push(sql`(i.customer_id in (select c2.id from customers c2 where c2.organization_id = ${organizationId}
                      and (c2.name ilike ${like} or c2.company ilike ${like}))
                    or i.number ilike ${like} or i.reference ilike ${like})`);
  }
  return sql.join(parts, sql` and `);
};

const SORT_SQL: Record<string, ReturnType<typeof sql>> = {
  number: sql`i.number`,
  issueDate: sql`i.issue_date`,
  dueDate: sql`i.due_date`,
  customer: sql`lower(c.name)`,
  total: sql`i.total`,
  amountDue: sql`i.amount_due`,
  status: sql`i.status`,
};

export type InvoiceListRow = {
  id: string;
  number: string | null;
  customer_id: string;
  customer_name: string;
  issue_date: string;
  due_date: string;
  currency: string;
  total: number;
  amount_due: number;
  status: 'draft' | 'sent' | 'partially_paid' | 'paid' | 'void';
  sent_at: Date | null;
  total_base: number;
  balance_base: number;
  exchange_rate: string;
};

export const selectInvoicePage = async (
  db: Executor,
  organizationId: string,
  filter: ListFilter & { sort: string; order: 'asc' | 'desc'; limit: number; offset: number },
) => {
  const direction = filter.order === 'asc' ? sql`asc` : sql`desc`;
  const nulls = filter.order === 'asc' ? sql`nulls first` : sql`nulls last`;
  const result = await sql<InvoiceListRow>`
    select i.id, i.number, i.customer_id, c.name as customer_name, i.issue_date, i.due_date, i.currency,
           i.total, i.amount_due, i.status, i.sent_at, i.total_base, i.balance_base, i.exchange_rate
      from invoices i
      join customers c on c.organization_id = i.organization_id and c.id = i.customer_id
     where ${filterSql(organizationId, filter, true)}
     order by ${SORT_SQL[filter.sort] ?? sql`i.issue_date`} ${direction} ${nulls}, i.id ${direction}
     limit ${filter.limit} offset ${filter.offset}`.execute(db);
  return result.rows;
};

/** Count, total and amount due per derived status (base currency), for the chips and totals. */
export const selectStatusTotals = async (db: Executor, organizationId: string, filter: ListFilter) => {
  const result = await sql<{ status: string; count: number; total: number; amount_due: number }>`
    select case when i.status in ('sent', 'partially_paid') and i.due_date < ${filter.today} then 'overdue' else i.status end as status,
           count(*)::int as count,
           coalesce(sum(case when i.status = 'draft' then round(i.total * i.exchange_rate::numeric) else i.total_base end), 0)::bigint as total,
           coalesce(sum(case when i.status in ('sent', 'partially_paid') then i.balance_base else 0 end), 0)::bigint as amount_due
      from invoices i
     where ${filterSql(organizationId, filter, false)}
     group by 1`.execute(db);
  return result.rows;
};

// --- Reports ------------------------------------------------------------------------------

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

// --- Recurring ----------------------------------------------------------------------------

export const selectSchedules = (db: Executor, organizationId: string) =>
  db
    .selectFrom('recurring_schedules as s')
    .innerJoin('customers as c', sameCompany('c', 's.customer_id'))
    .selectAll('s')
    .select('c.name as customer_name')
    .select((eb) =>
      eb
        .selectFrom('recurring_runs as r')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('r.organization_id', '=', 's.organization_id')
        .whereRef('r.schedule_id', '=', 's.id')
        .as('created_count'),
    )
    .where('s.organization_id', '=', organizationId)
    .orderBy('s.created_at')
    .execute();

/** Active schedules of every company with an occurrence due on or before `date`. */
export const selectDueSchedules = (db: Executor, date: string) =>
  db
    .selectFrom('recurring_schedules')
    .select(['organization_id', 'id'])
    .where('status', '=', 'active')
    .where('next_date', '<=', date)
    .orderBy('next_date')
    .limit(1000)
    .execute();

export const selectCustomerPayments = (db: Executor, organizationId: string, customerId: string) =>
  db
    .selectFrom('invoice_payments as p')
    .innerJoin('invoices as i', sameCompany('i', 'p.invoice_id'))
    .select([
      'p.id',
      'p.invoice_id',
      'i.number',
      'p.date',
      'p.amount',
      'p.currency',
      'p.method',
      'p.reference',
      'p.reversal_entry_id',
    ])
    .where('p.organization_id', '=', organizationId)
    .where('i.customer_id', '=', customerId)
    .orderBy('p.date', 'desc')
    .limit(200)
    .execute();

/** Accounts invoicing offers: income for lines, bank/cash for deposits, liabilities for tax. */
export const selectInvoicingAccounts = (db: Executor, organizationId: string) =>
  db
    .selectFrom('accounts')
    .select(['id', 'code', 'name', 'type', 'subtype', 'currency', 'system_key'])
    .where('organization_id', '=', organizationId)
    .where('archived_at', 'is', null)
    .where((eb) =>
      eb.or([
        eb('type', '=', 'income'),
        eb('type', '=', 'liability'),
        eb.and([eb('type', '=', 'asset'), eb('subtype', 'in', ['bank', 'cash', 'cash_equivalent'])]),
      ]),
    )
    .orderBy('code')
    .execute();
