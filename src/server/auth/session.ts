import type { FastifyRequest } from 'fastify';
import { unauthorized } from '../../shared/errors.ts';
import type { AppContext } from '../context.ts';
import { getAuth } from './auth.ts';

// The signed-in user of a request, from the session cookie or a bearer token.

export type SessionUser = { id: string; email: string; name: string; emailVerified: boolean };
export type RequestSession = { user: SessionUser; sessionId: string };

declare module 'fastify' {
  interface FastifyRequest {
    session?: RequestSession | null;
  }
}

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
  if (!session) throw unauthorized();
  return session.user;
};
