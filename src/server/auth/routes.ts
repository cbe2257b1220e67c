import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { AUTH_ERROR_MESSAGES } from '../../shared/auth/errors.ts';
import { isValidEmail, normalizeEmail } from '../../shared/auth/rules.ts';
import type { AppContext } from '../context.ts';
import { CLIENT_IP_HEADER, getAuth } from './auth.ts';
import { toHeaders } from './session.ts';

// Mounts Better Auth's handler at /api/auth/*: the Fastify request becomes a Fetch Request
// and the Fetch Response is copied back (cookies included). Two answers are shaped here:
// - sign-in failures: one code and message for unknown email and wrong password, or, with
//   AUTH_REVEAL_UNKNOWN_EMAIL=true, SPEC's user-not-found / wrong-password;
// - password reset for an unknown email: the library answers it like a known one; with the
//   reveal setting on we answer user-not-found instead.

type Json = Record<string, unknown>;

const emailOf = (body: unknown) => {
  const email = (body as Json | undefined)?.email;
  return typeof email === 'string' ? normalizeEmail(email) : null;
};

const userExists = async (ctx: AppContext, email: string) =>
  (await ctx.database.db.selectFrom('user').select('id').where('email', '=', email).executeTakeFirst()) !==
  undefined;

// Endpoints that take an email typed by a person: trimmed here, and a malformed one gets
// SPEC's invalid-email answer rather than the library's generic validation error.
const EMAIL_PATHS = new Set([
  '/sign-up/email',
  '/sign-in/email',
  '/request-password-reset',
  '/send-verification-email',
]);

const pathOf = (request: FastifyRequest) => request.url.split('?')[0]!.replace(/^\/api\/auth/, '');

export const authRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    app.route({
      method: ['GET', 'POST'],
      url: '/auth/*',
      schema: { hide: true },
      config: { rateLimit: false },
      handler: async (request, reply) => {
        const path = pathOf(request);
        const reveal = ctx.config.authRevealUnknownEmail;
        const body = request.body as Json | undefined;
        if (request.method === 'POST' && EMAIL_PATHS.has(path) && body && typeof body === 'object') {
          if (typeof body.email === 'string') body.email = body.email.trim();
          if (typeof body.email !== 'string' || !isValidEmail(body.email)) {
            return reply
              .status(400)
              .send({ code: 'INVALID_EMAIL', message: AUTH_ERROR_MESSAGES['invalid-email'] });
          }
        }

        if (reveal && request.method === 'POST' && path === '/request-password-reset') {
          const email = emailOf(request.body);
          if (email && !(await userExists(ctx, email))) {
            return reply
              .status(400)
              .send({ code: 'USER_NOT_FOUND', message: AUTH_ERROR_MESSAGES['user-not-found'] });
          }
        }

        const url = new URL(request.url, ctx.config.publicUrl);
        const headers = toHeaders(request);
        headers.delete(CLIENT_IP_HEADER);
        if (request.ip) headers.set(CLIENT_IP_HEADER, request.ip);
        const hasBody = request.method !== 'GET' && request.body !== undefined;
        const response = await getAuth(ctx).handler(
          new Request(url, {
            method: request.method,
            headers,
            body: hasBody ? JSON.stringify(request.body) : undefined,
          }),
        );
        reply.status(response.status);
        response.headers.forEach((value, key) => {
          const k = key.toLowerCase();
          if (k !== 'set-cookie' && k !== 'content-length') reply.header(key, value);
        });
        const cookies = response.headers.getSetCookie();
        if (cookies.length > 0) reply.header('set-cookie', cookies);
        let text = await response.text();

        if (path === '/sign-in/email' && response.status === 401) {
          const body = JSON.parse(text) as Json;
          if (body.code === 'INVALID_EMAIL_OR_PASSWORD') {
            const email = emailOf(request.body);
            const known = reveal && email ? await userExists(ctx, email) : null;
            const answer =
              known === null
                ? { code: 'INVALID_EMAIL_OR_PASSWORD', message: AUTH_ERROR_MESSAGES['invalid-credential'] }
                : known
                  ? { code: 'WRONG_PASSWORD', message: AUTH_ERROR_MESSAGES['wrong-password'] }
                  : { code: 'USER_NOT_FOUND', message: AUTH_ERROR_MESSAGES['user-not-found'] };
            text = JSON.stringify(answer);
            reply.header('content-type', 'application/json');
          }
        }
        return reply.send(text.length > 0 ? text : null);
      },
    });
  };
