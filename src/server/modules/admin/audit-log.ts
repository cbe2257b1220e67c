import type { FastifyReply } from 'fastify';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { adminAuditQuerySchema } from '../../../shared/admin.ts';
import type { AppContext } from '../../context.ts';
import { decodeCursor, keysetPage } from '../../db/cursor.ts';
import { csvReply, csvRows } from '../../http/csv.ts';

// The audit log across every company (docs/admin.md, "Audit log"): filtered by company,
// user, action (exact, or every action under a prefix such as `invoice.`) and dates (UTC
// days, both ends included), newest first; the same as CSV. And what admins did
// (admin_audit_log), newest first.

type AuditQuery = z.output<typeof adminAuditQuerySchema>;

/** Most rows a CSV export holds (newest first). */
export const AUDIT_CSV_MAX_ROWS = 50_000;

const nextDay = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 24 * 60 * 60 * 1000);

const auditQuery = (ctx: AppContext, q: Omit<AuditQuery, 'limit' | 'cursor'>) => {
  let query = ctx.database.db
    .selectFrom('audit_log as a')
    .leftJoin('organizations as o', 'o.id', 'a.organization_id')
    .leftJoin('user as u', 'u.id', 'a.actor_user_id')
    .select([
      'a.id',
      'a.organization_id',
      'o.name as organization_name',
      'a.actor_user_id',
      'u.email as actor_email',
      'a.action',
      'a.entity_type',
      'a.entity_id',
      'a.created_at',
    ]);
  if (q.organizationId) query = query.where('a.organization_id', '=', q.organizationId);
  if (q.userId) query = query.where('a.actor_user_id', '=', q.userId);
  if (q.action) {
    const action = q.action.trim();
    query = action.endsWith('.')
      ? query.where(sql<boolean>`starts_with(a.action, ${action})`)
      : query.where('a.action', '=', action);
  }
  if (q.from) query = query.where('a.created_at', '>=', new Date(`${q.from}T00:00:00Z`));
  if (q.to) query = query.where('a.created_at', '<', nextDay(q.to));
  return query;
};

type AuditRow = Awaited<ReturnType<ReturnType<typeof auditQuery>['execute']>>[number];

const toEntry = (r: AuditRow) => ({
  id: String(r.id),
  organizationId: r.organization_id,
  organizationName: r.organization_name ?? null,
  actorUserId: r.actor_user_id,
  actorEmail: r.actor_email ?? null,
  action: r.action,
  entityType: r.entity_type,
  entityId: r.entity_id,
  createdAt: new Date(r.created_at).toISOString(),
});

export const listAudit = async (ctx: AppContext, q: AuditQuery) => {
  const after = decodeCursor(q.cursor, { id: 'integer' });
  const { page, nextCursor } = await keysetPage(auditQuery(ctx, q), {
    keys: [['a.id', 'bigint']],
    after: after ? [after.id] : null,
    limit: q.limit,
    direction: 'desc',
  });
  return { entries: page.map(toEntry), nextCursor: nextCursor((r) => ({ id: Number(r.id) })) };
};

export const auditCsv = async (ctx: AppContext, q: AuditQuery, reply: FastifyReply) => {
  const rows = await auditQuery(ctx, q).orderBy('a.id', 'desc').limit(AUDIT_CSV_MAX_ROWS).execute();
  const day = ctx.now().toISOString().slice(0, 10);
  return csvReply(reply, `kontor-audit-log-${day}.csv`).send(
    csvRows([
      ['Time', 'Company', 'Company id', 'User', 'User id', 'Action', 'Entity type', 'Entity id'],
      ...rows.map((r) => {
        const e = toEntry(r);
        return [
          e.createdAt,
          e.organizationName,
          e.organizationId,
          e.actorEmail,
          e.actorUserId,
          e.action,
          e.entityType,
          e.entityId,
        ];
      }),
    ]),
  );
};

export const listAdminActions = async (
  ctx: AppContext,
  q: { limit: number; cursor?: string | undefined },
) => {
  const after = decodeCursor(q.cursor, { id: 'integer' });
  const { page, nextCursor } = await keysetPage(ctx.database.db.selectFrom('admin_audit_log').selectAll(), {
    keys: [['admin_audit_log.id', 'bigint']],
    after: after ? [after.id] : null,
    limit: q.limit,
    direction: 'desc',
  });
  return {
    actions: page.map((r) => ({
      id: String(r.id),
      adminUserId: r.admin_user_id,
      adminEmail: r.admin_email,
      action: r.action,
      targetType: r.target_type,
      targetId: r.target_id,
      details: r.details ?? null,
      createdAt: new Date(r.created_at).toISOString(),
    })),
    nextCursor: nextCursor((r) => ({ id: Number(r.id) })),
  };
};
