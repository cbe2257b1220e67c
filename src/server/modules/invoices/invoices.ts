import type { z } from 'zod';
import { badRequest } from '../../../shared/errors.ts';
import { addDaysIso, type invoiceInputSchema, type invoiceUpdateSchema } from '../../../shared/invoices.ts';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import {
  checkCurrency,
  checkDraftTotals,
  lineRows,
  loadCompany,
  prepareLines,
  requireCustomer,
} from './common.ts';
import {
  type Actor,
  actorOf,
  addEvent,
  lockInvoice,
  recordActorAudit,
  refuseTransition,
} from './documents.ts';
import { auditInvoice, auditView, getInvoice } from './invoice-read.ts';
import { type Executor, deleteLines, insertCompanyRow, updateCompanyRow } from './queries.ts';
import { emitInvoiceEvent } from '../webhooks/emit.ts';

// Invoice drafts. A draft has no ledger effect and can be edited or deleted; sending it
// (invoice-posting.ts) takes the next number and posts receivable, income and tax; after that
// it changes only through payments, credit notes or a void. Reading: invoice-read.ts.

export type { Actor };

const checkRate = (currency: string, baseCurrency: string, rate: string | undefined) => {
  checkCurrency(currency);
  if (currency === baseCurrency) return '1';
  if (!rate) {
    throw badRequest(
      'exchange_rate_required',
      `Enter the exchange rate: how many ${baseCurrency} one ${currency} is worth on the issue date.`,
    );
  }
  return rate;
};

/** The draft, locked, and how it looks before the change; refuses an invoice that is not a draft. */
const lockDraft = async (trx: Executor, actor: Actor, id: string, action: string, hint: string) => {
  const row = await lockInvoice(trx, actor.organizationId, id);
  if (row.status !== 'draft') throw refuseTransition(action, row.status, hint);
  return { row, before: await getInvoice(trx, actor.organizationId, id, actor.now) };
};

type DraftFields = z.output<typeof invoiceInputSchema>;

/** Creates a draft: for the API (createInvoice) and the recurring runner (inside its transaction). */
export const createDraft = (
  db: Executor,
  actor: Actor,
  input: DraftFields,
  options: { recurringScheduleId?: string | null } = {},
) =>
  inTransaction(db, async (trx) => {
    const { organizationId } = actor;
    const company = await loadCompany(trx, organizationId);
    const customer = await requireCustomer(trx, organizationId, input.customerId);
    if (customer.archived_at)
      throw badRequest('customer_archived', `${customer.name} is archived. Restore the customer first.`);
    const currency = input.currency ?? customer.currency.trim();
    const exchangeRate = checkRate(currency, company.base_currency, input.exchangeRate);
    const dueDate = input.dueDate ?? addDaysIso(input.issueDate, customer.payment_terms_days);
    if (dueDate < input.issueDate)
      throw badRequest('invalid_due_date', 'The due date cannot be before the issue date.');
    const { lines, totals } = await prepareLines(trx, organizationId, input.lines, {
      allowArchived: Boolean(options.recurringScheduleId),
    });
    const id = await insertCompanyRow(trx, 'invoices', organizationId, {
      number: null,
      customer_id: customer.id,
      issue_date: input.issueDate,
      due_date: dueDate,
      currency,
      exchange_rate: exchangeRate,
      reference: input.reference,
      notes: input.notes,
      terms: input.terms,
      subtotal: totals.subtotal,
      discount_total: totals.discountTotal,
      tax_total: totals.taxTotal,
      total: totals.total,
      journal_entry_id: null,
      void_entry_id: null,
      recurring_schedule_id: options.recurringScheduleId ?? null,
      created_by: actor.userId,
      created_at: actor.now,
      updated_at: actor.now,
    });
    await trx
      .insertInto('invoice_lines')
      .values(lineRows(organizationId, id, lines))
      .execute();
    await checkDraftTotals(trx, organizationId, id);
    await addEvent(
      trx,
      actor,
      id,
      'created',
      options.recurringScheduleId ? 'Draft created by a recurring schedule' : 'Draft created',
    );
    await emitInvoiceEvent(trx, actor, 'invoice.created', id);
    return auditInvoice(trx, actor, id, 'invoice.created');
  });

export const createInvoice = (ctx: AppContext, member: MemberContext, input: DraftFields) =>
  createDraft(ctx.database.db, actorOf(ctx, member), input);

export const updateInvoice = (
  ctx: AppContext,
  member: MemberContext,
  { invoiceId: id, ...input }: z.output<typeof invoiceUpdateSchema> & { invoiceId: string },
) =>
  inTransaction(ctx.database.db, async (trx) => {
    const actor = actorOf(ctx, member);
    const { organizationId } = actor;
    const { row, before } = await lockDraft(
      trx,
      actor,
      id,
      'edited',
      'Sent invoices change through a credit note or a void.',
    );
    const company = await loadCompany(trx, organizationId);
    const customerId = input.customerId ?? row.customer_id;
    const customer = await requireCustomer(trx, organizationId, customerId);
    const currency = input.currency ?? (input.customerId ? customer.currency.trim() : row.currency);
    const exchangeRate = checkRate(
      currency,
      company.base_currency,
      input.exchangeRate ??
        (currency === row.currency && row.exchange_rate !== '1' ? row.exchange_rate : undefined),
    );
    const issueDate = input.issueDate ?? row.issue_date;
    const dueDate =
      input.dueDate ??
      (input.issueDate || input.customerId
        ? addDaysIso(issueDate, customer.payment_terms_days)
        : row.due_date);
    if (dueDate < issueDate)
      throw badRequest('invalid_due_date', 'The due date cannot be before the issue date.');
    let totalsUpdate = {};
    if (input.lines) {
      const { lines, totals } = await prepareLines(trx, organizationId, input.lines);
      await deleteLines(trx, organizationId, id);
      await trx
        .insertInto('invoice_lines')
        .values(lineRows(organizationId, id, lines))
        .execute();
      totalsUpdate = {
        subtotal: totals.subtotal,
        discount_total: totals.discountTotal,
        tax_total: totals.taxTotal,
        total: totals.total,
      };
    }
    await updateCompanyRow(trx, 'invoices', organizationId, id, {
      customer_id: customerId,
      issue_date: issueDate,
      due_date: dueDate,
      currency,
      exchange_rate: exchangeRate,
      ...(input.reference !== undefined ? { reference: input.reference } : {}),
      ...(input.notes !== undefined ? { notes: input.notes } : {}),
      ...(input.terms !== undefined ? { terms: input.terms } : {}),
      ...totalsUpdate,
      updated_at: actor.now,
    });
    await checkDraftTotals(trx, organizationId, id);
    await addEvent(trx, actor, id, 'updated', 'Draft edited');
    return auditInvoice(trx, actor, id, 'invoice.updated', before);
  });

export const deleteInvoice = (
  ctx: AppContext,
  member: MemberContext,
  { invoiceId: id }: { invoiceId: string },
) =>
  inTransaction(ctx.database.db, async (trx) => {
    const actor = actorOf(ctx, member);
    const { organizationId } = actor;
    const { before } = await lockDraft(
      trx,
      actor,
      id,
      'deleted',
      'Void it instead; the posting is then reversed.',
    );
    await deleteLines(trx, organizationId, id);
    await trx
      .deleteFrom('invoices')
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .execute();
    await recordActorAudit(trx, actor, 'invoice.deleted', ['invoice', id], {
      before: auditView(before),
    });
  });
