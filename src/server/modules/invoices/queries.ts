import { randomUUID } from 'node:crypto';
import { type Insertable, type Selectable, type Updateable, sql } from 'kysely';
import type { Database } from '../../db/types.ts';
import type { Executor } from '../../db/transaction.ts';

// SQL of the invoices module. Every query filters by organization_id first, the leading
// column of every key and index here. The invoice list's SQL is in queries-list.ts, the
// reports' in queries-reports.ts.

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

/** The tables of this module whose rows are keyed (organization_id, id). */
type CompanyTable =
  | 'customers'
  | 'items'
  | 'tax_rates'
  | 'invoices'
  | 'invoice_payments'
  | 'credit_notes'
  | 'customer_credit_entries'
  | 'recurring_schedules'
  // payables' tables (payables/queries.ts narrows these helpers to them)
  | 'suppliers'
  | 'bills'
  | 'bill_payments'
  | 'bill_payment_batches'
  | 'supplier_credits'
  | 'supplier_credit_allocations'
  | 'supplier_credit_refunds'
  | 'bill_schedules';

/** Inserts one row of a company's table under a new id; answers the id. */
export const insertCompanyRow = async <T extends CompanyTable>(
  db: Executor,
  table: T,
  organizationId: string,
  values: Omit<Insertable<Database[T]>, 'organization_id' | 'id'>,
) => {
  const id = randomUUID();
  await db
    .insertInto(table as 'items')
    .values({ organization_id: organizationId, id, ...values } as Insertable<Database['items']>)
    .execute();
  return id;
};

/** Updates one row of a company's table by id. */
export const updateCompanyRow = <T extends CompanyTable>(
  db: Executor,
  table: T,
  organizationId: string,
  id: string,
  set: Updateable<Database[T]>,
) =>
  db
    .updateTable(table as 'items')
    .set(set as Updateable<Database['items']>)
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .execute();

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

/** Text search: `%text%`, with LIKE's wildcards in the text escaped. */
export const containsPattern = (search: string) => `%${search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;

/** A customer's open balance and the credit they hold, in the base currency. */
const customerBalances = [
  sql<number>`coalesce((select sum(i.balance_base) from invoices i where i.organization_id = c.organization_id and i.customer_id = c.id and i.status in ('sent', 'partially_paid')), 0)::bigint`.as(
    'balance',
  ),
  sql<number>`coalesce((select sum(e.amount_base) from customer_credit_entries e where e.organization_id = c.organization_id and e.customer_id = c.id), 0)::bigint`.as(
    'credit',
  ),
];

/** The company's customers (c) the list shows: archived ones when asked, search in name, company and email. */
const customerList = (
  db: Executor,
  organizationId: string,
  params: { search?: string; includeArchived: boolean },
) =>
  db
    .selectFrom('customers as c')
    .where('c.organization_id', '=', organizationId)
    .$if(!params.includeArchived, (q) => q.where('c.archived_at', 'is', null))
    .$if(Boolean(params.search), (q) => {
      const like = containsPattern(params.search!);
      return q.where((eb) =>
        eb.or([eb('c.name', 'ilike', like), eb('c.company', 'ilike', like), eb('c.email', 'ilike', like)]),
      );
    });

export const selectCustomers = (
  db: Executor,
  organizationId: string,
  params: { search?: string; includeArchived: boolean; limit: number; offset: number },
) =>
  customerList(db, organizationId, params)
    .selectAll('c')
    .select(customerBalances)
    .orderBy(sql`lower(c.name)`)
    .orderBy('c.id')
    .limit(params.limit)
    .offset(params.offset)
    .execute();

export const countCustomers = async (
  db: Executor,
  organizationId: string,
  params: { search?: string; includeArchived: boolean },
) =>
  (
    await customerList(db, organizationId, params)
      .select(sql<number>`count(*)::int`.as('n'))
      .executeTakeFirstOrThrow()
  ).n;

export const selectCustomer = (db: Executor, organizationId: string, id: string) =>
  db
    .selectFrom('customers as c')
    .selectAll('c')
    .select(customerBalances)
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
  if (params.search) q = q.where('name', 'ilike', containsPattern(params.search));
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

/** A document's lines (invoice_lines or the same columns in bill_lines), in document and line order. */
export const selectDocumentLines = async <T extends 'invoice_lines' | 'bill_lines'>(
  db: Executor,
  table: T,
  organizationId: string,
  documentIds: string[],
) =>
  documentIds.length === 0
    ? []
    : ((await db
        .selectFrom(table as 'invoice_lines')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('document_id', 'in', documentIds)
        .orderBy('document_id')
        .orderBy('line_no')
        .execute()) as Selectable<Database[T]>[]);

export const selectLines = (db: Executor, organizationId: string, documentIds: string[]) =>
  selectDocumentLines(db, 'invoice_lines', organizationId, documentIds);

/** Removes one document's rows from a table keyed by document_id (its lines or its tax postings). */
export const deleteDocumentRows = (
  db: Executor,
  table: 'invoice_lines' | 'bill_lines' | 'invoice_tax_postings' | 'bill_tax_postings',
  organizationId: string,
  documentId: string,
) =>
  db
    .deleteFrom(table as 'invoice_lines')
    .where('organization_id', '=', organizationId)
    .where('document_id', '=', documentId)
    .execute();

export const deleteLines = (db: Executor, organizationId: string, documentId: string) =>
  deleteDocumentRows(db, 'invoice_lines', organizationId, documentId);

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

/** The company's payments (p), each with its invoice (i). */
export const paymentsWithInvoice = (db: Executor, organizationId: string) =>
  db
    .selectFrom('invoice_payments as p')
    .innerJoin('invoices as i', sameCompany('i', 'p.invoice_id'))
    .where('p.organization_id', '=', organizationId);

/** A customer's credit entries (e), each with the invoice (i) and the credit note (n) it names. */
export const customerCreditEntries = (db: Executor, organizationId: string, customerId: string) =>
  db
    .selectFrom('customer_credit_entries as e')
    .leftJoin('invoices as i', sameCompany('i', 'e.invoice_id'))
    .leftJoin('credit_notes as n', sameCompany('n', 'e.credit_note_id'))
    .where('e.organization_id', '=', organizationId)
    .where('e.customer_id', '=', customerId);

export const selectCustomerPayments = (db: Executor, organizationId: string, customerId: string) =>
  paymentsWithInvoice(db, organizationId)
    .where('i.customer_id', '=', customerId)
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
    .orderBy('p.date', 'desc')
    .limit(200)
    .execute();

/** Removes a document's lines from the tax report (a void invoice or credit note). */
export const deleteTaxPostings = (db: Executor, organizationId: string, documentId: string) =>
  deleteDocumentRows(db, 'invoice_tax_postings', organizationId, documentId);

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
