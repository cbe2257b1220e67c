import { sql } from 'kysely';
import { notFound } from '../../../shared/errors.ts';
import type { Executor } from '../../db/transaction.ts';
import { SYNC_JOB, syncSingletonKey } from './jobs.ts';

// Reads of the bank-feed tables (the module's own), the executor first.

export const selectConnection = async (
  db: Executor,
  organizationId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
) => {
  let q = db
    .selectFrom('bank_feed_connections')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id);
  if (options.forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
};

export type ConnectionRow = NonNullable<Awaited<ReturnType<typeof selectConnection>>>;

export const loadConnection = async (
  db: Executor,
  organizationId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
) => {
  const row = await selectConnection(db, organizationId, id, options);
  if (!row) throw notFound('Bank connection not found.');
  return row;
};

export const selectConnections = (db: Executor, organizationId: string) =>
  db
    .selectFrom('bank_feed_connections')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

export const selectFeedAccounts = (db: Executor, organizationId: string, connectionIds: string[]) =>
  connectionIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('bank_feed_accounts as a')
        .leftJoin('money_accounts as m', (j) =>
          j.onRef('m.organization_id', '=', 'a.organization_id').onRef('m.id', '=', 'a.money_account_id'),
        )
        .selectAll('a')
        .select(['m.name as money_name', 'm.currency as money_currency'])
        .where('a.organization_id', '=', organizationId)
        .where('a.connection_id', 'in', connectionIds)
        .orderBy('a.created_at')
        .orderBy('a.name')
        .orderBy('a.id')
        .execute();

/** Counts of the mirror's lines by connection, account and state. */
export const selectLineCounts = (db: Executor, organizationId: string) =>
  db
    .selectFrom('bank_feed_transactions')
    .select(['connection_id', 'provider_account_id', 'state', sql<number>`count(*)::int`.as('n')])
    .where('organization_id', '=', organizationId)
    .groupBy(['connection_id', 'provider_account_id', 'state'])
    .execute();

/** The newest lines of some states, per connection (at most `limit` each). */
export const selectLinesInStates = (
  db: Executor,
  organizationId: string,
  states: ('pending' | 'skipped' | 'conflict')[],
  limit: number,
) =>
  db
    .selectFrom(
      db
        .selectFrom('bank_feed_transactions')
        .selectAll()
        .select(
          sql<number>`row_number() over (partition by connection_id, state order by date desc, provider_transaction_id)`.as(
            'rank',
          ),
        )
        .where('organization_id', '=', organizationId)
        .where('state', 'in', states)
        .as('t'),
    )
    .selectAll()
    .where('rank', '<=', limit)
    .orderBy('date', 'desc')
    .orderBy('provider_transaction_id')
    .execute();

/** Which connections have a sync queued or running. */
export const selectSyncingKeys = async (db: Executor, organizationId: string) => {
  const rows = await db
    .selectFrom(sql<{ singleton_key: string; queue: string; state: string }>`jobs`.as('j'))
    .select('j.singleton_key')
    .where('j.queue', '=', SYNC_JOB)
    .where('j.state', 'in', ['created', 'retry', 'active'])
    .where('j.singleton_key', 'like', `${syncSingletonKey(organizationId, '')}%`)
    .execute();
  return new Set(rows.map((r) => r.singleton_key));
};
