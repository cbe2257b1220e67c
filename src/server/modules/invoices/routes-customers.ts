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
import { csvReply, csvRows } from '../../http/csv.ts';
import { companyRoutePlugin } from '../../http/routes.ts';
import { readCustomerCredit } from './credit-pool.ts';
import { refundCustomerCredit } from './credit-refunds.ts';
import { applyCredit } from './credit.ts';
import { createCustomer, customerDetail, listCustomers, updateCustomer } from './customers.ts';
import { customerStatementCsv, readCustomerStatement } from './statement.ts';

// Customers: the list, a customer's page, their credit (applied to an invoice or refunded,
// decision 0028) and their statement. Reading needs 'read', editing 'record', moving money 'post'.

export const invoiceCustomerRoutes = companyRoutePlugin(['invoices'], (route) => {
  route.get(
    '/customers',
    {
      summary: 'Customers, searchable and paged',
      permission: 'read',
      query: customerListQuerySchema,
      response: customerListSchema,
    },
    listCustomers,
  );
  route.post(
    '/customers',
    {
      summary: 'Create a customer',
      permission: 'record',
      body: customerInputSchema,
      response: customerSchema,
      status: 201,
    },
    createCustomer,
  );
  route.get(
    '/customers/:customerId',
    {
      summary: 'A customer with their invoices, payments and balance owed',
      permission: 'read',
      response: customerDetailSchema,
    },
    customerDetail,
  );
  route.patch(
    '/customers/:customerId',
    {
      summary: 'Edit, archive or restore a customer',
      permission: 'record',
      body: customerUpdateSchema,
      response: customerSchema,
    },
    updateCustomer,
  );
  route.get(
    '/customers/:customerId/credit',
    {
      summary: "A customer's credit per currency and its history",
      permission: 'read',
      response: customerCreditSchema,
    },
    readCustomerCredit,
  );
  route.post(
    '/customers/:customerId/credit/applications',
    {
      summary: "Apply the customer's credit to one of their open invoices",
      permission: 'post',
      body: applyCreditInputSchema,
      response: invoiceSchema,
      status: 201,
    },
    applyCredit,
  );
  route.post(
    '/customers/:customerId/credit/refunds',
    {
      summary: "Refund some of the customer's credit from a money account",
      permission: 'post',
      body: customerRefundInputSchema,
      response: customerRefundResultSchema,
      status: 201,
    },
    refundCustomerCredit,
  );
  route.get(
    '/customers/:customerId/statement',
    {
      summary: "A customer's statement: documents and running balance over a date range",
      permission: 'read',
      query: statementQuerySchema,
      response: customerStatementSchema,
    },
    readCustomerStatement,
  );
  route.get(
    '/customers/:customerId/statement.csv',
    {
      summary: "A customer's statement as CSV",
      permission: 'read',
      query: statementQuerySchema,
      produces: ['text/csv'],
    },
    async (c, member, input, { reply }) => {
      const csv = await customerStatementCsv(c, member, input);
      return csvReply(reply, csv.fileName).send(csvRows(csv.rows));
    },
  );
});
