import { notFound } from '../../../shared/errors.ts';
import {
  INVOICE_STATUSES,
  type Invoice,
  type InvoiceList,
  type InvoiceListQuery,
  type InvoiceSummary,
  STATUS_LABELS,
  displayStatus,
} from '../../../shared/invoices.ts';
import type { AppContext } from '../../context.ts';
import { type CsvCell, csvAmount } from '../../http/csv.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { companyToday, iso, loadCompany } from './common.ts';
import type { AuditAction } from '../audit/actions.ts';
import { type Actor, type InvoiceRow, recordActorAudit } from './documents.ts';
import {
  type Executor,
  selectCreditApplied,
  selectCreditNotes,
  selectCustomer,
  selectEvents,
  selectInvoice,
  selectLines,
  selectPayments,
  selectTaxRates,
} from './queries.ts';
import { type InvoiceListRow, selectInvoicePage, selectStatusTotals } from './queries-list.ts';

// Reading invoices: one invoice with its lines, payments, credit notes and history; the list
// with totals per status; and its CSV export. Overdue is derived from the due date here.

type LineRow = Awaited<ReturnType<typeof selectLines>>[number];

/** A stored document line (invoice, credit note, bill or supplier credit) as the API shows it. */
export const toDocumentLine = (
  l: Pick<
    LineRow,
    | 'line_no'
    | 'item_id'
    | 'description'
    | 'quantity'
    | 'unit_price'
    | 'discount_percent'
    | 'tax_rate_ids'
    | 'account_id'
    | 'net'
    | 'tax'
    | 'total'
  >,
) => ({
  lineNo: l.line_no,
  itemId: l.item_id,
  description: l.description,
  quantity: l.quantity,
  unitPrice: l.unit_price,
  discountPercent: l.discount_percent,
  taxRateIds: l.tax_rate_ids,
  accountId: l.account_id,
  net: l.net,
  tax: l.tax,
  total: l.total,
});

/** A document's tax per rate (taxable and amount, in its currency) with the rate's name and percent. */
export const documentTaxes = (
  lines: { taxes: { taxRateId: string; base: number; amount: number }[] }[],
  taxRates: { id: string; name: string; percent: string }[],
) => {
  const rates = new Map(taxRates.map((t) => [t.id, t]));
  const taxSummary = new Map<string, { taxable: number; amount: number }>();
  for (const line of lines) {
    for (const t of line.taxes) {
      const s = taxSummary.get(t.taxRateId) ?? { taxable: 0, amount: 0 };
      s.taxable += t.base;
      s.amount += t.amount;
      taxSummary.set(t.taxRateId, s);
    }
  }
  return [...taxSummary].map(([taxRateId, s]) => ({
    taxRateId,
    name: rates.get(taxRateId)?.name ?? 'Tax',
    percent: rates.get(taxRateId)?.percent ?? '0',
    ...s,
  }));
};

