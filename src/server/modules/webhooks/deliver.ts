import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import type { AppContext } from '../../context.ts';
import { inTransaction } from '../../db/transaction.ts';
import { type JobQueue, sendJob, wakeJobQueues } from '../jobs/queue.ts';
import { sendMail } from '../mail/service.ts';
import { WEBHOOK_JOB, WEBHOOK_JOB_RETRY, type WebhookJob } from './emit.ts';
import { type HttpAnswer, RESPONSE_KEPT_BYTES, postJson } from './http.ts';
import { selectAdminEmails, webhookDb } from './queries.ts';
import { checkWebhookUrl } from './ssrf.ts';

// One delivery attempt (the `webhook.deliver` job; docs/webhooks.md). The attempt is claimed
// by moving the delivery's attempt count from the job's number to the next in one update, so
// a stale job (the delivery was redelivered, or already answered) does nothing, and two server
// processes never send the same attempt. The request is made outside any transaction; its
// outcome, the next attempt's job and the endpoint's failure streak are written in one.
//
// A 2xx answer is success. Anything else — another status, no answer within 10 s, a refused
// address — is a failure, retried on the Standard Webhooks schedule below (just over 3 days);
// after the last retry the delivery is failed. An endpoint whose every delivery has failed
// for 3 days (no 2xx since its first failure) is disabled and the company's owners and admins
// are emailed.

/** Seconds before each retry: 5 s, 5 min, 30 min, 2 h, 5 h, then 10 h seven times (≈ 77.6 h in all). */
export const RETRY_SCHEDULE_SECONDS = [5, 300, 1800, 7200, 18000, ...Array<number>(7).fill(36000)];
/** An endpoint failing without a success for this long is disabled. */
export const DISABLE_AFTER_MS = 3 * 86_400_000;

/**
 * The delivery worker: registered by main.ts (and by tests on their own queue). A queue claims
 * new jobs when woken or at its next poll (1 s); waking it as each delivery ends keeps a burst
 * flowing (hundreds a second instead of one batch a second; docs/performance.md "Webhooks").
 */
export const registerWebhookWorker = (queue: JobQueue, ctx: AppContext) =>
  queue.work<WebhookJob>(
    WEBHOOK_JOB,
    async (job) => {
      try {
        await deliverWebhook(ctx, job.data);
      } finally {
        wakeJobQueues();
      }
    },
    { expireSeconds: 60 },
  );

const truncate = (text: string, bytes: number) => {
  const buffer = Buffer.from(text, 'utf8');
  return buffer.length <= bytes ? text : buffer.subarray(0, bytes).toString('utf8');
};

type Outcome =
  | { ok: true; answer: HttpAnswer; durationMs: number }
  | { ok: false; answer: HttpAnswer | null; durationMs: number | null; error: string };

export const deliverWebhook = async (ctx: AppContext, job: WebhookJob) => {
  const db = webhookDb(ctx.database.db);
  const startedAt = ctx.now();
  // Claim this attempt and read what to send in one statement.
  const claimedRows = await sql<{
    endpoint_id: string;
    event_id: string;
    attempts: number;
    url: string;
    secret: string;
    enabled: boolean;
    failure_streak: number;
    payload: unknown;
  }>`
    update webhook_deliveries d
       set attempts = d.attempts + 1, last_attempt_at = ${startedAt}, next_attempt_at = null,
           updated_at = ${startedAt}
      from webhook_endpoints w, webhook_events e
     where d.organization_id = ${job.organizationId} and d.id = ${job.deliveryId}
       and d.status = 'pending' and d.attempts = ${job.attempt}
       and w.organization_id = d.organization_id and w.id = d.endpoint_id
       and e.organization_id = d.organization_id and e.id = d.event_id
    returning d.endpoint_id, d.event_id, d.attempts, w.url, w.secret, w.enabled, w.failure_streak, e.payload`.execute(
    ctx.database.db,
  );
  const parts = claimedRows.rows[0];
  if (!parts) return;
  const claimed = parts;
  const attempt = claimed.attempts;
  if (!parts.enabled) {
    await db
      .updateTable('webhook_deliveries')
      .set({ status: 'failed', error: 'The endpoint is disabled.', updated_at: ctx.now() })
      .where('organization_id', '=', job.organizationId)
      .where('id', '=', job.deliveryId)
      .execute();
    return;
  }

  const body = JSON.stringify(parts.payload);
  const signer = new Webhook(parts.secret);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'Kontor-Webhooks/1.0',
    'webhook-id': claimed.event_id,
    'webhook-timestamp': String(Math.floor(startedAt.getTime() / 1000)),
    'webhook-signature': signer.sign(claimed.event_id, startedAt, body),
  };

  let outcome: Outcome;
  const t0 = performance.now();
  try {
    const target = await checkWebhookUrl(ctx, parts.url);
    const answer = await postJson(target, headers, body);
    const durationMs = Math.round(performance.now() - t0);
    outcome =
      answer.status >= 200 && answer.status < 300
        ? { ok: true, answer, durationMs }
        : { ok: false, answer, durationMs, error: `The endpoint answered ${answer.status}.` };
  } catch (error) {
    outcome = {
      ok: false,
      answer: null,
      durationMs: Math.round(performance.now() - t0),
      error: truncate(error instanceof Error ? error.message : String(error), 1000) || 'The request failed.',
    };
  }

  await recordOutcome(
    ctx,
    job,
    claimed.endpoint_id,
    attempt,
    { headers, body },
    outcome,
    claimed.failure_streak,
  );
};

