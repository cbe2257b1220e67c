import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CONTACT_RATE_LIMIT,
  CONTACT_RATE_LIMITED_MESSAGE,
  contactMessageSchema,
  contactReceiptSchema,
} from '../../../shared/contact.ts';
import { AppError } from '../../../shared/errors.ts';
import type { AppContext } from '../../context.ts';
import { submitContactMessage } from './service.ts';

const errorBody = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional() }),
});

export const contactRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/contact',
      {
        schema: {
          tags: ['public'],
          summary: 'Send a message through the public contact form',
          body: contactMessageSchema,
          response: { 201: contactReceiptSchema, 400: errorBody, 429: errorBody },
        },
        // Applies even where the global cap is off (APP_ENV=test): the form is anonymous.
        config: {
          rateLimit: {
            ...CONTACT_RATE_LIMIT,
            errorResponseBuilder: () => new AppError(429, 'rate_limited', CONTACT_RATE_LIMITED_MESSAGE),
          },
        },
      },
      async (request, reply) => {
        const receipt = await submitContactMessage(ctx, request.body, {
          ip: request.ip ?? null,
          userAgent: request.headers['user-agent'] ?? null,
        });
        return reply.status(201).send(receipt);
      },
    );
  };
