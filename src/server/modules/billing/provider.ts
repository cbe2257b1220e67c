import type {
  BillingProviderName,
  PaymentMethodSummary,
  SubscriptionStatus,
} from '../../../shared/billing.ts';
import type { BillingInterval, PlanId } from '../../../shared/plans.ts';

// The billing-provider interface (issue 16 §3, §4; docs/billing.md). Two providers implement
// it: Stripe through its official SDK (stripe-provider.ts, on when STRIPE_SECRET_KEY is set)
// and the built-in local provider (local-provider.ts, the default: no network). The billing
// service talks only to this interface, and every change of a subscription reaches the
// service as a BillingEvent: Stripe's through the verified webhook, the local provider's
// straight from its checkout and portal actions, so one code path (events.ts) applies both.

/** The account as the provider needs it. */
export type BillingCustomer = {
  userId: string;
  email: string;
  name: string;
  /** The provider's customer id once there is one. */
  customerId: string | null;
  subscriptionId: string | null;
};

export type CheckoutRequest = {
  plan: PlanId;
  interval: BillingInterval;
  /** A redeemed discount code's percentage, applied to the subscription. */
  percentOff: number | null;
  /** Where the provider sends the browser back (absolute URLs on PUBLIC_URL). */
  successUrl: string;
  cancelUrl: string;
};

/** A subscription as the provider reports it. */
export type SubscriptionSnapshot = {
  subscriptionId: string;
  customerId: string;
  status: SubscriptionStatus;
  plan: PlanId;
  interval: BillingInterval;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  canceledAt: Date | null;
  trialEnd: Date | null;
  paymentMethod: PaymentMethodSummary | null;
};

export type InvoiceSnapshot = {
  invoiceId: string;
  customerId: string;
  number: string;
  status: 'draft' | 'open' | 'paid' | 'void' | 'uncollectible';
  currency: string;
  amountDue: number;
  amountPaid: number;
  description: string;
  periodStart: Date | null;
  periodEnd: Date | null;
  createdAt: Date;
  hostedUrl: string | null;
  pdfUrl: string | null;
};

/**
 * One change at the provider, normalised. `id` and `createdAt` are the provider's: an event id
 * seen before is skipped, and a subscription event older than the last one applied to that
 * account is recorded as stale and not applied (webhooks can arrive out of order).
 */
export type BillingEvent = {
  provider: BillingProviderName;
  id: string;
  type: string;
  createdAt: Date;
  /** Which account: the provider's customer id, or our user id carried in metadata. */
  customerId: string | null;
  userId: string | null;
} & (
  | { kind: 'subscription'; subscription: SubscriptionSnapshot }
  | { kind: 'subscription_deleted'; subscription: SubscriptionSnapshot }
  | { kind: 'invoice'; invoice: InvoiceSnapshot }
  | { kind: 'payment_method'; paymentMethod: PaymentMethodSummary | null }
  | { kind: 'other' }
);

export interface BillingProvider {
  readonly name: BillingProviderName;
  /** Whether it can take money (Stripe with keys and prices; the local provider always). */
  describe(): { ready: boolean; detail: string; pricesConfigured: number; webhookSecretSet: boolean };
  /** Makes the provider's customer for the account if it has none; returns its id. */
  ensureCustomer(customer: BillingCustomer): Promise<string>;
  /** A hosted checkout to start a subscription; the browser is sent to `url`. */
  createCheckout(
    customer: BillingCustomer & { customerId: string },
    request: CheckoutRequest,
  ): Promise<{ url: string }>;
  /** The hosted page for card, invoices and cancellation. */
  createPortal(
    customer: BillingCustomer & { customerId: string },
    returnUrl: string,
  ): Promise<{ url: string }>;
  /** Moves the subscription to another plan or interval, prorated; answers its new state. */
  changePlan(subscriptionId: string, plan: PlanId, interval: BillingInterval): Promise<SubscriptionSnapshot>;
  /** Cancels at the end of the paid period (true) or takes that back (false). */
  setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean): Promise<SubscriptionSnapshot>;
  /**
   * Verifies a webhook (signature over the raw body) and normalises it. Throws a 400 AppError
   * for a missing or bad signature or a timestamp outside the tolerance. May answer a promise
   * (Stripe's checkout.session.completed retrieves its subscription): callers await it.
   */
  parseWebhook(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
  ): BillingEvent | Promise<BillingEvent>;
}
