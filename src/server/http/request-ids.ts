import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

// Request ids (issue 20 §8, docs/operations.md): every request has one, every log line of it
// carries it (pino's `reqId`) and every response, errors included, names it in `x-request-id`,
// so a user's report can be matched to the log. Behind a trusted proxy the proxy's own id
// (`x-request-id`) is kept, so both logs share it.

const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;

/** Fastify's `genReqId`: the trusted proxy's id when it sent a sane one, else a random UUID. */
export const requestIdOf =
  (trustProxy: boolean) =>
  (request: IncomingMessage): string => {
    const given = trustProxy ? request.headers['x-request-id'] : undefined;
    return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
  };

/** `x-request-id` on every answer, errors included. */
export const registerRequestIds = (app: FastifyInstance) => {
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-request-id', request.id);
    return payload;
  });
};
