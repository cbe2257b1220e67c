import { type DateFormat, type Formatter, formatterFor } from '../../../shared/format.ts';
import { DEFAULT_PREFERENCES, type NotificationChannels } from '../../../shared/auth/profile.ts';
import { notFound } from '../../../shared/errors.ts';
import {
  NOTIFICATION_CATEGORY_LABELS,
  NOTIFICATION_KINDS,
  type Notification,
  type NotificationKind,
  type NotificationListQuery,
  type NotificationPage,
} from '../../../shared/notifications.ts';
import type { AppContext } from '../../context.ts';
import { decodeCursor, invalidCursor } from '../../db/cursor.ts';
import type { Executor } from '../../db/transaction.ts';
import type { SessionUser } from '../../auth/session.ts';
import { type Mail, sendMail } from '../mail/service.ts';
import { notificationMail } from './mails.ts';
import { pushTargets, sendPush } from './push.ts';
import {
  countUnread,
  insertNotification,
  markAllNotificationsRead,
  markNotificationRead,
  selectCompanyRecipients,
  selectNotification,
  selectNotificationPage,
  selectRecipientSettings,
} from './queries.ts';

// notify(): one event, its recipients, and for each of them the profile's matrix
// (preferences.notifications): "push" on → an in-app notification (the bell), plus Web Push
// to their browsers when VAPID keys are configured; "email" on → an email through the mail
// module. Each recipient is told of one event once: the dedupe key is unique per user, and a
// second notify() with the same key does nothing for whoever already has it.
//
// It runs in the caller's transaction (a payment and its notification commit together, or
// neither). The email is written in that transaction too: the outbox row (no SMTP_URL), or with
// SMTP a `mail.send` job the queue delivers after the commit and retries (docs/jobs.md), so a
// slow mail server never fails a payment and a rolled back change mails nobody. Web Push leaves
// without holding it up (a rolled back transaction after it is the one case where a message
// leaves for nothing).

/** Words of a notification: fixed, or written for each recipient with their formatter. */
export type Words = string | ((f: Formatter) => string);

export type NotifyEvent = {
  kind: NotificationKind;
  /** The company whose event it is, or null for an account event (a sign-in). */
  organizationId: string | null;
  /** Amounts and dates in them through `f`, so each recipient reads their own formats. */
  title: Words;
  body: Words;
  /** The app path the notification opens, e.g. /invoices/<id>. */
  link: string;
  /** Unique per user for this event: the same key never notifies the same user twice. */
  dedupeKey: string;
  /** The email to send instead of the standard one (the login alert keeps its own). */
  mail?: (to: string, f: Formatter) => Mail;
};

export type NotifyResult = { userId: string; inApp: boolean; emailed: boolean }[];

const channelsOf = (stored: unknown, channel: 'email' | 'push'): NotificationChannels => ({
  ...DEFAULT_PREFERENCES.notifications[channel],
  ...((stored as { notifications?: Record<string, Partial<NotificationChannels>> } | null)?.notifications?.[
    channel
  ] ?? {}),
});

