import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { badRequest, conflict } from '../../../shared/errors.ts';
import type { Executor } from './queries.ts';

// Idempotency-Key for requests that move money. The key row is written in the same
// transaction as the payment: a repeat with the same body gets the first answer and writes
// nothing; a racing twin waits on the key's row lock and then sees the stored answer; the
// same key with a different body is refused.

export const hashRequest = (body: unknown) =>
  createHash('sha256')
    .update(JSON.stringify(body ?? null))
    .digest('hex');

export const checkIdempotencyKey = (key: string | undefined) => {
  if (key === undefined) return undefined;
  if (!/^[\x21-\x7e]{1,200}$/.test(key)) {
    throw badRequest(
      'invalid_idempotency_key',
      'The Idempotency-Key header must be 1-200 visible ASCII characters.',
    );
  }
  return key;
};

/**
 * Runs `fn` once per (company, key). Must be called inside a transaction. Returns the stored
 * response when the key was used before with the same request.
 */
export const withIdempotency = async <T>(
  trx: Executor,
  params: { organizationId: string; key: string | undefined; scope: string; requestHash: string },
  fn: () => Promise<T>,
): Promise<{ replayed: boolean; value: T }> => {
  if (!params.key) return { replayed: false, value: await fn() };
  const inserted = await trx
    .insertInto('idempotency_keys')
    .values({
      organization_id: params.organizationId,
      key: params.key,
      scope: params.scope,
      request_hash: params.requestHash,
    })
    .onConflict((oc) => oc.columns(['organization_id', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  if (!inserted) {
    const existing = await trx
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('organization_id', '=', params.organizationId)
      .where('key', '=', params.key)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (existing.scope !== params.scope || existing.request_hash !== params.requestHash) {
      throw conflict(
        'idempotency_key_reused',
        'This Idempotency-Key was already used for a different request. Use a new key for a new payment.',
      );
    }
    if (existing.response === null) {
      throw conflict(
        'idempotency_in_progress',
        'The first request with this Idempotency-Key is still running. Try again shortly.',
      );
    }
    return { replayed: true, value: existing.response as T };
  }
  const value = await fn();
  await trx
    .updateTable('idempotency_keys')
    .set({ status_code: 201, response: sql`${JSON.stringify(value)}::jsonb` })
    .where('organization_id', '=', params.organizationId)
    .where('key', '=', params.key)
    .execute();
  return { replayed: false, value };
};
