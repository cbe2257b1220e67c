import type { ColumnType, Generated, Selectable } from 'kysely';
import type { Executor } from '../../db/transaction.ts';
import type { Timestamp } from '../../db/types.ts';
import type { WebhookDeliveryStatus, WebhookEventType } from '../../../shared/webhooks.ts';

// The webhook module's tables (migration 20261128_1450_webhooks.ts). Their row types live here,
// beside the only code that reads them; `webhookDb` adds them to an executor.

type Defaulted<T> = ColumnType<T, T | undefined, T>;
type Json<T> = ColumnType<T, string, string>;

export type WebhookTables = {
  webhook_endpoints: {
    organization_id: string;
    id: string;
    url: string;
    description: Defaulted<string>;
    event_types: Json<WebhookEventType[] | null> | null;
    secret: string;
    enabled: Defaulted<boolean>;
    disabled_reason: string | null;
    disabled_at: Timestamp | null;
    failure_streak: Defaulted<number>;
    failing_since: Timestamp | null;
    created_by: string | null;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
  webhook_events: {
    organization_id: string;
    id: string;
    type: WebhookEventType;
    payload: Json<unknown>;
    created_at: Timestamp;
  };
  webhook_deliveries: {
    organization_id: string;
    id: string;
    endpoint_id: string;
    event_id: string;
    status: Defaulted<WebhookDeliveryStatus>;
    attempts: Generated<number>;
    next_attempt_at: Timestamp | null;
    last_attempt_at: Timestamp | null;
    request_headers: Json<Record<string, string>> | null;
    request_body: string | null;
    response_status: number | null;
    response_headers: Json<Record<string, string>> | null;
    response_body: string | null;
    error: string | null;
    duration_ms: number | null;
    created_at: Timestamp;
    updated_at: Timestamp;
  };
};

export const webhookDb = (db: Executor) => db.withTables<WebhookTables>();

export type EndpointRow = Selectable<WebhookTables['webhook_endpoints']>;
export type DeliveryRow = Selectable<WebhookTables['webhook_deliveries']>;

export const selectEndpoints = (db: Executor, organizationId: string) =>
  webhookDb(db)
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

export const selectEndpoint = (db: Executor, organizationId: string, id: string) =>
  webhookDb(db)
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();

/** The enabled endpoints of a company that take `type` (subscribed to it, or to everything). */
export const selectSubscribedEndpoints = async (
  db: Executor,
  organizationId: string,
  type: WebhookEventType,
) => {
  const rows = await webhookDb(db)
    .selectFrom('webhook_endpoints')
    .select(['id', 'event_types'])
    .where('organization_id', '=', organizationId)
    .where('enabled', '=', true)
    .execute();
  return rows.filter((r) => r.event_types === null || r.event_types.includes(type)).map((r) => r.id);
};

/** The company's owners and admins, who are told when an endpoint is disabled. */
export const selectAdminEmails = async (db: Executor, organizationId: string) => {
  const rows = await db
    .selectFrom('organization_members as m')
    .innerJoin('user as u', 'u.id', 'm.user_id')
    .select(['u.email'])
    .where('m.organization_id', '=', organizationId)
    .where('m.role', 'in', ['owner', 'admin'])
    .orderBy('u.email')
    .execute();
  return rows.map((r) => r.email);
};

export const selectDelivery = (db: Executor, organizationId: string, id: string) =>
  webhookDb(db)
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as e', (j) =>
      j.onRef('e.organization_id', '=', 'd.organization_id').onRef('e.id', '=', 'd.event_id'),
    )
    .selectAll('d')
    .select(['e.type as event_type'])
    .where('d.organization_id', '=', organizationId)
    .where('d.id', '=', id)
    .executeTakeFirst();