export const getInvoice = async (
  db: Executor,
  organizationId: string,
  id: string,
  now: Date,
): Promise<Invoice> => {
  const row = await selectInvoice(db, organizationId, id);
  if (!row) throw notFound('Invoice not found.');
  const company = await loadCompany(db, organizationId);
  const today = companyToday(now, company.time_zone);
  const [customer, payments, creditNotes, events, taxRates, creditApplied] = await Promise.all([
    selectCustomer(db, organizationId, row.customer_id),
    selectPayments(db, organizationId, id),
    selectCreditNotes(db, organizationId, id),
    selectEvents(db, organizationId, id),
    selectTaxRates(db, organizationId),
    selectCreditApplied(db, organizationId, id),
  ]);
  const lines = await selectLines(db, organizationId, [id, ...creditNotes.map((n) => n.id)]);
  const currency = row.currency.trim();
  return {
    ...toSummary({ ...row, customer_name: customer?.name ?? '' }, today),
    exchangeRate: row.exchange_rate,
    reference: row.reference,
    notes: row.notes,
    terms: row.terms,
    subtotal: row.subtotal,
    discountTotal: row.discount_total,
    taxTotal: row.tax_total,
    amountPaid: row.amount_paid,
    creditApplied,
    amountCredited: row.amount_credited,
    totalBase: row.total_base,
    balanceBase: row.balance_base,
    taxes: documentTaxes(
      lines.filter((l) => l.document_id === id),
      taxRates,
    ),
    lines: lines.filter((l) => l.document_id === id).map(toDocumentLine),
    payments: payments.map((p) => ({
      id: p.id,
      invoiceId: p.invoice_id,
      date: p.date,
      amount: p.amount,
      currency: p.currency.trim(),
      depositAccountId: p.deposit_account_id,
      depositAccountName: p.deposit_account_name,
      method: p.method,
      reference: p.reference,
      journalEntryId: p.journal_entry_id,
      reversed: p.reversal_entry_id !== null,
      reversalEntryId: p.reversal_entry_id,
      creditAmount: p.credit_amount,
      createdAt: iso(p.created_at as Date)!,
    })),
    creditNotes: creditNotes.map((n) => ({
      id: n.id,
      number: n.number,
      invoiceId: n.invoice_id,
      date: n.date,
      reason: n.reason,
      subtotal: n.subtotal,
      taxTotal: n.tax_total,
      total: n.total,
      currency: n.currency.trim(),
      status: n.status,
      journalEntryId: n.journal_entry_id,
      toCredit: n.to_credit,
      lines: lines.filter((l) => l.document_id === n.id).map(toDocumentLine),
      createdAt: iso(n.created_at as Date)!,
    })),
    history: events.map((e) => ({
      id: e.id,
      at: iso(e.created_at as Date)!,
      kind: e.kind,
      message: e.message,
      actorName: e.actor_name ?? null,
    })),
    journalEntryId: row.journal_entry_id,
    voidEntryId: row.void_entry_id,
    emailedAt: iso(row.emailed_at as Date | null),
    recurringScheduleId: row.recurring_schedule_id,
    customer: {
      name: customer?.name ?? '',
      company: customer?.company ?? '',
      email: customer?.email ?? '',
      billingAddress: customer?.billing_address ?? '',
      taxNumber: customer?.tax_number ?? '',
    },
    currency,
    createdAt: iso(row.created_at as Date)!,
    updatedAt: iso(row.updated_at as Date)!,
  };
};

export const toSummary = (
  row: Pick<
    InvoiceRow,
    | 'id'
    | 'number'
    | 'customer_id'
    | 'issue_date'
    | 'due_date'
    | 'currency'
    | 'total'
    | 'amount_due'
    | 'status'
    | 'sent_at'
  > & { customer_name: string },
  today: string,
): InvoiceSummary => ({
  id: row.id,
  number: row.number,
  customerId: row.customer_id,
  customerName: row.customer_name,
  issueDate: row.issue_date,
  dueDate: row.due_date,
  currency: row.currency.trim(),
  total: row.total,
  amountDue: row.status === 'void' ? 0 : row.amount_due,
  status: displayStatus(row.status, row.due_date, today),
  storedStatus: row.status,
  sentAt: iso(row.sent_at as Date | null),
});

const listFilter = (query: InvoiceListQuery, today: string) => ({
  status: query.status,
  search: query.search || undefined,
  customerId: query.customerId,
  today,
});

/** One page of the invoice list with the totals per status (the list page's query). */
export const selectInvoiceList = async (
  db: Executor,
  organizationId: string,
  query: InvoiceListQuery,
  now: Date,
): Promise<InvoiceList> => {
  const company = await loadCompany(db, organizationId);
  const today = companyToday(now, company.time_zone);
  const filter = listFilter(query, today);
  const [rows, totals] = await Promise.all([
    selectInvoicePage(db, organizationId, {
      ...filter,
      sort: query.sort,
      order: query.order,
      limit: query.pageSize,
      offset: (query.page - 1) * query.pageSize,
    }),
    selectStatusTotals(db, organizationId, filter),
  ]);
  const totalsByStatus = Object.fromEntries(
    [...INVOICE_STATUSES, 'all'].map((s) => [s, { count: 0, total: 0, amountDue: 0 }]),
  ) as InvoiceList['totalsByStatus'];
  for (const t of totals) {
    const bucket = totalsByStatus[t.status as keyof typeof totalsByStatus];
    if (!bucket) continue;
    bucket.count += Number(t.count);
    bucket.total += Number(t.total);
    bucket.amountDue += Number(t.amount_due);
    totalsByStatus.all.count += Number(t.count);
    totalsByStatus.all.total += t.status === 'void' || t.status === 'draft' ? 0 : Number(t.total);
    totalsByStatus.all.amountDue += Number(t.amount_due);
  }
  // "Sent" and "Partially paid" chips count the ones not yet overdue; the overdue bucket has the rest.
  return {
    items: rows.map((r) => toSummary(r, today)),
    page: query.page,
    pageSize: query.pageSize,
    totalCount: query.status === 'all' ? totalsByStatus.all.count : totalsByStatus[query.status].count,
    baseCurrency: company.base_currency,
    totalsByStatus,
  };
};

