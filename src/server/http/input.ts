import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type ApiErrorBody, badRequest } from '../../shared/errors.ts';
import { unsafeTextProblem } from '../../shared/input.ts';

// Requests the router or the text rules refuse before any route runs, in the API's error
// shape (decision 0014).

/** The longest path parameter the router accepts; every id the API issues is far shorter. */
export const MAX_PARAM_LENGTH = 200;

type Found = { field: string; message: string };

const findUnsafeText = (value: unknown, path: string, depth = 0): Found | undefined => {
  if (typeof value === 'string') {
    const problem = unsafeTextProblem(value);
    return problem ? { field: path, message: problem } : undefined;
  }
  if (depth > 64 || value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return undefined;
  for (const [key, inner] of Object.entries(value)) {
    const keyProblem = unsafeTextProblem(key);
    const at = path ? `${path}.${key}` : key;
    if (keyProblem) return { field: at, message: `its name ${keyProblem}` };
    const found = findUnsafeText(inner, at, depth + 1);
    if (found) return found;
  }
  return undefined;
};

/**
 * Refuses any string in the path, query or JSON body that text cannot hold — a NUL character or
 * a lone UTF-16 surrogate — with 400 naming the field, before validation or the database sees it.
 */
export const registerTextGuard = (app: FastifyInstance) => {
  app.addHook('preValidation', async (request) => {
    for (const [where, value] of [
      ['path', request.params],
      ['query', request.query],
      ['body', request.body],
    ] as const) {
      const found = findUnsafeText(value, '');
      if (found) {
        const field = found.field || where;
        throw badRequest('validation_failed', `Please check the ${where}: ${field}: ${found.message}.`, [
          { field, message: found.message },
        ]);
      }
    }
  });
};

/**
 * Fastify's `frameworkErrors`: a URL whose percent-encoding does not decode answers 400 and a
 * path parameter longer than MAX_PARAM_LENGTH answers 404 (no such resource exists), both in
 * the API's error shape rather than the router's own.
 */
export const frameworkErrors = (
  error: { code?: string; message: string },
  request: FastifyRequest,
  reply: FastifyReply,
) => {
  const path = request.url.split('?')[0] ?? '/';
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return reply.status(404).send({
      error: {
        code: 'not_found',
        message: `No route ${request.method} ${path.slice(0, 200)}: a path segment is longer than ${MAX_PARAM_LENGTH} characters.`,
      },
    } satisfies ApiErrorBody);
  }
  if (error.code === 'FST_ERR_BAD_URL') {
    return reply.status(400).send({
      error: {
        code: 'bad_url',
        message: 'The address is not valid: it has a malformed percent-encoded (%XX) sequence.',
      },
    } satisfies ApiErrorBody);
  }
  return reply
    .status(400)
    .send({ error: { code: 'bad_request', message: error.message } } satisfies ApiErrorBody);
};

export type DatabaseRefusal = { status: 400 | 409; code: string; message: string };

/**
 * The safety net behind the routes' own validation (decision 0014): a value PostgreSQL refuses
 * — SQLSTATE class 22 (data exception: out of range, malformed, untranslatable), a foreign key,
 * unique, not-null or check violation — is the request's fault, so it answers 4xx, not 500.
 * Reaching this means a route misses a rule; the error handler logs it so it gets one.
 */
export const databaseRefusal = (error: unknown): DatabaseRefusal | undefined => {
  if (!error || typeof error !== 'object' || !('severity' in error)) return undefined;
  const code = (error as { code?: unknown }).code;
  const message = String((error as { message?: unknown }).message ?? '');
  if (typeof code !== 'string') return undefined;
  if (/^22[0-9A-Z]{3}$/.test(code) || code === '23502' || code === '23514')
    return {
      status: 400,
      code: 'invalid_value',
      message: 'A value in the request cannot be stored: it is malformed or out of range. Please check it.',
    };
  if (code === '23503')
    return message.startsWith('update or delete')
      ? {
          status: 409,
          code: 'still_referenced',
          message: 'Other records still use this one, so it cannot be changed or removed.',
        }
      : {
          status: 400,
          code: 'unknown_reference',
          message: 'The request names a record that does not exist.',
        };
  if (code === '23505')
    return { status: 409, code: 'already_exists', message: 'A record with these details already exists.' };
  return undefined;
};

/**
 * Fastify's `clientErrorHandler`: what Node's HTTP parser refuses before any route sees it
 * (headers or address over 16 KB, a malformed request line, a client too slow) still answers
 * in the API's error shape, like Fastify's default otherwise does.
 */
export const clientErrorHandler = (error: Error & { code?: string }, socket: Socket) => {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, body] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Request Timeout', { code: 'request_timeout', message: 'The request took too long to arrive.' }]
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [
            431,
            'Request Header Fields Too Large',
            {
              code: 'headers_too_large',
              message: 'The address or headers are too long (over 16 KB); shorten them and try again.',
            },
          ]
        : [400, 'Bad Request', { code: 'bad_request', message: 'The request is not valid HTTP.' }];
  const text = JSON.stringify({ error: body } satisfies ApiErrorBody);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Length: ${Buffer.byteLength(text)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy(error);
};
