import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, type ApiErrorBody } from '../../shared/errors.ts';
import { databaseRefusal } from './input.ts';
import { LEDGER_LIMIT_MESSAGE } from '../../shared/money.ts';

// Every error leaves the API as `{ error: { code, message, details? } }`.

/** That shape as a route documents it, e.g. `otherResponses: { 401: errorBody }`. */
export const errorObject = z.object({
  code: z.string(),
  message: z.string(),
  details: z.unknown().optional(),
});
export const errorBody = z.object({ error: errorObject });

const describeIssue = (issue: { instancePath?: string; message?: string }, where: string) => {
  const field = issue.instancePath?.replace(/^\//, '').replace(/\//g, '.') || where;
  return `${field}: ${issue.message ?? 'is invalid'}`;
};

export const registerErrorHandling = (app: FastifyInstance) => {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      const body: ApiErrorBody = { error: { code: error.code, message: error.message } };
      if (error.details !== undefined) body.error.details = error.details;
      return reply.status(error.status).send(body);
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const where = error.validationContext ?? 'request';
      const details = error.validation.map((issue) => ({
        field: issue.instancePath.replace(/^\//, '').replace(/\//g, '.') || where,
        message: issue.message,
      }));
      return reply.status(400).send({
        error: {
          code: 'validation_failed',
          message: `Please check the ${where}: ${error.validation.map((i) => describeIssue(i, where)).join('; ')}`,
          details,
        },
      } satisfies ApiErrorBody);
    }
    // The ledger's trigger refuses lines past the company's volume limit (decision 0013),
    // whichever module wrote them; the transaction has rolled back.
    if ((error as { code?: unknown }).code === 'KL001') {
      return reply.status(409).send({
        error: { code: 'ledger_limit_reached', message: LEDGER_LIMIT_MESSAGE },
      } satisfies ApiErrorBody);
    }
    // Safety net: a value the database refuses answers 4xx (decision 0014); logged, since it
    // means a route lacks a validation rule.
    const refusal = databaseRefusal(error);
    if (refusal) {
      request.log.warn({ err: error }, 'the database refused a value the route did not validate');
      return reply
        .status(refusal.status)
        .send({ error: { code: refusal.code, message: refusal.message } } satisfies ApiErrorBody);
    }
    if (isResponseSerializationError(error)) {
      request.log.error({ err: error }, 'response did not match its schema');
      return reply.status(500).send({
        error: { code: 'internal_error', message: 'Something went wrong on our side. Please try again.' },
      });
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.status(status).send({
        error: { code: 'internal_error', message: 'Something went wrong on our side. Please try again.' },
      });
    }
    if (status === 429) {
      return reply.status(429).send({
        error: { code: 'rate_limited', message: 'Too many requests. Please wait a moment and try again.' },
      });
    }
    return reply.status(status).send({
      error: { code: error.code ? error.code.toLowerCase() : 'bad_request', message: error.message },
    } satisfies ApiErrorBody);
  });
};
