import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  emailInvoiceSchema,
  invoiceInputSchema,
  invoiceListQuerySchema,
  invoiceListSchema,
  invoicePdfQuerySchema,
  invoiceSchema,
  sendInvoiceSchema,
  sentInvoiceSchema,
  voidInvoiceSchema,
} from '../../../shared/invoices.ts';
import type { AppContext } from '../../context.ts';
import { csvReply, csvRows } from '../../http/csv.ts';
import { memberOf } from '../../http/tenancy.ts';
import { emailInvoiceToCustomer } from './email.ts';
import { sendInvoice, voidInvoice } from './invoice-posting.ts';
import { exportInvoicesCsv, listInvoices, readInvoice } from './invoice-read.ts';
import { createInvoice, deleteInvoice, updateInvoice } from './invoices.ts';
import { invoicePdf } from './pdf.ts';
import { guarded, invoiceParams, orgParams } from './routes-common.ts';

// Invoices from draft to void: the list and its CSV, drafts, sending (posting, optionally
// emailing), voiding, emailing again and the PDF. Sending and voiding need 'post'.

export const invoiceDocumentRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/orgs/:organizationId/invoices',
      guarded(ctx, 'read', 'Invoices: filter, search, sort, page; totals per status', {
        params: orgParams,
        querystring: invoiceListQuerySchema,
        response: { 200: invoiceListSchema },
      }),
      async (request) => listInvoices(ctx, memberOf(request), request.query),
    );
    app.get(
      '/orgs/:organizationId/invoices/export.csv',
      guarded(ctx, 'read', 'The filtered invoice list as CSV', {
        params: orgParams,
        querystring: invoiceListQuerySchema.omit({ page: true, pageSize: true }),
      }),
      async (request, reply) => {
        const csv = await exportInvoicesCsv(ctx, memberOf(request), request.query);
        return csvReply(reply, csv.fileName).send(csvRows(csv.rows));
      },
    );
    app.post(
      '/orgs/:organizationId/invoices',
      guarded(ctx, 'record', 'Create a draft invoice', {
        params: orgParams,
        body: invoiceInputSchema,
        response: { 201: invoiceSchema },
      }),
      async (request, reply) =>
        reply.status(201).send(await createInvoice(ctx, memberOf(request), request.body)),
    );
    app.get(
      '/orgs/:organizationId/invoices/:invoiceId',
      guarded(ctx, 'read', 'An invoice with lines, payments, credit notes and history', {
        params: invoiceParams,
        response: { 200: invoiceSchema },
      }),
      async (request) => readInvoice(ctx, memberOf(request), request.params),
    );
    app.patch(
      '/orgs/:organizationId/invoices/:invoiceId',
      guarded(ctx, 'record', 'Edit a draft', {
        params: invoiceParams,
        body: invoiceInputSchema.partial(),
        response: { 200: invoiceSchema },
      }),
      async (request) =>
        updateInvoice(ctx, memberOf(request), { ...request.body, invoiceId: request.params.invoiceId }),
    );
    app.delete(
      '/orgs/:organizationId/invoices/:invoiceId',
      guarded(ctx, 'record', 'Delete a draft', { params: invoiceParams }),
      async (request, reply) => {
        await deleteInvoice(ctx, memberOf(request), request.params);
        return reply.status(204).send();
      },
    );
    app.post(
      '/orgs/:organizationId/invoices/:invoiceId/send',
      guarded(ctx, 'post', 'Send a draft: number it, post it to the ledger, optionally email the PDF', {
        params: invoiceParams,
        body: sendInvoiceSchema.optional(),
        response: { 200: sentInvoiceSchema },
      }),
      async (request) =>
        sendInvoice(ctx, memberOf(request), {
          ...sendInvoiceSchema.parse(request.body ?? {}),
          invoiceId: request.params.invoiceId,
        }),
    );
    app.post(
      '/orgs/:organizationId/invoices/:invoiceId/void',
      guarded(ctx, 'post', 'Void a sent invoice (reverses its posting)', {
        params: invoiceParams,
        body: voidInvoiceSchema.optional(),
        response: { 200: invoiceSchema },
      }),
      async (request) =>
        voidInvoice(ctx, memberOf(request), {
          ...voidInvoiceSchema.parse(request.body ?? {}),
          invoiceId: request.params.invoiceId,
        }),
    );
    app.post(
      '/orgs/:organizationId/invoices/:invoiceId/email',
      guarded(ctx, 'post', 'Email the invoice PDF to the customer', {
        params: invoiceParams,
        body: emailInvoiceSchema.optional(),
        response: { 200: invoiceSchema },
      }),
      async (request) =>
        emailInvoiceToCustomer(ctx, memberOf(request), {
          ...(request.body ?? {}),
          invoiceId: request.params.invoiceId,
        }),
    );
    app.get(
      '/orgs/:organizationId/invoices/:invoiceId/pdf',
      guarded(ctx, 'read', 'The invoice as PDF', {
        params: invoiceParams,
        querystring: invoicePdfQuerySchema,
      }),
      async (request, reply) => {
        const { pdf, fileName } = await invoicePdf(ctx, memberOf(request), request.params);
        const disposition = request.query.download === '1' ? 'attachment' : 'inline';
        return reply
          .header('content-type', 'application/pdf')
          .header('content-disposition', `${disposition}; filename="${fileName}"`)
          .header('cache-control', 'private, no-store')
          .send(pdf);
      },
    );
  };
