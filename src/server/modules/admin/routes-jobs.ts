import { z } from 'zod';
import { adminJobSchema, adminJobsSchema } from '../../../shared/jobs.ts';
import { errorBody } from '../../http/errors.ts';
import type { UserRoutes } from '../../http/routes.ts';
import { actorOf } from './guard.ts';
import { adminJobs, retryAdminJob } from './jobs.ts';

// /api/admin/jobs: the durable job queue's counts by queue and state, the latest failing and
// dead jobs with their errors, and a retry of a dead job (docs/jobs.md).

const refusals = { 401: errorBody, 403: errorBody };

export const jobAdminRoutes = (route: UserRoutes) => {
  route.get(
    '/admin/jobs',
    {
      summary: 'Background jobs: counts by queue and state, the latest failing and dead jobs',
      response: adminJobsSchema,
      otherResponses: refusals,
    },
    (ctx) => adminJobs(ctx),
  );
  route.post(
    '/admin/jobs/:id/retry',
    {
      summary: 'Put a dead job back in line with its retry budget restored',
      params: z.object({ id: z.string().min(1).max(100) }),
      response: adminJobSchema,
      otherResponses: { ...refusals, 400: errorBody, 404: errorBody, 409: errorBody },
    },
    (ctx, user, input) => retryAdminJob(ctx, actorOf(user), input),
  );
};
