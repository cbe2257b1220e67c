import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { badRequest, conflict, notFound } from '../../../shared/errors.ts';
import {
  INVOICE_STATUSES,
  type Invoice,
  type InvoiceList,
  type InvoiceListQuery,
  type InvoiceSummary,
  addDaysIso,
  displayStatus,
  formatDocumentNumber,
  type invoiceInputSchema,
  type invoiceUpdateSchema,
} from '../../../shared/invoices.ts';
import { formatMinorPlain, isCurrencyCode } from '../../../shared/money.ts';
import { recordAudit } from '../audit/record.ts';
import { findSystemAccount } from '../ledger/accounts.ts';
import {
  type PostingLineInput,
  inTransaction,
  postJournalEntry,
  reverseJournalEntry,
} from '../ledger/posting.ts';
import {
  checkDraftTotals,
  companyToday,
  iso,
  lineRows,
  loadCompany,
  prepareLines,
  splitToBase,
  toBase,
} from './common.ts';
import {
  type Executor,
  type InvoiceListRow,
  deleteLines,
  insertEvent,
  selectCreditApplied,
  selectCreditNotes,
  selectCustomer,
  selectEvents,
  selectInvoice,
  selectInvoicePage,
  selectLines,
  selectPayments,
  selectStatusTotals,
  selectTaxRates,
  takeDocumentNumber,
} from './queries.ts';

// Invoices from draft to void. A draft has no ledger effect and can be edited or deleted;
// sending it takes the next number and posts receivable, income and tax in the same
// transaction; after that it changes only through payments, credit notes or a void, which
// reverses the posting. Overdue is never stored: it is derived from the due date.

export type Actor = { organizationId: string; userId: string | null; now: Date };

type InvoiceRow = NonNullable<Awaited<ReturnType<typeof selectInvoice>>>;

const lockInvoice = async (db: Executor, organizationId: string, id: string) => {
  const row = await selectInvoice(db, organizationId, id, { forUpdate: true });
  if (!row) throw notFound('Invoice not found.');
  return { ...row, currency: row.currency.trim() };
};

const STATUS_WORDS: Record<string, string> = {
  draft: 'a draft',
  sent: 'sent',
  partially_paid: 'partially paid',
  paid: 'paid',
  void: 'void',
};

/** A refused transition, with the status it is in and what to do instead. */
export const refuseTransition = (action: string, status: string, hint: string) =>
  conflict(
    'invalid_transition',
    `This invoice is ${STATUS_WORDS[status] ?? status}, so it cannot be ${action}. ${hint}`,
    {
      status,
    },
  );

export const addEvent = (db: Executor, actor: Actor, invoiceId: string, kind: string, message: string) =>
  insertEvent(db, {
    organizationId: actor.organizationId,
    invoiceId,
    kind,
    message,
    actorUserId: actor.userId,
    at: actor.now,
  });

const checkRate = (currency: string, baseCurrency: string, rate: string | undefined) => {
  if (!isCurrencyCode(currency))
    throw badRequest('invalid_currency', `"${currency}" is not a currency code.`);
  if (currency === baseCurrency) return '1';
  if (!rate) {
    throw badRequest(
      'exchange_rate_required',
      `Enter the exchange rate: how many ${baseCurrency} one ${currency} is worth on the issue date.`,
    );
  }
  return rate;
};

type DraftFields = z.output<typeof invoiceInputSchema>;

/** Creates a draft. Used by the API and by the recurring runner (inside its transaction). */
export const createInvoice = (
  db: Executor,
  actor: Actor,
  input: DraftFields,
  options: { recurringScheduleId?: string | null } = {},
) =>
  inTransaction(db, async (trx) => {
    const { organizationId } = actor;
    const company = await loadCompany(trx, organizationId);
    const customer = await selectCustomer(trx, organizationId, input.customerId);
    if (!customer) throw badRequest('customer_not_found', 'The customer does not exist in this company.');
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
    const id = randomUUID();
    await trx
      .insertInto('invoices')
      .values({
        organization_id: organizationId,
        id,
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
      })
      .execute();
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
    const invoice = await getInvoice(trx, organizationId, id, actor.now);
    await recordAudit(trx, {
      organizationId,
      actorUserId: actor.userId,
      action: 'invoice.created',
      entityType: 'invoice',
      entityId: id,
      after: auditView(invoice),
    });
    return invoice;
  });

