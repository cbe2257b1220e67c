import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { refundInputSchema } from '../../../shared/invoice-credit.ts';
import {
  creditNoteInputSchema,
  invoiceSchema,
  paidInvoiceSchema,
  paymentInputSchema,
} from '../../../shared/invoices.ts';
import type { AppContext } from '../../context.ts';
import { runIdempotentRequest } from '../../http/idempotency.ts';
import { companyRoutes, orgParams } from '../../http/routes.ts';
import { memberOf, requirePermission } from '../../http/tenancy.ts';
import { createCreditNote, voidCreditNote } from './credit-notes.ts';
import { refundCreditNote, refundForInvoice } from './credit-refunds.ts';
import { notifyPaymentsRecorded } from '../notifications/events.ts';
import { deletePayment, paymentAnswer, recordPayment } from './payments.ts';
import { emitPaymentsRecorded } from '../webhooks/emit.ts';

// Money on a sent invoice: payments (Idempotency-Key accepted), credit notes, and refunds of
// what an overpayment or a credit note put on the customer's credit. All need 'post'.

const tags = ['invoices'];
const invoiceParams = orgParams.extend({ invoiceId: z.string().min(1).max(100) });
// Payment and credit note ids are checked for presence only (no 100 character cap), as always.
const paymentParams = invoiceParams.extend({ paymentId: z.string().min(1) });
const creditNoteParams = invoiceParams.extend({ creditNoteId: z.string().min(1) });

export const invoicePaymentRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    // Declared without companyRoutes on purpose: a repeated Idempotency-Key answers 200 with the
    // invoice as it is now (not the stored body replyIdempotent would replay), and the key stores
    // only the payment's id under the scope `invoice_payment:<invoiceId>`, so stored keys replay.
    app.post(
      '/orgs/:organizationId/invoices/:invoiceId/payments',
      {
        preHandler: requirePermission(ctx, 'post'),
        schema: {
          tags,
          summary: 'Record a payment (Idempotency-Key accepted)',
          params: invoiceParams,
          headers: z.object({ 'idempotency-key': z.string().optional() }).passthrough(),
          body: paymentInputSchema,
          response: { 201: paidInvoiceSchema, 200: paidInvoiceSchema },
        },
      },
      async (request, reply) => {
        const member = memberOf(request);
        const { invoiceId } = request.params;
        const { body, replayed } = await runIdempotentRequest(
          ctx,
          request,
          {
            organizationId: member.organizationId,
            scope: `invoice_payment:${invoiceId}`,
            statusCode: 201,
            what: 'payment',
          },
          async (trxCtx) => {
            const paid = await recordPayment(trxCtx, member, { ...request.body, invoiceId });
            // "Payment received" (and "invoice paid" when settled), in the payment's transaction.
            await notifyPaymentsRecorded(trxCtx, trxCtx.database.db, member.organizationId, [paid.paymentId]);
            await emitPaymentsRecorded(
              trxCtx.database.db,
              { organizationId: member.organizationId, now: trxCtx.now() },
              [paid.paymentId],
            );
            return paid;
          },
        );
        if (replayed) reply.header('idempotent-replayed', 'true');
        return reply
          .status(replayed ? 200 : 201)
          .send(await paymentAnswer(ctx, member, { invoiceId, paymentId: body.paymentId }));
      },
    );
    const route = companyRoutes(app, ctx, tags);
    route.delete(
      '/invoices/:invoiceId/payments/:paymentId',
      {
        summary: 'Remove a payment by posting its reversal',
        permission: 'post',
        params: paymentParams,
        response: invoiceSchema,
      },
      deletePayment,
    );
    route.post(
      '/invoices/:invoiceId/credit-notes',
      {
        summary: 'Issue a credit note against a sent invoice',
        permission: 'post',
        body: creditNoteInputSchema,
        response: invoiceSchema,
        status: 201,
      },
      createCreditNote,
    );
    route.post(
      '/invoices/:invoiceId/credit-notes/:creditNoteId/void',
      {
        summary: 'Void a credit note (reverses its posting)',
        permission: 'post',
        params: creditNoteParams,
        response: invoiceSchema,
      },
      voidCreditNote,
    );
    route.post(
      '/invoices/:invoiceId/refunds',
      {
        summary: "Refund the invoice's customer credit (an overpayment) from a money account",
        permission: 'post',
        body: refundInputSchema,
        response: invoiceSchema,
        status: 201,
      },
      refundForInvoice,
    );
    route.post(
      '/invoices/:invoiceId/credit-notes/:creditNoteId/refunds',
      {
        summary: 'Refund a credit note as cash (what it put on the customer credit)',
        permission: 'post',
        body: refundInputSchema,
        response: invoiceSchema,
        status: 201,
      },
      refundCreditNote,
    );
  };
