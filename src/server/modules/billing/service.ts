import { randomUUID } from 'node:crypto';
import {
  type BillingInvoice,
  type BillingOverview,
  type LocalCardInput,
  type PlanChoiceInput,
  paymentMethodSchema,
  planChoiceSchema,
} from '../../../shared/billing.ts';
import { badRequest, conflict, notFound } from '../../../shared/errors.ts';
/** The signed-in user as billing needs them. */
type SessionUser = { id: string; email: string; name: string };
import type { AppContext } from '../../context.ts';
import {
  type BillingAccountRow,
  billingStateOf,
  ensureBillingAccount,
  findBillingAccount,
} from './account.ts';
import { SYNC_EVENT_TYPE, applyBillingEvent } from './events.ts';
import { billingInvoicePdf } from './invoice-pdf.ts';
import { accountUsage } from './limits.ts';
import {
  authenticateLocalCheckout,
  getLocalCheckout,
  payLocalCheckout,
  settleLocalPeriods,
  updateLocalPaymentMethod,
} from './local-provider.ts';
import type { BillingCustomer, BillingProvider, SubscriptionSnapshot } from './provider.ts';
import { billingProvider } from './providers.ts';
import { findInvoice, listInvoices, updateAccount } from './queries.ts';
import { formatterFor } from '../../../shared/format.ts';
import { formatPreferencesOfUser } from '../profile/service.ts';

// The billing routes' rules (issue 16 §3, §6; docs/billing.md): the signed-in user's own
// account, made on first need. Every change of a subscription is applied as a BillingEvent
// (events.ts): the provider's answer to a change is applied at once as a "sync" event, and
// the provider's own events (Stripe's webhooks) confirm it later.

/** The account, with a local subscription's ended periods settled first. */
const loadAccount = async (ctx: AppContext, userId: string): Promise<BillingAccountRow> => {
  const account = await ensureBillingAccount(ctx.database.db, userId, ctx.now());
  if (await settleLocalPeriods(ctx, account)) return (await findBillingAccount(ctx.database.db, userId))!;
  return account;
};

/** Whether the account has a live subscription at this provider. */
const subscriptionAt = (account: BillingAccountRow, provider: BillingProvider, now: Date) =>
  account.provider === provider.name &&
  account.subscription_id !== null &&
  billingStateOf(account, now).hasSubscription
    ? account.subscription_id
    : null;

const requireSubscription = (account: BillingAccountRow, provider: BillingProvider, now: Date) => {
  const id = subscriptionAt(account, provider, now);
  if (!id) throw conflict('no_subscription', 'You have no subscription yet: choose a plan to subscribe.');
  return id;
};

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export const overviewOf = async (ctx: AppContext, account: BillingAccountRow): Promise<BillingOverview> => {
  const now = ctx.now();
  const state = billingStateOf(account, now);
  const card = paymentMethodSchema.safeParse(account.payment_method);
  return {
    plan: state.plan,
    interval: state.interval,
    status: state.status,
    provider: account.provider,
    access: state.access,
    readOnlyReason: state.readOnlyReason,
    onTrial: state.onTrial,
    trialEndsAt: state.trialEndsAt.toISOString(),
    trialDaysLeft: state.trialDaysLeft,
    hasSubscription: state.hasSubscription,
    currentPeriodEnd: state.hasSubscription ? iso(account.current_period_end) : null,
    cancelAtPeriodEnd: state.hasSubscription && account.cancel_at_period_end,
    paymentMethod: card.success ? card.data : null,
    grantedPlan: state.grantActive ? account.granted_plan : null,
    grantedUntil: state.grantActive ? iso(account.granted_until) : null,
    discount:
      account.discount_code && account.percent_off
        ? { code: account.discount_code, percentOff: account.percent_off }
        : null,
    usage: await accountUsage(ctx.database.db, account.user_id, state.plan, now),
  };
};

export const billingOverview = async (ctx: AppContext, user: SessionUser) =>
  overviewOf(ctx, await loadAccount(ctx, user.id));

