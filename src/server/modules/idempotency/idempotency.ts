import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { badRequest, conflict } from '../../../shared/errors.ts';
import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';

// Idempotency-Key for requests that move money. The key row is inserted in the same
// transaction as the work: a repeat of a finished request gets the stored answer and writes
// nothing; a repeat racing the first waits on the key's unique index and then gets the
// stored answer; a failed request rolls its key back, so a retry runs again. Keys are per
// company; reusing one for a different request is refused.

export type IdempotentResult<T> = { statusCode: number; body: T };

const KEY = /^[\w\-:.]{1,200}$/;

/** The Idempotency-Key header of a request, or null; refuses malformed keys. */
export const idempotencyKeyOf = (request: FastifyRequest): string | null => {
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) return null;
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (!key || !KEY.test(key)) {
    throw badRequest(
      'invalid_idempotency_key',
      'The Idempotency-Key header must be 1 to 200 letters, digits, dashes, underscores, colons or dots.',
    );
  }
  return key;
};

const hashRequest = (scope: string, payload: unknown) =>
  createHash('sha256').update(JSON.stringify({ scope, payload })).digest('hex');

/**
 * Runs `work` in a transaction once per (company, key). `scope` names the operation (e.g.
 * 'POST /journal-entries'); `payload` is what makes two requests the same.
 */
export const runIdempotent = async <T>(
  db: Db,
  input: { organizationId: string; key: string | null; scope: string; payload: unknown },
  work: (trx: Db) => Promise<IdempotentResult<T>>,
): Promise<IdempotentResult<T> & { replayed: boolean }> => {
  const { key } = input;
  if (key === null) return { ...(await db.transaction().execute((trx) => work(trx))), replayed: false };
  const requestHash = hashRequest(input.scope, input.payload);
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('idempotency_keys')
      .values({ organization_id: input.organizationId, key, scope: input.scope, request_hash: requestHash })
      .onConflict((oc) => oc.columns(['organization_id', 'key']).doNothing())
      .returning('key')
      .executeTakeFirst();
    if (!inserted) {
      const stored = await trx
        .selectFrom('idempotency_keys')
        .selectAll()
        .where('organization_id', '=', input.organizationId)
        .where('key', '=', key)
        .executeTakeFirstOrThrow();
      if (stored.request_hash !== requestHash) {
        throw conflict(
          'idempotency_key_reused',
          'This Idempotency-Key was already used for a different request. Use a new key for a new request.',
        );
      }
      return { statusCode: stored.status_code ?? 200, body: stored.response as T, replayed: true };
    }
    const result = await work(trx);
    await trx
      .updateTable('idempotency_keys')
      .set({ status_code: result.statusCode, response: JSON.stringify(result.body) })
      .where('organization_id', '=', input.organizationId)
      .where('key', '=', key)
      .execute();
    return { ...result, replayed: false };
  });
};

/**
 * The usual shape of an idempotent company route: key from the header, payload from the
 * body (or `payload` when the body needs condensing), and `work` run with the context's
 * database swapped for the request's transaction.
 */
export const runIdempotentRequest = async <T>(
  ctx: AppContext,
  request: FastifyRequest,
  options: { organizationId: string; scope: string; statusCode: number; payload?: unknown },
  work: (trxCtx: AppContext) => Promise<T>,
) => {
  const result = await runIdempotent(
    ctx.database.db,
    {
      organizationId: options.organizationId,
      key: idempotencyKeyOf(request),
      scope: options.scope,
      payload: options.payload ?? request.body,
    },
    async (trx) => ({
      statusCode: options.statusCode,
      body: await work({ ...ctx, database: { ...ctx.database, db: trx } }),
    }),
  );
  return result;
};
