import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  agingReportSchema,
  creditNoteInputSchema,
  customerInputSchema,
  customerSchema,
  customerUpdateSchema,
  emailInvoiceSchema,
  invoiceInputSchema,
  invoiceListQuerySchema,
  invoiceListSchema,
  invoiceSchema,
  invoiceSettingsSchema,
  invoiceSettingsUpdateSchema,
  invoiceSummarySchema,
  isoDateSchema,
  itemInputSchema,
  itemSchema,
  itemUpdateSchema,
  paymentInputSchema,
  recurringInputSchema,
  recurringSchema,
  sendInvoiceSchema,
  STATUS_LABELS,
  taxRateInputSchema,
  taxRateSchema,
  taxRateUpdateSchema,
  taxReportSchema,
  voidInvoiceSchema,
} from '../../../shared/invoices.ts';
import { requireVerifiedSender } from '../../auth/verification.ts';
import type { AppContext } from '../../context.ts';
import { type CsvCell, csvAmount, csvReply, csvRows } from '../../http/csv.ts';
import { idempotencyKeyOf } from '../../http/idempotency.ts';
import { memberOf, requirePermission } from '../../http/tenancy.ts';
import { createItem, createTaxRate, listItems, listTaxRates, updateItem, updateTaxRate } from './catalog.ts';
import { companyToday, loadCompany } from './common.ts';
import { createCreditNote, voidCreditNote } from './credit-notes.ts';
import { createCustomer, getCustomer, listCustomers, updateCustomer } from './customers.ts';
import { emailInvoice } from './email.ts';
import {
  type Actor,
  createInvoice,
  deleteInvoice,
  exportInvoiceRows,
  getInvoice,
  listInvoices,
  sendInvoice,
  updateInvoice,
  voidInvoice,
} from './invoices.ts';
import { deletePayment, recordPayment } from './payments.ts';
import { pdfFileName, renderInvoicePdf } from './pdf.ts';
import { selectCustomerPayments, selectInvoicingAccounts } from './queries.ts';
import { createSchedule, listSchedules, setScheduleStatus } from './recurring.ts';
import { agingReport, taxReport } from './reports.ts';
import { getInvoiceSettings, getLogo, updateInvoiceSettings } from './settings.ts';

// The invoicing API under /api/orgs/:organizationId: customers, items, tax rates, invoices
// with their payments and credit notes, recurring schedules, reports and settings. Each
// route parses, authorises, calls one service function and shapes the answer.

const org = z.object({ organizationId: z.string().min(1) });
const withId = <K extends string>(key: K) =>
  org.extend({ [key]: z.string().min(1).max(100) } as Record<K, z.ZodString>);
const P = '/orgs/:organizationId';

