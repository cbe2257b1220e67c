import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_KEY_CLOSED_TAGS, type ApiKeyScope, areaScopeOf } from '../../shared/api-keys.ts';
import { AppError, forbidden, notFound } from '../../shared/errors.ts';
import { bearerApiKeyOf, requireUser } from '../auth/session.ts';
import type { AppContext } from '../context.ts';
import type { Role } from '../db/types.ts';
import { type Permission, roleCan } from './permissions.ts';

// Every company route lives under /api/orgs/:organizationId/... and runs this guard first.
// A signed-in user who is not a member gets 404 (the company's existence is not revealed);
// a member whose role lacks the permission gets 403.
//
// An API key (`Authorization: Bearer kontor_…`, decision 0038) is a member too: its creator,
// with the creator's current role, limited further by the key's scopes. Another company's
// routes answer it 404 as to a non-member; a method its scopes do not cover answers 403
// `api_key_scope` naming the scope; members, invitations, company settings and API keys are
// never open to a key (403 `api_key_not_allowed`).

export type MemberContext = {
  organizationId: string;
  userId: string;
  role: Role;
  /** The API key the request came with; absent for the web app's session. */
  apiKeyId?: string;
};

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

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const keyRefusal = (code: string, message: string) => new AppError(403, code, message);

/** The member an API key request acts as, after its company and scopes are checked. */
const apiKeyMember = (request: FastifyRequest, organizationId: string | undefined): MemberContext => {
  const key = request.apiKey;
  if (!key) throw new AppError(401, 'api_key_invalid', 'This API key could not be checked. Try again.');
  if (!key.ok) throw new AppError(401, key.code, key.message);
  if (!organizationId || organizationId !== key.organizationId) throw notFound('Company not found.');
  const tags = ((request.routeOptions.schema as { tags?: string[] } | undefined)?.tags ?? []) as string[];
  const operation = `${request.method} ${request.routeOptions.url ?? request.url}`;
  const has = (scope: ApiKeyScope) => key.scopes.includes(scope);
  if (SAFE_METHODS.has(request.method)) {
    if (!has('read'))
      throw keyRefusal('api_key_scope', `This API key lacks the \`read\` scope, which ${operation} needs.`);
  } else {
    if (tags.some((tag) => API_KEY_CLOSED_TAGS.includes(tag))) {
      throw keyRefusal(
        'api_key_not_allowed',
        'API keys cannot change members, invitations, company settings or API keys; sign in as an owner or admin.',
      );
    }
    const area = areaScopeOf(tags);
    if (!has('write') && !(area && has(area))) {
      const needs = area ? `the \`${area}\` or \`write\` scope` : 'the `write` scope';
      throw keyRefusal('api_key_scope', `This API key lacks ${needs}, which ${operation} needs.`);
    }
  }
  return { organizationId, userId: key.userId, role: key.role, apiKeyId: key.id };
};

const loadMember = async (ctx: AppContext, request: FastifyRequest): Promise<MemberContext> => {
  if (request.member) return request.member;
  if (bearerApiKeyOf(request) !== null) {
    request.member = apiKeyMember(request, (request.params as { organizationId?: string }).organizationId);
    return request.member;
  }
  const user = await requireUser(ctx, request);
  const organizationId = (request.params as { organizationId?: string }).organizationId;
  if (!organizationId) throw notFound('Company not found.');
  // Read with the session in the same statement when the session came from the database
  // (auth/session.ts); otherwise asked now.
  const prefetched = request.prefetchedMembership;
  const role =
    prefetched && prefetched.organizationId === organizationId && prefetched.userId === user.id
      ? prefetched.role
      : ((await findMembership(ctx, organizationId, user.id))?.role ?? null);
  if (!role) throw notFound('Company not found.');
  request.member = { organizationId, userId: user.id, role };
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
    if (member.apiKeyId && permission === 'manage_members') {
      throw keyRefusal(
        'api_key_not_allowed',
        'API keys cannot manage members, invitations or API keys; sign in as an owner or admin.',
      );
    }
    if (member.apiKeyId && !roleCan(member.role, permission)) {
      throw forbidden(
        `The member who created this API key is now ${member.role === 'admin' ? 'an' : 'a'} ${member.role}, who cannot do this.`,
      );
    }
    if (!roleCan(member.role, permission)) {
      throw forbidden(`Your role (${member.role}) cannot do this. Ask an owner or admin of the company.`);
    }
  };

/** The member context a guarded handler runs with. */
export const memberOf = (request: FastifyRequest): MemberContext => {
  if (!request.member) throw new Error('route is missing its requirePermission guard');
  return request.member;
};

// The API key a company route's work runs for, so every audit row it writes names the key
// (modules/audit/record.ts). Set around the handler by the route declarer (http/routes.ts).
const actingKey = new AsyncLocalStorage<string>();

/** Runs `work` with the member's API key (if any) as the one audit rows name. */
export const withActingApiKey = <T>(member: MemberContext, work: () => T): T =>
  member.apiKeyId ? actingKey.run(member.apiKeyId, work) : work();

/** The API key the current company route runs for, or null (the web app, background jobs). */
export const actingApiKeyId = (): string | null => actingKey.getStore() ?? null;