export const updateInvoice = (
  db: Executor,
  actor: Actor,
  id: string,
  input: z.output<typeof invoiceUpdateSchema>,
) =>
  inTransaction(db, async (trx) => {
    const { organizationId } = actor;
    const row = await lockInvoice(trx, organizationId, id);
    if (row.status !== 'draft') {
      throw refuseTransition('edited', row.status, 'Sent invoices change through a credit note or a void.');
    }
    const before = await getInvoice(trx, organizationId, id, actor.now);
    const company = await loadCompany(trx, organizationId);
    const customerId = input.customerId ?? row.customer_id;
    const customer = await selectCustomer(trx, organizationId, customerId);
    if (!customer) throw badRequest('customer_not_found', 'The customer does not exist in this company.');
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
    await trx
      .updateTable('invoices')
      .set({
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
      })
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .execute();
    await checkDraftTotals(trx, organizationId, id);
    await addEvent(trx, actor, id, 'updated', 'Draft edited');
    const after = await getInvoice(trx, organizationId, id, actor.now);
    await recordAudit(trx, {
      organizationId,
      actorUserId: actor.userId,
      action: 'invoice.updated',
      entityType: 'invoice',
      entityId: id,
      before: auditView(before),
      after: auditView(after),
    });
    return after;
  });

export const deleteInvoice = (db: Executor, actor: Actor, id: string) =>
  inTransaction(db, async (trx) => {
    const { organizationId } = actor;
    const row = await lockInvoice(trx, organizationId, id);
    if (row.status !== 'draft') {
      throw refuseTransition('deleted', row.status, 'Void it instead; the posting is then reversed.');
    }
    const before = await getInvoice(trx, organizationId, id, actor.now);
    await deleteLines(trx, organizationId, id);
    await trx
      .deleteFrom('invoices')
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .execute();
    await recordAudit(trx, {
      organizationId,
      actorUserId: actor.userId,
      action: 'invoice.deleted',
      entityType: 'invoice',
      entityId: id,
      before: auditView(before),
    });
  });

/**
 * Sends (approves) a draft: gives it the next number and posts Dr receivable, Cr income per
 * account and Cr tax payable per rate, all in one transaction with the status change.
 */
