import { sql } from 'kysely';
import type { z } from 'zod';
import { badRequest } from '../../../shared/errors.ts';
import type { auditLogQuerySchema } from '../../../shared/ledger.ts';
import type { AppContext } from '../../context.ts';
import type { MemberContext } from '../../http/tenancy.ts';

/** The company's audit log, newest first, a page at a time (the cursor is the last row's id). */
export const listAuditLog = async (
  ctx: AppContext,
  member: MemberContext,
  q: z.output<typeof auditLogQuerySchema>,
) => {
  if (q.cursor !== undefined && !/^\d{1,18}$/.test(q.cursor)) {
    throw badRequest('invalid_cursor', 'The page cursor is not valid; start again from the first page.');
  }
  let query = ctx.database.db
    .selectFrom('audit_log')
    .selectAll()
    .where('organization_id', '=', member.organizationId);
  if (q.entityType) query = query.where('entity_type', '=', q.entityType);
  if (q.entityId) query = query.where('entity_id', '=', q.entityId);
  if (q.cursor) query = query.where('id', '<', sql<string>`${q.cursor}::bigint`);
  const rows = await query
    .orderBy('id', 'desc')
    .limit(q.limit + 1)
    .execute();
  const page = rows.slice(0, q.limit);
  return {
    entries: page.map((r) => ({
      id: String(r.id),
      actorUserId: r.actor_user_id,
      action: r.action,
      entityType: r.entity_type,
      entityId: r.entity_id,
      before: r.before,
      after: r.after,
      createdAt: new Date(r.created_at).toISOString(),
    })),
    nextCursor: rows.length > q.limit ? String(page.at(-1)!.id) : null,
  };
};
