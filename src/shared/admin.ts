import { z } from 'zod';
import { billingIntervalSchema, planIdSchema, promoKindSchema, subscriptionStatusSchema } from './billing.ts';
import { cursorPage, cursorQuery, searchText } from './schema-parts.ts';
import { isoDate } from './input.ts';

// The platform admin console's request and response shapes (issue 16; docs/admin.md). Every
// route is under /api/admin and answers 403 to anyone who is not a platform admin.

export const ADMIN_FORBIDDEN_MESSAGE = 'Only platform administrators can open the admin console.';

// ---- users
export const adminUserQuerySchema = z.object({
  q: searchText,
  status: z.enum(['all', 'active', 'disabled']).default('all'),
  ...cursorQuery(100, 25),
});

export const adminUserRowSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastLoginAt: z.string().nullable(),
  emailVerified: z.boolean(),
  twoFactorEnabled: z.boolean(),
  disabled: z.boolean(),
  isAdmin: z.boolean(),
  plan: planIdSchema.nullable(),
  status: subscriptionStatusSchema.nullable(),
});
export type AdminUserRow = z.infer<typeof adminUserRowSchema>;
export const adminUserListSchema = cursorPage('users', adminUserRowSchema);

export const adminUserDetailSchema = adminUserRowSchema.extend({
  disabledReason: z.string().nullable(),
  companies: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      role: z.string(),
      members: z.number().int(),
      /** Whether this user is the company's only owner (deleting the user deletes it). */
      soleOwner: z.boolean(),
    }),
  ),
  billing: z
    .object({
      plan: planIdSchema,
      interval: billingIntervalSchema,
      status: subscriptionStatusSchema,
      trialEndsAt: z.string(),
      currentPeriodEnd: z.string().nullable(),
      cancelAtPeriodEnd: z.boolean(),
      provider: z.string(),
    })
    .nullable(),
  sessions: z.number().int(),
});
export type AdminUserDetail = z.infer<typeof adminUserDetailSchema>;

export const adminDisableSchema = z.object({
  reason: z
    .string()
    .trim()
    .min(3, { error: 'Give a reason of at least 3 characters: the user is told it.' })
    .max(500),
});
/** Deleting a user is confirmed by typing their email address. */
export const adminDeleteUserSchema = z.object({ confirmEmail: z.string().trim().max(320) });
export const adminDeleteResultSchema = z.object({
  deleted: z.literal(true),
  companiesDeleted: z.array(z.object({ id: z.string(), name: z.string() })),
});

// ---- promo codes
export const adminPromoSchema = z.object({
  code: z.string(),
  kind: promoKindSchema,
  planAccess: planIdSchema,
  description: z.string().nullable(),
  trialDays: z.number().int().nullable(),
  percentOff: z.number().int().nullable(),
  accessDays: z.number().int().nullable(),
  expiresAt: z.string().nullable(),
  maxRedemptions: z.number().int().nullable(),
  redemptionCount: z.number().int(),
  createdAt: z.string(),
  /** active, expired (past its date) or used up (max redemptions reached). */
  state: z.enum(['active', 'expired', 'used_up']),
});
export type AdminPromo = z.infer<typeof adminPromoSchema>;
export const adminPromoListSchema = z.object({ promoCodes: z.array(adminPromoSchema) });

const promoFields = {
  kind: promoKindSchema,
  planAccess: planIdSchema,
  description: z.string().trim().max(200).nullable().optional(),
  trialDays: z.number().int().min(1).max(365).nullable().optional(),
  percentOff: z.number().int().min(1).max(100).nullable().optional(),
  accessDays: z.number().int().min(1).max(3650).nullable().optional(),
  /** The last day the code works (through the end of that day, UTC). */
  expiresOn: isoDate.nullable().optional(),
  maxRedemptions: z.number().int().min(1).max(1_000_000).nullable().optional(),
};
export const adminPromoCreateSchema = z.object({
  code: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z0-9_-]{6,64}$/, {
      error: 'A promo code has 6 to 64 characters: letters, digits, hyphens and underscores.',
    }),
  ...promoFields,
});
export const adminPromoUpdateSchema = z.object(promoFields).partial();
export type AdminPromoCreate = z.infer<typeof adminPromoCreateSchema>;
export type AdminPromoUpdate = z.infer<typeof adminPromoUpdateSchema>;