export const sendInvoice = (db: Executor, actor: Actor, id: string) =>
  inTransaction(db, async (trx) => {
    const { organizationId } = actor;
    const row = await lockInvoice(trx, organizationId, id);
    if (row.status !== 'draft') {
      throw refuseTransition('sent again', row.status, 'Email it to the customer again instead.');
    }
    if (row.total <= 0)
      throw badRequest(
        'invoice_total_zero',
        'An invoice for nothing cannot be sent. Add an amount to a line.',
      );
    const company = await loadCompany(trx, organizationId);
    const base = company.base_currency;
    const lines = await selectLines(trx, organizationId, [id]);
    const taxRates = new Map((await selectTaxRates(trx, organizationId)).map((t) => [t.id, t]));
    const receivable = await findSystemAccount(trx, organizationId, 'accounts_receivable');
    const customer = await selectCustomer(trx, organizationId, row.customer_id);

    const income = new Map<string, number>();
    const taxes = new Map<string, { amount: number; taxable: number }>();
    for (const line of lines) {
      income.set(line.account_id, (income.get(line.account_id) ?? 0) + line.net);
      for (const t of line.taxes) {
        const sum = taxes.get(t.taxRateId) ?? { amount: 0, taxable: 0 };
        sum.amount += t.amount;
        sum.taxable += t.base;
        taxes.set(t.taxRateId, sum);
      }
    }
    const parts = [
      ...[...income].map(([accountId, amount]) => ({ key: `income:${accountId}`, amount })),
      ...[...taxes].map(([taxRateId, t]) => ({ key: `tax:${taxRateId}`, amount: t.amount })),
    ].filter((p) => p.amount > 0);
    const totalBase = toBase(row.total, row.currency, row.exchange_rate, base);
    if (totalBase <= 0) {
      throw badRequest(
        'invoice_total_zero',
        `The invoice comes to nothing in ${base} at this exchange rate.`,
      );
    }
    const splits = splitToBase(parts, row.currency, row.exchange_rate, base, totalBase);
    const foreign = row.currency !== base ? { currency: row.currency, rate: row.exchange_rate } : null;
    const settings = await takeDocumentNumber(trx, organizationId, 'invoice');
    const number = formatDocumentNumber(settings.prefix, settings.number);
    const memo = `Invoice ${number} to ${customer?.name ?? 'customer'}`;
    const ledgerLines: PostingLineInput[] = [
      {
        accountId: receivable.id,
        debit: totalBase,
        ...(foreign ? { ...foreign, amount: row.total } : {}),
        description: memo,
        contactId: row.customer_id,
      },
      ...splits
        .filter((s) => s.base > 0)
        .map((s): PostingLineInput => {
          const [kind, ref] = s.key.split(':') as [string, string];
          const accountId = kind === 'income' ? ref : taxRates.get(ref)!.account_id;
          return {
            accountId,
            credit: s.base,
            ...(foreign ? { ...foreign, amount: s.amount } : {}),
            description: kind === 'tax' ? `${taxRates.get(ref)!.name} on ${number}` : memo,
            contactId: row.customer_id,
          };
        }),
    ];
    const entry = await postJournalEntry(trx, {
      organizationId,
      date: row.issue_date,
      memo,
      reference: number,
      source: 'invoice',
      sourceId: id,
      lines: ledgerLines,
      actorUserId: actor.userId,
    });
    const taxRows = [...taxes].map(([taxRateId, t]) => ({
      organization_id: organizationId,
      document_id: id,
      tax_rate_id: taxRateId,
      date: row.issue_date,
      taxable_base: toBase(t.taxable, row.currency, row.exchange_rate, base),
      tax_base: splits.find((s) => s.key === `tax:${taxRateId}`)?.base ?? 0,
    }));
    if (taxRows.length > 0) await trx.insertInto('invoice_tax_postings').values(taxRows).execute();
    const before = await getInvoice(trx, organizationId, id, actor.now);
    await trx
      .updateTable('invoices')
      .set({
        status: 'sent',
        number,
        journal_entry_id: entry.id,
        total_base: totalBase,
        balance_base: totalBase,
        sent_at: actor.now,
        updated_at: actor.now,
      })
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .execute();
    await addEvent(trx, actor, id, 'sent', `Sent as ${number}; journal entry ${entry.number} posted`);
    const after = await getInvoice(trx, organizationId, id, actor.now);
    await recordAudit(trx, {
      organizationId,
      actorUserId: actor.userId,
      action: 'invoice.sent',
      entityType: 'invoice',
      entityId: id,
      before: auditView(before),
      after: auditView(after),
    });
    return after;
  });

