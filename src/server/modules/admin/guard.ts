import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'kysely';
import { ADMIN_FORBIDDEN_MESSAGE } from '../../../shared/admin.ts';
import { AppError } from '../../../shared/errors.ts';
import { type SessionUser, requireUser } from '../../auth/session.ts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/transaction.ts';
import { userRoutes } from '../../http/routes.ts';

// Who is a platform admin, and the guard of every /api/admin route (docs/admin.md). A user is
// an admin when their address (verified or not) is in ADMIN_EMAILS or they have a
// platform_admins row (`npm run admin -- grant EMAIL`). The guard runs on the request, before
// its body or query is read, so a non-admin learns nothing about a route's input: 401 signed
// out, 403 `admin_only` otherwise. GET /api/admin/me is the one route any signed-in user may call.

/** The admin a handler acts as (their id and email go into admin_audit_log). */
export type AdminActor = { id: string; email: string };

export const adminForbidden = () => new AppError(403, 'admin_only', ADMIN_FORBIDDEN_MESSAGE);

export const isPlatformAdmin = async (ctx: AppContext, user: { id: string; email: string }) => {
  if (ctx.config.adminEmails.includes(user.email.trim().toLowerCase())) return true;
  const row = await ctx.database.db
    .selectFrom('platform_admins')
    .select('user_id')
    .where('user_id', '=', user.id)
    .executeTakeFirst();
  return row !== undefined;
};

/** SQL: whether the row's user (`user.id`, `user.email`) is a platform admin. */
export const adminExpression = (ctx: AppContext) =>
  sql<boolean>`(exists (select 1 from platform_admins pa where pa.user_id = "user"."id")${
    ctx.config.adminEmails.length > 0
      ? sql` or lower("user"."email") in (${sql.join(ctx.config.adminEmails)})`
      : sql``
  })`;

/** The ids of every admin who can still sign in (not disabled). */
export const activeAdminIds = async (ctx: AppContext, db: Executor = ctx.database.db) =>
  (
    await db
      .selectFrom('user')
      .select('id')
      .where(adminExpression(ctx))
      .where((eb) => eb.or([eb('banned', 'is', null), eb('banned', '=', false)]))
      .execute()
  ).map((r) => r.id);

/** The signed-in admin of a request: 401 signed out, 403 `admin_only` for anyone else. */
export const requireAdmin = async (ctx: AppContext, request: FastifyRequest): Promise<AdminActor> => {
  const user = await requireUser(ctx, request);
  if (!(await isPlatformAdmin(ctx, user))) throw adminForbidden();
  return { id: user.id, email: user.email };
};

const OPEN_PATHS = new Set(['/api/admin/me']);

/** The onRequest hook of the admin plugin: every route but /api/admin/me is for admins only. */
const adminGuard = (ctx: AppContext) => async (request: FastifyRequest, _reply: FastifyReply) => {
  if (OPEN_PATHS.has(request.routeOptions.url ?? '')) return;
  await requireAdmin(ctx, request);
};

/** The admin actor of a guarded handler's signed-in user. */
export const actorOf = (user: SessionUser): AdminActor => ({ id: user.id, email: user.email });

type App = Parameters<FastifyPluginAsyncZod>[0];

/**
 * A plugin of admin routes: `adminRoutePlugin((route) => route.get('/admin/users', spec, handler))`.
 * The declarer is `userRoutes` (the handler gets the signed-in user: `actorOf(user)` names the
 * admin), inside a plugin whose onRequest hook admits platform admins only.
 */
export const adminRoutePlugin =
  (declare: (route: ReturnType<typeof userRoutes>, ctx: AppContext) => void) =>
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app: App) => {
    app.addHook('onRequest', adminGuard(ctx));
    declare(userRoutes(app, ctx, ['admin']), ctx);
  };
