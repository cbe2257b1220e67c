import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  markedReadSchema,
  notificationIdParams,
  notificationListQuerySchema,
  notificationPageSchema,
  notificationSchema,
  notificationSettingsInputSchema,
  notificationSettingsSchema,
  pushConfigSchema,
  pushSubscriptionSchema,
  pushUnsubscribeSchema,
  signInHistoryQuerySchema,
  signInHistorySchema,
  unreadCountSchema,
} from '../../../shared/notifications.ts';
import { getSession } from '../../auth/session.ts';
import type { AppContext } from '../../context.ts';
import { errorBody } from '../../http/errors.ts';
import { companyRoutePlugin, userRoutePlugin } from '../../http/routes.ts';
import { conflict, unauthorized } from '../../../shared/errors.ts';
import { pushConfig, subscribePush, unsubscribePush } from './push.ts';
import { listNotifications, markAllRead, markRead, unreadNotificationCount } from './service.ts';
import { getNotificationSettings, updateNotificationSettings } from './settings.ts';
import { signInHistory } from './sign-ins.ts';

// The signed-in user's notifications, sign-in history and browser push; and a company's
// large-transaction threshold. No user route takes a user id: it is always the session's.

const errors = { 400: errorBody, 401: errorBody };

const userRoutes = userRoutePlugin(['notifications'], (route) => {
  route.get(
    '/me/notifications',
    {
      summary: 'My notifications, newest (or unread) first, a cursor page; `unread=true` for unread only',
      query: notificationListQuerySchema,
      response: notificationPageSchema,
      otherResponses: errors,
    },
    listNotifications,
  );
  route.get(
    '/me/notifications/unread-count',
    {
      summary: 'How many of my notifications are unread',
      response: unreadCountSchema,
      otherResponses: errors,
    },
    (ctx, user) => unreadNotificationCount(ctx, user),
  );
  route.post(
    '/me/notifications/read-all',
    { summary: 'Mark all my notifications read', response: markedReadSchema, otherResponses: errors },
    (ctx, user) => markAllRead(ctx, user),
  );
  route.post(
    '/me/notifications/:id/read',
    {
      summary: 'Mark one of my notifications read (404 if it is not mine)',
      params: notificationIdParams,
      response: notificationSchema,
      otherResponses: { ...errors, 404: errorBody },
    },
    markRead,
  );
  route.get(
    '/me/sign-ins',
    {
      summary: 'My sign-in history: device, address, time; `current` marks this session',
      query: signInHistoryQuerySchema,
      response: signInHistorySchema,
      otherResponses: errors,
    },
    async (ctx, _user, input, http) => {
      const session = await getSession(ctx, http.request);
      if (!session) throw unauthorized();
      return signInHistory(ctx, session, input);
    },
  );
  route.get(
    '/me/push/config',
    {
      summary: 'Whether this server sends browser push (VAPID keys set), and its public key',
      response: pushConfigSchema,
      otherResponses: errors,
    },
    async (ctx) => pushConfig(ctx),
  );
  route.post(
    '/me/push/subscriptions',
    {
      summary: "Subscribe this browser to push (the browser's PushSubscription)",
      body: pushSubscriptionSchema,
      response: null,
      otherResponses: { ...errors, 409: errorBody },
    },
    async (ctx, user, input, http) => {
      if (!ctx.config.vapid) {
        throw conflict('push_not_configured', 'Browser push is not configured on this server.');
      }
      await subscribePush(ctx, user.id, input, http.request.headers['user-agent'] ?? null);
      return null;
    },
  );
  route.post(
    '/me/push/unsubscribe',
    {
      summary: 'Stop push to one browser (its endpoint)',
      body: pushUnsubscribeSchema,
      response: null,
      otherResponses: errors,
    },
    async (ctx, user, input) => {
      await unsubscribePush(ctx, user.id, input.endpoint);
      return null;
    },
  );
});

const companyRoutes = companyRoutePlugin(['notifications'], (route) => {
  route.get(
    '/notification-settings',
    {
      summary: "The company's notification settings (large-transaction threshold)",
      permission: 'read',
      response: notificationSettingsSchema,
    },
    (ctx, member) => getNotificationSettings(ctx, member),
  );
  route.put(
    '/notification-settings',
    {
      summary: "Change the company's notification settings",
      permission: 'manage_settings',
      body: notificationSettingsInputSchema,
      response: notificationSettingsSchema,
    },
    updateNotificationSettings,
  );
});

export const notificationRoutes =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    await app.register(userRoutes(ctx));
    await app.register(companyRoutes(ctx));
  };
