import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  billingInvoiceListSchema,
  billingOverviewSchema,
  billingRedirectSchema,
  localAuthenticateSchema,
  localCardSchema,
  localCheckoutSchema,
  planChoiceSchema,
} from '../../../shared/billing.ts';
import type { AppContext } from '../../context.ts';
import { errorBody } from '../../http/errors.ts';
import { publicRoutes, userRoutes } from '../../http/routes.ts';
import {
  authenticateCheckout,
  billingInvoiceFile,
  billingInvoices,
  billingOverview,
  cancelSubscription,
  changePlan,
  localCheckout,
  openPortal,
  payCheckout,
  receiveWebhook,
  resumeSubscription,
  startCheckout,
  updatePaymentMethod,
} from './service.ts';

// Billing (issue 16; docs/billing.md): the signed-in user's account, its subscription and
// invoices, the local provider's checkout and card pages, and the provider's webhook.

const tags = ['billing'];
const idParams = z.object({ id: z.string().min(1).max(100) });
const refusals = { 400: errorBody, 401: errorBody, 404: errorBody, 409: errorBody };
// What the provider may refuse on top (Stripe): a declined card, or Stripe out of reach.
const providerRefusals = { ...refusals, 402: errorBody, 503: errorBody };

/** Webhooks are rate limited per address like any anonymous call, but more generously. */
const WEBHOOK_LIMIT = { max: 600, timeWindow: '1 minute' };

export const billingRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const route = userRoutes(app, ctx, tags);
    route.get(
      '/billing',
      {
        summary: "The account's plan, trial, subscription, card and usage",
        response: billingOverviewSchema,
        otherResponses: refusals,
      },
      (c, user) => billingOverview(c, user),
    );
    route.post(
      '/billing/checkout',
      {
        summary: 'Start a checkout to subscribe (answers where to send the browser)',
        body: planChoiceSchema,
        response: billingRedirectSchema,
        otherResponses: providerRefusals,
      },
      (c, user, input) => startCheckout(c, user, input),
    );
    route.post(
      '/billing/portal',
      {
        summary: "The provider's page for card, invoices and cancellation",
        response: billingRedirectSchema,
        otherResponses: providerRefusals,
      },
      (c, user) => openPortal(c, user),
    );
    route.post(
      '/billing/change',
      {
        summary: "Change plan or interval (a trial's choice, or the subscription with proration)",
        body: planChoiceSchema,
        response: billingOverviewSchema,
        otherResponses: providerRefusals,
      },
      (c, user, input) => changePlan(c, user, input),
    );
    route.post(
      '/billing/cancel',
      {
        summary: 'Cancel the subscription at the end of the period',
        response: billingOverviewSchema,
        otherResponses: providerRefusals,
      },
      (c, user) => cancelSubscription(c, user),
    );
    route.post(
      '/billing/resume',
      {
        summary: 'Take back a cancellation at the end of the period',
        response: billingOverviewSchema,
        otherResponses: providerRefusals,
      },
      (c, user) => resumeSubscription(c, user),
    );
    route.get(
      '/billing/invoices',
      {
        summary: "The account's invoices, newest first",
        response: billingInvoiceListSchema,
        otherResponses: refusals,
      },
      (c, user) => billingInvoices(c, user),
    );
    route.get(
      '/billing/invoices/:id/pdf',
      {
        summary: 'An invoice as PDF (Stripe invoices redirect to Stripe)',
        params: idParams,
        otherResponses: refusals,
        produces: ['application/pdf'],
        answersWithoutBody: { 302: 'A Stripe invoice: its PDF at Stripe (Location).' },
      },
      async (c, user, { id }, { reply }) => {
        const file = await billingInvoiceFile(c, user, id);
        if (file.redirect) return reply.redirect(file.redirect);
        return reply
          .header('content-type', 'application/pdf')
          .header('content-disposition', `inline; filename="${file.fileName}"`)
          .header('cache-control', 'private, no-store')
          .send(file.pdf);
      },
    );
    route.get(
      '/billing/checkout-sessions/:id',
      {
        summary: "The local provider's checkout session",
        params: idParams,
        response: localCheckoutSchema,
        otherResponses: refusals,
      },
      (c, user, { id }) => localCheckout(c, user, id),
    );
    route.post(
      '/billing/checkout-sessions/:id/pay',
      {
        summary: 'Pay a local checkout with a test card',
        params: idParams,
        body: localCardSchema,
        response: localCheckoutSchema,
        otherResponses: refusals,
      },
      (c, user, { id, ...card }) => payCheckout(c, user, id, card),
    );
    route.post(
      '/billing/checkout-sessions/:id/authenticate',
      {
        summary: "Confirm (or refuse) a local checkout's authentication step",
        params: idParams,
        body: localAuthenticateSchema,
        response: localCheckoutSchema,
        otherResponses: refusals,
      },
      (c, user, { id, approve }) => authenticateCheckout(c, user, id, approve),
    );
    route.post(
      '/billing/payment-method',
      {
        summary: 'Put a new card on file (local provider)',
        body: localCardSchema,
        response: billingOverviewSchema,
        otherResponses: refusals,
      },
      (c, user, card) => updatePaymentMethod(c, user, card),
    );

    // The provider's webhook: no session; the signature over the exact bytes is the check, so
    // this plugin's bodies stay raw (a Buffer) whatever their content type.
    await app.register(async (raw) => {
      raw.removeAllContentTypeParsers();
      raw.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
      const hooks = raw.withTypeProvider<ZodTypeProvider>();
      publicRoutes(hooks, ctx, tags).post(
        '/billing/webhook',
        {
          summary: "The billing provider's events (Stripe-Signature verified; a replay is a no-op)",
          response: z.object({ received: z.literal(true) }),
          otherResponses: { 400: errorBody, 429: errorBody },
          config: { rateLimit: WEBHOOK_LIMIT },
        },
        async (c, _input, { request }) => {
          await receiveWebhook(c, request.body, request.headers);
          return { received: true as const };
        },
      );
    });
  };
