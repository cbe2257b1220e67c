import { z } from 'zod';

// The job queue as the admin console shows it (GET /api/admin/jobs; docs/jobs.md).

export const JOB_STATE_LABELS = {
  created: 'Waiting',
  retry: 'Retrying',
  active: 'Running',
  completed: 'Done',
  dead: 'Dead',
} as const;
export const jobStateSchema = z.enum(['created', 'retry', 'active', 'completed', 'dead']);
export type JobStateName = z.infer<typeof jobStateSchema>;

export const adminJobSchema = z.object({
  id: z.string(),
  queue: z.string(),
  state: jobStateSchema,
  /** Failed attempts so far. */
  retryCount: z.number().int(),
  retryLimit: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  /** When the latest attempt started and ended (null before the first). */
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  /** The next attempt, for a waiting or retrying job. */
  nextAttemptAt: z.string().nullable(),
});
export type AdminJob = z.infer<typeof adminJobSchema>;

export const adminJobQueueCountsSchema = z.object({
  queue: z.string(),
  created: z.number().int(),
  retry: z.number().int(),
  active: z.number().int(),
  completed: z.number().int(),
  dead: z.number().int(),
});
export type AdminJobQueueCounts = z.infer<typeof adminJobQueueCountsSchema>;

export const adminJobsSchema = z.object({
  queues: z.array(adminJobQueueCountsSchema),
  /** The latest jobs that failed and wait for their next attempt, newest failure first. */
  failing: z.array(adminJobSchema),
  /** The latest dead jobs (failed past their retry limit), newest first; POST …/retry revives one. */
  dead: z.array(adminJobSchema),
});
export type AdminJobs = z.infer<typeof adminJobsSchema>;
