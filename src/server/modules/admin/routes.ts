import { z } from 'zod';
import { errorBody } from '../../http/errors.ts';
import { adminRoutePlugin, isPlatformAdmin } from './guard.ts';
import { consoleAdminRoutes } from './routes-console.ts';
import { jobAdminRoutes } from './routes-jobs.ts';
import { promoAdminRoutes } from './routes-promo.ts';
import { userAdminRoutes } from './routes-users.ts';

// The platform admin console's API under /api/admin (docs/admin.md). Every route answers 401
// signed out and 403 `admin_only` to anyone who is not a platform admin, except
// GET /api/admin/me, which tells any signed-in user whether they are one (the nav shows
// Admin only then).

export const adminRoutes = adminRoutePlugin((route) => {
  route.get(
    '/admin/me',
    {
      summary: 'Whether the signed-in user is a platform admin',
      response: z.object({ isAdmin: z.boolean() }),
      otherResponses: { 401: errorBody },
    },
    async (ctx, user) => ({ isAdmin: await isPlatformAdmin(ctx, user) }),
  );
  userAdminRoutes(route);
  promoAdminRoutes(route);
  consoleAdminRoutes(route);
  jobAdminRoutes(route);
});