/** Voids a sent invoice with nothing paid or credited: its posting is reversed on its own date. */
export const voidInvoice = (db: Executor, actor: Actor, id: string, reason: string) =>
  inTransaction(db, async (trx) => {
    const { organizationId } = actor;
    const row = await lockInvoice(trx, organizationId, id);
    if (row.status === 'draft') throw refuseTransition('voided', row.status, 'Delete the draft instead.');
    if (row.status === 'void') throw refuseTransition('voided', row.status, 'It is already void.');
    if (row.amount_paid > 0) {
      throw refuseTransition(
        'voided',
        row.status,
        'It has payments: delete them first (each is reversed in the ledger).',
      );
    }
    if (row.amount_credited > 0) {
      throw refuseTransition('voided', row.status, 'It has credit notes: void them first.');
    }
    const before = await getInvoice(trx, organizationId, id, actor.now);
    const reversal = await reverseJournalEntry(trx, {
      organizationId,
      entryId: row.journal_entry_id!,
      memo: `Void of invoice ${row.number}${reason ? `: ${reason}` : ''}`,
      actorUserId: actor.userId,
    });
    await trx
      .deleteFrom('invoice_tax_postings')
      .where('organization_id', '=', organizationId)
      .where('document_id', '=', id)
      .execute();
    await trx
      .updateTable('invoices')
      .set({
        status: 'void',
        void_entry_id: reversal.id,
        voided_at: actor.now,
        balance_base: 0,
        updated_at: actor.now,
      })
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .execute();
    await addEvent(
      trx,
      actor,
      id,
      'voided',
      `Voided${reason ? `: ${reason}` : ''}; journal entry ${reversal.number} reverses the posting`,
    );
    const after = await getInvoice(trx, organizationId, id, actor.now);
    await recordAudit(trx, {
      organizationId,
      actorUserId: actor.userId,
      action: 'invoice.voided',
      entityType: 'invoice',
      entityId: id,
      before: auditView(before),
      after: auditView(after),
    });
    return after;
  });

export const markEmailed = async (db: Executor, actor: Actor, id: string, to: string) => {
  await db
    .updateTable('invoices')
    .set({ emailed_at: actor.now })
    .where('organization_id', '=', actor.organizationId)
    .where('id', '=', id)
    .execute();
  await addEvent(db, actor, id, 'emailed', `Emailed to ${to} with the PDF attached`);
  await recordAudit(db, {
    organizationId: actor.organizationId,
    actorUserId: actor.userId,
    action: 'invoice.emailed',
    entityType: 'invoice',
    entityId: id,
    after: { to },
  });
};

// --- Reading -------------------------------------------------------------------------------

type LineRow = Awaited<ReturnType<typeof selectLines>>[number];

const toLine = (l: LineRow) => ({
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
  const rates = new Map(taxRates.map((t) => [t.id, t]));
  const taxSummary = new Map<string, { taxable: number; amount: number }>();
  for (const line of lines.filter((l) => l.document_id === id)) {
    for (const t of line.taxes) {
      const s = taxSummary.get(t.taxRateId) ?? { taxable: 0, amount: 0 };
      s.taxable += t.base;
      s.amount += t.amount;
      taxSummary.set(t.taxRateId, s);
    }
  }
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
    taxes: [...taxSummary].map(([taxRateId, s]) => ({
      taxRateId,
      name: rates.get(taxRateId)?.name ?? 'Tax',
      percent: rates.get(taxRateId)?.percent ?? '0',
      ...s,
    })),
    lines: lines.filter((l) => l.document_id === id).map(toLine),
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
      lines: lines.filter((l) => l.document_id === n.id).map(toLine),
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

const toSummary = (
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

export const listInvoices = async (
  db: Executor,
  organizationId: string,
  query: InvoiceListQuery,
  now: Date,
): Promise<InvoiceList> => {
  const company = await loadCompany(db, organizationId);
  const today = companyToday(now, company.time_zone);
  const filter = {
    status: query.status,
    search: query.search || undefined,
    customerId: query.customerId,
    today,
  };
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

/** All matching rows (no paging) for the CSV export, in pages of 1000 so memory stays flat. */
export async function* exportInvoiceRows(
  db: Executor,
  organizationId: string,
  query: InvoiceListQuery,
  now: Date,
) {
  const company = await loadCompany(db, organizationId);
  const today = companyToday(now, company.time_zone);
  const filter = {
    status: query.status,
    search: query.search || undefined,
    customerId: query.customerId,
    today,
  };
  for (let offset = 0; ; offset += 1000) {
    const rows: InvoiceListRow[] = await selectInvoicePage(db, organizationId, {
      ...filter,
      sort: query.sort,
      order: query.order,
      limit: 1000,
      offset,
    });
    for (const r of rows) yield toSummary(r, today);
    if (rows.length < 1000) return;
  }
}

const auditView = (invoice: Invoice) => ({
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

export const describeAmount = (amount: number, currency: string) =>
  `${formatMinorPlain(amount, currency)} ${currency}`;