export const listInvoices = (ctx: AppContext, member: MemberContext, query: InvoiceListQuery) =>
  selectInvoiceList(ctx.database.db, member.organizationId, query, ctx.now());

export const readInvoice = (ctx: AppContext, member: MemberContext, input: { invoiceId: string }) =>
  getInvoice(ctx.database.db, member.organizationId, input.invoiceId, ctx.now());

/** All matching rows (no paging) for the CSV export, in pages of 1000 so memory stays flat. */
async function* exportInvoiceRows(
  db: Executor,
  organizationId: string,
  query: InvoiceListQuery,
  today: string,
) {
  for (let offset = 0; ; offset += 1000) {
    const rows: InvoiceListRow[] = await selectInvoicePage(db, organizationId, {
      ...listFilter(query, today),
      sort: query.sort,
      order: query.order,
      limit: 1000,
      offset,
    });
    for (const r of rows) yield toSummary(r, today);
    if (rows.length < 1000) return;
  }
}

/** The filtered invoice list as CSV rows, and the file's dated name. */
export const exportInvoicesCsv = async (
  ctx: AppContext,
  member: MemberContext,
  filter: Omit<InvoiceListQuery, 'page' | 'pageSize'>,
) => {
  const db = ctx.database.db;
  const { organizationId } = member;
  const company = await loadCompany(db, organizationId);
  const today = companyToday(ctx.now(), company.time_zone);
  const rows: CsvCell[][] = [
    ['Number', 'Customer', 'Issue date', 'Due date', 'Status', 'Currency', 'Total', 'Amount due'],
  ];
  for await (const r of exportInvoiceRows(
    db,
    organizationId,
    { ...filter, page: 1, pageSize: 1000 },
    today,
  )) {
    rows.push([
      r.number ?? 'Draft',
      r.customerName,
      r.issueDate,
      r.dueDate,
      STATUS_LABELS[r.status],
      r.currency,
      csvAmount(r.total, r.currency),
      csvAmount(r.amountDue, r.currency),
    ]);
  }
  return { fileName: `invoices-${today}.csv`, rows };
};

/** What the audit log keeps of an invoice before and after a change. */
export const auditView = (invoice: Invoice) => ({
  number: invoice.number,
  status: invoice.storedStatus,
  customerId: invoice.customerId,
  issueDate: invoice.issueDate,
  dueDate: invoice.dueDate,
  currency: invoice.currency,
  exchangeRate: invoice.exchangeRate,
  subtotal: invoice.subtotal,
  taxTotal: invoice.taxTotal,
  total: invoice.total,
  amountPaid: invoice.amountPaid,
  amountCredited: invoice.amountCredited,
  lines: invoice.lines.map((l) => ({
    description: l.description,
    quantity: l.quantity,
    unitPrice: l.unitPrice,
    discountPercent: l.discountPercent,
    taxRateIds: l.taxRateIds,
    total: l.total,
  })),
});

/** Audits a change to an invoice (how it was, if it was, and how it is now); answers the invoice now. */
export const auditInvoice = async (
  trx: Executor,
  actor: Actor,
  id: string,
  action: AuditAction,
  before?: Invoice,
) => {
  const after = await getInvoice(trx, actor.organizationId, id, actor.now);
  await recordActorAudit(trx, actor, action, ['invoice', id], {
    ...(before ? { before: auditView(before) } : {}),
    after: auditView(after),
  });
  return after;
};
