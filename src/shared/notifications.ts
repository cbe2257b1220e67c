import { z } from 'zod';
import { cursorPage, cursorQuery } from './schema-parts.ts';

// Notifications (issue 17): the in-app bell's items, the sign-in history, Web Push
// subscriptions and a company's large-transaction threshold. What a user gets on which channel
// is the profile's matrix (`preferences.notifications`, src/shared/auth/profile.ts).

export const NOTIFICATION_CATEGORIES = ['transactions', 'invoices', 'payments', 'security'] as const;
export type NotificationCategory = (typeof NOTIFICATION_CATEGORIES)[number];

export const NOTIFICATION_CATEGORY_LABELS: Record<NotificationCategory, string> = {
  transactions: 'Transactions',
  invoices: 'Invoices',
  payments: 'Payments',
  security: 'Security',
};

/** What each category covers, for the settings page. */
export const NOTIFICATION_CATEGORY_DESCRIPTIONS: Record<NotificationCategory, string> = {
  transactions: 'Large transactions, transactions that need a category, bank feed errors',
  invoices: 'Invoices paid in full, invoices that become overdue',
  payments: 'Payments received against invoices',
  security: 'Sign-ins from a new device (when login alerts are on)',
};

/** The events that notify, each in one category. */
export const NOTIFICATION_KINDS = {
  invoice_paid: 'invoices',
  invoice_overdue: 'invoices',
  payment_received: 'payments',
  large_transaction: 'transactions',
  uncategorized_transactions: 'transactions',
  bank_feed_error: 'transactions',
  new_sign_in: 'security',
} as const satisfies Record<string, NotificationCategory>;
export type NotificationKind = keyof typeof NOTIFICATION_KINDS;

export const notificationSchema = z.object({
  id: z.string(),
  organizationId: z.string().nullable(),
  category: z.enum(NOTIFICATION_CATEGORIES),
  kind: z.string(),
  title: z.string(),
  body: z.string(),
  /** An app path such as /invoices/abc. */
  link: z.string(),
  readAt: z.string().nullable(),
  createdAt: z.string(),
});
export type Notification = z.infer<typeof notificationSchema>;

export const NOTIFICATION_ORDERS = ['newest', 'unread_first'] as const;

export const notificationListQuerySchema = z.object({
  ...cursorQuery(100, 20),
  /** newest first (default), or unread ones first and then newest first. */
  order: z.enum(NOTIFICATION_ORDERS, { error: 'must be newest or unread_first' }).default('newest'),
  /** "true": only unread ones. */
  unread: z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
});
export type NotificationListQuery = z.infer<typeof notificationListQuerySchema>;

export const notificationPageSchema = cursorPage('notifications', notificationSchema);
export type NotificationPage = z.infer<typeof notificationPageSchema>;

export const unreadCountSchema = z.object({ unread: z.number().int() });

export const markedReadSchema = z.object({ marked: z.number().int() });

export const notificationIdParams = z.object({ id: z.string().min(1).max(100) });

// --- Sign-in history --------------------------------------------------------------------------

export const signInEventSchema = z.object({
  id: z.string(),
  /** "Chrome on Linux". */
  device: z.string(),
  ip: z.string().nullable(),
  newDevice: z.boolean(),
  /** This sign-in started the session the request came with. */
  current: z.boolean(),
  createdAt: z.string(),
});
export type SignInEvent = z.infer<typeof signInEventSchema>;

export const signInHistoryQuerySchema = z.object(cursorQuery(100, 20));
export const signInHistorySchema = cursorPage('signIns', signInEventSchema);
export type SignInHistory = z.infer<typeof signInHistorySchema>;

// --- Web Push ---------------------------------------------------------------------------------

/** A browser's PushSubscription as `subscription.toJSON()` gives it. */
export const pushSubscriptionSchema = z.object({
  endpoint: z
    .url({ error: 'must be the https URL the browser gave' })
    .max(2000)
    .refine((u) => u.startsWith('https://'), 'must be the https URL the browser gave'),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({
    p256dh: z.string().min(1).max(200),
    auth: z.string().min(1).max(100),
  }),
});
export type PushSubscriptionInput = z.infer<typeof pushSubscriptionSchema>;

export const pushUnsubscribeSchema = z.object({ endpoint: z.string().min(1).max(2000) });

export const pushConfigSchema = z.object({
  /** Whether this server has VAPID keys, i.e. can send browser push at all. */
  configured: z.boolean(),
  publicKey: z.string().nullable(),
});
export type PushConfig = z.infer<typeof pushConfigSchema>;

// --- Company setting ---------------------------------------------------------------------------

/** A bank line is "large" from this many whole units of its currency (10,000.00 USD, 10,000 JPY). */
export const DEFAULT_LARGE_TRANSACTION_UNITS = 10_000;

export const notificationSettingsSchema = z.object({
  largeTransactionUnits: z.number().int(),
});
export const notificationSettingsInputSchema = z.object({
  largeTransactionUnits: z
    .number({ error: 'must be a whole number from 1 to 1000000000' })
    .int('must be a whole number from 1 to 1000000000')
    .min(1, 'must be a whole number from 1 to 1000000000')
    .max(1_000_000_000, 'must be a whole number from 1 to 1000000000'),
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;
