import { notFound } from '../../../shared/errors.ts';
import { type Bill, type BillSummary, billDisplayStatus } from '../../../shared/payables.ts';
import type { AppContext } from '../../context.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import type { AuditAction } from '../audit/actions.ts';
import { companyToday, iso, loadCompany, toBase } from '../invoices/common.ts';
import { documentTaxes, toDocumentLine } from '../invoices/invoice-read.ts';
import { selectTaxRates } from '../invoices/queries.ts';
import {
  selectBillAttachments,
  selectBillEvents,
  selectBillLines,
  selectBillPayments,
  selectCreditsApplied,
  selectSupplier,
} from './bills-queries.ts';
import { type Actor, type BillRow, recordActorAudit } from './documents.ts';
import { type Executor, selectBill } from './queries.ts';

// Reading one bill: its lines, taxes, payments, credits applied, history, attachments and
// whether it needs approval. Overdue is derived from the due date and the company's today.

/** A bill line as the API shows it (the one shape of every document line). */
export const toBillLine = toDocumentLine;

export type BillSummaryRow = Pick<
  BillRow,
  | 'id'
  | 'number'
  | 'supplier_id'
  | 'reference'
  | 'issue_date'
  | 'due_date'
  | 'currency'
  | 'total'
  | 'amount_due'
  | 'status'
> & { supplier_name: string };

export const toBillSummary = (row: BillSummaryRow, today: string): BillSummary => ({
  id: row.id,
  number: row.number,
  supplierId: row.supplier_id,
  supplierName: row.supplier_name,
  reference: row.reference,
  issueDate: row.issue_date,
  dueDate: row.due_date,
  currency: row.currency.trim(),
  total: row.total,
  amountDue: row.status === 'void' ? 0 : row.amount_due,
  status: billDisplayStatus(row.status, row.due_date, today),
  storedStatus: row.status,
});

/** Whether a bill of this base total must wait for approval under the threshold (null: never). */
export const aboveThreshold = (totalBase: number, threshold: number | null) =>
  threshold !== null && totalBase > threshold;

export const getBill = async (db: Executor, organizationId: string, id: string, now: Date): Promise<Bill> => {
  const row = await selectBill(db, organizationId, id);
  if (!row) throw notFound('Bill not found.');
  const company = await loadCompany(db, organizationId);
  const today = companyToday(now, company.time_zone);
  const [supplier, lines, payments, credits, events, attachments, taxRates, settings] = await Promise.all([
    selectSupplier(db, organizationId, row.supplier_id),
    selectBillLines(db, organizationId, [id]),
    selectBillPayments(db, organizationId, id),
    selectCreditsApplied(db, organizationId, id),
    selectBillEvents(db, organizationId, id),
    selectBillAttachments(db, organizationId, id),
    selectTaxRates(db, organizationId),
    db
      .selectFrom('payables_settings')
      .select('approval_threshold')
      .where('organization_id', '=', organizationId)
      .executeTakeFirst(),
  ]);
  const currency = row.currency.trim();
  const threshold = settings?.approval_threshold ?? null;
  const totalBase =
    row.status === 'draft' || row.status === 'awaiting_approval'
      ? toBase(row.total, currency, row.exchange_rate, company.base_currency)
      : row.total_base;
  return {
    ...toBillSummary({ ...row, supplier_name: supplier?.name ?? '' }, today),
    currency,
    exchangeRate: row.exchange_rate,
    notes: row.notes,
    subtotal: row.subtotal,
    discountTotal: row.discount_total,
    taxTotal: row.tax_total,
    amountPaid: row.amount_paid,
    amountCredited: row.amount_credited,
    totalBase: row.total_base,
    balanceBase: row.balance_base,
    taxes: documentTaxes(lines, taxRates),
    lines: lines.map(toBillLine),
    payments: payments.map((p) => ({
      id: p.id,
      billId: p.bill_id,
      batchId: p.batch_id,
      date: p.date,
      amount: p.amount,
      currency: p.currency.trim(),
      exchangeRate: p.exchange_rate,
      paymentAccountId: p.payment_account_id,
      paymentAccountName: p.payment_account_name,
      method: p.method,
      reference: p.reference,
      journalEntryId: p.journal_entry_id,
      bankTransactionId: p.bank_transaction_id ?? null,
      reversed: p.reversal_entry_id !== null,
      reversalEntryId: p.reversal_entry_id,
      createdAt: iso(p.created_at as Date)!,
    })),
    creditsApplied: credits.map((c) => ({
      id: c.id,
      creditId: c.credit_id,
      creditNumber: c.credit_number,
      date: c.date,
      amount: c.amount,
      reversed: c.reversed_at !== null,
    })),
    history: events.map((e) => ({
      id: e.id,
      at: iso(e.created_at as Date)!,
      kind: e.kind,
      message: e.message,
      actorName: e.actor_name ?? null,
    })),
    attachments: attachments.map((a) => ({
      id: a.id,
      fileName: a.file_name,
      contentType: a.content_type,
      sizeBytes: Number(a.size_bytes),
      createdAt: iso(a.created_at as Date)!,
    })),
    needsApproval: aboveThreshold(totalBase, threshold === null ? null : Number(threshold)),
    submittedAt: iso(row.submitted_at as Date | null),
    submittedBy: row.submitted_by,
    approvedAt: iso(row.approved_at as Date | null),
    approvedBy: row.approved_by,
    journalEntryId: row.journal_entry_id,
    voidEntryId: row.void_entry_id,
    scheduleId: row.schedule_id,
    supplier: {
      name: supplier?.name ?? '',
      company: supplier?.company ?? '',
      email: supplier?.email ?? '',
      address: supplier?.address ?? '',
      taxNumber: supplier?.tax_number ?? '',
      bankAccountName: supplier?.bank_account_name ?? '',
      bankAccountNumber: supplier?.bank_account_number ?? '',
      bankCode: supplier?.bank_code ?? '',
    },
    createdAt: iso(row.created_at as Date)!,
    updatedAt: iso(row.updated_at as Date)!,
  };
};

export const readBill = (ctx: AppContext, member: MemberContext, input: { billId: string }) =>
  getBill(ctx.database.db, member.organizationId, input.billId, ctx.now());

/** What the audit log keeps of a bill before and after a change. */
export const billAuditView = (bill: Bill) => ({
  number: bill.number,
  status: bill.storedStatus,
  supplierId: bill.supplierId,
  reference: bill.reference,
  issueDate: bill.issueDate,
  dueDate: bill.dueDate,
  currency: bill.currency,
  exchangeRate: bill.exchangeRate,
  subtotal: bill.subtotal,
  taxTotal: bill.taxTotal,
  total: bill.total,
  totalBase: bill.totalBase,
  amountPaid: bill.amountPaid,
  amountCredited: bill.amountCredited,
  lines: bill.lines.map((l) => ({
    description: l.description,
    accountId: l.accountId,
    quantity: l.quantity,
    unitPrice: l.unitPrice,
    discountPercent: l.discountPercent,
    taxRateIds: l.taxRateIds,
    total: l.total,
  })),
});

/** Audits a change to a bill (how it was, if it was, and how it is now); answers the bill now. */
export const auditBill = async (
  trx: Executor,
  actor: Actor,
  id: string,
  action: AuditAction,
  before?: Bill,
) => {
  const after = await getBill(trx, actor.organizationId, id, actor.now);
  await recordActorAudit(trx, actor, action, ['bill', id], {
    ...(before ? { before: billAuditView(before) } : {}),
    after: billAuditView(after),
  });
  return after;
};
