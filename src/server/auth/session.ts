import type { FastifyRequest } from 'fastify';
import { isApiKeyToken } from '../../shared/api-keys.ts';
import { AppError, unauthorized } from '../../shared/errors.ts';
import type { AppContext } from '../context.ts';
import type { Role } from '../db/types.ts';
import { getAuth } from './auth.ts';
import { sessionCookieSettings, signedCookieToken } from './session-cookie.ts';

// The signed-in user of a request, from the session cookie or a bearer token. A bearer token
// that starts with `kontor_` is an API key (docs/api.md, decision 0038): it never opens a
// session (Better Auth never sees it), only the company routes of its company
// (http/tenancy.ts), as resolved by modules/api-keys/authenticate.ts into `request.apiKey`.

export type SessionUser = { id: string; email: string; name: string; emailVerified: boolean };
export type RequestSession = { user: SessionUser; sessionId: string };

/** What a request's API key resolved to: the key and who it acts as, or why it opens nothing. */
export type ApiKeyCaller =
  | { ok: true; id: string; organizationId: string; userId: string; role: Role; scopes: readonly string[] }
  | { ok: false; code: string; message: string };

/** The caller's role in the company of a company route, read with the session (null: not a member). */
export type PrefetchedMembership = { organizationId: string; userId: string; role: Role | null };

declare module 'fastify' {
  interface FastifyRequest {
    session?: RequestSession | null;
    apiKey?: ApiKeyCaller;
    prefetchedMembership?: PrefetchedMembership;
  }
}

/** The API key of an `Authorization: Bearer kontor_…` header (well-formed or not), else null. */
export const bearerApiKeyOf = (request: FastifyRequest): string | null => {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || !/^bearer /i.test(header)) return null;
  const token = header.slice(7).trim();
  return isApiKeyToken(token) ? token : null;
};

/** The 401 of a request that brings an API key to a route that needs a signed-in person. */
export const apiKeyNotAccepted = () =>
  new AppError(
    401,
    'api_key_not_accepted',
    'API keys work only on the routes of their company (/api/orgs/<company id>/…); this one needs a signed-in session.',
  );

export const toHeaders = (request: FastifyRequest) => {
  const headers = new Headers();
  for (const [key, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    headers.set(key, Array.isArray(value) ? value.join(', ') : String(value));
  }
  return headers;
};

// The company of a company route (http/tenancy.ts, COMPANY_ROUTE_PREFIX), whose membership the
// session look-up reads in the same statement.
const COMPANY_ROUTE_PREFIX = '/api/orgs/:organizationId';

const companyOf = (request: FastifyRequest): string | null => {
  if (!request.routeOptions.url?.startsWith(COMPANY_ROUTE_PREFIX)) return null;
  const id = (request.params as { organizationId?: unknown } | undefined)?.organizationId;
  return typeof id === 'string' && id.length > 0 ? id : null;
};

/**
 * The session of a signed session cookie, read from the database in one statement (with the
 * caller's membership of the route's company when it is a company route) — what Better Auth's
 * getSession does in two queries and a WebCrypto HMAC per request (decision 0049).
 * `undefined` leaves the request to Better Auth: no usable cookie, a bearer token, an expired
 * session (Better Auth deletes it) or one due for its daily extension (Better Auth writes it).
 * Nothing is cached between requests: a signed-out or revoked session is gone at once, on
 * every node.
 */
const sessionFromDatabase = async (
  ctx: AppContext,
  request: FastifyRequest,
): Promise<RequestSession | null | undefined> => {
  const { cookie, authorization } = request.headers;
  // Better Auth's bearer plugin turns an Authorization header into the cookie: its path.
  if (authorization !== undefined) return undefined;
  // Better Auth answers null when the cookie is not there at all.
  if (!cookie) return null;
  let settings: Awaited<ReturnType<typeof sessionCookieSettings>>;
  try {
    settings = await sessionCookieSettings(ctx);
  } catch {
    return undefined;
  }
  if (!settings.databaseOnly) return undefined;
  if (!cookie.includes(settings.name)) return null;
  const token = signedCookieToken(request, settings);
  // A malformed or wrongly signed cookie: Better Auth's own parsing decides (it answers null).
  if (token === null) return undefined;
  const organizationId = companyOf(request);
  const row = await ctx.database.db
    .selectFrom('session as s')
    .innerJoin('user as u', 'u.id', 's.userId')
    .select([
      's.id as sessionId',
      's.expiresAt',
      'u.id',
      'u.email',
      'u.name',
      'u.emailVerified',
      (eb) =>
        organizationId === null
          ? eb.val(null).as('role')
          : eb
              .selectFrom('organization_members as m')
              .select('m.role')
              .where('m.organization_id', '=', organizationId)
              .whereRef('m.user_id', '=', 's.userId')
              .as('role'),
    ])
    .where('s.token', '=', token)
    .executeTakeFirst();
  if (!row) return null;
  const expiresAt = new Date(row.expiresAt).getTime();
  const now = Date.now();
  // Expired, or old enough to be extended (Better Auth's updateAge): Better Auth's own path.
  if (!(expiresAt >= now)) return undefined;
  if (expiresAt - settings.expiresIn * 1000 + settings.updateAge * 1000 <= now) return undefined;
  if (organizationId !== null) {
    request.prefetchedMembership = {
      organizationId,
      userId: row.id,
      role: (row.role as Role | null) ?? null,
    };
  }
  return {
    user: { id: row.id, email: row.email, name: row.name, emailVerified: row.emailVerified === true },
    sessionId: row.sessionId,
  };
};

/** The session of a request, or null; looked up once per request. */
export const getSession = async (
  ctx: AppContext,
  request: FastifyRequest,
): Promise<RequestSession | null> => {
  if (request.session !== undefined) return request.session;
  if (bearerApiKeyOf(request) !== null) {
    request.session = null;
    return null;
  }
  const fromDatabase = await sessionFromDatabase(ctx, request);
  if (fromDatabase !== undefined) {
    request.session = fromDatabase;
    return fromDatabase;
  }
  const found = await getAuth(ctx).api.getSession({ headers: toHeaders(request) });
  request.session = found
    ? {
        user: {
          id: found.user.id,
          email: found.user.email,
          name: found.user.name,
          emailVerified: found.user.emailVerified === true,
        },
        sessionId: found.session.id,
      }
    : null;
  return request.session;
};

/** The signed-in user, or a 401 that tells the client to sign in. */
export const requireUser = async (ctx: AppContext, request: FastifyRequest): Promise<SessionUser> => {
  const session = await getSession(ctx, request);
  if (!session && bearerApiKeyOf(request) !== null) throw apiKeyNotAccepted();
  if (!session) throw unauthorized();
  return session.user;
};
