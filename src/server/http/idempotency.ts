import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { badRequest, conflict } from '../../shared/errors.ts';
import type { AppContext } from '../context.ts';
import { type Executor, inTransaction } from '../db/transaction.ts';
import { type MemberContext, memberOf } from './tenancy.ts';

// Idempotency-Key for requests that move money — the one implementation every route uses
// (journal entries, wallet, transactions, transfers, statement import, invoice payments).
// The key row is inserted in the same transaction as the work: a repeat of a finished
// request gets the stored answer and writes nothing; a repeat racing the first waits on the
// key's unique index (and the row lock) and then gets the stored answer; a failed request
// rolls its key back, so a retry runs again. Keys are per company; reusing one for a
// different request is refused. How to use it: docs/architecture.md and docs/ledger.md.

export type IdempotentResult<T> = { statusCode: number; body: T };

// Visible ASCII, as the HTTP header allows it (letters, digits, punctuation; no spaces).
const KEY = /^[\x21-\x7e]{1,200}$/;

/** The Idempotency-Key header of a request, or null; refuses malformed keys. */
export const idempotencyKeyOf = (request: FastifyRequest): string | null => {
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) return null;
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (!key || !KEY.test(key)) {
    throw badRequest(
      'invalid_idempotency_key',
      'The Idempotency-Key header must be 1-200 visible ASCII characters.',
    );
  }
  return key;
};

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const hashRequest = (scope: string, payload: unknown) => sha256(JSON.stringify({ scope, payload }));

// Rows written before the invoices moved onto this module (scope 'invoice_payment:<id>')
// hashed the payload alone and kept the scope beside it; they are still read as they were.
const LEGACY_PAYLOAD_ONLY_SCOPE = /^invoice_payment:/;
const sameRequest = (
  stored: { scope: string; request_hash: string },
  scope: string,
  payload: unknown,
  requestHash: string,
) => {
  if (stored.scope !== scope) return false;
  if (stored.request_hash === requestHash) return true;
  return (
    LEGACY_PAYLOAD_ONLY_SCOPE.test(scope) && stored.request_hash === sha256(JSON.stringify(payload ?? null))
  );
};

/**
 * Runs `work` in a transaction (the caller's, when `db` is one) once per (company, key).
 * `scope` names the operation (e.g. 'POST /journal-entries'); `payload` is what makes two
 * requests the same; `what` names the request in the reuse refusal ("a new payment").
 */
export const runIdempotent = async <T>(
  db: Executor,
  input: { organizationId: string; key: string | null; scope: string; payload: unknown; what?: string },
  work: (trx: Executor) => Promise<IdempotentResult<T>>,
): Promise<IdempotentResult<T> & { replayed: boolean }> => {
  const { key } = input;
  if (key === null) return { ...(await inTransaction(db, (trx) => work(trx))), replayed: false };
  const requestHash = hashRequest(input.scope, input.payload);
  return inTransaction(db, async (trx) => {
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
        .forUpdate()
        .executeTakeFirstOrThrow();
      if (!sameRequest(stored, input.scope, input.payload, requestHash)) {
        throw conflict(
          'idempotency_key_reused',
          `This Idempotency-Key was already used for a different request. Use a new key for a new ${input.what ?? 'request'}.`,
        );
      }
      if (stored.status_code === null) {
        throw conflict(
          'idempotency_in_progress',
          'The first request with this Idempotency-Key is still running. Try again shortly.',
        );
      }
      return { statusCode: stored.status_code, body: stored.response as T, replayed: true };
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
  options: { organizationId: string; scope: string; statusCode: number; payload?: unknown; what?: string },
  work: (trxCtx: AppContext) => Promise<T>,
) => {
  const result = await runIdempotent(
    ctx.database.db,
    {
      organizationId: options.organizationId,
      key: idempotencyKeyOf(request),
      scope: options.scope,
      payload: options.payload ?? request.body,
      what: options.what,
    },
    async (trx) => ({
      statusCode: options.statusCode,
      body: await work({ ...ctx, database: { ...ctx.database, db: trx } }),
    }),
  );
  return result;
};

/**
 * A whole idempotent company route: `work(trxCtx, member)` runs once per key for the member's
 * company, and the reply carries its status and body, with `idempotent-replayed: true` on a
 * replay. `payload` defaults to the request body.
 */
export const replyIdempotent = async <T>(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  options: { scope: string; statusCode: number; payload?: unknown },
  work: (trxCtx: AppContext, member: MemberContext) => Promise<T>,
) => {
  const member = memberOf(request);
  const result = await runIdempotentRequest(
    ctx,
    request,
    { organizationId: member.organizationId, ...options },
    (trxCtx) => work(trxCtx, member),
  );
  if (result.replayed) reply.header('idempotent-replayed', 'true');
  return reply.status(result.statusCode).send(result.body);
};
