import { randomUUID } from 'node:crypto';
import {
  LOCAL_TEST_CARDS,
  type LocalCardInput,
  type LocalCheckout,
  type PaymentMethodSummary,
} from '../../../shared/billing.ts';
import { AppError, badRequest, conflict, notFound } from '../../../shared/errors.ts';
import {
  type BillingInterval,
  PLAN_CURRENCY,
  type PlanId,
  findPlan,
  planPrice,
} from '../../../shared/plans.ts';
import type { AppContext } from '../../context.ts';
import { type Executor, inTransaction } from '../../db/transaction.ts';
import type { BillingCheckoutsTable } from '../../db/types.ts';
import type { Selectable } from 'kysely';
import { type BillingAccountRow, billingStateOf, findBillingAccount } from './account.ts';
import { applyBillingEvent } from './events.ts';
import type { BillingEvent, BillingProvider, InvoiceSnapshot, SubscriptionSnapshot } from './provider.ts';
import { countLocalInvoices, findCheckout, lockAccount, updateCheckout } from './queries.ts';

// The built-in local provider (issue 16 §4; docs/billing.md, "The local provider"): Kontor's
// stand-in for Stripe when STRIPE_SECRET_KEY is not set, so `npm start` and every test run
// without a network. Its checkout is a page of Kontor's own (/billing?checkout=<id>) that
// takes Stripe's test cards; paying, authenticating, changing plan and the end of a period
// each produce BillingEvents that go through applyBillingEvent, the same path as Stripe's
// webhooks. Its invoices live in billing_invoices with numbers KB-000001…, PDFs drawn by
// invoice-pdf.ts.

/** How long a local checkout session stays payable (Stripe's default is 24 hours). */
export const CHECKOUT_LIFETIME_MS = 24 * 60 * 60 * 1000;
export const DECLINED_MESSAGE = 'Your card was declined.';
export const AUTH_FAILED_MESSAGE = 'Authentication failed. Try again or use another card.';

const rid = (prefix: string) => `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 24)}`;

/** `date` moved by whole months in UTC, the day clamped to the month's last (Jan 31 + 1 month = Feb 28/29). */
export const addMonthsUtc = (date: Date, months: number): Date => {
  const d = new Date(date.getTime());
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
};

export const addInterval = (date: Date, interval: BillingInterval, count = 1): Date =>
  addMonthsUtc(date, interval === 'monthly' ? count : 12 * count);

/** round(a × b / c), halves up, exactly (BigInt): a, b ≥ 0, c > 0. */
export const mulDivRound = (a: number, b: number, c: number): number => {
  const [A, B, C] = [BigInt(a), BigInt(b), BigInt(c)];
  return Number((2n * A * B + C) / (2n * C));
};

/** A price less a percentage, the discount rounded half up to the cent. */
export const discounted = (price: number, percentOff: number | null): number =>
  percentOff ? price - mulDivRound(price, percentOff, 100) : price;

export type ProrationInput = {
  oldPrice: number;
  newPrice: number;
  periodStart: Date;
  periodEnd: Date;
  now: Date;
  /** The new plan bills on the same interval: the period end stays; else a new period starts now. */
  sameInterval: boolean;
  newInterval: BillingInterval;
};

export type Proration = {
  /** For the unused part of the current period, on the old price. */
  credit: number;
  /** For the new plan: the rest of this period (same interval) or a whole new period. */
  charge: number;
  /** charge − credit (negative on a downgrade). */
  net: number;
  periodEnd: Date;
};

/**
 * A plan change's proration, in whole cents (docs/billing.md, "Plan change"):
 *   remaining = clamp(periodEnd − now, 0, period), period = periodEnd − periodStart (ms)
 *   credit    = round(oldPrice × remaining / period)
 *   charge    = round(newPrice × remaining / period)   same interval: the period end stays
 *             = newPrice                              interval changes: a new period from now
 *   net       = charge − credit
 * Rounding is half up, exact (integer arithmetic).
 */