/** Tells each of `userIds` about the event as their matrix says; returns what each got. */
export const notify = async (
  ctx: AppContext,
  db: Executor,
  event: NotifyEvent,
  userIds: readonly string[],
): Promise<NotifyResult> => {
  const unique = [...new Set(userIds)];
  if (unique.length === 0) return [];
  const category = NOTIFICATION_KINDS[event.kind];
  const recipients = await selectRecipientSettings(db, unique);
  const result: NotifyResult = [];
  for (const r of recipients) {
    if (r.banned) continue;
    const inApp = channelsOf(r.preferences, 'push')[category] === true;
    const emailed = channelsOf(r.preferences, 'email')[category] === true;
    if (!inApp && !emailed) continue;
    const f = formatterFor({
      ...(r.preferences as { dateFormat?: DateFormat; language?: string } | null),
      timeZone: r.timezone ?? undefined,
    });
    const title = typeof event.title === 'string' ? event.title : event.title(f);
    const body = typeof event.body === 'string' ? event.body : event.body(f);
    const id = await insertNotification(db, {
      userId: r.user_id,
      organizationId: event.organizationId,
      category,
      kind: event.kind,
      title,
      body,
      link: event.link,
      dedupeKey: event.dedupeKey,
      inApp,
      emailed,
      createdAt: ctx.now(),
    });
    if (id === null) continue; // told already
    if (emailed) {
      const mail =
        event.mail?.(r.email, f) ??
        notificationMail(ctx, r.email, {
          title,
          body,
          link: event.link,
          categoryLabel: NOTIFICATION_CATEGORY_LABELS[category],
        });
      // In this transaction: the outbox row, or with SMTP a queued `mail.send` job, so a
      // notification of a change that rolls back is never mailed (docs/jobs.md).
      await sendMail(ctx, mail, { db });
    }
    if (inApp)
      sendPush(ctx, await pushTargets(ctx, db, r.user_id), {
        id,
        title,
        body,
        link: event.link,
      });
    result.push({ userId: r.user_id, inApp, emailed });
  }
  return result;
};

/** A company event, told to its members who act on the books (COMPANY_EVENT_ROLES). */
export const notifyCompany = async (
  ctx: AppContext,
  db: Executor,
  event: NotifyEvent & { organizationId: string },
) => notify(ctx, db, event, await selectCompanyRecipients(db, event.organizationId));

// --- The signed-in user's notifications ----------------------------------------------------------

type Row = {
  id: string;
  organization_id: string | null;
  category: Notification['category'];
  kind: string;
  title: string;
  body: string;
  link: string;
  read_at: Date | null;
  created_at: Date;
};

const toNotification = (r: Row): Notification => ({
  id: r.id,
  organizationId: r.organization_id,
  category: r.category,
  kind: r.kind,
  title: r.title,
  body: r.body,
  link: r.link,
  readAt: r.read_at ? new Date(r.read_at).toISOString() : null,
  createdAt: new Date(r.created_at).toISOString(),
});

export const listNotifications = async (
  ctx: AppContext,
  user: SessionUser,
  query: NotificationListQuery,
): Promise<NotificationPage> => {
  const unreadFirst = query.order === 'unread_first';
  const after = decodeCursor(
    query.cursor,
    unreadFirst ? { u: 'integer', t: 'timestamp', id: 'string' } : { t: 'timestamp', id: 'string' },
  ) as { u?: number; t: string; id: string } | null;
  if (after && unreadFirst && after.u !== 0 && after.u !== 1) throw invalidCursor();
  const { page, nextCursor } = await selectNotificationPage(ctx.database.db, user.id, {
    order: query.order,
    unreadOnly: query.unread === 'true',
    after: after ? { u: after.u ?? 0, t: after.t, id: after.id } : null,
    limit: query.limit,
  });
  return {
    notifications: page.map(toNotification),
    nextCursor: nextCursor(
      (last): Record<string, string | number> =>
        unreadFirst
          ? { u: Number(last.unread), t: last.created_key, id: last.id }
          : { t: last.created_key, id: last.id },
    ),
  };
};

export const unreadNotificationCount = async (ctx: AppContext, user: SessionUser) => ({
  unread: await countUnread(ctx.database.db, user.id),
});

export const markRead = async (ctx: AppContext, user: SessionUser, { id }: { id: string }) => {
  const marked = await markNotificationRead(ctx.database.db, user.id, id, ctx.now());
  if (!marked) throw notFound('No such notification.');
  const row = await selectNotification(ctx.database.db, user.id, id);
  if (!row) throw notFound('No such notification.');
  return toNotification(row);
};

export const markAllRead = async (ctx: AppContext, user: SessionUser) => ({
  marked: await markAllNotificationsRead(ctx.database.db, user.id, ctx.now()),
});
