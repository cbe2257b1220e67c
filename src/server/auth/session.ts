import type { FastifyRequest } from 'fastify';
import { isApiKeyToken } from '../../shared/api-keys.ts';
import { AppError, unauthorized } from '../../shared/errors.ts';
import type { AppContext } from '../context.ts';
import type { Role } from '../db/types.ts';
import { getAuth } from './auth.ts';

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

declare module 'fastify' {
  interface FastifyRequest {
    session?: RequestSession | null;
    apiKey?: ApiKeyCaller;
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
