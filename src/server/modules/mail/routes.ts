import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { errorBody } from '../../http/errors.ts';
import { developmentOnly } from '../../http/request-security.ts';
import { publicRoutes } from '../../http/routes.ts';
import { listMailbox, mailboxEnabled, readMailbox } from './service.ts';

// The development mailbox: the outbox as JSON for the /dev/mailbox page and for tests.
// Answers 404 outside development and test, as if it did not exist, and 403 to any client
// that is not on the machine running the server (docs/security.md).

const summary = z.object({ id: z.string(), to: z.string(), subject: z.string(), createdAt: z.string() });
const message = summary.extend({
  text: z.string(),
  html: z.string().nullable(),
  attachments: z.array(
    z.object({ filename: z.string(), contentType: z.string().nullable(), size: z.number() }),
  ),
});

export const mailRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    // Reset and verification links are in here: only the developer on this machine reads them.
    app.addHook('onRequest', developmentOnly(mailboxEnabled, ctx));

    const route = publicRoutes(app, ctx, ['development']);
    route.get(
      '/dev/mailbox',
      {
        summary: 'List mail in the development outbox, newest first',
        query: z.object({
          to: z.string().max(320).optional(),
          limit: z.coerce.number().int().min(1).max(200).optional(),
        }),
        response: z.object({ messages: z.array(summary) }),
        otherResponses: { 404: errorBody },
      },
      async (c, query) => ({ messages: await listMailbox(c, query) }),
    );
    route.get(
      '/dev/mailbox/:id',
      {
        summary: 'Read one mail from the development outbox',
        params: z.object({ id: z.uuid() }),
        response: message,
        otherResponses: { 404: errorBody },
      },
      (c, { id }) => readMailbox(c, id),
    );
  };
