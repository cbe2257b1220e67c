import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/transaction.ts';
import { type ScheduledJob, sendJob } from '../jobs/queue.ts';

// Bank-feed syncs run on the durable job queue (docs/jobs.md): one `bank-feeds.sync` job per
// connection at a time (its singleton key), queued by a link, "Sync now", a webhook or the
// schedule that syncs every active connection every four hours (for missed webhooks).

export const SYNC_JOB = 'bank-feeds.sync';
export const SCHEDULE_EVERY_SECONDS = 4 * 3600;

export type SyncJobData = { organizationId: string; connectionId: string; reason: string };

export const syncSingletonKey = (organizationId: string, connectionId: string) =>
  `${organizationId}:${connectionId}`;

/** Queues a sync in the caller's transaction; null when one is already waiting or running. */
export const queueSync = (db: Executor, data: SyncJobData, now: Date) =>
  sendJob(db, SYNC_JOB, data, {
    now,
    singletonKey: syncSingletonKey(data.organizationId, data.connectionId),
    retryLimit: 5,
    retryDelaySeconds: 60,
  });

/** Queues a sync of every active connection (the schedule's run). */
export const queueAllSyncs = async (ctx: AppContext) => {
  const rows = await ctx.database.db
    .selectFrom('bank_feed_connections')
    .select(['organization_id', 'id'])
    .where('status', '=', 'active')
    .execute();
  let queued = 0;
  for (const r of rows) {
    if (
      await queueSync(
        ctx.database.db,
        { organizationId: r.organization_id, connectionId: r.id, reason: 'schedule' },
        ctx.now(),
      )
    )
      queued += 1;
  }
  return queued;
};

export const bankFeedsScheduleJob: ScheduledJob<AppContext> = {
  name: 'bank-feeds.schedule',
  everySeconds: SCHEDULE_EVERY_SECONDS,
  run: async (ctx, log) => {
    const queued = await queueAllSyncs(ctx);
    if (queued > 0) log.info(`bank feeds: queued ${queued} scheduled sync${queued === 1 ? '' : 's'}`);
  },
};
