import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../context.ts';
import { getAuth } from './auth.ts';
import { toHeaders } from './session.ts';

// Mounts Better Auth's handler at /api/auth/*: the Fastify request becomes a Fetch Request
// and the Fetch Response is copied back (cookies included).

export const authRoutes =
  (ctx: AppContext): FastifyPluginAsync =>
  async (app) => {
    app.route({
      method: ['GET', 'POST'],
      url: '/auth/*',
      schema: { hide: true },
      config: { rateLimit: false },
      handler: async (request, reply) => {
        const url = new URL(request.url, ctx.config.publicUrl);
        const headers = toHeaders(request);
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
          if (key.toLowerCase() !== 'set-cookie') reply.header(key, value);
        });
        const cookies = response.headers.getSetCookie();
        if (cookies.length > 0) reply.header('set-cookie', cookies);
        const text = await response.text();
        return reply.send(text.length > 0 ? text : null);
      },
    });
  };
