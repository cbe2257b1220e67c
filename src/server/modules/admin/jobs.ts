import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import { jobsOverview, retryDeadJob } from '../jobs/admin.ts';
import { recordAdminAction } from './actions.ts';
import type { AdminActor } from './guard.ts';

// The job queue in the console (docs/jobs.md): what waits, runs, failed and died, and a retry
// of a dead job, recorded in the admin audit log with the job it revived.

export const adminJobs = (ctx: AppContext) => jobsOverview(ctx.database.db);

export const retryAdminJob = (ctx: AppContext, admin: AdminActor, input: { id: string }) =>
  inTransaction(ctx.database.db, async (trx) => {
    const job = await retryDeadJob(trx, input.id, ctx.now());
    await recordAdminAction(trx, admin, 'job.retried', ['job', job.id], {
      queue: job.queue,
      lastError: job.lastError,
    });
    return job;
  });
