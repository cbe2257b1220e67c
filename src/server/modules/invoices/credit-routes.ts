import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  applyCreditInputSchema,
  customerCreditSchema,
  customerRefundInputSchema,
  customerStatementSchema,
  refundInputSchema,
  statementQuerySchema,
} from '../../../shared/invoice-credit.ts';
import { invoiceSchema } from '../../../shared/invoices.ts';
import type { AppContext } from '../../context.ts';
import { csvReply, csvRows } from '../../http/csv.ts';
import { memberOf, requirePermission } from '../../http/tenancy.ts';
import {
  applyCredit,
  getCustomerCredit,
  refundCreditNote,
  refundCustomerCredit,
  refundForInvoice,
} from './credit.ts';
import type { Actor } from './invoices.ts';
import { customerStatement, statementCsvRows } from './statement.ts';

// Customer credit, refunds and statements (issue 13 §5, decision 0028), beside the invoice
// routes under /api/orgs/:organizationId. Reading needs 'read'; moving money needs 'post'.

const org = z.object({ organizationId: z.string().min(1) });
const customerParams = org.extend({ customerId: z.string().min(1).max(100) });
const invoiceParams = org.extend({ invoiceId: z.string().min(1).max(100) });
const P = '/orgs/:organizationId';

export const creditRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const db = ctx.database.db;
    const actorOf = (request: Parameters<typeof memberOf>[0]): Actor => {
      const m = memberOf(request);
      return { organizationId: m.organizationId, userId: m.userId, now: ctx.now() };
    };
    const read = requirePermission(ctx, 'read');
    const post = requirePermission(ctx, 'post');
    const tags = ['invoices'];

    app.get(
      `${P}/customers/:customerId/credit`,
      {
        preHandler: read,
        schema: {
          tags,
          summary: "A customer's credit per currency and its history",
          params: customerParams,
          response: { 200: customerCreditSchema },
        },
      },
      async (request) => getCustomerCredit(db, memberOf(request).organizationId, request.params.customerId),
    );
    app.post(
      `${P}/customers/:customerId/credit/applications`,
      {
        preHandler: post,
        schema: {
          tags,
          summary: "Apply the customer's credit to one of their open invoices",
          params: customerParams,
          body: applyCreditInputSchema,
          response: { 201: invoiceSchema },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await applyCredit(db, actorOf(request), request.params.customerId, request.body)),
    );
    app.post(
      `${P}/customers/:customerId/credit/refunds`,
      {
        preHandler: post,
        schema: {
          tags,
          summary: "Refund some of the customer's credit from a money account",
          params: customerParams,
          body: customerRefundInputSchema,
          response: {
            201: z.object({
              refundId: z.string(),
              journalEntryId: z.string(),
              moneyAccountId: z.string(),
              credit: customerCreditSchema,
            }),
          },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await refundCustomerCredit(db, actorOf(request), request.params.customerId, request.body)),
    );
    app.post(
      `${P}/invoices/:invoiceId/refunds`,
      {
        preHandler: post,
        schema: {
          tags,
          summary: "Refund the invoice's customer credit (an overpayment) from a money account",
          params: invoiceParams,
          body: refundInputSchema,
          response: { 201: invoiceSchema },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await refundForInvoice(db, actorOf(request), request.params.invoiceId, request.body)),
    );
    app.post(
      `${P}/invoices/:invoiceId/credit-notes/:creditNoteId/refunds`,
      {
        preHandler: post,
        schema: {
          tags,
          summary: 'Refund a credit note as cash (what it put on the customer credit)',
          params: invoiceParams.extend({ creditNoteId: z.string().min(1).max(100) }),
          body: refundInputSchema,
          response: { 201: invoiceSchema },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            await refundCreditNote(
              db,
              actorOf(request),
              request.params.invoiceId,
              request.params.creditNoteId,
              request.body,
            ),
          ),
    );
    app.get(
      `${P}/customers/:customerId/statement`,
      {
        preHandler: read,
        schema: {
          tags,
          summary: "A customer's statement: documents and running balance over a date range",
          params: customerParams,
          querystring: statementQuerySchema,
          response: { 200: customerStatementSchema },
        },
      },
      async (request) =>
        customerStatement(
          db,
          memberOf(request).organizationId,
          request.params.customerId,
          request.query,
          ctx.now(),
        ),
    );
    app.get(
      `${P}/customers/:customerId/statement.csv`,
      {
        preHandler: read,
        schema: {
          tags,
          summary: "A customer's statement as CSV",
          params: customerParams,
          querystring: statementQuerySchema,
        },
      },
      async (request, reply) => {
        const statement = await customerStatement(
          db,
          memberOf(request).organizationId,
          request.params.customerId,
          request.query,
          ctx.now(),
        );
        const name =
          statement.customerName.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'customer';
        return csvReply(reply, `statement-${name}-${statement.to}.csv`).send(
          csvRows(statementCsvRows(statement)),
        );
      },
    );
  };