export const prorate = (input: ProrationInput): Proration => {
  const period = Math.max(1, input.periodEnd.getTime() - input.periodStart.getTime());
  const remaining = Math.min(period, Math.max(0, input.periodEnd.getTime() - input.now.getTime()));
  const credit = mulDivRound(input.oldPrice, remaining, period);
  if (input.sameInterval) {
    const charge = mulDivRound(input.newPrice, remaining, period);
    return { credit, charge, net: charge - credit, periodEnd: input.periodEnd };
  }
  return {
    credit,
    charge: input.newPrice,
    net: input.newPrice - credit,
    periodEnd: addInterval(input.now, input.newInterval),
  };
};

const planLabel = (plan: PlanId, interval: BillingInterval) => `Kontor ${findPlan(plan).name} (${interval})`;

// ---- cards

const cardSummary = (card: LocalCardInput): PaymentMethodSummary => {
  const [mm, yy] = card.expiry.split('/');
  return {
    brand: card.cardNumber.startsWith('4') ? 'visa' : card.cardNumber.startsWith('5') ? 'mastercard' : 'card',
    last4: card.cardNumber.slice(-4),
    expMonth: Number(mm),
    expYear: 2000 + Number(yy),
  };
};

type CardOutcome = 'succeeds' | 'declined' | 'authenticate';

/** Which test card it is; an expired or unknown card is a 400 that changes nothing. */
const testCardOutcome = (card: LocalCardInput, now: Date): CardOutcome => {
  const summary = cardSummary(card);
  const expiresAfter = Date.UTC(summary.expYear, summary.expMonth, 1);
  if (expiresAfter <= now.getTime())
    throw badRequest('card_expired', 'Your card has expired: check the expiry date.');
  const outcome = (Object.keys(LOCAL_TEST_CARDS) as CardOutcome[]).find(
    (k) => LOCAL_TEST_CARDS[k] === card.cardNumber,
  );
  if (!outcome) {
    throw badRequest(
      'card_unknown',
      'This is the built-in test checkout: use the test card 4242 4242 4242 4242 (or 4000 0000 0000 0002 to see a decline, 4000 0025 0000 3155 to see authentication).',
    );
  }
  return outcome;
};

// ---- events the local provider produces

const localEvent = (
  type: string,
  account: BillingAccountRow,
  now: Date,
  body:
    | { kind: 'subscription'; subscription: SubscriptionSnapshot }
    | { kind: 'subscription_deleted'; subscription: SubscriptionSnapshot }
    | { kind: 'invoice'; invoice: InvoiceSnapshot }
    | { kind: 'payment_method'; paymentMethod: PaymentMethodSummary | null },
  id = rid('levt'),
): BillingEvent => ({
  provider: 'local',
  id,
  type,
  createdAt: now,
  customerId: account.provider === 'local' ? account.customer_id : null,
  userId: account.user_id,
  ...body,
});

const paymentMethodOf = (account: BillingAccountRow): PaymentMethodSummary | null =>
  (account.payment_method as PaymentMethodSummary | null) ?? null;

/** The account's local subscription as the provider reports it. */
const snapshotOf = (
  account: BillingAccountRow,
  changes: Partial<SubscriptionSnapshot> = {},
): SubscriptionSnapshot => ({
  subscriptionId: account.subscription_id!,
  customerId: account.customer_id ?? `lcus_${account.user_id}`,
  status: account.status,
  plan: account.plan,
  interval: account.interval,
  currentPeriodEnd: account.current_period_end ? new Date(account.current_period_end) : null,
  cancelAtPeriodEnd: account.cancel_at_period_end,
  canceledAt: account.canceled_at ? new Date(account.canceled_at) : null,
  trialEnd: null,
  paymentMethod: paymentMethodOf(account),
  ...changes,
});

const localInvoice = async (
  trx: Executor,
  account: BillingAccountRow,
  now: Date,
  fields: { amount: number; description: string; periodStart: Date; periodEnd: Date },
): Promise<InvoiceSnapshot> => {
  const id = rid('lin');
  return {
    invoiceId: id,
    customerId: account.customer_id ?? `lcus_${account.user_id}`,
    number: `KB-${String((await countLocalInvoices(trx)) + 1).padStart(6, '0')}`,
    status: 'paid',
    currency: PLAN_CURRENCY,
    amountDue: fields.amount,
    amountPaid: fields.amount,
    description: fields.description,
    periodStart: fields.periodStart,
    periodEnd: fields.periodEnd,
    createdAt: now,
    hostedUrl: null,
    pdfUrl: `/api/billing/invoices/${id}/pdf`,
  };
};

