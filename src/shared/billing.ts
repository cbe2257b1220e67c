import { z } from 'zod';
import { BILLING_INTERVALS, PLAN_IDS, PLAN_LIMIT_KEYS } from './plans.ts';

// Billing's request and response shapes (issue 16; docs/billing.md). The paying party is the
// account (the user who owns companies); plans, prices and limits come from ./plans.ts.
// Times are ISO 8601 instants; amounts integer minor units with their currency.

export const SUBSCRIPTION_STATUSES = [
  'trialing',
  'active',
  'past_due',
  'canceled',
  'unpaid',
  'incomplete',
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const SUBSCRIPTION_STATUS_LABELS: Record<SubscriptionStatus, string> = {
  trialing: 'Free trial',
  active: 'Active',
  past_due: 'Past due',
  canceled: 'Canceled',
  unpaid: 'Unpaid',
  incomplete: 'Incomplete',
};

export const BILLING_PROVIDERS = ['local', 'stripe'] as const;
export type BillingProviderName = (typeof BILLING_PROVIDERS)[number];

export const PROMO_KINDS = ['plan_access', 'trial_extension', 'discount'] as const;
export type PromoKind = (typeof PROMO_KINDS)[number];
export const PROMO_KIND_LABELS: Record<PromoKind, string> = {
  plan_access: 'Plan access',
  trial_extension: 'Trial extension',
  discount: 'Discount',
};

export const PLAN_LIMIT_LABELS: Record<(typeof PLAN_LIMIT_KEYS)[number], string> = {
  companies: 'Companies',
  members: 'Members in a company',
  invoicesPerMonth: 'Invoices this month',
  bankFeeds: 'Bank feeds',
  storageBytes: 'Storage',
};

/** The read-only account's message (402 `account_read_only` on every change). */
export const READ_ONLY_MESSAGE =
  'Your free trial has ended, so your account is read-only: your data is kept and exports still work. Choose a plan in Billing to make changes again.';

export const planIdSchema = z.enum(PLAN_IDS, { error: `Plan must be one of: ${PLAN_IDS.join(', ')}.` });
export const billingIntervalSchema = z.enum(BILLING_INTERVALS, {
  error: `Interval must be one of: ${BILLING_INTERVALS.join(', ')}.`,
});
export const subscriptionStatusSchema = z.enum(SUBSCRIPTION_STATUSES);
export const promoKindSchema = z.enum(PROMO_KINDS);

export const planChoiceSchema = z.object({ plan: planIdSchema, interval: billingIntervalSchema });
export type PlanChoiceInput = z.infer<typeof planChoiceSchema>;

export const paymentMethodSchema = z.object({
  brand: z.string(),
  last4: z.string(),
  expMonth: z.number().int(),
  expYear: z.number().int(),
});
export type PaymentMethodSummary = z.infer<typeof paymentMethodSchema>;

export const billingUsageSchema = z.object({
  key: z.enum(PLAN_LIMIT_KEYS),
  label: z.string(),
  used: z.number().int(),
  /** null: unlimited on this plan. */
  limit: z.number().int().nullable(),
});
export type BillingUsage = z.infer<typeof billingUsageSchema>;

export const billingOverviewSchema = z.object({
  /** The plan whose limits apply now (a granted plan while no subscription is active). */
  plan: planIdSchema,
  interval: billingIntervalSchema,
  status: subscriptionStatusSchema,
  provider: z.enum(BILLING_PROVIDERS),
  /** full, or read_only when the trial ended without a subscription (or it ended unpaid). */
  access: z.enum(['full', 'read_only']),
  readOnlyReason: z.string().nullable(),
  onTrial: z.boolean(),
  trialEndsAt: z.string(),
  /** Whole days left of the trial, rounded up; 0 once it is over. */
  trialDaysLeft: z.number().int(),
  hasSubscription: z.boolean(),
  currentPeriodEnd: z.string().nullable(),
  cancelAtPeriodEnd: z.boolean(),
  paymentMethod: paymentMethodSchema.nullable(),
  grantedPlan: planIdSchema.nullable(),
  grantedUntil: z.string().nullable(),
  discount: z.object({ code: z.string(), percentOff: z.number().int() }).nullable(),
  usage: z.array(billingUsageSchema),
});
export type BillingOverview = z.infer<typeof billingOverviewSchema>;

/** Where the browser goes next (Stripe Checkout or Portal, or the local provider's pages). */
export const billingRedirectSchema = z.object({ url: z.string() });

export const billingInvoiceSchema = z.object({
  id: z.string(),
  number: z.string(),
  status: z.enum(['draft', 'open', 'paid', 'void', 'uncollectible']),
  currency: z.string(),
  amountDue: z.number().int(),
  amountPaid: z.number().int(),
  description: z.string(),
  periodStart: z.string().nullable(),
  periodEnd: z.string().nullable(),
  createdAt: z.string(),
  hostedUrl: z.string().nullable(),
  pdfUrl: z.string().nullable(),
});
export type BillingInvoice = z.infer<typeof billingInvoiceSchema>;
export const billingInvoiceListSchema = z.object({ invoices: z.array(billingInvoiceSchema) });

// The local provider's checkout (its stand-in for Stripe Checkout; docs/billing.md). Test
// cards as Stripe's: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined,
// 4000 0025 0000 3155 needs authentication first.
export const LOCAL_TEST_CARDS = {
  succeeds: '4242424242424242',
  declined: '4000000000000002',
  authenticate: '4000002500003155',
} as const;

export const localCheckoutSchema = z.object({
  id: z.string(),
  plan: planIdSchema,
  interval: billingIntervalSchema,
  currency: z.string(),
  /** What the first charge is, after any discount, in minor units. */
  amount: z.number().int(),
  percentOff: z.number().int().nullable(),
  status: z.enum(['open', 'requires_action', 'complete', 'failed', 'expired']),
  failure: z.string().nullable(),
});
export type LocalCheckout = z.infer<typeof localCheckoutSchema>;

export const localCardSchema = z.object({
  cardNumber: z
    .string()
    .trim()
    .transform((value) => value.replace(/[\s-]/g, ''))
    .pipe(z.string().regex(/^[0-9]{12,19}$/, { error: 'Enter the card number: 12 to 19 digits.' })),
  /** MM/YY */
  expiry: z
    .string()
    .trim()
    .regex(/^(0[1-9]|1[0-2])\/[0-9]{2}$/, { error: 'Enter the expiry as MM/YY, e.g. 12/30.' }),
  cvc: z
    .string()
    .trim()
    .regex(/^[0-9]{3,4}$/, { error: 'Enter the 3 or 4 digit security code.' }),
});
export type LocalCardInput = z.infer<typeof localCardSchema>;

export const localAuthenticateSchema = z.object({ approve: z.boolean() });

/** A 402's details: which limit, how much is used, what the plan allows and the plan that lifts it. */
export const limitErrorDetailsSchema = z.object({
  limit: z.enum(PLAN_LIMIT_KEYS),
  used: z.number().int(),
  allowed: z.number().int(),
  plan: planIdSchema,
  upgradeTo: planIdSchema.nullable(),
});
export type LimitErrorDetails = z.infer<typeof limitErrorDetailsSchema>;

export const promoRedeemResultSchema = z.object({
  success: z.literal(true),
  planAccess: z.string(),
  kind: promoKindSchema,
  /** What the code did, in a sentence (e.g. "Your trial now ends on 2027-01-12."). */
  effect: z.string(),
});
