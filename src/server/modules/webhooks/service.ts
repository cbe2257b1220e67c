import { randomBytes } from 'node:crypto';
import { type Updateable, sql } from 'kysely';
import { conflict, notFound } from '../../../shared/errors.ts';
import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENT_TYPES,
  type WebhookDelivery,
  type WebhookDeliveryDetail,
  type WebhookDeliveryStatus,
  type WebhookEndpoint,
  type WebhookEndpointInput,
  type WebhookEndpointUpdate,
  type WebhookEndpointWithSecret,
  type WebhookEventType,
  webhookEndpointInputSchema,
} from '../../../shared/webhooks.ts';
import type { AppContext } from '../../context.ts';
import { decodeCursor, exactTimestamp, keysetPage } from '../../db/cursor.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { MemberContext } from '../../http/tenancy.ts';
import { sendJob } from '../jobs/queue.ts';
import { WEBHOOK_JOB, WEBHOOK_JOB_RETRY, type WebhookJob, emitWebhookEvent } from './emit.ts';
import {
  type DeliveryRow,
  type EndpointRow,
  type WebhookTables,
  selectDelivery,
  selectEndpoint,
  selectEndpoints,
  webhookDb,
} from './queries.ts';
import { checkWebhookUrl } from './ssrf.ts';

// A company's webhook endpoints and their delivery log (docs/webhooks.md). Owners and admins
// manage endpoints; every member may read them and the log. The signing secret is answered on
// create, on rotate, and to a manager who asks for it.

/** Endpoints per company. */
export const MAX_ENDPOINTS = 20;

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

/** A Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

const toEndpoint = (r: EndpointRow): WebhookEndpoint => ({
  id: r.id,
  url: r.url,
  description: r.description,
  eventTypes: r.event_types ?? null,
  enabled: r.enabled,
  disabledReason: r.disabled_reason,
  disabledAt: iso(r.disabled_at),
  failureStreak: r.failure_streak,
  failingSince: iso(r.failing_since),
  createdAt: iso(r.created_at)!,
  updatedAt: iso(r.updated_at)!,
});

const withSecret = (r: EndpointRow): WebhookEndpointWithSecret => ({ ...toEndpoint(r), secret: r.secret });

const toDelivery = (r: DeliveryRow & { event_type: WebhookEventType }): WebhookDelivery => ({
  id: r.id,
  endpointId: r.endpoint_id,
  eventId: r.event_id,
  eventType: r.event_type,
  status: r.status,
  attempts: r.attempts,
  nextAttemptAt: iso(r.next_attempt_at),
  lastAttemptAt: iso(r.last_attempt_at),
  responseStatus: r.response_status,
  durationMs: r.duration_ms,
  error: r.error,
  createdAt: iso(r.created_at)!,
});

const endpointOr404 = async (ctx: AppContext, organizationId: string, id: string) => {
  const row = await selectEndpoint(ctx.database.db, organizationId, id);
  if (!row) throw notFound('No such webhook endpoint.');
  return row;
};

export const listWebhookEventTypes = async () => ({
  types: WEBHOOK_EVENT_TYPES.map((type) => ({ type, label: WEBHOOK_EVENT_LABELS[type] })),
});

export const listWebhookEndpoints = async (ctx: AppContext, member: MemberContext) => ({
  endpoints: (await selectEndpoints(ctx.database.db, member.organizationId)).map(toEndpoint),
});

export const getWebhookEndpoint = async (
  ctx: AppContext,
  member: MemberContext,
  input: { endpointId: string },
) => toEndpoint(await endpointOr404(ctx, member.organizationId, input.endpointId));

export const getWebhookEndpointSecret = async (
  ctx: AppContext,
  member: MemberContext,
  input: { endpointId: string },
) => withSecret(await endpointOr404(ctx, member.organizationId, input.endpointId));

const eventTypesJson = (types: readonly WebhookEventType[] | null) =>
  types === null ? null : JSON.stringify([...new Set(types)].sort());

export const createWebhookEndpoint = async (
  ctx: AppContext,
  member: MemberContext,
  input: WebhookEndpointInput,
) => {
  const parsed = webhookEndpointInputSchema.parse(input);
  await checkWebhookUrl(ctx, parsed.url);
  return inTransaction(ctx.database.db, async (trx) => {
    const db = webhookDb(trx);
    // One company's endpoint creations in turn, so the count below holds.
    await sql`select id from organizations where id = ${member.organizationId} for update`.execute(trx);
    const count = await db
      .selectFrom('webhook_endpoints')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('organization_id', '=', member.organizationId)
      .executeTakeFirstOrThrow();
    if (Number(count.n) >= MAX_ENDPOINTS)
      throw conflict(
        'webhook_endpoint_limit',
        `A company can have at most ${MAX_ENDPOINTS} webhook endpoints.`,
      );
    const now = ctx.now();
    const row = await db
      .insertInto('webhook_endpoints')
      .values({
        organization_id: member.organizationId,
        id: `ep_${randomBytes(12).toString('base64url')}`,
        url: parsed.url,
        description: parsed.description,
        event_types: eventTypesJson(parsed.eventTypes),
        secret: newWebhookSecret(),
        created_by: member.userId,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return withSecret(row);
  });
};

/** Changes one of the company's endpoints and answers its row; 404 when it has none by that id. */
const changeEndpoint = async (
  ctx: AppContext,
  organizationId: string,
  endpointId: string,
  changes: Updateable<WebhookTables['webhook_endpoints']>,
) => {
  const row = await webhookDb(ctx.database.db)
    .updateTable('webhook_endpoints')
    .set(changes)
    .where('organization_id', '=', organizationId)
    .where('id', '=', endpointId)
    .returningAll()
    .executeTakeFirst();
  if (!row) throw notFound('No such webhook endpoint.');
  return row;
};

