import type { AppContext } from '../../context.ts';
import { type JobQueue, type Logger, scheduleJob } from '../jobs/queue.ts';
import { SYNC_JOB, type SyncJobData, bankFeedsScheduleJob } from './jobs.ts';
import { runSyncJob } from './sync.ts';

// main.ts registers the bank feeds' background work: the schedule that queues a sync of every
// active connection every four hours, and the worker that runs `bank-feeds.sync` jobs.

export const registerBankFeedJobs = (queue: JobQueue, ctx: AppContext, log: Logger) => {
  scheduleJob(queue, ctx, bankFeedsScheduleJob, log);
  queue.work<SyncJobData>(SYNC_JOB, (job) => runSyncJob(ctx, job.data, log), { expireSeconds: 30 * 60 });
};
