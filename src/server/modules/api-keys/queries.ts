import type { Executor } from '../../db/transaction.ts';

// The api_keys table (migration 20261128_1470), always filtered by company except for the
// bearer look-up, which finds a key by the SHA-256 of the whole key (unique).

const KEY_COLUMNS = [
  'k.id',
  'k.name',
  'k.prefix',
  'k.scopes',
  'k.expires_at',
  'k.last_used_at',
  'k.revoked_at',
  'k.created_at',
  'k.created_by',
  'u.name as creator_name',
  'u.email as creator_email',
  'm.role as creator_role',
] as const;

export const selectApiKeys = (db: Executor, organizationId: string) =>
  db
    .selectFrom('api_keys as k')
    .leftJoin('user as u', 'u.id', 'k.created_by')
    .leftJoin('organization_members as m', (join) =>
      join.onRef('m.organization_id', '=', 'k.organization_id').onRef('m.user_id', '=', 'k.created_by'),
    )
    .select(KEY_COLUMNS)
    .where('k.organization_id', '=', organizationId)
    .orderBy('k.created_at', 'desc')
    .orderBy('k.id')
    .execute();

export type ApiKeyRow = Awaited<ReturnType<typeof selectApiKeys>>[number];

export const selectApiKey = (db: Executor, organizationId: string, id: string) =>
  db
    .selectFrom('api_keys as k')
    .leftJoin('user as u', 'u.id', 'k.created_by')
    .leftJoin('organization_members as m', (join) =>
      join.onRef('m.organization_id', '=', 'k.organization_id').onRef('m.user_id', '=', 'k.created_by'),
    )
    .select(KEY_COLUMNS)
    .where('k.organization_id', '=', organizationId)
    .where('k.id', '=', id)
    .executeTakeFirst();

export const countActiveApiKeys = async (db: Executor, organizationId: string, now: Date) => {
  const row = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('organization_id', '=', organizationId)
    .where('revoked_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
    .executeTakeFirstOrThrow();
  return Number(row.n);
};

/** The key of a bearer hash with its creator's current role in the key's company (null when gone). */
export const selectKeyForBearer = (db: Executor, hash: string) =>
  db
    .selectFrom('api_keys as k')
    .leftJoin('organization_members as m', (join) =>
      join.onRef('m.organization_id', '=', 'k.organization_id').onRef('m.user_id', '=', 'k.created_by'),
    )
    .select([
      'k.organization_id',
      'k.id',
      'k.prefix',
      'k.scopes',
      'k.expires_at',
      'k.revoked_at',
      'k.last_used_at',
      'k.created_by',
      'm.role',
    ])
    .where('k.hash', '=', hash)
    .executeTakeFirst();

/** Marks a key used, unless it already was within the last minute (at most one write a minute). */
export const touchApiKey = (db: Executor, organizationId: string, id: string, now: Date) =>
  db
    .updateTable('api_keys')
    .set({ last_used_at: now })
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .where((eb) =>
      eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', new Date(now.getTime() - 60_000))]),
    )
    .execute();