/** The provider's customer for the account, made and stored on first need. */
const customerOf = async (
  ctx: AppContext,
  provider: BillingProvider,
  user: SessionUser,
  account: BillingAccountRow,
) => {
  const samePlace = account.provider === provider.name;
  const customer: BillingCustomer = {
    userId: user.id,
    email: user.email,
    name: user.name,
    customerId: samePlace ? account.customer_id : null,
    subscriptionId: samePlace ? account.subscription_id : null,
  };
  const customerId = await provider.ensureCustomer(customer);
  if (!samePlace || customerId !== account.customer_id) {
    await updateAccount(
      ctx.database.db,
      user.id,
      { provider: provider.name, customer_id: customerId },
      ctx.now(),
    );
  }
  return { ...customer, customerId };
};

const appUrl = (ctx: AppContext, path: string) => `${ctx.config.publicUrl.replace(/\/$/, '')}${path}`;

export const startCheckout = async (ctx: AppContext, user: SessionUser, input: PlanChoiceInput) => {
  const provider = billingProvider(ctx);
  const account = await loadAccount(ctx, user.id);
  if (billingStateOf(account, ctx.now()).hasSubscription) {
    throw conflict('already_subscribed', 'You already have a subscription: change its plan instead.');
  }
  const customer = await customerOf(ctx, provider, user, account);
  return provider.createCheckout(customer, {
    plan: input.plan,
    interval: input.interval,
    percentOff: account.percent_off,
    successUrl: appUrl(ctx, '/billing?subscribed=1'),
    cancelUrl: appUrl(ctx, '/billing?checkout=canceled'),
  });
};

export const openPortal = async (ctx: AppContext, user: SessionUser) => {
  const provider = billingProvider(ctx);
  const account = await loadAccount(ctx, user.id);
  const customer = await customerOf(ctx, provider, user, account);
  return provider.createPortal(customer, appUrl(ctx, '/billing'));
};

/** Applies a provider's answer to a change at once (the provider's own event confirms it later). */
const applySnapshot = async (
  ctx: AppContext,
  provider: BillingProvider,
  user: SessionUser,
  snapshot: SubscriptionSnapshot,
) => {
  await applyBillingEvent(ctx, {
    provider: provider.name,
    id: `${provider.name}_sync_${randomUUID()}`,
    type: SYNC_EVENT_TYPE,
    createdAt: ctx.now(),
    customerId: snapshot.customerId,
    userId: user.id,
    kind: 'subscription',
    subscription: snapshot,
  });
  return overviewOf(ctx, (await findBillingAccount(ctx.database.db, user.id))!);
};

export const changePlan = async (ctx: AppContext, user: SessionUser, input: PlanChoiceInput) => {
  const provider = billingProvider(ctx);
  const account = await loadAccount(ctx, user.id);
  if (account.plan === input.plan && account.interval === input.interval) {
    throw conflict('plan_unchanged', 'You are already on this plan and interval.');
  }
  const subscriptionId = subscriptionAt(account, provider, ctx.now());
  if (!subscriptionId) {
    if (account.status !== 'trialing') {
      throw conflict('no_subscription', 'Your subscription has ended: choose a plan to subscribe again.');
    }
    // On the trial: its plan and interval change (what the trial's limits and the checkout offer).
    const updated = await updateAccount(
      ctx.database.db,
      user.id,
      { plan: input.plan, interval: input.interval },
      ctx.now(),
    );
    return overviewOf(ctx, updated);
  }
  return applySnapshot(
    ctx,
    provider,
    user,
    await provider.changePlan(subscriptionId, input.plan, input.interval),
  );
};

export const cancelSubscription = async (ctx: AppContext, user: SessionUser) => {
  const provider = billingProvider(ctx);
  const account = await loadAccount(ctx, user.id);
  const subscriptionId = requireSubscription(account, provider, ctx.now());
  if (account.cancel_at_period_end) {
    throw conflict('already_canceling', 'Your subscription already ends at the end of this period.');
  }
  return applySnapshot(ctx, provider, user, await provider.setCancelAtPeriodEnd(subscriptionId, true));
};

