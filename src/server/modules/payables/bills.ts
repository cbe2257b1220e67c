import type { z } from 'zod';
import { badRequest, conflict, notFound } from '../../../shared/errors.ts';
import { addDaysIso } from '../../../shared/invoice-calc.ts';
import { formatDocumentNumber } from '../../../shared/invoices.ts';
import { AMOUNT_LIMIT_MESSAGE, LEDGER_VOLUME_LIMIT, MAX_AMOUNT_MINOR } from '../../../shared/money.ts';
import type { billInputSchema, billUpdateSchema } from '../../../shared/payables.ts';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { checkCurrency, loadCompany } from '../invoices/common.ts';
import { selectRateOn } from '../wallet/queries.ts';
import { tidyRate } from '../wallet/rates.ts';
import { insertBillLines, resolveBillLines } from './bill-lines.ts';
import { auditBill, billAuditView, getBill } from './bill-read.ts';
import {
  deleteBillLines,
  selectLiveBillWithReference,
  selectSupplier,
  selectUnpostedTotals,
  takeBillNumber,
} from './bills-queries.ts';
import {
  type Actor,
  type LockedBill,
  actorOf,
  addBillEvent,
  billChange,
  recordActorAudit,
  refuseBillTransition,
} from './documents.ts';
import { type Executor, insertPayablesRow, updatePayablesRow } from './queries.ts';

// Bills before they post: recording one (it takes its number at once, BILL-0001), editing and
// deleting it while it is a draft or awaits approval. An edit of a bill awaiting approval sends
// it back to draft — the approver must see what they approve. Posting, approval and void are in
// bill-posting.ts and approval.ts; reading in bill-read.ts.
//
// Duplicates: a live (not void) bill with the same supplier and reference, ignoring case, is
// refused (409 duplicate_bill naming it). The partial unique index bills_supplier_reference is
// the backstop, so there is no "save anyway": two live bills can never share a reference, and a
// race that reaches the index answers the same 409.

export type BillFields = z.output<typeof billInputSchema>;
type BillChanges = z.output<typeof billUpdateSchema>;

/** The bill's supplier: 404 when it is not in the company, 400 when archived. */
export const requireSupplier = async (db: Executor, organizationId: string, id: string) => {
  const supplier = await selectSupplier(db, organizationId, id);
  if (!supplier) throw notFound('Supplier not found in this company. Choose one of its suppliers.');
  if (supplier.archived_at)
    throw badRequest('supplier_archived', `${supplier.name} is archived. Restore the supplier first.`);
  return { ...supplier, currency: supplier.currency.trim() };
};

/**
 * The rate of a bill: 1 in the base currency; else the one given, or the latest rate on or
 * before the issue date from the company's exchange rates (Wallet), or 400 asking for it.
 */
export const billRate = async (
  db: Executor,
  organizationId: string,
  currency: string,
  baseCurrency: string,
  date: string,
  given: string | undefined,
) => {
  checkCurrency(currency);
  if (currency === baseCurrency) return '1';
  if (given) return given;
  const found = await selectRateOn(db, organizationId, currency, date);
  if (!found) {
    throw badRequest(
      'exchange_rate_required',
      `Enter the exchange rate: how many ${baseCurrency} one ${currency} is worth on ${date}, or add the day's rate in Wallet → Exchange rates first.`,
      { currency, date },
    );
  }
  return tidyRate(found.rate);
};

const duplicateBill = (existing: { id: string; number: string }, supplierName: string, reference: string) =>
  conflict(
    'duplicate_bill',
    `Bill ${existing.number} from ${supplierName} already has reference ${reference}. Check it is not the same bill, or add a suffix to the reference.`,
    { billId: existing.id, number: existing.number },
  );

const refuseDuplicate = async (
  db: Executor,
  organizationId: string,
  supplier: { id: string; name: string },
  reference: string,
  exceptId?: string,
) => {
  const existing = await selectLiveBillWithReference(db, organizationId, supplier.id, reference, exceptId);
  if (existing) throw duplicateBill(existing, supplier.name, existing.reference);
};

const isReferenceViolation = (error: unknown) => {
  if (typeof error !== 'object' || error === null) return false;
  const e = error as { code?: string; constraint?: string; message?: string };
  return (
    e.code === '23505' &&
    (e.constraint === 'bills_supplier_reference' || String(e.message).includes('bills_supplier_reference'))
  );
};

/**
 * Runs a change that may store a supplier reference; when a concurrent request took the same
 * reference first (the unique index refused ours), answers the 409 a check would have given.
 */
