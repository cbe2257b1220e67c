import contentDisposition from 'content-disposition';
import { z } from 'zod';
import {
  adminDeleteResultSchema,
  adminDeleteUserSchema,
  adminDisableSchema,
  adminUserDetailSchema,
  adminUserListSchema,
  adminUserQuerySchema,
} from '../../../shared/admin.ts';
import { errorBody } from '../../http/errors.ts';
import type { UserRoutes } from '../../http/routes.ts';
import { actorOf } from './guard.ts';
import {
  deleteAccount,
  disableAccount,
  enableAccount,
  exportUserData,
  getUserDetail,
  listUsers,
  sendResetLink,
} from './users.ts';

// /api/admin/users: search, detail, disable / enable, reset link, export, delete.

const idParams = z.object({ id: z.string().min(1).max(100) });
const refusals = { 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody, 409: errorBody };

export const userAdminRoutes = (route: UserRoutes) => {
  route.get(
    '/admin/users',
    {
      summary: 'Users: search by email or name, newest first',
      query: adminUserQuerySchema,
      response: adminUserListSchema,
      otherResponses: refusals,
    },
    (ctx, user, input) => listUsers(ctx, actorOf(user), input),
  );
  route.get(
    '/admin/users/:id',
    {
      summary: "A user's detail: companies, plan, sign-in, 2FA, sessions",
      params: idParams,
      response: adminUserDetailSchema,
      otherResponses: refusals,
    },
    (ctx, user, input) => getUserDetail(ctx, actorOf(user), input),
  );
  route.post(
    '/admin/users/:id/disable',
    {
      summary: 'Disable a user (sessions end now; sign-in tells them the reason)',
      params: idParams,
      body: adminDisableSchema,
      response: adminUserDetailSchema,
      otherResponses: refusals,
    },
    (ctx, user, input) => disableAccount(ctx, actorOf(user), input),
  );
  route.post(
    '/admin/users/:id/enable',
    {
      summary: 'Enable a disabled user',
      params: idParams,
      response: adminUserDetailSchema,
      otherResponses: refusals,
    },
    (ctx, user, input) => enableAccount(ctx, actorOf(user), input),
  );
  route.post(
    '/admin/users/:id/reset-link',
    {
      summary: 'Mail the user a password reset link',
      params: idParams,
      response: z.object({ sent: z.literal(true) }),
      otherResponses: refusals,
    },
    (ctx, user, input) => sendResetLink(ctx, actorOf(user), input),
  );
  route.get(
    '/admin/users/:id/export',
    {
      summary: "Download a user's data as JSON",
      params: idParams,
      otherResponses: refusals,
      produces: ['application/json'],
    },
    async (ctx, user, input, { reply }) => {
      const document = await exportUserData(ctx, actorOf(user), input);
      const day = ctx.now().toISOString().slice(0, 10);
      return reply
        .header('content-type', 'application/json; charset=utf-8')
        .header('content-disposition', contentDisposition(`kontor-user-${input.id}-${day}.json`))
        .send(JSON.stringify(document, null, 2));
    },
  );
  route.post(
    '/admin/users/:id/delete',
    {
      summary: 'Delete a user and the companies only they run (confirmed by typing their email)',
      params: idParams,
      body: adminDeleteUserSchema,
      response: adminDeleteResultSchema,
      otherResponses: refusals,
    },
    (ctx, user, input) => deleteAccount(ctx, actorOf(user), input),
  );
};