/** The context whose database is the open transaction (so applyBillingEvent joins it). */
const inside = (ctx: AppContext, trx: Executor): AppContext => ({
  ...ctx,
  database: { ...ctx.database, db: trx },
});

const liveLocalAccount = async (trx: Executor, subscriptionId: string) => {
  const account = await trx
    .selectFrom('billing_accounts')
    .selectAll()
    .where('provider', '=', 'local')
    .where('subscription_id', '=', subscriptionId)
    .forUpdate()
    .executeTakeFirst();
  if (!account || account.status === 'canceled') {
    throw conflict('no_subscription', 'There is no subscription to change: choose a plan to subscribe.');
  }
  return account;
};

// ---- the provider

export const createLocalProvider = (ctx: AppContext): BillingProvider => ({
  name: 'local',
  describe: () => ({
    ready: true,
    detail: 'Built-in local provider: no network, Stripe-style test cards (docs/billing.md).',
    pricesConfigured: 6,
    webhookSecretSet: false,
  }),
  ensureCustomer: async (customer) => customer.customerId ?? `lcus_${customer.userId}`,
  createCheckout: async (customer, request) => {
    const id = rid('lcs');
    await ctx.database.db
      .insertInto('billing_checkouts')
      .values({
        id,
        user_id: customer.userId,
        plan: request.plan,
        interval: request.interval,
        percent_off: request.percentOff,
        created_at: ctx.now(),
      })
      .execute();
    return { url: `/billing?checkout=${id}` };
  },
  createPortal: async () => ({ url: '/billing?tab=payment' }),
  changePlan: (subscriptionId, plan, interval) =>
    inTransaction(ctx.database.db, async (trx) => {
      const account = await liveLocalAccount(trx, subscriptionId);
      const now = ctx.now();
      const periodEnd = account.current_period_end
        ? new Date(account.current_period_end)
        : addInterval(now, account.interval);
      const p = prorate({
        oldPrice: planPrice(findPlan(account.plan), account.interval),
        newPrice: planPrice(findPlan(plan), interval),
        periodStart: addInterval(periodEnd, account.interval, -1),
        periodEnd,
        now,
        sameInterval: interval === account.interval,
        newInterval: interval,
      });
      const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;
      const invoice = await localInvoice(trx, account, now, {
        amount: Math.max(0, p.net),
        description:
          `Change from ${planLabel(account.plan, account.interval)} to ${planLabel(plan, interval)}: ` +
          `${money(p.charge)} for the new plan less ${money(p.credit)} for unused time` +
          (p.net < 0 ? ` (the ${money(-p.net)} left over is not refunded by the local provider)` : ''),
        periodStart: now,
        periodEnd: p.periodEnd,
      });
      const snapshot = snapshotOf(account, { plan, interval, currentPeriodEnd: p.periodEnd });
      const tctx = inside(ctx, trx);
      await applyBillingEvent(tctx, localEvent('invoice.paid', account, now, { kind: 'invoice', invoice }));
      await applyBillingEvent(
        tctx,
        localEvent('customer.subscription.updated', account, now, {
          kind: 'subscription',
          subscription: snapshot,
        }),
      );
      return snapshot;
    }),
  setCancelAtPeriodEnd: (subscriptionId, cancel) =>
    inTransaction(ctx.database.db, async (trx) => {
      const account = await liveLocalAccount(trx, subscriptionId);
      return snapshotOf(account, { cancelAtPeriodEnd: cancel });
    }),
  parseWebhook: () => {
    throw badRequest(
      'webhook_unavailable',
      'Billing webhooks come from Stripe, and this server bills with the built-in local provider (STRIPE_SECRET_KEY is not set).',
    );
  },
});

// ---- the local checkout page's actions (docs/billing.md, "The local provider")

type CheckoutRow = Selectable<BillingCheckoutsTable>;

const isExpired = (row: CheckoutRow, now: Date) =>
  row.status !== 'complete' && now.getTime() - new Date(row.created_at).getTime() > CHECKOUT_LIFETIME_MS;