export const updateWebhookEndpoint = async (
  ctx: AppContext,
  member: MemberContext,
  input: WebhookEndpointUpdate & { endpointId: string },
) => {
  await endpointOr404(ctx, member.organizationId, input.endpointId);
  if (input.url !== undefined) await checkWebhookUrl(ctx, input.url);
  const row = await changeEndpoint(ctx, member.organizationId, input.endpointId, {
    ...(input.url !== undefined && { url: input.url }),
    ...(input.description !== undefined && { description: input.description }),
    ...(input.eventTypes !== undefined && {
      event_types: eventTypesJson(input.eventTypes as WebhookEventType[] | null),
    }),
    updated_at: ctx.now(),
  });
  return toEndpoint(row);
};

export const deleteWebhookEndpoint = async (
  ctx: AppContext,
  member: MemberContext,
  input: { endpointId: string },
) => {
  const deleted = await webhookDb(ctx.database.db)
    .deleteFrom('webhook_endpoints')
    .where('organization_id', '=', member.organizationId)
    .where('id', '=', input.endpointId)
    .returning('id')
    .executeTakeFirst();
  if (!deleted) throw notFound('No such webhook endpoint.');
  return null;
};

export const rotateWebhookSecret = async (
  ctx: AppContext,
  member: MemberContext,
  input: { endpointId: string },
) => {
  const row = await changeEndpoint(ctx, member.organizationId, input.endpointId, {
    secret: newWebhookSecret(),
    updated_at: ctx.now(),
  });
  return withSecret(row);
};

/** Enables (clearing the failure streak and the reason) or disables an endpoint by hand. */
export const setWebhookEndpointEnabled = async (
  ctx: AppContext,
  member: MemberContext,
  input: { endpointId: string },
  enabled: boolean,
) => {
  const now = ctx.now();
  const row = await changeEndpoint(
    ctx,
    member.organizationId,
    input.endpointId,
    enabled
      ? {
          enabled: true,
          disabled_reason: null,
          disabled_at: null,
          failure_streak: 0,
          failing_since: null,
          updated_at: now,
        }
      : { enabled: false, disabled_reason: 'Disabled by a member.', disabled_at: now, updated_at: now },
  );
  return toEndpoint(row);
};

const deliveryOr404 = async (ctx: AppContext, organizationId: string, id: string) => {
  const row = await selectDelivery(ctx.database.db, organizationId, id);
  if (!row) throw notFound('No such webhook delivery.');
  return row;
};

