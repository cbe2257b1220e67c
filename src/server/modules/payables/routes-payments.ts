import { z } from 'zod';
import {
  billBatchPaymentInputSchema,
  billBatchPaymentSchema,
  billPaymentInputSchema,
  billSchema,
  paymentRunQuerySchema,
  paymentRunSchema,
} from '../../../shared/payables.ts';
import { paidBillSchema } from '../../../shared/payables-paying.ts';
import { errorBody } from '../../http/errors.ts';
import { companyRoutePlugin, orgParams } from '../../http/routes.ts';
import { payBills, readBatch, removeBatch } from './batch-payments.ts';
import { paymentRun } from './payment-run.ts';
import { payBill, removeBillPayment } from './payments.ts';

// Paying bills (docs/payables.md): one bill (partially or in full), several at once from one
// money account (a batch: one entry, one bank line), removing either by posting its
// reversal, and the payment run (what is due by a date, by supplier). Moving money needs
// 'approve' (accountants, admins, owners); the payment run is a read. Paying accepts an
// Idempotency-Key: a repeat replays the first answer and records nothing.

const refusals = { 400: errorBody, 404: errorBody, 409: errorBody };
const paymentParams = orgParams.extend({
  billId: z.string().min(1).max(100),
  paymentId: z.string().min(1).max(100),
});

export const payablesPaymentsRoutes = companyRoutePlugin(['payables'], (route) => {
  route.post(
    '/bills/:billId/payments',
    {
      summary: 'Pay a bill, in part or in full, from a money account (accepts Idempotency-Key)',
      permission: 'approve',
      body: billPaymentInputSchema,
      response: paidBillSchema,
      status: 201,
      idempotent: (input) => `POST /bills/${input.billId}/payments`,
      otherResponses: refusals,
    },
    payBill,
  );
  route.delete(
    '/bills/:billId/payments/:paymentId',
    {
      summary: 'Remove a payment by posting its reversal (refused when matched to a bank line or reconciled)',
      permission: 'approve',
      params: paymentParams,
      response: billSchema,
      otherResponses: refusals,
    },
    removeBillPayment,
  );
  route.post(
    '/bill-payments',
    {
      summary:
        'Pay several bills at once from one money account: one journal entry, one bank line (accepts Idempotency-Key)',
      permission: 'approve',
      body: billBatchPaymentInputSchema,
      response: billBatchPaymentSchema,
      status: 201,
      idempotent: 'POST /bill-payments',
      otherResponses: refusals,
    },
    payBills,
  );
  route.get(
    '/bill-payments/:batchId',
    {
      summary: 'A batch payment with its payments',
      permission: 'read',
      response: billBatchPaymentSchema,
      otherResponses: { 404: errorBody },
    },
    readBatch,
  );
  route.delete(
    '/bill-payments/:batchId',
    {
      summary: 'Remove a batch payment: its entry and bank line reversed, every bill owed again',
      permission: 'approve',
      response: billBatchPaymentSchema,
      otherResponses: refusals,
    },
    removeBatch,
  );
  route.get(
    '/payables/payment-run',
    {
      summary: 'Bills due by a date (default: a week from today, overdue included), by supplier',
      permission: 'read',
      query: paymentRunQuerySchema,
      response: paymentRunSchema,
    },
    paymentRun,
  );
});
