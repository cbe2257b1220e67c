import {
  applySupplierCreditSchema,
  supplierCreditInputSchema,
  supplierCreditListQuerySchema,
  supplierCreditListSchema,
  supplierCreditSchema,
  supplierRefundInputSchema,
  voidSupplierCreditSchema,
} from '../../../shared/payables.ts';
import { errorBody } from '../../http/errors.ts';
import { companyRoutePlugin } from '../../http/routes.ts';
import { refundCredit, removeRefund } from './credit-refunds.ts';
import { applyCredit, createCredit, listCredits, readCredit, unapplyCredit, voidCredit } from './credits.ts';

// Supplier credits (docs/payables.md): issuing one (Dr accounts payable, Cr the accounts and
// tax it takes back), the list and one credit, voiding it while unused, applying it to the
// supplier's open bills and taking an application back, and refunds from the supplier (money
// in) and their removal. Everything that changes a credit needs 'approve'; reading, 'read'.

const refusals = { 400: errorBody, 404: errorBody, 409: errorBody };

export const payablesCreditsRoutes = companyRoutePlugin(['payables'], (route) => {
  route.get(
    '/supplier-credits',
    {
      summary: 'Supplier credits, newest first (keyset pages)',
      permission: 'read',
      query: supplierCreditListQuerySchema,
      response: supplierCreditListSchema,
    },
    listCredits,
  );
  route.post(
    '/supplier-credits',
    {
      summary: "Record a supplier's credit note (Dr accounts payable, Cr the accounts and tax it takes back)",
      permission: 'approve',
      body: supplierCreditInputSchema,
      response: supplierCreditSchema,
      status: 201,
      otherResponses: refusals,
    },
    createCredit,
  );
  route.get(
    '/supplier-credits/:creditId',
    {
      summary: 'A supplier credit with its lines, applications and refunds',
      permission: 'read',
      response: supplierCreditSchema,
      otherResponses: { 404: errorBody },
    },
    readCredit,
  );
  route.post(
    '/supplier-credits/:creditId/void',
    {
      summary: 'Void a supplier credit nothing of which is applied or refunded (reverses its posting)',
      permission: 'approve',
      body: voidSupplierCreditSchema,
      response: supplierCreditSchema,
      otherResponses: refusals,
    },
    voidCredit,
  );
  route.post(
    '/supplier-credits/:creditId/apply',
    {
      summary: "Apply some of the credit to one of the supplier's open bills in its currency",
      permission: 'approve',
      body: applySupplierCreditSchema,
      response: supplierCreditSchema,
      otherResponses: refusals,
    },
    applyCredit,
  );
  route.delete(
    '/supplier-credits/:creditId/allocations/:allocationId',
    {
      summary: 'Take an application of the credit back: the bill is owed again',
      permission: 'approve',
      response: supplierCreditSchema,
      otherResponses: refusals,
    },
    unapplyCredit,
  );
  route.post(
    '/supplier-credits/:creditId/refunds',
    {
      summary: 'Record a refund of the credit from the supplier into a money account (money in)',
      permission: 'approve',
      body: supplierRefundInputSchema,
      response: supplierCreditSchema,
      status: 201,
      otherResponses: refusals,
    },
    refundCredit,
  );
  route.delete(
    '/supplier-credits/:creditId/refunds/:refundId',
    {
      summary: 'Remove a refund by posting its reversal (refused once reconciled)',
      permission: 'approve',
      response: supplierCreditSchema,
      otherResponses: refusals,
    },
    removeRefund,
  );
});