const guardingReference = async <T>(
  ctx: AppContext,
  organizationId: string,
  target: () => Promise<{ supplierId: string; reference: string } | null>,
  work: () => Promise<T>,
) => {
  try {
    return await work();
  } catch (error) {
    if (!isReferenceViolation(error)) throw error;
    const wanted = await target();
    const db = ctx.database.db;
    const supplier = wanted && (await selectSupplier(db, organizationId, wanted.supplierId));
    const existing =
      wanted && (await selectLiveBillWithReference(db, organizationId, wanted.supplierId, wanted.reference));
    if (supplier && existing) throw duplicateBill(existing, supplier.name, existing.reference);
    throw conflict('duplicate_bill', 'Another live bill from this supplier already has this reference.');
  }
};

/**
 * Drafts and bills awaiting approval post nothing, so the ledger's limits do not cover them;
 * the list sums their base totals. After one is saved: its base total within the amount bound
 * (400 amount_too_large), and all of them together within the ledger volume limit (409).
 */
const checkUnpostedTotals = async (db: Executor, organizationId: string, billId: string) => {
  const { own, all } = await selectUnpostedTotals(db, organizationId, billId);
  if (own > BigInt(MAX_AMOUNT_MINOR)) {
    throw badRequest(
      'amount_too_large',
      `The bill total in the base currency (${own} minor units at this exchange rate) is too large. ${AMOUNT_LIMIT_MESSAGE}`,
      { field: 'exchangeRate' },
    );
  }
  if (all > BigInt(LEDGER_VOLUME_LIMIT)) {
    throw conflict(
      'draft_total_limit',
      'All unposted bills together would be worth more than 1,000,000,000,000,000 minor units in the base currency. Submit or delete some first; nothing was saved.',
    );
  }
};

const totalsColumns = (totals: {
  subtotal: number;
  discountTotal: number;
  taxTotal: number;
  total: number;
}) => ({
  subtotal: totals.subtotal,
  discount_total: totals.discountTotal,
  tax_total: totals.taxTotal,
  total: totals.total,
});

/** Records a bill as a draft (its number taken now) inside the caller's transaction; answers the bill. */
const recordBill = async (
  trx: Executor,
  actor: Actor,
  input: BillFields,
  options: { scheduleId?: string } = {},
) => {
  const { organizationId } = actor;
  const company = await loadCompany(trx, organizationId);
  const supplier = await requireSupplier(trx, organizationId, input.supplierId);
  const currency = input.currency ?? supplier.currency;
  const exchangeRate = await billRate(
    trx,
    organizationId,
    currency,
    company.base_currency,
    input.issueDate,
    input.exchangeRate,
  );
  const dueDate = input.dueDate ?? addDaysIso(input.issueDate, supplier.payment_terms_days);
  if (dueDate < input.issueDate)
    throw badRequest('invalid_due_date', 'The due date cannot be before the bill date.');
  const reference = input.reference ?? '';
  await refuseDuplicate(trx, organizationId, supplier, reference);
  const { lines, totals } = await resolveBillLines(
    trx,
    organizationId,
    input.lines,
    { accountId: supplier.default_account_id, taxRateId: supplier.default_tax_rate_id },
    { allowArchived: Boolean(options.scheduleId) },
  );
  const numbering = await takeBillNumber(trx, organizationId);
  const id = await insertPayablesRow(trx, 'bills', organizationId, {
    number: formatDocumentNumber(numbering.prefix, numbering.number),
    supplier_id: supplier.id,
    reference,
    issue_date: input.issueDate,
    due_date: dueDate,
    currency,
    exchange_rate: exchangeRate,
    notes: input.notes ?? '',
    status: 'draft',
    ...totalsColumns(totals),
    journal_entry_id: null,
    void_entry_id: null,
    schedule_id: options.scheduleId ?? null,
    created_by: actor.userId,
    created_at: actor.now,
    updated_at: actor.now,
  });
  await insertBillLines(trx, organizationId, id, lines);
  await checkUnpostedTotals(trx, organizationId, id);
  await addBillEvent(
    trx,
    actor,
    id,
    'created',
    options.scheduleId ? 'Draft created by a recurring schedule' : 'Draft recorded',
  );
  return auditBill(trx, actor, id, 'bill.created');
};

/**
 * Creates a draft bill in the caller's transaction (the API, the recurring runner with its
 * schedule's id); answers its id. A duplicate reference is 409 duplicate_bill.
 */
export const createBillDocument = async (
  trx: Executor,
  actor: Actor,
  input: BillFields,
  options: { scheduleId?: string } = {},
) => (await recordBill(trx, actor, input, options)).id;

export const createBill = (ctx: AppContext, member: MemberContext, input: BillFields) =>
  guardingReference(
    ctx,
    member.organizationId,
    async () => ({ supplierId: input.supplierId, reference: input.reference ?? '' }),
    () => inTransaction(ctx.database.db, (trx) => recordBill(trx, actorOf(ctx, member), input)),
  );

