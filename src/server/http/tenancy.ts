import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { forbidden, notFound } from '../../shared/errors.ts';
import { requireUser } from '../auth/session.ts';
import type { AppContext } from '../context.ts';
import type { Role } from '../db/types.ts';
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

const loadMember = async (ctx: AppContext, request: FastifyRequest): Promise<MemberContext> => {
  if (request.member) return request.member;
  const user = await requireUser(ctx, request);
  const organizationId = (request.params as { organizationId?: string }).organizationId;
  if (!organizationId) throw notFound('Company not found.');
  const membership = await findMembership(ctx, organizationId, user.id);
  if (!membership) throw notFound('Company not found.');
  request.member = { organizationId, userId: user.id, role: membership.role };
  return request.member;
};

export const COMPANY_ROUTE_PREFIX = '/api/orgs/:organizationId';

/**
 * Runs before body validation on every company route, so an outsider learns nothing (not
 * even what a valid body looks like): 401 when signed out, 404 when not a member.
 */
export const registerCompanyMembershipCheck = (app: FastifyInstance, ctx: AppContext) => {
  app.addHook('preValidation', async (request) => {
    if (request.routeOptions.url?.startsWith(COMPANY_ROUTE_PREFIX)) await loadMember(ctx, request);
  });
};

export const requirePermission =
  (ctx: AppContext, permission: Permission) => async (request: FastifyRequest, _reply: FastifyReply) => {
    const member = await loadMember(ctx, request);
    if (!roleCan(member.role, permission)) {
      throw forbidden(`Your role (${member.role}) cannot do this. Ask an owner or admin of the company.`);
    }
  };

/** The member context a guarded handler runs with. */
export const memberOf = (request: FastifyRequest): MemberContext => {
  if (!request.member) throw new Error('route is missing its requirePermission guard');
  return request.member;
};
