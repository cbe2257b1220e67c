import type Stripe from 'stripe';
import type { PaymentMethodSummary } from '../../../shared/billing.ts';
import { AppError, badRequest } from '../../../shared/errors.ts';
import {
  BILLING_INTERVALS,
  type BillingInterval,
  PLAN_IDS,
  type PlanId,
  priceVariable,
} from '../../../shared/plans.ts';
import type { StripeSettings } from '../../config.ts';
import { providerStatus } from './state.ts';
import type {
  BillingCustomer,
  BillingEvent,
  BillingProvider,
  CheckoutRequest,
  InvoiceSnapshot,
  SubscriptionSnapshot,
} from './provider.ts';

// Stripe through its official SDK (issue 16 §3; docs/billing-stripe.md). On when
// STRIPE_SECRET_KEY is set. Every call Kontor makes is here: customers.create,
// checkout.sessions.create (with coupons.create for a discount code), billingPortal.sessions
// .create, subscriptions.retrieve/update, paymentMethods.retrieve and webhooks.constructEvent.
// Tests drive this file against src/server/testing/fake-stripe.ts (STRIPE_API_BASE).
//
// Mapping Stripe to Kontor:
// - the card shown is the subscription's default payment method, a newly attached card
//   (payment_method.attached) or the customer's default card (customer.updated);
// - plan and interval come from the subscription's first item's price id, looked up in the
//   STRIPE_PRICE_* settings; an event whose price is not one of them is kind 'other' (logged,
//   never applied: Kontor cannot tell which limits it buys);
// - Stripe's statuses map one to one except 'incomplete_expired' → 'canceled' (the first
//   payment never succeeded and Stripe gave up: there is no subscription) and 'paused' →
//   'unpaid' (a trial ended without a card and Stripe paused it: nothing is being paid, so
//   the account is read-only until a card is added, as for unpaid).

export type StripeProviderOptions = {
  /** Where a webhook the provider cannot map is reported (the app's logger). */
  log?: { warn: (details: Record<string, unknown>, message: string) => void };
  /** The clock webhook timestamps are checked against (defaults to the system clock). */
  now?: () => Date;
};

/** Kontor's coupon for a percentage, reused by every checkout with that percentage. */
export const couponIdFor = (percentOff: number) => `kontor-forever-${percentOff}pct`;

/** How old (seconds) a webhook's signed timestamp may be: Stripe's default, five minutes. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

const INVOICE_STATUSES = ['draft', 'open', 'paid', 'void', 'uncollectible'] as const;

const BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  diners: 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
  cartes_bancaires: 'Cartes Bancaires',
  eftpos_au: 'eftpos',
};

const date = (seconds: number | null | undefined): Date | null =>
  typeof seconds === 'number' ? new Date(seconds * 1000) : null;

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === 'string' ? value : value.id;

const metadataUserId = (metadata: Stripe.Metadata | null | undefined): string | null =>
  metadata && typeof metadata.userId === 'string' && metadata.userId !== '' ? metadata.userId : null;

/** A card's summary from a payment method object (null for anything that is not a card). */
export const cardSummary = (pm: Stripe.PaymentMethod | null | undefined): PaymentMethodSummary | null => {
  const card = pm?.card;
  if (!card) return null;
  return {
    brand: BRANDS[card.brand] ?? card.brand,
    last4: card.last4,
    expMonth: card.exp_month,
    expYear: card.exp_year,
  };
};

type StripeSdk = typeof import('stripe').default;
let sdk: Promise<StripeSdk> | null = null;

/**
 * Stripe's SDK, imported when first used: a server without STRIPE_SECRET_KEY never loads it,
 * and one with it does not pay for it at start (issue 20 §6, docs/performance.md).
 */
const stripeSdk = () => {
  sdk ??= import('stripe').then((module) => module.default);
  return sdk;
};