export const checkoutView = (row: CheckoutRow, now: Date): LocalCheckout => {
  const status = isExpired(row, now) ? 'expired' : row.status;
  return {
    id: row.id,
    plan: row.plan,
    interval: row.interval,
    currency: PLAN_CURRENCY,
    amount: discounted(planPrice(findPlan(row.plan), row.interval), row.percent_off),
    percentOff: row.percent_off,
    status,
    // While authentication is pending the column holds the card waiting for it, not a failure.
    failure: status === 'failed' ? row.failure : null,
  };
};

export const getLocalCheckout = async (ctx: AppContext, userId: string, id: string) => {
  const row = await findCheckout(ctx.database.db, userId, id);
  if (!row) throw notFound('No such checkout session.');
  return checkoutView(row, ctx.now());
};

const payableCheckout = async (
  trx: Executor,
  userId: string,
  id: string,
  now: Date,
  wanted: CheckoutRow['status'][],
) => {
  const row = await findCheckout(trx, userId, id, true);
  if (!row) throw notFound('No such checkout session.');
  if (row.status === 'complete') throw conflict('checkout_complete', 'This checkout is already paid.');
  if (isExpired(row, now)) {
    throw conflict(
      'checkout_expired',
      'This checkout has expired: go back to Billing and choose a plan again.',
    );
  }
  if (!wanted.includes(row.status)) {
    throw conflict(
      'checkout_state',
      row.status === 'requires_action'
        ? 'Confirm the payment with your bank first.'
        : 'This checkout is not waiting for authentication.',
    );
  }
  return row;
};

const assertNotSubscribed = (account: BillingAccountRow, now: Date) => {
  if (account.provider === 'local' && billingStateOf(account, now).hasSubscription) {
    throw conflict('already_subscribed', 'You already have a subscription: change its plan instead.');
  }
};

/** Starts the subscription a checkout paid for: the subscription, its first invoice, the card. */
const completeCheckout = async (
  ctx: AppContext,
  trx: Executor,
  row: CheckoutRow,
  card: PaymentMethodSummary,
) => {
  const now = ctx.now();
  let account = (await lockAccount(trx, row.user_id))!;
  assertNotSubscribed(account, now);
  if (account.provider !== 'local' || !account.customer_id) {
    account = await trx
      .updateTable('billing_accounts')
      .set({ provider: 'local', customer_id: `lcus_${account.user_id}`, updated_at: now })
      .where('user_id', '=', account.user_id)
      .returningAll()
      .executeTakeFirstOrThrow();
  }
  const periodEnd = addInterval(now, row.interval);
  const subscription: SubscriptionSnapshot = {
    subscriptionId: rid('lsub'),
    customerId: account.customer_id!,
    status: 'active',
    plan: row.plan,
    interval: row.interval,
    currentPeriodEnd: periodEnd,
    cancelAtPeriodEnd: false,
    canceledAt: null,
    trialEnd: null,
    paymentMethod: card,
  };
  const price = planPrice(findPlan(row.plan), row.interval);
  const amount = discounted(price, row.percent_off);
  const invoice = await localInvoice(trx, account, now, {
    amount,
    description: `${planLabel(row.plan, row.interval)}${row.percent_off ? `, ${row.percent_off}% off` : ''}`,
    periodStart: now,
    periodEnd,
  });
  const tctx = inside(ctx, trx);
  const outcome = await applyBillingEvent(
    tctx,
    localEvent('customer.subscription.created', account, now, { kind: 'subscription', subscription }),
  );
  if (outcome !== 'applied')
    throw new AppError(409, 'checkout_refused', 'This subscription could not be started.');
  await applyBillingEvent(tctx, localEvent('invoice.paid', account, now, { kind: 'invoice', invoice }));
  return updateCheckout(trx, row.id, { status: 'complete', failure: null, completed_at: now });
};