/** Sends a `webhook.test` event to one enabled endpoint; answers its delivery (queued). */
export const sendWebhookTest = async (
  ctx: AppContext,
  member: MemberContext,
  input: { endpointId: string },
) => {
  const endpoint = await endpointOr404(ctx, member.organizationId, input.endpointId);
  if (!endpoint.enabled)
    throw conflict(
      'webhook_endpoint_disabled',
      'This endpoint is disabled; enable it before sending a test event.',
    );
  const sent = await inTransaction(ctx.database.db, (trx) =>
    emitWebhookEvent(
      trx,
      { organizationId: member.organizationId, now: ctx.now() },
      'webhook.test',
      { endpointId: endpoint.id, message: 'A test event from Kontor.' },
      { endpointIds: [endpoint.id] },
    ),
  );
  return toDelivery(await deliveryOr404(ctx, member.organizationId, sent!.deliveryIds[0]!));
};

export const listWebhookDeliveries = async (
  ctx: AppContext,
  member: MemberContext,
  input: { endpointId: string; limit: number; cursor?: string; status?: WebhookDeliveryStatus },
) => {
  await endpointOr404(ctx, member.organizationId, input.endpointId);
  const after = decodeCursor(input.cursor, { createdAt: 'timestamp', id: 'string' });
  let query = webhookDb(ctx.database.db)
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', (j) =>
      j.onRef('e.organization_id', '=', 'd.organization_id').onRef('e.id', '=', 'd.event_id'),
    )
    .selectAll('d')
    .select(['e.type as event_type', exactTimestamp('d.created_at').as('created_exact')])
    .where('d.organization_id', '=', member.organizationId)
    .where('d.endpoint_id', '=', input.endpointId);
  if (input.status) query = query.where('d.status', '=', input.status);
  const { page, nextCursor } = await keysetPage(query, {
    keys: [['d.created_at', 'timestamptz'], ['d.id']],
    after: after ? [after.createdAt, after.id] : null,
    limit: input.limit,
    direction: 'desc',
  });
  return {
    deliveries: page.map(toDelivery),
    nextCursor: nextCursor((last) => ({ createdAt: last.created_exact, id: last.id })),
  };
};

export const getWebhookDelivery = async (
  ctx: AppContext,
  member: MemberContext,
  input: { deliveryId: string },
): Promise<WebhookDeliveryDetail> => {
  const r = await deliveryOr404(ctx, member.organizationId, input.deliveryId);
  return {
    ...toDelivery(r),
    request:
      r.request_headers && r.request_body !== null
        ? { headers: r.request_headers, body: r.request_body }
        : null,
    response:
      r.response_status !== null
        ? { status: r.response_status, headers: r.response_headers ?? {}, body: r.response_body ?? '' }
        : null,
  };
};

/**
 * Sends a delivery again now (whatever its status): it is pending until this attempt answers,
 * and a failure goes on along the retry schedule from its attempt count.
 */
export const redeliverWebhook = async (
  ctx: AppContext,
  member: MemberContext,
  input: { deliveryId: string },
) => {
  const delivery = await deliveryOr404(ctx, member.organizationId, input.deliveryId);
  const endpoint = await endpointOr404(ctx, member.organizationId, delivery.endpoint_id);
  if (!endpoint.enabled)
    throw conflict('webhook_endpoint_disabled', 'This endpoint is disabled; enable it before redelivering.');
  await inTransaction(ctx.database.db, async (trx) => {
    const now = ctx.now();
    const row = await webhookDb(trx)
      .updateTable('webhook_deliveries')
      .set({ status: 'pending', next_attempt_at: now, updated_at: now })
      .where('organization_id', '=', member.organizationId)
      .where('id', '=', delivery.id)
      .returning(['attempts'])
      .executeTakeFirstOrThrow();
    await sendJob<WebhookJob>(
      trx,
      WEBHOOK_JOB,
      { organizationId: member.organizationId, deliveryId: delivery.id, attempt: row.attempts },
      { ...WEBHOOK_JOB_RETRY, now },
    );
  });
  return toDelivery(await deliveryOr404(ctx, member.organizationId, delivery.id));
};