/** Stripe's error, said for the person who clicked (never a 5xx for something they can fix). */
const stripeFailure = (Stripe: StripeSdk, error: unknown): unknown => {
  if (!(error instanceof Stripe.errors.StripeError)) return error;
  if (error instanceof Stripe.errors.StripeCardError)
    return new AppError(402, 'card_declined', error.message || 'Your card was declined.');
  if (error instanceof Stripe.errors.StripeInvalidRequestError)
    return badRequest('stripe_request', `Stripe refused the request: ${error.message}`);
  if (
    error instanceof Stripe.errors.StripeAuthenticationError ||
    error instanceof Stripe.errors.StripePermissionError
  )
    return new AppError(
      503,
      'billing_unavailable',
      'Billing is not available right now: Stripe refused the server’s key (STRIPE_SECRET_KEY). Please try again later.',
    );
  return new AppError(
    503,
    'billing_unavailable',
    'Billing is not available right now: Stripe could not be reached. Please try again in a minute.',
  );
};

const headerValue = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value[0] : value;

export const createStripeProvider = (
  settings: StripeSettings,
  options: StripeProviderOptions = {},
): BillingProvider => {
  let client: Promise<Stripe> | null = null;
  const stripeClient = () => {
    client ??= stripeSdk().then(
      (Stripe) =>
        new Stripe(settings.secretKey, {
          ...(settings.api
            ? { host: settings.api.host, port: settings.api.port, protocol: settings.api.protocol }
            : {}),
          maxNetworkRetries: 1,
          timeout: 20_000,
          telemetry: false,
          appInfo: { name: 'Kontor' },
        }),
    );
    return client;
  };
  const warn = options.log?.warn ?? ((details, message) => console.warn(message, details));
  const now = options.now ?? (() => new Date());

  const call = async <T>(run: (stripe: Stripe) => Promise<T>): Promise<T> => {
    const [stripe, Stripe] = await Promise.all([stripeClient(), stripeSdk()]);
    try {
      return await run(stripe);
    } catch (error) {
      throw stripeFailure(Stripe, error);
    }
  };

  const priceFor = (plan: PlanId, interval: BillingInterval): string => {
    const price = settings.prices[plan][interval];
    if (!price)
      throw badRequest(
        'price_not_configured',
        `The ${plan} plan billed ${interval} has no Stripe price yet: set ${priceVariable(plan, interval)} on the server (docs/billing-stripe.md).`,
      );
    return price;
  };

  const planOfPrice = (
    priceId: string | null | undefined,
  ): { plan: PlanId; interval: BillingInterval } | null => {
    if (!priceId) return null;
    for (const plan of PLAN_IDS)
      for (const interval of BILLING_INTERVALS)
        if (settings.prices[plan][interval] === priceId) return { plan, interval };
    return null;
  };

  const paymentMethodOf = async (
    value: string | Stripe.PaymentMethod | null | undefined,
  ): Promise<PaymentMethodSummary | null> => {
    if (value == null) return null;
    if (typeof value !== 'string') return cardSummary(value);
    try {
      return cardSummary(await (await stripeClient()).paymentMethods.retrieve(value));
    } catch (error) {
      warn({ paymentMethod: value, error: String(error) }, 'Stripe: could not read the payment method');
      return null;
    }
  };

  /** The snapshot, or null when the subscription's price is not one of Kontor's. */
  const snapshotOf = async (sub: Stripe.Subscription): Promise<SubscriptionSnapshot | null> => {
    const item = sub.items.data[0];
    const choice = planOfPrice(item?.price?.id);
    if (!choice) return null;
    const currentPeriodEnd = date(item?.current_period_end);
    const status = providerStatus(sub.status);
    if (!status) return null;
    return {
      subscriptionId: sub.id,
      customerId: idOf(sub.customer) ?? '',
      status,
      plan: choice.plan,
      interval: choice.interval,
      currentPeriodEnd,
      // Newer Stripe (and its portal) may cancel by setting cancel_at to the period's end.
      cancelAtPeriodEnd:
        sub.cancel_at_period_end ||
        (sub.cancel_at !== null &&
          currentPeriodEnd !== null &&
          sub.cancel_at * 1000 >= currentPeriodEnd.getTime() &&
          sub.status !== 'canceled'),
      canceledAt: date(sub.canceled_at),
      trialEnd: date(sub.trial_end),
      paymentMethod: await paymentMethodOf(sub.default_payment_method),
    };
  };

  const requireSnapshot = async (sub: Stripe.Subscription): Promise<SubscriptionSnapshot> => {
    const snapshot = await snapshotOf(sub);
    if (!snapshot)
      throw new AppError(
        409,
        'stripe_unknown_price',
        `The Stripe subscription ${sub.id} is on a price Kontor does not know (${sub.items.data[0]?.price?.id ?? 'none'}): check the STRIPE_PRICE_* settings.`,
      );
    return snapshot;
  };

  const invoiceOf = (invoice: Stripe.Invoice): InvoiceSnapshot => {
    const line = invoice.lines?.data?.[0];
    return {
      invoiceId: invoice.id,
      customerId: idOf(invoice.customer) ?? '',
      number: invoice.number ?? invoice.id,
      status: INVOICE_STATUSES.find((status) => status === invoice.status) ?? 'draft',
      currency: invoice.currency.toUpperCase(),
      amountDue: invoice.amount_due,
      amountPaid: invoice.amount_paid,
      description: invoice.description ?? line?.description ?? 'Kontor subscription',
      periodStart: date(line?.period?.start ?? invoice.period_start),
      periodEnd: date(line?.period?.end ?? invoice.period_end),
      createdAt: new Date(invoice.created * 1000),
      hostedUrl: invoice.hosted_invoice_url ?? null,
      pdfUrl: invoice.invoice_pdf ?? null,
    };
  };

  /** An event Kontor records but does not act on. */
  const other = (base: Omit<BillingEvent, 'kind'>): BillingEvent => ({ ...base, kind: 'other' });

  const normalise = async (event: Stripe.Event): Promise<BillingEvent> => {
    const base = {
      provider: 'stripe' as const,
      id: event.id,
      type: event.type,
      createdAt: new Date(event.created * 1000),
      customerId: null as string | null,
      userId: null as string | null,
    };
    switch (event.type) {
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted': {
        const sub = event.data.object;
        const at = { ...base, customerId: idOf(sub.customer), userId: metadataUserId(sub.metadata) };
        const subscription = await snapshotOf(sub);
        if (!subscription) {
          warn(
            { event: event.id, subscription: sub.id, price: sub.items.data[0]?.price?.id ?? null },
            'Stripe: a subscription event on a price that is not one of the STRIPE_PRICE_* settings was ignored',
          );
          return other(at);
        }
        return event.type === 'customer.subscription.deleted'
          ? { ...at, kind: 'subscription_deleted', subscription }
          : { ...at, kind: 'subscription', subscription };
      }
      case 'checkout.session.completed': {
        const session = event.data.object;
        const at = {
          ...base,
          customerId: idOf(session.customer),
          userId: session.client_reference_id ?? metadataUserId(session.metadata),
        };
        const subscriptionId = idOf(session.subscription);
        if (session.mode !== 'subscription' || !subscriptionId) return other(at);
        const sub = await call((stripe) =>
          stripe.subscriptions.retrieve(subscriptionId, { expand: ['default_payment_method'] }),
        );
        const subscription = await snapshotOf(sub);
        if (!subscription) {
          warn(
            { event: event.id, subscription: sub.id, price: sub.items.data[0]?.price?.id ?? null },
            'Stripe: a completed checkout on a price that is not one of the STRIPE_PRICE_* settings was ignored',
          );
          return other(at);
        }
        return {
          ...at,
          userId: at.userId ?? metadataUserId(sub.metadata),
          kind: 'subscription',
          subscription,
        };
      }
      case 'invoice.paid':
      case 'invoice.payment_failed':
      case 'invoice.finalized': {
        const invoice = event.data.object;
        const details = invoice.parent?.subscription_details;
        return {
          ...base,
          customerId: idOf(invoice.customer),
          userId: metadataUserId(details?.metadata),
          kind: 'invoice',
          invoice: invoiceOf(invoice),
        };
      }
      case 'payment_method.attached': {
        const pm = event.data.object;
        return {
          ...base,
          customerId: idOf(pm.customer),
          kind: 'payment_method',
          paymentMethod: cardSummary(pm),
        };
      }
      case 'customer.updated': {
        const customer = event.data.object;
        const at = { ...base, customerId: customer.id, userId: metadataUserId(customer.metadata) };
        // Checkout keeps the card on the subscription, not as the customer's default: a customer
        // without a default card (or a name or email change) says nothing about the card on file.
        const card = await paymentMethodOf(
          customer.invoice_settings?.default_payment_method as string | Stripe.PaymentMethod | null,
        );
        return card ? { ...at, kind: 'payment_method', paymentMethod: card } : other(at);
      }
      default:
        return other(base);
    }
  };

  const pricesConfigured = PLAN_IDS.reduce(
    (n, plan) => n + BILLING_INTERVALS.filter((interval) => settings.prices[plan][interval]).length,
    0,
  );
  const allPrices = PLAN_IDS.length * BILLING_INTERVALS.length;

  return {
    name: 'stripe',

    describe() {
      const mode =
        settings.secretKey.startsWith('sk_live_') || settings.secretKey.startsWith('rk_live_')
          ? 'live mode'
          : 'test mode';
      const missing = PLAN_IDS.flatMap((plan) =>
        BILLING_INTERVALS.filter((interval) => !settings.prices[plan][interval]).map((interval) =>
          priceVariable(plan, interval),
        ),
      );
      const problems = [
        ...(missing.length > 0 ? [`missing ${missing.join(', ')}`] : []),
        ...(settings.webhookSecret ? [] : ['STRIPE_WEBHOOK_SECRET is not set, so every webhook is refused']),
      ];
      return {
        ready: problems.length === 0,
        detail: `Stripe (${mode}), ${pricesConfigured} of ${allPrices} prices${problems.length > 0 ? `: ${problems.join('; ')}` : ', webhook signing secret set'}`,
        pricesConfigured,
        webhookSecretSet: settings.webhookSecret !== null,
      };
    },

    async ensureCustomer(customer: BillingCustomer) {
      if (customer.customerId) return customer.customerId;
      const created = await call((stripe) =>
        stripe.customers.create(
          { email: customer.email, name: customer.name, metadata: { userId: customer.userId } },
          // Two requests at once make one customer (Stripe keeps a key's answer for 24 hours).
          { idempotencyKey: `kontor-customer-${customer.userId}` },
        ),
      );
      return created.id;
    },

    async createCheckout(customer, request: CheckoutRequest) {
      const price = priceFor(request.plan, request.interval);
      const percentOff = request.percentOff;
      if (percentOff !== null && !(Number.isInteger(percentOff) && percentOff > 0 && percentOff <= 100))
        throw badRequest('invalid_discount', 'A discount must be a whole percentage from 1 to 100.');
      const coupon = percentOff === null ? null : await ensureCoupon(percentOff);
      const session = await call((stripe) =>
        stripe.checkout.sessions.create({
          mode: 'subscription',
          customer: customer.customerId,
          client_reference_id: customer.userId,
          line_items: [{ price, quantity: 1 }],
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
          subscription_data: { metadata: { userId: customer.userId } },
          metadata: { userId: customer.userId, plan: request.plan, interval: request.interval },
          ...(coupon ? { discounts: [{ coupon }] } : {}),
        }),
      );
      if (!session.url) throw badRequest('stripe_request', 'Stripe made a checkout without a page to open.');
      return { url: session.url };
    },

    async createPortal(customer, returnUrl: string) {
      const session = await call((stripe) =>
        stripe.billingPortal.sessions.create({ customer: customer.customerId, return_url: returnUrl }),
      );
      return { url: session.url };
    },

    async changePlan(subscriptionId: string, plan: PlanId, interval: BillingInterval) {
      const price = priceFor(plan, interval);
      const current = await call((stripe) => stripe.subscriptions.retrieve(subscriptionId));
      const item = current.items.data[0];
      if (!item)
        throw badRequest(
          'stripe_request',
          `The Stripe subscription ${subscriptionId} has no item to change.`,
        );
      const updated = await call((stripe) =>
        stripe.subscriptions.update(subscriptionId, {
          items: [{ id: item.id, price }],
          proration_behavior: 'create_prorations',
          expand: ['default_payment_method'],
        }),
      );
      return requireSnapshot(updated);
    },

    async setCancelAtPeriodEnd(subscriptionId: string, cancel: boolean) {
      const updated = await call((stripe) =>
        stripe.subscriptions.update(subscriptionId, {
          cancel_at_period_end: cancel,
          expand: ['default_payment_method'],
        }),
      );
      return requireSnapshot(updated);
    },

    async parseWebhook(rawBody: Buffer, headers) {
      if (!settings.webhookSecret)
        throw badRequest(
          'webhook_not_configured',
          'Stripe webhooks are refused: STRIPE_WEBHOOK_SECRET is not set on the server, so no event can be verified (docs/billing-stripe.md).',
        );
      const signature = headerValue(headers['stripe-signature']);
      if (!signature)
        throw badRequest(
          'webhook_signature',
          'The webhook has no Stripe-Signature header, so it was not accepted.',
        );
      const [stripe, Stripe] = await Promise.all([stripeClient(), stripeSdk()]);
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(
          rawBody,
          signature,
          settings.webhookSecret,
          WEBHOOK_TOLERANCE_SECONDS,
          undefined,
          now().getTime(), // milliseconds: the SDK divides by 1000
        );
      } catch (error) {
        // Verified, then parsed: a signed body that is not JSON fails after the signature check.
        if (!(error instanceof Stripe.errors.StripeSignatureVerificationError))
          throw badRequest('webhook_payload', 'The webhook is not a Stripe event (its body is not JSON).');
        const reason = /tolerance/i.test(error.message)
          ? 'its timestamp is outside the five-minute tolerance'
          : 'its signature does not match the signing secret';
        throw badRequest('webhook_signature', `The webhook was not accepted: ${reason}.`);
      }
      if (
        typeof event?.id !== 'string' ||
        typeof event.type !== 'string' ||
        typeof event.created !== 'number' ||
        !event.data?.object
      )
        throw badRequest('webhook_payload', 'The webhook is not a Stripe event.');
      return normalise(event).catch((error: unknown) => {
        if (error instanceof AppError) throw error;
        // A well-signed event Kontor cannot read: recorded as 'other', never a 500.
        warn(
          { event: event.id, type: event.type, error: String(error) },
          'Stripe: an event could not be read',
        );
        return other({
          provider: 'stripe',
          id: event.id,
          type: event.type,
          createdAt: new Date(event.created * 1000),
          customerId: null,
          userId: null,
        });
      });
    },
  };

  async function ensureCoupon(percentOff: number): Promise<string> {
    const id = couponIdFor(percentOff);
    const [stripe, Stripe] = await Promise.all([stripeClient(), stripeSdk()]);
    try {
      const coupon = await stripe.coupons.create({
        id,
        percent_off: percentOff,
        duration: 'forever',
        name: `Kontor ${percentOff}% off`,
      });
      return coupon.id;
    } catch (error) {
      // Made by an earlier checkout with the same percentage: reuse it.
      if (
        error instanceof Stripe.errors.StripeInvalidRequestError &&
        error.code === 'resource_already_exists'
      )
        return id;
      throw stripeFailure(Stripe, error);
    }
  }
};
