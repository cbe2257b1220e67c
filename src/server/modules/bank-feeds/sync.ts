import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import { recordAudit } from '../audit/record.ts';
import type { Logger } from '../jobs/queue.ts';
import { applySyncPage, placeWaitingLines } from './apply.ts';
import { accessTokenOf, recordConnectionError } from './connections.ts';
import type { SyncJobData } from './jobs.ts';
import { type BankFeedProvider, FeedItemError } from './provider.ts';
import { bankFeedProvider } from './providers.ts';
import { selectConnection } from './queries.ts';
import { tokenCipherOf } from './token-cipher.ts';

// One sync of a connection (issue 18 §2): pages of the provider's transactions from the stored
// cursor. Each page is asked for outside any transaction, then applied and its next cursor
// stored in ONE transaction: a sync interrupted half-way (a crash, an error, a page that
// fails) keeps every page before it and nothing of the failing one, and the next sync resumes
// from the last stored cursor. The first sync (no cursor yet) records its progress per page.

export type SyncOptions = {
  provider?: BankFeedProvider;
  /** At most this many pages in this run (the rest on the next). */
  maxPages?: number;
  /** Tests: runs inside each page's transaction after the page is applied (throw to interrupt). */
  afterPageApplied?: (page: number) => void | Promise<void>;
};

export type SyncResult = { pages: number; received: number; posted: number; linked: number; done: boolean };

export const syncConnection = async (
  ctx: AppContext,
  target: { organizationId: string; connectionId: string },
  options: SyncOptions = {},
): Promise<SyncResult> => {
  const provider = options.provider ?? bankFeedProvider(ctx);
  const result: SyncResult = { pages: 0, received: 0, posted: 0, linked: 0, done: false };
  const maxPages = options.maxPages ?? 200;
  while (result.pages < maxPages) {
    const connection = await selectConnection(ctx.database.db, target.organizationId, target.connectionId);
    if (connection?.status !== 'active' || connection.provider !== provider.name) return result;
    const page = await provider.syncTransactions(accessTokenOf(ctx, connection), connection.sync_cursor);
    const applied = await inTransaction(ctx.database.db, async (trx) => {
      const locked = await selectConnection(trx, target.organizationId, target.connectionId, {
        forUpdate: true,
      });
      // Another sync moved the cursor meanwhile (or the connection went): this page is stale.
      if (!locked || locked.sync_cursor !== connection.sync_cursor) return null;
      const counts = await applySyncPage(ctx, trx, locked, page);
      const firstSync = locked.first_sync_done_at === null;
      const dates = [...page.added, ...page.modified].map((t) => t.date).sort();
      const oldest =
        dates[0] && (!locked.first_sync_oldest_date || dates[0] < locked.first_sync_oldest_date)
          ? dates[0]
          : locked.first_sync_oldest_date;
      const now = ctx.now();
      // The token is re-encrypted under the current key after a rotation (token-cipher.ts).
      const cipher = tokenCipherOf(ctx.config);
      const resealed =
        locked.access_token_key_id !== cipher.keyId ? cipher.seal(accessTokenOf(ctx, locked)) : null;
      await trx
        .updateTable('bank_feed_connections')
        .set({
          sync_cursor: page.nextCursor,
          last_sync_error: null,
          updated_at: now,
          ...(!page.hasMore && { last_synced_at: now }),
          ...(firstSync && {
            first_sync_pages: locked.first_sync_pages + 1,
            first_sync_lines: locked.first_sync_lines + counts.received,
            first_sync_oldest_date: oldest,
            ...(!page.hasMore && { first_sync_done_at: now }),
          }),
          ...(resealed && {
            access_token_ciphertext: resealed.ciphertext,
            access_token_key_id: resealed.keyId,
          }),
        })
        .where('organization_id', '=', locked.organization_id)
        .where('id', '=', locked.id)
        .execute();
      if (counts.posted > 0 || counts.linked > 0 || page.removed.length > 0)
        await recordAudit(trx, {
          organizationId: locked.organization_id,
          actorUserId: null,
          action: 'bank_feed.synced',
          entityType: 'bank_feed_connection',
          entityId: locked.id,
          after: {
            received: counts.received,
            posted: counts.posted,
            linked: counts.linked,
            removed: page.removed.length,
          },
        });
      await options.afterPageApplied?.(result.pages + 1);
      return counts;
    });
    if (!applied) return result;
    result.pages += 1;
    result.received += applied.received;
    result.posted += applied.posted;
    result.linked += applied.linked;
    if (!page.hasMore) {
      // Lines that waited for an exchange rate get another chance once the feed is current.
      await inTransaction(ctx.database.db, async (trx) => {
        const locked = await selectConnection(trx, target.organizationId, target.connectionId, {
          forUpdate: true,
        });
        if (locked) {
          const placed = await placeWaitingLines(ctx, trx, locked);
          result.posted += placed.posted;
          result.linked += placed.linked;
        }
      });
      result.done = true;
      return result;
    }
  }
  return result;
};

/** The `bank-feeds.sync` job: an item error marks the connection (the reconnect banner) and ends. */
export const runSyncJob = async (ctx: AppContext, data: SyncJobData, log?: Logger) => {
  try {
    await syncConnection(ctx, data);
  } catch (error) {
    const db = ctx.database.db;
    if (error instanceof FeedItemError) {
      const connection = await selectConnection(db, data.organizationId, data.connectionId);
      if (connection)
        await inTransaction(db, (trx) =>
          recordConnectionError(trx, connection, error.code, error.message, { now: ctx.now(), ctx }),
        );
      log?.warn(`bank feeds: connection ${data.connectionId} needs the user: ${error.code}`);
      return;
    }
    // Never the token: only the error's message, which the providers word without it.
    const message = error instanceof Error ? error.message : String(error);
    await db
      .updateTable('bank_feed_connections')
      .set({ last_sync_error: message.slice(0, 500), updated_at: ctx.now() })
      .where('organization_id', '=', data.organizationId)
      .where('id', '=', data.connectionId)
      .execute();
    throw error;
  }
};
