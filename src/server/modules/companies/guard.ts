import type { FastifyReply, FastifyRequest } from 'fastify';
import { forbidden, notFound } from '../../../shared/errors.ts';
import { requireUser } from '../../auth/session.ts';
import type { AppContext } from '../../context.ts';
import type { Role } from '../../db/types.ts';
import { type Permission, roleCan } from './permissions.ts';

// Every company route lives under /api/orgs/:organizationId/... and runs this guard first.
// A signed-in user who is not a member gets 404 (the company's existence is not revealed);
// a member whose role lacks the permission gets 403.

export type MemberContext = { organizationId: string; userId: string; role: Role };

declare module 'fastify' {
  interface FastifyRequest {
    member?: MemberContext;
  }
}

export const findMembership = (ctx: AppContext, organizationId: string, userId: string) =>
  ctx.database.db
    .selectFrom('organization_members')
    .select(['organization_id', 'user_id', 'role'])
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .executeTakeFirst();

export const requirePermission =
  (ctx: AppContext, permission: Permission) => async (request: FastifyRequest, _reply: FastifyReply) => {
    const user = await requireUser(ctx, request);
    const organizationId = (request.params as { organizationId?: string }).organizationId;
    if (!organizationId) throw notFound('Company not found.');
    const membership = await findMembership(ctx, organizationId, user.id);
    if (!membership) throw notFound('Company not found.');
    if (!roleCan(membership.role, permission)) {
      throw forbidden(`Your role (${membership.role}) cannot do this. Ask an owner or admin of the company.`);
    }
    request.member = { organizationId, userId: user.id, role: membership.role };
  };

/** The member context a guarded handler runs with. */
export const memberOf = (request: FastifyRequest): MemberContext => {
  if (!request.member) throw new Error('route is missing its requirePermission guard');
  return request.member;
};
