import {
  emailInvoiceSchema,
  invoiceInputSchema,
  invoiceUpdateSchema,
  invoiceListQuerySchema,
  invoiceListSchema,
  invoicePdfQuerySchema,
  invoiceSchema,
  sendInvoiceSchema,
  sentInvoiceSchema,
  voidInvoiceSchema,
} from '../../../shared/invoices.ts';
import { csvReply, csvRows } from '../../http/csv.ts';
import { companyRoutePlugin } from '../../http/routes.ts';
import { onReplica } from '../../http/read-replica.ts';
import { emailInvoiceToCustomer } from './email.ts';
import { sendInvoice, voidInvoice } from './invoice-posting.ts';
import { exportInvoicesCsv, listInvoices, readInvoice } from './invoice-read.ts';
import { createInvoice, deleteInvoice, updateInvoice } from './invoices.ts';
import { invoicePdf } from './pdf.ts';

// Invoices from draft to void: the list and its CSV, drafts, sending (posting, optionally
// emailing), voiding, emailing again and the PDF. Sending and voiding need 'post'. The bodies
// of send, void and email are optional; send and void fill in their defaults when absent.

export const invoiceDocumentRoutes = companyRoutePlugin(['invoices'], (route) => {
  route.get(
    '/invoices',
    {
      summary: 'Invoices: filter, search, sort, page; totals per status',
      permission: 'read',
      query: invoiceListQuerySchema,
      response: invoiceListSchema,
    },
    onReplica(listInvoices),
  );
  route.get(
    '/invoices/export.csv',
    {
      summary: 'The filtered invoice list as CSV',
      permission: 'read',
      query: invoiceListQuerySchema.omit({ page: true, pageSize: true }),
      produces: ['text/csv'],
    },
    async (c, member, input, { reply }) => {
      const csv = await exportInvoicesCsv(c, member, input);
      return csvReply(reply, csv.fileName).send(csvRows(csv.rows));
    },
  );
  route.post(
    '/invoices',
    {
      summary: 'Create a draft invoice',
      permission: 'record',
      body: invoiceInputSchema,
      response: invoiceSchema,
      status: 201,
    },
    createInvoice,
  );
  route.get(
    '/invoices/:invoiceId',
    {
      summary: 'An invoice with lines, payments, credit notes and history',
      permission: 'read',
      response: invoiceSchema,
    },
    readInvoice,
  );
  route.patch(
    '/invoices/:invoiceId',
    {
      summary: 'Edit a draft',
      permission: 'record',
      body: invoiceUpdateSchema,
      response: invoiceSchema,
    },
    updateInvoice,
  );
  route.delete(
    '/invoices/:invoiceId',
    { summary: 'Delete a draft', permission: 'record', response: null },
    async (c, member, input) => {
      await deleteInvoice(c, member, input);
    },
  );
  route.post(
    '/invoices/:invoiceId/send',
    {
      summary: 'Send a draft: number it, post it to the ledger, optionally email the PDF',
      permission: 'post',
      body: sendInvoiceSchema.optional(),
      response: sentInvoiceSchema,
    },
    (c, member, { invoiceId, ...body }) =>
      sendInvoice(c, member, { ...sendInvoiceSchema.parse(body), invoiceId }),
  );
  route.post(
    '/invoices/:invoiceId/void',
    {
      summary: 'Void a sent invoice (reverses its posting)',
      permission: 'post',
      body: voidInvoiceSchema.optional(),
      response: invoiceSchema,
    },
    (c, member, { invoiceId, ...body }) =>
      voidInvoice(c, member, { ...voidInvoiceSchema.parse(body), invoiceId }),
  );
  route.post(
    '/invoices/:invoiceId/email',
    {
      summary: 'Email the invoice PDF to the customer',
      permission: 'post',
      body: emailInvoiceSchema.optional(),
      response: invoiceSchema,
    },
    emailInvoiceToCustomer,
  );
  route.get(
    '/invoices/:invoiceId/pdf',
    {
      summary: 'The invoice as PDF',
      permission: 'read',
      query: invoicePdfQuerySchema,
      produces: ['application/pdf'],
    },
    async (c, member, { invoiceId, download }, { reply }) => {
      const { pdf, fileName } = await invoicePdf(c, member, { invoiceId });
      const disposition = download === '1' ? 'attachment' : 'inline';
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `${disposition}; filename="${fileName}"`)
        .header('cache-control', 'private, no-store')
        .send(pdf);
    },
  );
});