export const resumeSubscription = async (ctx: AppContext, user: SessionUser) => {
  const provider = billingProvider(ctx);
  const account = await loadAccount(ctx, user.id);
  const subscriptionId = requireSubscription(account, provider, ctx.now());
  if (!account.cancel_at_period_end) {
    throw conflict('not_canceling', 'Your subscription is not set to end: there is nothing to resume.');
  }
  return applySnapshot(ctx, provider, user, await provider.setCancelAtPeriodEnd(subscriptionId, false));
};

const invoicePdfPath = (id: string) => `/api/billing/invoices/${encodeURIComponent(id)}/pdf`;

export const billingInvoices = async (
  ctx: AppContext,
  user: SessionUser,
): Promise<{ invoices: BillingInvoice[] }> => {
  await loadAccount(ctx, user.id);
  const rows = await listInvoices(ctx.database.db, user.id);
  return {
    invoices: rows.map((row) => ({
      id: row.id,
      number: row.number,
      status: row.status,
      currency: row.currency.trim(),
      amountDue: Number(row.amount_due),
      amountPaid: Number(row.amount_paid),
      description: row.description,
      periodStart: iso(row.period_start),
      periodEnd: iso(row.period_end),
      createdAt: new Date(row.created_at).toISOString(),
      hostedUrl: row.hosted_url,
      pdfUrl: row.provider === 'local' ? invoicePdfPath(row.id) : row.pdf_url,
    })),
  };
};

/** A local invoice's PDF, or where the provider keeps it. */
export const billingInvoiceFile = async (ctx: AppContext, user: SessionUser, id: string) => {
  const row = await findInvoice(ctx.database.db, user.id, id);
  if (!row) throw notFound('No such invoice.');
  if (row.provider !== 'local') {
    const url = row.pdf_url;
    if (!url) throw notFound('This invoice has no PDF yet.');
    return { redirect: url } as const;
  }
  const format = formatterFor((await formatPreferencesOfUser(ctx, user.id)) ?? {});
  const pdf = await billingInvoicePdf(row, { name: user.name, email: user.email }, format);
  return { pdf, fileName: `${row.number.replace(/[^A-Za-z0-9._-]/g, '_') || 'invoice'}.pdf` } as const;
};

// ---- the local provider's pages

const requireLocal = (ctx: AppContext) => {
  if (billingProvider(ctx).name !== 'local') {
    throw notFound('This server bills through Stripe: its checkout and card pages are at Stripe.');
  }
};

export const localCheckout = async (ctx: AppContext, user: SessionUser, id: string) => {
  requireLocal(ctx);
  return getLocalCheckout(ctx, user.id, id);
};

export const payCheckout = async (ctx: AppContext, user: SessionUser, id: string, card: LocalCardInput) => {
  requireLocal(ctx);
  await loadAccount(ctx, user.id);
  return payLocalCheckout(ctx, user.id, id, card);
};

export const authenticateCheckout = async (
  ctx: AppContext,
  user: SessionUser,
  id: string,
  approve: boolean,
) => {
  requireLocal(ctx);
  return authenticateLocalCheckout(ctx, user.id, id, approve);
};

export const updatePaymentMethod = async (ctx: AppContext, user: SessionUser, card: LocalCardInput) => {
  requireLocal(ctx);
  const account = await loadAccount(ctx, user.id);
  await updateLocalPaymentMethod(ctx, account, card);
  return overviewOf(ctx, (await findBillingAccount(ctx.database.db, user.id))!);
};

// ---- webhooks

export const receiveWebhook = async (
  ctx: AppContext,
  rawBody: unknown,
  headers: Record<string, string | string[] | undefined>,
) => {
  if (!Buffer.isBuffer(rawBody)) throw badRequest('webhook_body', 'A webhook body must be JSON.');
  const event = await billingProvider(ctx).parseWebhook(rawBody, headers);
  const outcome = await applyBillingEvent(ctx, event);
  return { received: true as const, outcome };
};

// ---- sign-up

/** The sign-up hook (app.ts): the 14-day trial on the pricing page's plan, else Business monthly. */
export const startSignUpTrial = async (
  ctx: AppContext,
  user: { id: string },
  body: Record<string, unknown> | undefined,
) => {
  const choice = planChoiceSchema.safeParse(body?.plan);
  await ensureBillingAccount(ctx.database.db, user.id, ctx.now(), choice.success ? choice.data : undefined);
};
