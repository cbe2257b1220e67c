import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/transaction.ts';
import { type ScheduledJob, sendJob } from '../jobs/queue.ts';
import { type ObjectStore, objectStoreOf } from './object-store.ts';
import { forgetSweptObject, isObjectReferenced } from './store.ts';

// Deleting the objects nothing points at any more (decision 0043). `attachment_object_sweep`
// holds their keys: every attachment row deleted while its bytes are in the object store (its
// own route, a deleted transaction, bill or draft entry, an erased company) through a trigger
// in the deleting transaction, and every upload from before its object is written until its
// row commits (due only after UPLOAD_GRACE_MS, so an upload in progress is never swept). The
// attachment routes delete their own objects right after they commit; this job, on the job
// queue (once per interval across server processes), deletes the rest, and a company's
// erasure queues a run at once. An object still referenced by a row is never deleted.

export const ATTACHMENT_SWEEP_JOB = 'attachments.sweep-objects';
const EVERY_SECONDS = 600;
const BATCH = 100;
const MAX_PER_RUN = 2000;

export type SweepResult = { deleted: number; kept: number; failed: number };

/** Deletes up to `limit` due objects; a failure stays queued (attempts, last error) for the next run. */
export const sweepAttachmentObjects = async (
  db: Executor,
  objects: ObjectStore,
  now: Date,
  limit = MAX_PER_RUN,
): Promise<SweepResult> => {
  const result: SweepResult = { deleted: 0, kept: 0, failed: 0 };
  const tried = new Set<string>();
  while (result.deleted + result.kept + result.failed < limit) {
    const due = await db
      .selectFrom('attachment_object_sweep')
      .select(['key'])
      .where((eb) => eb.or([eb('not_before', 'is', null), eb('not_before', '<=', now)]))
      .orderBy('attempts')
      .orderBy('created_at')
      .orderBy('key')
      .limit(BATCH)
      .execute();
    const fresh = due.filter((row) => !tried.has(row.key));
    if (fresh.length === 0) break;
    for (const { key } of fresh) {
      tried.add(key);
      if (await isObjectReferenced(db, key)) {
        await forgetSweptObject(db, key);
        result.kept += 1;
        continue;
      }
      try {
        await objects.delete(key);
        await forgetSweptObject(db, key);
        result.deleted += 1;
      } catch (error) {
        result.failed += 1;
        await db
          .updateTable('attachment_object_sweep')
          .set((eb) => ({
            attempts: eb('attempts', '+', 1),
            last_error: error instanceof Error ? `${error.name}: ${error.message}`.slice(0, 500) : 'failed',
          }))
          .where('key', '=', key)
          .execute();
      }
    }
    if (due.length < BATCH) break;
  }
  return result;
};

/** The sweep every ten minutes; without an object store there is nothing to do. */
export const attachmentObjectSweepJob: ScheduledJob<AppContext> = {
  name: ATTACHMENT_SWEEP_JOB,
  everySeconds: EVERY_SECONDS,
  run: async (ctx, log) => {
    const objects = objectStoreOf(ctx.config);
    if (!objects) return;
    const result = await sweepAttachmentObjects(ctx.database.db, objects, ctx.now());
    if (result.deleted > 0 || result.failed > 0)
      log.info(
        `attachments: deleted ${result.deleted} unreferenced object${result.deleted === 1 ? '' : 's'}${result.failed > 0 ? `, ${result.failed} could not be deleted (kept for the next run)` : ''}`,
      );
  },
};

/** Asks for a sweep as soon as the caller's transaction commits (a company's erasure), if it queued keys. */
export const queueAttachmentSweep = async (trx: Executor, now: Date) => {
  const queued = await trx
    .selectFrom('attachment_object_sweep')
    .select('key')
    .where('not_before', 'is', null)
    .limit(1)
    .executeTakeFirst();
  if (queued) await sendJob(trx, ATTACHMENT_SWEEP_JOB, null, { now, singletonKey: 'soon' });
};