/** Pays a checkout with a test card: complete, failed (declined) or requires_action. */
export const payLocalCheckout = (ctx: AppContext, userId: string, id: string, card: LocalCardInput) =>
  inTransaction(ctx.database.db, async (trx) => {
    const now = ctx.now();
    const row = await payableCheckout(trx, userId, id, now, ['open', 'failed']);
    const outcome = testCardOutcome(card, now);
    const account = await findBillingAccount(trx, userId);
    if (account) assertNotSubscribed(account, now);
    const summary = cardSummary(card);
    const updated =
      outcome === 'succeeds'
        ? await completeCheckout(ctx, trx, row, summary)
        : outcome === 'declined'
          ? await updateCheckout(trx, row.id, { status: 'failed', failure: DECLINED_MESSAGE })
          : await updateCheckout(trx, row.id, {
              status: 'requires_action',
              failure: JSON.stringify(summary),
            });
    return checkoutView(updated, now);
  });

/** The bank's confirmation step (3-D Secure) of a checkout that asked for it. */
export const authenticateLocalCheckout = (ctx: AppContext, userId: string, id: string, approve: boolean) =>
  inTransaction(ctx.database.db, async (trx) => {
    const now = ctx.now();
    const row = await payableCheckout(trx, userId, id, now, ['requires_action']);
    if (!approve) {
      return checkoutView(
        await updateCheckout(trx, row.id, { status: 'failed', failure: AUTH_FAILED_MESSAGE }),
        now,
      );
    }
    const card = JSON.parse(row.failure ?? 'null') as PaymentMethodSummary;
    return checkoutView(await completeCheckout(ctx, trx, row, card), now);
  });

/** The portal's card update: a new card on file (a declined test card is refused, nothing changes). */
export const updateLocalPaymentMethod = (
  ctx: AppContext,
  account: BillingAccountRow,
  card: LocalCardInput,
) => {
  const now = ctx.now();
  if (testCardOutcome(card, now) === 'declined') throw badRequest('card_declined', DECLINED_MESSAGE);
  return applyBillingEvent(
    ctx,
    localEvent('payment_method.attached', account, now, {
      kind: 'payment_method',
      paymentMethod: cardSummary(card),
    }),
  );
};

/**
 * The end of a local subscription's period, on read (no timers): canceled at period end ends
 * it; otherwise each period that passed renews it with a paid invoice at the plan's price.
 * Event ids are fixed per subscription and period, so two requests doing it at once apply it once.
 */
export const settleLocalPeriods = async (ctx: AppContext, account: BillingAccountRow): Promise<boolean> => {
  const now = ctx.now();
  if (account.provider !== 'local' || !account.subscription_id || !account.current_period_end) return false;
  if (account.status !== 'active' && account.status !== 'past_due') return false;
  let end = new Date(account.current_period_end);
  if (end.getTime() > now.getTime()) return false;
  await inTransaction(ctx.database.db, async (trx) => {
    const tctx = inside(ctx, trx);
    if (account.cancel_at_period_end) {
      const subscription = snapshotOf(account, {
        status: 'canceled',
        canceledAt: end,
        cancelAtPeriodEnd: false,
      });
      await applyBillingEvent(
        tctx,
        localEvent(
          'customer.subscription.deleted',
          account,
          end,
          { kind: 'subscription_deleted', subscription },
          `levt_end_${account.subscription_id}`,
        ),
      );
      return;
    }
    const price = planPrice(findPlan(account.plan), account.interval);
    for (let i = 0; i < 120 && end.getTime() <= now.getTime(); i++) {
      const next = addInterval(end, account.interval);
      const invoice = await localInvoice(trx, account, end, {
        amount: price,
        description: `${planLabel(account.plan, account.interval)}, renewal`,
        periodStart: end,
        periodEnd: next,
      });
      const key = `${account.subscription_id}_${end.getTime()}`;
      const outcome = await applyBillingEvent(
        tctx,
        localEvent(
          'customer.subscription.updated',
          account,
          end,
          { kind: 'subscription', subscription: snapshotOf(account, { currentPeriodEnd: next }) },
          `levt_renew_${key}`,
        ),
      );
      if (outcome === 'duplicate') return;
      await applyBillingEvent(
        tctx,
        localEvent('invoice.paid', account, end, { kind: 'invoice', invoice }, `levt_renew_inv_${key}`),
      );
      end = next;
    }
  });
  return true;
};
