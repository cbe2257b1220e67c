import { sql } from 'kysely';
import type { NotificationCategory } from '../../../shared/notifications.ts';
import { type KeysetKey, exactTimestamp, keysetPage } from '../../db/cursor.ts';
import type { Executor } from '../../db/transaction.ts';
import type { Role } from '../../db/types.ts';

// SQL for notifications, push subscriptions, sign-in events and the company threshold. Every
// read or change of a user's rows is keyed by the signed-in user's id (from the session), and
// every company read by the company's id.

export type NotificationInsert = {
  userId: string;
  organizationId: string | null;
  category: NotificationCategory;
  kind: string;
  title: string;
  body: string;
  link: string;
  dedupeKey: string;
  inApp: boolean;
  emailed: boolean;
  createdAt: Date;
};

/** Inserts one notification unless the user already has one with its dedupe key; its id, or null. */
export const insertNotification = async (db: Executor, n: NotificationInsert) => {
  const row = await db
    .insertInto('notifications')
    .values({
      user_id: n.userId,
      organization_id: n.organizationId,
      category: n.category,
      kind: n.kind,
      title: n.title,
      body: n.body,
      link: n.link,
      dedupe_key: n.dedupeKey,
      in_app: n.inApp,
      emailed: n.emailed,
      created_at: n.createdAt,
    })
    .onConflict((oc) => oc.columns(['user_id', 'dedupe_key']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id ?? null;
};

const NEWEST: readonly KeysetKey[] = [
  ['created_at', 'timestamptz'],
  ['id', 'text'],
];
const UNREAD_FIRST: readonly KeysetKey[] = [['unread', 'smallint'], ...NEWEST];

export type NotificationCursor = { u: number; t: string; id: string };

export const selectNotificationPage = (
  db: Executor,
  userId: string,
  page: {
    order: 'newest' | 'unread_first';
    unreadOnly: boolean;
    after: NotificationCursor | null;
    limit: number;
  },
) => {
  let query = db
    .selectFrom('notifications')
    .select([
      'id',
      'organization_id',
      'category',
      'kind',
      'title',
      'body',
      'link',
      'read_at',
      'created_at',
      'unread',
      exactTimestamp('created_at').as('created_key'),
    ])
    .where('user_id', '=', userId)
    .where('in_app', '=', true);
  if (page.unreadOnly) query = query.where('read_at', 'is', null);
  const unreadFirst = page.order === 'unread_first';
  const after = page.after
    ? unreadFirst
      ? [page.after.u, page.after.t, page.after.id]
      : [page.after.t, page.after.id]
    : null;
  return keysetPage(query, {
    keys: unreadFirst ? UNREAD_FIRST : NEWEST,
    after,
    limit: page.limit,
    direction: 'desc',
  });
};

export const countUnread = async (db: Executor, userId: string) => {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('in_app', '=', true)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
};

/** Marks one of the user's notifications read (a read one keeps its time); false if not theirs. */
export const markNotificationRead = async (db: Executor, userId: string, id: string, at: Date) => {
  const row = await db
    .updateTable('notifications')
    .set({ read_at: sql<Date>`coalesce(read_at, ${at})` })
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .where('in_app', '=', true)
    .returning(['id', 'read_at'])
    .executeTakeFirst();
  return row ?? null;
};

export const markAllNotificationsRead = async (db: Executor, userId: string, at: Date) => {
  const result = await db
    .updateTable('notifications')
    .set({ read_at: at })
    .where('user_id', '=', userId)
    .where('in_app', '=', true)
    .where('read_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
};

export const selectNotification = (db: Executor, userId: string, id: string) =>
  db
    .selectFrom('notifications')
    .select(['id', 'organization_id', 'category', 'kind', 'title', 'body', 'link', 'read_at', 'created_at'])
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .where('in_app', '=', true)
    .executeTakeFirst();

// --- Recipients ----------------------------------------------------------------------------------

/**
 * Who hears of a company's events: its members in these roles. A viewer only reads the books and
 * acts on nothing, so money events go to owners, admins, accountants and members.
 */
export const COMPANY_EVENT_ROLES: readonly Role[] = ['owner', 'admin', 'accountant', 'member'];

export const selectCompanyRecipients = async (db: Executor, organizationId: string) =>
  (
    await db
      .selectFrom('organization_members')
      .select('user_id')
      .where('organization_id', '=', organizationId)
      .where('role', 'in', COMPANY_EVENT_ROLES)
      .orderBy('user_id')
      .execute()
  ).map((r) => r.user_id);

/** Each recipient's email, stored preferences and security block (null without a profile). */
export const selectRecipientSettings = (db: Executor, userIds: string[]) =>
  db
    .selectFrom('user')
    .leftJoin('user_profiles', 'user_profiles.user_id', 'user.id')
    .select([
      'user.id as user_id',
      'user.email as email',
      'user.banned as banned',
      'user_profiles.preferences as preferences',
      'user_profiles.timezone as timezone',
      'user_profiles.security as security',
    ])
    .where('user.id', 'in', userIds)
    .execute();

// --- Push subscriptions --------------------------------------------------------------------------

export const upsertPushSubscription = (
  db: Executor,
  s: { userId: string; endpoint: string; p256dh: string; auth: string; userAgent: string | null },
) =>
  db
    .insertInto('push_subscriptions')
    .values({
      user_id: s.userId,
      endpoint: s.endpoint,
      p256dh: s.p256dh,
      auth: s.auth,
      user_agent: s.userAgent,
    })
    .onConflict((oc) =>
      oc
        .column('endpoint')
        .doUpdateSet({ user_id: s.userId, p256dh: s.p256dh, auth: s.auth, user_agent: s.userAgent }),
    )
    .execute();

export const deletePushSubscription = async (db: Executor, userId: string, endpoint: string) =>
  Number(
    (
      await db
        .deleteFrom('push_subscriptions')
        .where('user_id', '=', userId)
        .where('endpoint', '=', endpoint)
        .executeTakeFirst()
    ).numDeletedRows,
  );

export const deletePushEndpoint = (db: Executor, endpoint: string) =>
  db.deleteFrom('push_subscriptions').where('endpoint', '=', endpoint).execute();

export const selectPushSubscriptions = (db: Executor, userId: string) =>
  db
    .selectFrom('push_subscriptions')
    .select(['endpoint', 'p256dh', 'auth'])
    .where('user_id', '=', userId)
    .execute();

export const countPushSubscriptions = async (db: Executor, userId: string) =>
  Number(
    (
      await db
        .selectFrom('push_subscriptions')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('user_id', '=', userId)
        .executeTakeFirstOrThrow()
    ).n,
  );

// --- Sign-in events ------------------------------------------------------------------------------

export const hasSignedInWithDevice = async (db: Executor, userId: string, deviceKey: string) =>
  (await db
    .selectFrom('sign_in_events')
    .select('id')
    .where('user_id', '=', userId)
    .where('device_key', '=', deviceKey)
    .limit(1)
    .executeTakeFirst()) !== undefined;

export const insertSignInEvent = async (
  db: Executor,
  e: {
    userId: string;
    sessionId: string | null;
    ip: string | null;
    userAgent: string | null;
    device: string;
    deviceKey: string;
    newDevice: boolean;
    createdAt: Date;
  },
) =>
  (
    await db
      .insertInto('sign_in_events')
      .values({
        user_id: e.userId,
        session_id: e.sessionId,
        ip: e.ip,
        user_agent: e.userAgent,
        device: e.device,
        device_key: e.deviceKey,
        new_device: e.newDevice,
        created_at: e.createdAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;

export const selectSignInPage = (
  db: Executor,
  userId: string,
  page: { after: { t: string; id: string } | null; limit: number },
) =>
  keysetPage(
    db
      .selectFrom('sign_in_events')
      .select([
        'id',
        'session_id',
        'ip',
        'device',
        'new_device',
        'created_at',
        exactTimestamp('created_at').as('created_key'),
      ])
      .where('user_id', '=', userId),
    {
      keys: NEWEST,
      after: page.after ? [page.after.t, page.after.id] : null,
      limit: page.limit,
      direction: 'desc',
    },
  );

// --- Company threshold ---------------------------------------------------------------------------

export const selectLargeTransactionUnits = async (db: Executor, organizationId: string) =>
  (
    await db
      .selectFrom('notification_settings')
      .select('large_transaction_units')
      .where('organization_id', '=', organizationId)
      .executeTakeFirst()
  )?.large_transaction_units ?? null;

export const upsertLargeTransactionUnits = (db: Executor, organizationId: string, units: number, at: Date) =>
  db
    .insertInto('notification_settings')
    .values({ organization_id: organizationId, large_transaction_units: units, updated_at: at })
    .onConflict((oc) =>
      oc.column('organization_id').doUpdateSet({ large_transaction_units: units, updated_at: at }),
    )
    .execute();
