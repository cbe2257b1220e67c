import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

// Request ids (issue 20 §8, docs/operations.md): every request has one, every log line of it
// carries it (pino's `reqId`), every response names it in `x-request-id`, and every API error
// body carries it as `error.requestId`, so a user's report can be matched to the log. Behind a
// trusted proxy the proxy's own id (`x-request-id`) is kept, so both logs share it.

const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;

/** Fastify's `genReqId`: the trusted proxy's id when it sent a sane one, else a random UUID. */
export const requestIdOf =
  (trustProxy: boolean) =>
  (request: IncomingMessage): string => {
    const given = trustProxy ? request.headers['x-request-id'] : undefined;
    return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
  };

const ERROR_BODY_START = '{"error":{';

/** Registered before compression, so error bodies are still JSON text here. */
export const registerRequestIds = (app: FastifyInstance) => {
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-request-id', request.id);
    if (reply.statusCode < 400 || typeof payload !== 'string' || !payload.startsWith(ERROR_BODY_START))
      return payload;
    try {
      const body = JSON.parse(payload) as { error?: unknown };
      if (!body.error || typeof body.error !== 'object' || Array.isArray(body.error)) return payload;
      (body.error as Record<string, unknown>).requestId = request.id;
      return JSON.stringify(body);
    } catch {
      return payload;
    }
  });
};
