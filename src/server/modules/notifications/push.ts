import type { PushConfig, PushSubscriptionInput } from '../../../shared/notifications.ts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/transaction.ts';
import {
  deletePushEndpoint,
  deletePushSubscription,
  selectPushSubscriptions,
  upsertPushSubscription,
} from './queries.ts';

// Browser push (Web Push with VAPID, the web-push library). Only with VAPID_PUBLIC_KEY,
// VAPID_PRIVATE_KEY and VAPID_SUBJECT set; without them the in-app bell is the "push" channel
// and the settings page says browser push is not configured on this server.

export const pushConfig = (ctx: AppContext): PushConfig => ({
  configured: ctx.config.vapid !== null,
  publicKey: ctx.config.vapid?.publicKey ?? null,
});

export const subscribePush = async (
  ctx: AppContext,
  userId: string,
  input: PushSubscriptionInput,
  userAgent: string | null,
) => {
  await upsertPushSubscription(ctx.database.db, {
    userId,
    endpoint: input.endpoint,
    p256dh: input.keys.p256dh,
    auth: input.keys.auth,
    userAgent: userAgent?.slice(0, 500) ?? null,
  });
};

export const unsubscribePush = async (ctx: AppContext, userId: string, endpoint: string) => {
  await deletePushSubscription(ctx.database.db, userId, endpoint);
};

export type PushMessage = { title: string; body: string; link: string; id: string };

/** The user's browsers to push to: none without VAPID keys. Read in the caller's transaction. */
export const pushTargets = async (ctx: AppContext, db: Executor, userId: string) =>
  ctx.config.vapid ? selectPushSubscriptions(db, userId) : [];

/**
 * Sends one message to each of the user's browsers, without holding up the caller: a slow or
 * failing push service never fails the payment or import that caused it. A subscription the
 * push service says is gone (404, 410) is deleted.
 */
export const sendPush = (
  ctx: AppContext,
  targets: Awaited<ReturnType<typeof pushTargets>>,
  message: PushMessage,
) => {
  const vapid = ctx.config.vapid;
  if (!vapid || targets.length === 0) return;
  const payload = JSON.stringify({ ...message, url: message.link });
  // web-push is imported with the first push sent, not at start (issue 20 §6).
  const webPush = import('web-push').then((module) => module.default);
  for (const s of targets) {
    webPush
      .then((push) =>
        push.sendNotification({ endpoint: s.endpoint, keys: { p256dh: s.p256dh, auth: s.auth } }, payload, {
          vapidDetails: vapid,
          TTL: 24 * 60 * 60,
        }),
      )
      .catch(async (error: unknown) => {
        const status = (error as { statusCode?: number }).statusCode;
        if (status === 404 || status === 410) await deletePushEndpoint(ctx.database.db, s.endpoint);
        else console.warn('kontor: web push not sent', status ?? error);
      })
      .catch((error: unknown) => console.warn('kontor: expired push subscription not deleted', error));
  }
};
