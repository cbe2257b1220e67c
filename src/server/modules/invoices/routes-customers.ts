import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  applyCreditInputSchema,
  customerCreditSchema,
  customerRefundInputSchema,
  customerRefundResultSchema,
  customerStatementSchema,
  statementQuerySchema,
} from '../../../shared/invoice-credit.ts';
import {
  customerDetailSchema,
  customerInputSchema,
  customerListQuerySchema,
  customerListSchema,
  customerSchema,
  customerUpdateSchema,
  invoiceSchema,
} from '../../../shared/invoices.ts';
import type { AppContext } from '../../context.ts';
import { csvReply, csvRows } from '../../http/csv.ts';
import { memberOf } from '../../http/tenancy.ts';
import { readCustomerCredit } from './credit-pool.ts';
import { refundCustomerCredit } from './credit-refunds.ts';
import { applyCredit } from './credit.ts';
import { createCustomer, customerDetail, listCustomers, updateCustomer } from './customers.ts';
import { customerStatementCsv, readCustomerStatement } from './statement.ts';
import { guarded, customerParams, orgParams } from './routes-common.ts';

// Customers: the list, a customer's page, their credit (applied to an invoice or refunded,
// decision 0028) and their statement. Reading needs 'read', editing 'record', moving money 'post'.

export const invoiceCustomerRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/orgs/:organizationId/customers',
      guarded(ctx, 'read', 'Customers, searchable and paged', {
        params: orgParams,
        querystring: customerListQuerySchema,
        response: { 200: customerListSchema },
      }),
      async (request) => listCustomers(ctx, memberOf(request), request.query),
    );
    app.post(
      '/orgs/:organizationId/customers',
      guarded(ctx, 'record', 'Create a customer', {
        params: orgParams,
        body: customerInputSchema,
        response: { 201: customerSchema },
      }),
      async (request, reply) =>
        reply.status(201).send(await createCustomer(ctx, memberOf(request), request.body)),
    );
    app.get(
      '/orgs/:organizationId/customers/:customerId',
      guarded(ctx, 'read', 'A customer with their invoices, payments and balance owed', {
        params: customerParams,
        response: { 200: customerDetailSchema },
      }),
      async (request) => customerDetail(ctx, memberOf(request), request.params),
    );
    app.patch(
      '/orgs/:organizationId/customers/:customerId',
      guarded(ctx, 'record', 'Edit, archive or restore a customer', {
        params: customerParams,
        body: customerUpdateSchema,
        response: { 200: customerSchema },
      }),
      async (request) =>
        updateCustomer(ctx, memberOf(request), { ...request.body, customerId: request.params.customerId }),
    );
    app.get(
      '/orgs/:organizationId/customers/:customerId/credit',
      guarded(ctx, 'read', "A customer's credit per currency and its history", {
        params: customerParams,
        response: { 200: customerCreditSchema },
      }),
      async (request) => readCustomerCredit(ctx, memberOf(request), request.params),
    );
    app.post(
      '/orgs/:organizationId/customers/:customerId/credit/applications',
      guarded(ctx, 'post', "Apply the customer's credit to one of their open invoices", {
        params: customerParams,
        body: applyCreditInputSchema,
        response: { 201: invoiceSchema },
      }),
      async (request, reply) =>
        reply.status(201).send(
          await applyCredit(ctx, memberOf(request), {
            ...request.body,
            customerId: request.params.customerId,
          }),
        ),
    );
    app.post(
      '/orgs/:organizationId/customers/:customerId/credit/refunds',
      guarded(ctx, 'post', "Refund some of the customer's credit from a money account", {
        params: customerParams,
        body: customerRefundInputSchema,
        response: { 201: customerRefundResultSchema },
      }),
      async (request, reply) =>
        reply.status(201).send(
          await refundCustomerCredit(ctx, memberOf(request), {
            ...request.body,
            customerId: request.params.customerId,
          }),
        ),
    );
    app.get(
      '/orgs/:organizationId/customers/:customerId/statement',
      guarded(ctx, 'read', "A customer's statement: documents and running balance over a date range", {
        params: customerParams,
        querystring: statementQuerySchema,
        response: { 200: customerStatementSchema },
      }),
      async (request) =>
        readCustomerStatement(ctx, memberOf(request), {
          ...request.query,
          customerId: request.params.customerId,
        }),
    );
    app.get(
      '/orgs/:organizationId/customers/:customerId/statement.csv',
      guarded(ctx, 'read', "A customer's statement as CSV", {
        params: customerParams,
        querystring: statementQuerySchema,
      }),
      async (request, reply) => {
        const csv = await customerStatementCsv(ctx, memberOf(request), {
          ...request.query,
          customerId: request.params.customerId,
        });
        return csvReply(reply, csv.fileName).send(csvRows(csv.rows));
      },
    );
  };