const recordOutcome = (
  ctx: AppContext,
  job: WebhookJob,
  endpointId: string,
  attempt: number,
  request: { headers: Record<string, string>; body: string },
  outcome: Outcome,
  failureStreak: number,
) => {
  // The common case, a success on an endpoint without failures: one update, no transaction.
  const write = (work: (trx: typeof ctx.database.db) => Promise<void>) =>
    outcome.ok && failureStreak === 0 ? work(ctx.database.db) : inTransaction(ctx.database.db, work);
  return write(async (trx) => {
    const db = webhookDb(trx);
    const at = ctx.now();
    const retryIn = outcome.ok ? undefined : RETRY_SCHEDULE_SECONDS[attempt - 1];
    const nextAt = retryIn === undefined ? null : new Date(at.getTime() + retryIn * 1000);
    const recorded = await db
      .updateTable('webhook_deliveries')
      .set({
        status: outcome.ok ? 'succeeded' : nextAt ? 'pending' : 'failed',
        next_attempt_at: nextAt,
        request_headers: JSON.stringify(request.headers),
        request_body: request.body,
        response_status: outcome.answer?.status ?? null,
        response_headers: outcome.answer ? JSON.stringify(outcome.answer.headers) : null,
        response_body: outcome.answer ? truncate(outcome.answer.body, RESPONSE_KEPT_BYTES) : null,
        error: outcome.ok ? null : outcome.error,
        duration_ms: outcome.durationMs,
        updated_at: at,
      })
      .where('organization_id', '=', job.organizationId)
      .where('id', '=', job.deliveryId)
      .where('attempts', '=', attempt)
      .where('status', '=', 'pending')
      .returning('id')
      .executeTakeFirst();
    if (!recorded) return;
    if (nextAt) {
      await sendJob<WebhookJob>(
        trx,
        WEBHOOK_JOB,
        { organizationId: job.organizationId, deliveryId: job.deliveryId, attempt },
        { ...WEBHOOK_JOB_RETRY, now: at, startAfter: nextAt },
      );
    }
    if (outcome.ok) {
      if (failureStreak === 0) return;
      await db
        .updateTable('webhook_endpoints')
        .set({ failure_streak: 0, failing_since: null })
        .where('organization_id', '=', job.organizationId)
        .where('id', '=', endpointId)
        .where('failure_streak', '>', 0)
        .execute();
      return;
    }
    const endpoint = await db
      .updateTable('webhook_endpoints')
      .set({ failure_streak: sql`failure_streak + 1`, failing_since: sql`coalesce(failing_since, ${at})` })
      .where('organization_id', '=', job.organizationId)
      .where('id', '=', endpointId)
      .returning(['url', 'enabled', 'failing_since', 'failure_streak'])
      .executeTakeFirst();
    if (!endpoint?.enabled || !endpoint.failing_since) return;
    if (at.getTime() - new Date(endpoint.failing_since).getTime() < DISABLE_AFTER_MS) return;
    await disableFailingEndpoint(
      ctx,
      trx,
      job.organizationId,
      endpointId,
      endpoint.url,
      endpoint.failure_streak,
    );
  });
};

/** Disables an endpoint that has failed for DISABLE_AFTER_MS, fails its waiting deliveries, tells the admins. */
const disableFailingEndpoint = async (
  ctx: AppContext,
  trx: Parameters<Parameters<typeof inTransaction>[1]>[0],
  organizationId: string,
  endpointId: string,
  url: string,
  failures: number,
) => {
  const db = webhookDb(trx);
  const at = ctx.now();
  const reason = `Disabled automatically: every delivery failed for 3 days (${failures} failed attempts in a row).`;
  await db
    .updateTable('webhook_endpoints')
    .set({ enabled: false, disabled_reason: reason, disabled_at: at, updated_at: at })
    .where('organization_id', '=', organizationId)
    .where('id', '=', endpointId)
    .execute();
  await db
    .updateTable('webhook_deliveries')
    .set({ status: 'failed', next_attempt_at: null, error: 'The endpoint was disabled.', updated_at: at })
    .where('organization_id', '=', organizationId)
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .execute();
  const company = await trx
    .selectFrom('organizations')
    .select('name')
    .where('id', '=', organizationId)
    .executeTakeFirst();
  const settingsUrl = `${ctx.config.publicUrl}/settings?tab=webhooks`;
  for (const to of await selectAdminEmails(trx, organizationId)) {
    await sendMail(
      ctx,
      {
        to,
        subject: `Webhook endpoint disabled: ${url}`.slice(0, 200),
        text: [
          `Kontor stopped sending webhooks to ${url} for ${company?.name ?? 'your company'}.`,
          '',
          `Every delivery to it has failed for 3 days (${failures} failed attempts in a row).`,
          'Fix the receiver, then enable the endpoint again and redeliver the events you missed:',
          settingsUrl,
        ].join('\n'),
      },
      { db: trx },
    );
  }
};