export const adminRedemptionListSchema = z.object({
  redemptions: z.array(
    z.object({ userId: z.string(), email: z.string().nullable(), kind: z.string(), redeemedAt: z.string() }),
  ),
});

// ---- contact messages
export const adminContactQuerySchema = z.object({
  status: z.enum(['all', 'unread', 'unreplied']).default('all'),
  ...cursorQuery(100, 25),
});
export const adminContactMessageSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  company: z.string(),
  message: z.string(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
  repliedAt: z.string().nullable(),
});
export type AdminContactMessage = z.infer<typeof adminContactMessageSchema>;
export const adminContactListSchema = cursorPage('messages', adminContactMessageSchema).extend({
  unread: z.number().int(),
});
export const adminContactUpdateSchema = z.object({
  read: z.boolean().optional(),
  replied: z.boolean().optional(),
});

// ---- subscriptions
export const adminSubscriptionQuerySchema = z.object({
  status: z
    .enum(['all', 'trialing', 'active', 'past_due', 'canceled', 'unpaid', 'incomplete', 'read_only'])
    .default('all'),
  ...cursorQuery(100, 25),
});
export const adminSubscriptionRowSchema = z.object({
  userId: z.string(),
  email: z.string(),
  plan: planIdSchema,
  interval: billingIntervalSchema,
  status: subscriptionStatusSchema,
  provider: z.string(),
  trialEndsAt: z.string(),
  currentPeriodEnd: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  /** What the subscription brings in a month, in USD cents (0 unless active or past due). */
  mrr: z.number().int(),
});
export type AdminSubscriptionRow = z.infer<typeof adminSubscriptionRowSchema>;
export const adminSubscriptionListSchema = cursorPage('subscriptions', adminSubscriptionRowSchema);
export const adminSubscriptionSummarySchema = z.object({
  currency: z.string(),
  /** Monthly recurring revenue: active and past-due subscriptions, yearly ones divided by 12 (cents). */
  mrr: z.number().int(),
  byStatus: z.record(z.string(), z.number().int()),
  trialsEndingThisWeek: z.array(
    z.object({ userId: z.string(), email: z.string(), plan: planIdSchema, trialEndsAt: z.string() }),
  ),
  /** Subscriptions canceled in the last 30 days over those active at its start (percent, 1 decimal). */
  churn30Days: z.object({ canceled: z.number().int(), activeAtStart: z.number().int(), rate: z.number() }),
});

// ---- audit log across companies
export const adminAuditQuerySchema = z.object({
  organizationId: z.string().max(100).optional(),
  userId: z.string().max(100).optional(),
  action: z.string().max(100).optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
  ...cursorQuery(200, 50),
});
export const adminAuditRowSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  organizationName: z.string().nullable(),
  actorUserId: z.string().nullable(),
  actorEmail: z.string().nullable(),
  action: z.string(),
  entityType: z.string(),
  entityId: z.string(),
  createdAt: z.string(),
});
export const adminAuditListSchema = cursorPage('entries', adminAuditRowSchema);

/** What admins did (admin_audit_log). */
export const adminActionRowSchema = z.object({
  id: z.string(),
  adminUserId: z.string(),
  adminEmail: z.string(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string(),
  details: z.unknown().nullable(),
  createdAt: z.string(),
});
export const adminActionListSchema = cursorPage('actions', adminActionRowSchema);

// ---- system
export const adminSystemSchema = z.object({
  version: z.string(),
  environment: z.string(),
  uptimeSeconds: z.number(),
  startedAt: z.string(),
  database: z.object({
    kind: z.enum(['pglite', 'postgresql']),
    ok: z.boolean(),
    latencyMs: z.number(),
    migrations: z.number().int(),
    latestMigration: z.string().nullable(),
  }),
  mail: z.object({ transport: z.enum(['smtp', 'outbox']), ok: z.boolean(), detail: z.string() }),
  billing: z.object({
    provider: z.string(),
    webhookSecretSet: z.boolean(),
    pricesConfigured: z.number().int(),
    detail: z.string(),
  }),
  counts: z.object({ users: z.number().int(), companies: z.number().int(), admins: z.number().int() }),
});
export type AdminSystem = z.infer<typeof adminSystemSchema>;
