import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { plaidWebhookAnswerSchema } from '../../../shared/plaid-webhook.ts';
import type { AppContext } from '../../context.ts';
import { errorBody } from '../../http/errors.ts';
import { publicRoutes } from '../../http/routes.ts';
import { receivePlaidWebhook } from './plaid-webhook.ts';

// POST /api/plaid/webhook (issue 18 §3, the seed's path): Plaid's webhooks, no session. The
// Plaid-Verification JWT signs the SHA-256 of the exact bytes, so this plugin keeps bodies raw
// (a Buffer) whatever their content type, as billing's Stripe webhook does.

const tags = ['bank-feeds'];

/** Per address like any anonymous call, but more generously (Plaid sends bursts after an outage). */
const WEBHOOK_LIMIT = { max: 600, timeWindow: '1 minute' };

/** A webhook is a few hundred bytes; anything far larger is not Plaid's. */
const WEBHOOK_BODY_LIMIT = 64 * 1024;

export const plaidWebhookRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    await app.register(async (raw) => {
      raw.removeAllContentTypeParsers();
      raw.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
      publicRoutes(raw.withTypeProvider<ZodTypeProvider>(), ctx, tags).post(
        '/plaid/webhook',
        {
          summary:
            "Plaid's webhooks: Plaid-Verification checked (ES256 key by id, iat within 5 minutes, body SHA-256) before anything is done; SYNC_UPDATES_AVAILABLE queues a sync, item errors mark the connection",
          response: plaidWebhookAnswerSchema,
          otherResponses: {
            400: errorBody,
            401: errorBody,
            404: errorBody,
            409: errorBody,
            413: errorBody,
            429: errorBody,
          },
          bodyLimit: WEBHOOK_BODY_LIMIT,
          config: { rateLimit: WEBHOOK_LIMIT },
        },
        (c, _input, { request }) => receivePlaidWebhook(c, request.body, request.headers),
      );
    });
  };