export const invoiceRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const db = ctx.database.db;
    const actorOf = (request: Parameters<typeof memberOf>[0]): Actor => {
      const m = memberOf(request);
      return { organizationId: m.organizationId, userId: m.userId, now: ctx.now() };
    };
    const read = requirePermission(ctx, 'read');
    const record = requirePermission(ctx, 'record');
    const post = requirePermission(ctx, 'post');
    const settings = requirePermission(ctx, 'manage_settings');

    // --- Customers ---------------------------------------------------------------------
    const tags = ['invoices'];
    app.get(
      `${P}/customers`,
      {
        preHandler: read,
        schema: {
          tags,
          summary: 'Customers, searchable and paged',
          params: org,
          querystring: z.object({
            search: z.string().trim().max(100).optional(),
            includeArchived: z.enum(['true', 'false']).optional(),
            page: z.coerce.number().int().min(1).default(1),
            pageSize: z.coerce.number().int().min(1).max(500).default(50),
          }),
          response: {
            200: z.object({
              customers: z.array(customerSchema),
              totalCount: z.number(),
              page: z.number(),
              pageSize: z.number(),
            }),
          },
        },
      },
      async (request) =>
        listCustomers(db, memberOf(request).organizationId, {
          ...request.query,
          includeArchived: request.query.includeArchived === 'true',
        }),
    );
    app.post(
      `${P}/customers`,
      {
        preHandler: record,
        schema: {
          tags,
          summary: 'Create a customer',
          params: org,
          body: customerInputSchema,
          response: { 201: customerSchema },
        },
      },
      async (request, reply) => {
        const m = memberOf(request);
        return reply.status(201).send(await createCustomer(db, m.organizationId, m.userId, request.body));
      },
    );
    app.get(
      `${P}/customers/:customerId`,
      {
        preHandler: read,
        schema: {
          tags,
          summary: 'A customer with their invoices, payments and balance owed',
          params: withId('customerId'),
          response: {
            200: z.object({
              customer: customerSchema,
              invoices: z.array(invoiceSummarySchema),
              payments: z.array(
                z.object({
                  id: z.string(),
                  invoiceId: z.string(),
                  invoiceNumber: z.string().nullable(),
                  date: z.string(),
                  amount: z.number(),
                  currency: z.string(),
                  method: z.string(),
                  reference: z.string(),
                  reversed: z.boolean(),
                }),
              ),
            }),
          },
        },
      },
      async (request) => {
        const { organizationId } = memberOf(request);
        const customer = await getCustomer(db, organizationId, request.params.customerId);
        const [list, payments] = await Promise.all([
          listInvoices(
            db,
            organizationId,
            {
              status: 'all',
              customerId: customer.id,
              sort: 'issueDate',
              order: 'desc',
              page: 1,
              pageSize: 200,
            },
            ctx.now(),
          ),
          selectCustomerPayments(db, organizationId, customer.id),
        ]);
        return {
          customer,
          invoices: list.items,
          payments: payments.map((p) => ({
            id: p.id,
            invoiceId: p.invoice_id,
            invoiceNumber: p.number,
            date: p.date,
            amount: p.amount,
            currency: p.currency.trim(),
            method: p.method,
            reference: p.reference,
            reversed: p.reversal_entry_id !== null,
          })),
        };
      },
    );
    app.patch(
      `${P}/customers/:customerId`,
      {
        preHandler: record,
        schema: {
          tags,
          summary: 'Edit, archive or restore a customer',
          params: withId('customerId'),
          body: customerUpdateSchema,
          response: { 200: customerSchema },
        },
      },
      async (request) => {
        const m = memberOf(request);
        return updateCustomer(db, m.organizationId, m.userId, request.params.customerId, request.body);
      },
    );

    // --- Items and tax rates --------------------------------------------------------------
    app.get(
      `${P}/items`,
      {
        preHandler: read,
        schema: {
          tags,
          summary: 'Products and services',
          params: org,
          querystring: z.object({
            search: z.string().trim().max(100).optional(),
            includeArchived: z.enum(['true', 'false']).optional(),
          }),
          response: { 200: z.object({ items: z.array(itemSchema) }) },
        },
      },
      async (request) => ({
        items: await listItems(db, memberOf(request).organizationId, {
          search: request.query.search,
          includeArchived: request.query.includeArchived === 'true',
        }),
      }),
    );
    app.post(
      `${P}/items`,
      {
        preHandler: record,
        schema: {
          tags,
          summary: 'Create an item',
          params: org,
          body: itemInputSchema,
          response: { 201: itemSchema },
        },
      },
      async (request, reply) => {
        const m = memberOf(request);
        return reply.status(201).send(await createItem(db, m.organizationId, m.userId, request.body));
      },
    );
    app.patch(
      `${P}/items/:itemId`,
      {
        preHandler: record,
        schema: {
          tags,
          summary: 'Edit or archive an item',
          params: withId('itemId'),
          body: itemUpdateSchema,
          response: { 200: itemSchema },
        },
      },
      async (request) => {
        const m = memberOf(request);
        return updateItem(db, m.organizationId, m.userId, request.params.itemId, request.body);
      },
    );
    app.get(
      `${P}/tax-rates`,
      {
        preHandler: read,
        schema: {
          tags,
          summary: 'Tax rates',
          params: org,
          response: { 200: z.object({ taxRates: z.array(taxRateSchema) }) },
        },
      },
      async (request) => ({ taxRates: await listTaxRates(db, memberOf(request).organizationId) }),
    );
    app.post(
      `${P}/tax-rates`,
      {
        preHandler: settings,
        schema: {
          tags,
          summary: 'Create a tax rate',
          params: org,
          body: taxRateInputSchema,
          response: { 201: taxRateSchema },
        },
      },
      async (request, reply) => {
        const m = memberOf(request);
        return reply.status(201).send(await createTaxRate(db, m.organizationId, m.userId, request.body));
      },
    );
    app.patch(
      `${P}/tax-rates/:taxRateId`,
      {
        preHandler: settings,
        schema: {
          tags,
          summary: 'Rename or archive a tax rate',
          params: withId('taxRateId'),
          body: taxRateUpdateSchema,
          response: { 200: taxRateSchema },
        },
      },
      async (request) => {
        const m = memberOf(request);
        return updateTaxRate(db, m.organizationId, m.userId, request.params.taxRateId, request.body);
      },
    );
    app.get(
      `${P}/invoicing-accounts`,
      {
        preHandler: read,
        schema: {
          tags,
          summary: 'Accounts invoicing can use: income, tax liabilities, bank and cash for deposits',
          params: org,
          response: {
            200: z.object({
              accounts: z.array(
                z.object({
                  id: z.string(),
                  code: z.string(),
                  name: z.string(),
                  type: z.string(),
                  subtype: z.string(),
                  currency: z.string(),
                  systemKey: z.string().nullable(),
                }),
              ),
            }),
          },
        },
      },
      async (request) => ({
        accounts: (await selectInvoicingAccounts(db, memberOf(request).organizationId)).map((a) => ({
          id: a.id,
          code: a.code,
          name: a.name,
          type: a.type,
          subtype: a.subtype,
          currency: a.currency.trim(),
          systemKey: a.system_key,
        })),
      }),
    );

    // --- Invoices ------------------------------------------------------------------------
    app.get(
      `${P}/invoices`,
      {
        preHandler: read,
        schema: {
          tags,
          summary: 'Invoices: filter, search, sort, page; totals per status',
          params: org,
          querystring: invoiceListQuerySchema,
          response: { 200: invoiceListSchema },
        },
      },
      async (request) => listInvoices(db, memberOf(request).organizationId, request.query, ctx.now()),
    );
    app.get(
      `${P}/invoices/export.csv`,
      {
        preHandler: read,
        schema: {
          tags,
          summary: 'The filtered invoice list as CSV',
          params: org,
          querystring: invoiceListQuerySchema.omit({ page: true, pageSize: true }),
        },
      },
      async (request, reply) => {
        const { organizationId } = memberOf(request);
        const query = { ...request.query, page: 1, pageSize: 1000 };
        const rows: CsvCell[][] = [
          ['Number', 'Customer', 'Issue date', 'Due date', 'Status', 'Currency', 'Total', 'Amount due'],
        ];
        for await (const r of exportInvoiceRows(db, organizationId, query, ctx.now())) {
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
        const company = await loadCompany(db, organizationId);
        return csvReply(reply, `invoices-${companyToday(ctx.now(), company.time_zone)}.csv`).send(
          csvRows(rows),
        );
      },
    );
    app.post(
      `${P}/invoices`,
      {
        preHandler: record,
        schema: {
          tags,
          summary: 'Create a draft invoice',
          params: org,
          body: invoiceInputSchema,
          response: { 201: invoiceSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createInvoice(db, actorOf(request), request.body)),
    );
    app.get(
      `${P}/invoices/:invoiceId`,
      {
        preHandler: read,
        schema: {
          tags,
          summary: 'An invoice with lines, payments, credit notes and history',
          params: withId('invoiceId'),
          response: { 200: invoiceSchema },
        },
      },
      async (request) =>
        getInvoice(db, memberOf(request).organizationId, request.params.invoiceId, ctx.now()),
    );
    app.patch(
      `${P}/invoices/:invoiceId`,
      {
        preHandler: record,
        schema: {
          tags,
          summary: 'Edit a draft',
          params: withId('invoiceId'),
          body: invoiceInputSchema.partial(),
          response: { 200: invoiceSchema },
        },
      },
      async (request) => updateInvoice(db, actorOf(request), request.params.invoiceId, request.body),
    );
    app.delete(
      `${P}/invoices/:invoiceId`,
      { preHandler: record, schema: { tags, summary: 'Delete a draft', params: withId('invoiceId') } },
      async (request, reply) => {
        await deleteInvoice(db, actorOf(request), request.params.invoiceId);
        return reply.status(204).send();
      },
    );
    app.post(
      `${P}/invoices/:invoiceId/send`,
      {
        preHandler: post,
        schema: {
          tags,
          summary: 'Send a draft: number it, post it to the ledger, optionally email the PDF',
          params: withId('invoiceId'),
          body: sendInvoiceSchema.optional(),
          response: {
            200: invoiceSchema.extend({
              emailedTo: z.string().nullable(),
              emailError: z.string().nullable(),
            }),
          },
        },
      },
      async (request) => {
        const actor = actorOf(request);
        const body = sendInvoiceSchema.parse(request.body ?? {});
        // Refused before anything is posted, so a 403 leaves the draft as it was.
        if (body.email) await requireVerifiedSender(ctx, actor.userId);
        let invoice = await sendInvoice(db, actor, request.params.invoiceId);
        let emailedTo: string | null = null;
        let emailError: string | null = null;
        if (body.email) {
          // The posting has committed; a mail failure is reported, not rolled back.
          try {
            emailedTo = (await emailInvoice(ctx, actor, invoice.id, { to: body.to, message: body.message }))
              .to;
            invoice = await getInvoice(db, actor.organizationId, invoice.id, actor.now);
          } catch (error) {
            emailError = error instanceof Error ? error.message : String(error);
          }
        }
        return { ...invoice, emailedTo, emailError };
      },
    );
    app.post(
      `${P}/invoices/:invoiceId/void`,
      {
        preHandler: post,
        schema: {
          tags,
          summary: 'Void a sent invoice (reverses its posting)',
          params: withId('invoiceId'),
          body: voidInvoiceSchema.optional(),
          response: { 200: invoiceSchema },
        },
      },
      async (request) =>
        voidInvoice(
          db,
          actorOf(request),
          request.params.invoiceId,
          voidInvoiceSchema.parse(request.body ?? {}).reason,
        ),
    );
    app.post(
      `${P}/invoices/:invoiceId/email`,
      {
        preHandler: post,
        schema: {
          tags,
          summary: 'Email the invoice PDF to the customer',
          params: withId('invoiceId'),
          body: emailInvoiceSchema.optional(),
          response: { 200: invoiceSchema },
        },
      },
      async (request) => {
        const actor = actorOf(request);
        await emailInvoice(ctx, actor, request.params.invoiceId, request.body ?? {});
        return getInvoice(db, actor.organizationId, request.params.invoiceId, actor.now);
      },
    );
    app.get(
      `${P}/invoices/:invoiceId/pdf`,
      {
        preHandler: read,
        schema: {
          tags,
          summary: 'The invoice as PDF',
          params: withId('invoiceId'),
          querystring: z.object({ download: z.enum(['1', '0']).optional() }),
        },
      },
      async (request, reply) => {
        const { pdf, invoice } = await renderInvoicePdf(
          db,
          memberOf(request).organizationId,
          request.params.invoiceId,
          ctx.now(),
        );
        const disposition = request.query.download === '1' ? 'attachment' : 'inline';
        return reply
          .header('content-type', 'application/pdf')
          .header('content-disposition', `${disposition}; filename="${pdfFileName(invoice)}"`)
          .header('cache-control', 'private, no-store')
          .send(pdf);
      },
    );
    app.post(
      `${P}/invoices/:invoiceId/payments`,
      {
        preHandler: post,
        schema: {
          tags,
          summary: 'Record a payment (Idempotency-Key accepted)',
          params: withId('invoiceId'),
          headers: z.object({ 'idempotency-key': z.string().optional() }).passthrough(),
          body: paymentInputSchema,
          response: {
            201: invoiceSchema.extend({ paymentId: z.string() }),
            200: invoiceSchema.extend({ paymentId: z.string() }),
          },
        },
      },
      async (request, reply) => {
        const key = idempotencyKeyOf(request);
        const result = await recordPayment(db, actorOf(request), request.params.invoiceId, request.body, key);
        if (result.replayed) reply.header('idempotent-replayed', 'true');
        return reply
          .status(result.replayed ? 200 : 201)
          .send({ ...result.invoice, paymentId: result.paymentId });
      },
    );
    app.delete(
      `${P}/invoices/:invoiceId/payments/:paymentId`,
      {
        preHandler: post,
        schema: {
          tags,
          summary: 'Remove a payment by posting its reversal',
          params: withId('invoiceId').extend({ paymentId: z.string().min(1) }),
          response: { 200: invoiceSchema },
        },
      },
      async (request) =>
        deletePayment(db, actorOf(request), request.params.invoiceId, request.params.paymentId),
    );
    app.post(
      `${P}/invoices/:invoiceId/credit-notes`,
      {
        preHandler: post,
        schema: {
          tags,
          summary: 'Issue a credit note against a sent invoice',
          params: withId('invoiceId'),
          body: creditNoteInputSchema,
          response: { 201: invoiceSchema },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await createCreditNote(db, actorOf(request), request.params.invoiceId, request.body)),
    );
    app.post(
      `${P}/invoices/:invoiceId/credit-notes/:creditNoteId/void`,
      {
        preHandler: post,
        schema: {
          tags,
          summary: 'Void a credit note (reverses its posting)',
          params: withId('invoiceId').extend({ creditNoteId: z.string().min(1) }),
          response: { 200: invoiceSchema },
        },
      },
      async (request) =>
        voidCreditNote(db, actorOf(request), request.params.invoiceId, request.params.creditNoteId),
    );

    // --- Recurring ------------------------------------------------------------------------
    app.get(
      `${P}/recurring-invoices`,
      {
        preHandler: read,
        schema: {
          tags,
          summary: 'Recurring invoice schedules',
          params: org,
          response: { 200: z.object({ schedules: z.array(recurringSchema) }) },
        },
      },
      async (request) => ({ schedules: await listSchedules(db, memberOf(request).organizationId) }),
    );
    app.post(
      `${P}/recurring-invoices`,
      {
        preHandler: post,
        schema: {
          tags,
          summary: 'Create a recurring invoice schedule',
          params: org,
          body: recurringInputSchema,
          response: { 201: recurringSchema },
        },
      },
      async (request, reply) => {
        const m = memberOf(request);
        return reply.status(201).send(await createSchedule(db, m.organizationId, m.userId, request.body));
      },
    );
    app.patch(
      `${P}/recurring-invoices/:scheduleId`,
      {
        preHandler: post,
        schema: {
          tags,
          summary: 'Pause, resume or end a schedule',
          params: withId('scheduleId'),
          body: z.object({ status: z.enum(['active', 'paused', 'ended']) }),
          response: { 200: recurringSchema },
        },
      },
      async (request) => {
        const m = memberOf(request);
        return setScheduleStatus(
          db,
          m.organizationId,
          m.userId,
          request.params.scheduleId,
          request.body.status,
        );
      },
    );

    // --- Reports and settings -------------------------------------------------------------
    app.get(
      `${P}/reports/receivables-aging`,
      {
        preHandler: read,
        schema: {
          tags,
          summary: 'Receivables aging per customer',
          params: org,
          querystring: z.object({ asOf: isoDateSchema.optional() }),
          response: { 200: agingReportSchema },
        },
      },
      async (request) => {
        const { organizationId } = memberOf(request);
        const company = await loadCompany(db, organizationId);
        return agingReport(
          db,
          organizationId,
          request.query.asOf ?? companyToday(ctx.now(), company.time_zone),
        );
      },
    );
    app.get(
      `${P}/reports/sales-tax`,
      {
        preHandler: read,
        schema: {
          tags,
          summary: 'Sales tax collected per rate for a period',
          params: org,
          querystring: z.object({ from: isoDateSchema, to: isoDateSchema }),
          response: { 200: taxReportSchema },
        },
      },
      async (request) =>
        taxReport(db, memberOf(request).organizationId, request.query.from, request.query.to),
    );
    app.get(
      `${P}/invoice-settings`,
      {
        preHandler: read,
        schema: {
          tags,
          summary: 'Invoice numbering, defaults and company details',
          params: org,
          response: { 200: invoiceSettingsSchema },
        },
      },
      async (request) => getInvoiceSettings(db, memberOf(request).organizationId),
    );
    app.patch(
      `${P}/invoice-settings`,
      {
        preHandler: settings,
        schema: {
          tags,
          summary: 'Change invoice prefix, numbering, address, tax number, logo',
          params: org,
          body: invoiceSettingsUpdateSchema,
          response: { 200: invoiceSettingsSchema },
        },
      },
      async (request) => {
        const m = memberOf(request);
        return updateInvoiceSettings(db, m.organizationId, m.userId, request.body);
      },
    );
    app.get(
      `${P}/invoice-settings/logo`,
      { preHandler: read, schema: { tags, summary: 'The logo printed on invoices', params: org } },
      async (request, reply) => {
        const logo = await getLogo(db, memberOf(request).organizationId);
        if (!logo)
          return reply.status(404).send({ error: { code: 'not_found', message: 'No logo uploaded yet.' } });
        return reply
          .header('content-type', logo.contentType)
          .header('cache-control', 'private, no-cache')
          .send(logo.data);
      },
    );
  };
