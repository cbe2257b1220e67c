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
import { memberOf } from '../../http/tenancy.ts';
import { createCreditNote, voidCreditNote } from './credit-notes.ts';
import { refundCreditNote, refundForInvoice } from './credit-refunds.ts';
import { deletePayment, paymentAnswer, recordPayment } from './payments.ts';
import {
  guarded,
  creditNoteParams,
  creditNoteRefundParams,
  invoiceParams,
  paymentParams,
} from './routes-common.ts';

// Money on a sent invoice: payments (Idempotency-Key accepted), credit notes, and refunds of
// what an overpayment or a credit note put on the customer's credit. All need 'post'.

export const invoicePaymentRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/orgs/:organizationId/invoices/:invoiceId/payments',
      guarded(ctx, 'post', 'Record a payment (Idempotency-Key accepted)', {
        params: invoiceParams,
        headers: z.object({ 'idempotency-key': z.string().optional() }).passthrough(),
        body: paymentInputSchema,
        response: { 201: paidInvoiceSchema, 200: paidInvoiceSchema },
      }),
      async (request, reply) => {
        // The key stores the payment's id (scope and payload as before, so stored keys replay);
        // the answer is the invoice as it is now: 201, or 200 with idempotent-replayed on a repeat.
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
          (trxCtx) => recordPayment(trxCtx, member, { ...request.body, invoiceId }),
        );
        if (replayed) reply.header('idempotent-replayed', 'true');
        return reply
          .status(replayed ? 200 : 201)
          .send(await paymentAnswer(ctx, member, { invoiceId, paymentId: body.paymentId }));
      },
    );
    app.delete(
      '/orgs/:organizationId/invoices/:invoiceId/payments/:paymentId',
      guarded(ctx, 'post', 'Remove a payment by posting its reversal', {
        params: paymentParams,
        response: { 200: invoiceSchema },
      }),
      async (request) => deletePayment(ctx, memberOf(request), request.params),
    );
    app.post(
      '/orgs/:organizationId/invoices/:invoiceId/credit-notes',
      guarded(ctx, 'post', 'Issue a credit note against a sent invoice', {
        params: invoiceParams,
        body: creditNoteInputSchema,
        response: { 201: invoiceSchema },
      }),
      async (request, reply) =>
        reply.status(201).send(
          await createCreditNote(ctx, memberOf(request), {
            ...request.body,
            invoiceId: request.params.invoiceId,
          }),
        ),
    );
    app.post(
      '/orgs/:organizationId/invoices/:invoiceId/credit-notes/:creditNoteId/void',
      guarded(ctx, 'post', 'Void a credit note (reverses its posting)', {
        params: creditNoteParams,
        response: { 200: invoiceSchema },
      }),
      async (request) => voidCreditNote(ctx, memberOf(request), request.params),
    );
    app.post(
      '/orgs/:organizationId/invoices/:invoiceId/refunds',
      guarded(ctx, 'post', "Refund the invoice's customer credit (an overpayment) from a money account", {
        params: invoiceParams,
        body: refundInputSchema,
        response: { 201: invoiceSchema },
      }),
      async (request, reply) =>
        reply.status(201).send(
          await refundForInvoice(ctx, memberOf(request), {
            ...request.body,
            invoiceId: request.params.invoiceId,
          }),
        ),
    );
    app.post(
      '/orgs/:organizationId/invoices/:invoiceId/credit-notes/:creditNoteId/refunds',
      guarded(ctx, 'post', 'Refund a credit note as cash (what it put on the customer credit)', {
        params: creditNoteRefundParams,
        body: refundInputSchema,
        response: { 201: invoiceSchema },
      }),
      async (request, reply) =>
        reply
          .status(201)
          .send(await refundCreditNote(ctx, memberOf(request), { ...request.body, ...request.params })),
    );
  };
