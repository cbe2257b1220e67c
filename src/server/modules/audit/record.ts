import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/types.ts';
import { actingApiKeyId } from '../../http/tenancy.ts';
import type { AuditAction } from './actions.ts';

// Writes one audit row: who, when, what, before and after. Call it with the transaction
// of the change it records, so the row exists exactly when the change does. A change made
// through an API key names the key too (`api_key_id`, from the company route it runs in).

export type AuditInput = {
  organizationId: string;
  actorUserId: string | null;
  /** One of AUDIT_ACTIONS (./actions.ts): a new action is added there first. */
  action: AuditAction;
  entityType: string;
  entityId: string;
  before?: unknown;
  after?: unknown;
};

export const recordAudit = async (db: Kysely<Database> | Transaction<Database>, input: AuditInput) => {
  const apiKeyId = actingApiKeyId();
  await db
    .insertInto('audit_log')
    .values({
      organization_id: input.organizationId,
      actor_user_id: input.actorUserId,
      action: input.action,
      entity_type: input.entityType,
      entity_id: input.entityId,
      before: input.before === undefined ? null : JSON.stringify(input.before),
      after: input.after === undefined ? null : JSON.stringify(input.after),
      // Only when there is one: the column is null otherwise (and code that runs on an older
      // schema, as the wallet migration test does, never names it).
      ...(apiKeyId ? { api_key_id: apiKeyId } : {}),
    })
    .execute();
};

/**
 * The audit row of a change a member makes, the company and actor taken from the member:
 * `recordMemberAudit(trx, member, 'transfer.deleted', ['transfer', id], { before })`.
 */
export const recordMemberAudit = (
  db: Kysely<Database> | Transaction<Database>,
  member: { organizationId: string; userId: string },
  action: AuditAction,
  [entityType, entityId]: [entityType: string, entityId: string],
  change: { before?: unknown; after?: unknown } = {},
) =>
  recordAudit(db, {
    organizationId: member.organizationId,
    actorUserId: member.userId,
    action,
    entityType,
    entityId,
    ...change,
  });