/** A bill that has not posted yet, or 409 saying what to do instead. */
const refuseUnlessUnposted = (row: LockedBill, action: string) => {
  if (row.status === 'draft' || row.status === 'awaiting_approval') return;
  throw refuseBillTransition(
    action,
    row.status,
    row.status === 'void'
      ? 'A void bill stays as it is; record a new bill instead.'
      : 'It is posted: void it (when nothing is paid or credited) and record it again, or take a supplier credit for the difference.',
  );
};

const editBill = billChange(
  async (trx, actor, row, { billId: id, ...input }: BillChanges & { billId: string }) => {
    const { organizationId } = actor;
    refuseUnlessUnposted(row, 'edited');
    const before = await getBill(trx, organizationId, id, actor.now);
    const company = await loadCompany(trx, organizationId);
    const supplier = await requireSupplier(trx, organizationId, input.supplierId ?? row.supplier_id);
    const supplierChanged = supplier.id !== row.supplier_id;
    const currency = input.currency ?? (supplierChanged ? supplier.currency : row.currency);
    const issueDate = input.issueDate ?? row.issue_date;
    const keptRate = currency === row.currency && row.exchange_rate !== '1' ? row.exchange_rate : undefined;
    const exchangeRate = await billRate(
      trx,
      organizationId,
      currency,
      company.base_currency,
      issueDate,
      input.exchangeRate ?? keptRate,
    );
    const dueDate =
      input.dueDate ??
      (input.issueDate || supplierChanged
        ? addDaysIso(issueDate, supplier.payment_terms_days)
        : row.due_date);
    if (dueDate < issueDate)
      throw badRequest('invalid_due_date', 'The due date cannot be before the bill date.');
    const reference = input.reference ?? row.reference;
    await refuseDuplicate(trx, organizationId, supplier, reference, id);
    let totals = {};
    if (input.lines) {
      const resolved = await resolveBillLines(trx, organizationId, input.lines, {
        accountId: supplier.default_account_id,
        taxRateId: supplier.default_tax_rate_id,
      });
      await deleteBillLines(trx, organizationId, id);
      await insertBillLines(trx, organizationId, id, resolved.lines);
      totals = totalsColumns(resolved.totals);
    }
    const sentBack = row.status === 'awaiting_approval';
    await updatePayablesRow(trx, 'bills', organizationId, id, {
      supplier_id: supplier.id,
      reference,
      issue_date: issueDate,
      due_date: dueDate,
      currency,
      exchange_rate: exchangeRate,
      ...(input.notes !== undefined ? { notes: input.notes } : {}),
      ...totals,
      ...(sentBack ? { status: 'draft' as const, submitted_at: null, submitted_by: null } : {}),
      updated_at: actor.now,
    });
    await checkUnpostedTotals(trx, organizationId, id);
    await addBillEvent(
      trx,
      actor,
      id,
      sentBack ? 'sent_back' : 'updated',
      sentBack ? 'Edited; sent back for approval' : 'Draft edited',
    );
    return auditBill(trx, actor, id, 'bill.updated', before);
  },
);

export const updateBill = (ctx: AppContext, member: MemberContext, input: BillChanges & { billId: string }) =>
  guardingReference(
    ctx,
    member.organizationId,
    async () => {
      const row = await ctx.database.db
        .selectFrom('bills')
        .select(['supplier_id', 'reference'])
        .where('organization_id', '=', member.organizationId)
        .where('id', '=', input.billId)
        .executeTakeFirst();
      return row
        ? { supplierId: input.supplierId ?? row.supplier_id, reference: input.reference ?? row.reference }
        : null;
    },
    () => editBill(ctx, member, input),
  );

/** Deletes a bill that has not posted (draft or awaiting approval); its number is not reused. */
export const deleteBill = billChange(async (trx, actor, row, { billId: id }: { billId: string }) => {
  const { organizationId } = actor;
  if (row.status === 'void')
    throw refuseBillTransition('deleted', row.status, 'A void bill is kept for the record.');
  if (row.status !== 'draft' && row.status !== 'awaiting_approval') {
    throw refuseBillTransition(
      'deleted',
      row.status,
      'It is posted: void it instead (when nothing is paid or credited); the posting is then reversed.',
    );
  }
  const before = await getBill(trx, organizationId, id, actor.now);
  await deleteBillLines(trx, organizationId, id);
  await trx.deleteFrom('bills').where('organization_id', '=', organizationId).where('id', '=', id).execute();
  await recordActorAudit(trx, actor, 'bill.deleted', ['bill', id], { before: billAuditView(before) });
});
