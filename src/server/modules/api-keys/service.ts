import { createHash, randomBytes, randomUUID } from 'node:crypto';
import {
  API_KEY_MAX_EXPIRY_DAYS,
  API_KEY_VISIBLE_LENGTH,
  type ApiKey,
  type ApiKeyCreate,
  type ApiKeyCreated,
  type ApiKeyList,
  type ApiKeyScope,
  type ApiKeyStatus,
  apiKeyFromRandom,
} from '../../../shared/api-keys.ts';
import { addDays } from '../../../shared/dates.ts';
import { badRequest, conflict, notFound } from '../../../shared/errors.ts';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { recordMemberAudit } from '../audit/record.ts';
import { type ApiKeyRow, countActiveApiKeys, selectApiKey, selectApiKeys } from './queries.ts';

// API keys per company (issue 19 item 2, docs/api.md "Authentication", decision 0038): owners
// and admins list, create and revoke them (the routes need manage_members, which no key has).
// A new key is answered once, whole; only its SHA-256 and its first 15 characters are kept.
// Revoking keeps the row (listed as revoked) so the audit log and the list still name it.

/** At most this many keys that still work per company. */
export const MAX_ACTIVE_API_KEYS = 50;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** 32 uniformly random base62 characters (bytes of 248 and above are dropped, so none is likelier). */
const randomBase62 = (length: number) => {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
};

/** The SHA-256 (hex) a key is stored and looked up by. */
export const hashApiKey = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** A new key: the whole secret (shown once), its hash and its visible start. */
export const newApiKeySecret = () => {
  const secret = apiKeyFromRandom(randomBase62(32));
  return { secret, hash: hashApiKey(secret), prefix: secret.slice(0, API_KEY_VISIBLE_LENGTH) };
};

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

export const apiKeyStatus = (
  row: Pick<ApiKeyRow, 'revoked_at' | 'expires_at' | 'creator_role'>,
  now: Date,
): ApiKeyStatus => {
  if (row.revoked_at) return 'revoked';
  if (row.expires_at && new Date(row.expires_at) <= now) return 'expired';
  // Its creator has left the company (or was deleted): the key acts as no one, so it opens nothing.
  if (!row.creator_role) return 'disabled';
  return 'active';
};

const toApiKey = (row: ApiKeyRow, now: Date): ApiKey => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  scopes: row.scopes as ApiKeyScope[],
  status: apiKeyStatus(row, now),
  createdAt: new Date(row.created_at).toISOString(),
  createdBy:
    row.created_by && row.creator_email
      ? { id: row.created_by, name: row.creator_name ?? '', email: row.creator_email }
      : null,
  expiresAt: iso(row.expires_at),
  lastUsedAt: iso(row.last_used_at),
  revokedAt: iso(row.revoked_at),
});

export const listApiKeys = async (ctx: AppContext, member: MemberContext): Promise<ApiKeyList> => {
  const now = ctx.now();
  return { keys: (await selectApiKeys(ctx.database.db, member.organizationId)).map((r) => toApiKey(r, now)) };
};

/** When a key that works through `expiresOn` (UTC) stops: the start of the next day. */
const expiryOf = (expiresOn: string | null | undefined, now: Date) => {
  if (!expiresOn) return null;
  const today = now.toISOString().slice(0, 10);
  if (expiresOn < today)
    throw badRequest('invalid_expiry', 'The expiry date is in the past; choose today or later.');
  if (expiresOn > addDays(today, API_KEY_MAX_EXPIRY_DAYS))
    throw badRequest(
      'invalid_expiry',
      'The expiry date is more than five years away; choose an earlier one.',
    );
  return new Date(`${addDays(expiresOn, 1)}T00:00:00.000Z`);
};

export const createApiKey = (
  ctx: AppContext,
  member: MemberContext,
  input: ApiKeyCreate,
): Promise<ApiKeyCreated> =>
  inTransaction(ctx.database.db, async (trx) => {
    const now = ctx.now();
    const expiresAt = expiryOf(input.expiresOn, now);
    // One key creation at a time per company, so two at once cannot pass the limit together.
    await trx
      .selectFrom('organizations')
      .select('id')
      .where('id', '=', member.organizationId)
      .forUpdate()
      .execute();
    if ((await countActiveApiKeys(trx, member.organizationId, now)) >= MAX_ACTIVE_API_KEYS) {
      throw conflict(
        'api_key_limit',
        `A company can have ${MAX_ACTIVE_API_KEYS} working API keys; revoke one you no longer use first.`,
      );
    }
    const { secret, hash, prefix } = newApiKeySecret();
    const id = randomUUID();
    const scopes = [...input.scopes].sort();
    await trx
      .insertInto('api_keys')
      .values({
        organization_id: member.organizationId,
        id,
        name: input.name,
        prefix,
        hash,
        scopes: JSON.stringify(scopes),
        expires_at: expiresAt,
        created_by: member.userId,
        created_at: now,
      })
      .execute();
    await recordMemberAudit(trx, member, 'api_key.created', ['api_key', id], {
      after: { name: input.name, prefix, scopes, expiresAt: iso(expiresAt) },
    });
    const row = await selectApiKey(trx, member.organizationId, id);
    if (!row) throw new Error('the new API key was not found');
    return { key: toApiKey(row, now), secret };
  });

export const revokeApiKey = (
  ctx: AppContext,
  member: MemberContext,
  { keyId }: { keyId: string },
): Promise<ApiKey> =>
  inTransaction(ctx.database.db, async (trx) => {
    const now = ctx.now();
    const row = await selectApiKey(trx, member.organizationId, keyId);
    if (!row) throw notFound('API key not found.');
    if (row.revoked_at) throw conflict('api_key_revoked', 'This API key is already revoked.');
    await trx
      .updateTable('api_keys')
      .set({ revoked_at: now })
      .where('organization_id', '=', member.organizationId)
      .where('id', '=', keyId)
      .execute();
    await recordMemberAudit(trx, member, 'api_key.revoked', ['api_key', keyId], {
      before: { name: row.name, prefix: row.prefix, scopes: row.scopes },
    });
    return toApiKey({ ...row, revoked_at: now }, now);
  });
