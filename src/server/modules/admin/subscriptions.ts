import { type Selectable, type SqlBool, sql } from 'kysely';
import type { z } from 'zod';
import type { AdminSubscriptionRow, adminSubscriptionQuerySchema } from '../../../shared/admin.ts';
import { SUBSCRIPTION_STATUSES } from '../../../shared/billing.ts';
import { PLAN_CURRENCY, findPlan, monthlyEquivalent } from '../../../shared/plans.ts';
import type { AppContext } from '../../context.ts';
import { decodeCursor, exactTimestamp, keysetPage } from '../../db/cursor.ts';
import type { BillingAccountsTable } from '../../db/types.ts';

// Subscriptions in the admin console (docs/admin.md, "Subscriptions"): every billing account
// with its state and what it brings in a month, and a summary: MRR, counts by status (with
// the derived read_only, as billingStateOf decides it), trials ending within 7 days, and the
// churn of the last 30 days.

const DAY_MS = 24 * 60 * 60 * 1000;
const PAYING = ['active', 'past_due'] as const;

/** What an account brings in a month, in cents: its plan's monthly price (yearly / 12, rounded down) while paying. */
export const monthlyRevenue = (
  row: Pick<Selectable<BillingAccountsTable>, 'plan' | 'interval' | 'status'>,
) =>
  (PAYING as readonly string[]).includes(row.status)
    ? monthlyEquivalent(findPlan(row.plan), row.interval)
    : 0;

/**
 * SQL: the account is read-only now (billingStateOf in billing/account.ts): no paying
 * subscription, no granted plan still running, and no trial left.
 */
const readOnlyCondition = (now: Date) => sql<SqlBool>`not (
    (b.subscription_id is not null and b.status in ('active', 'past_due'))
    or (b.granted_plan is not null and (b.granted_until is null or b.granted_until > ${now}))
    or (b.trial_ends_at > ${now} and b.status in ('trialing', 'incomplete')))`;

export const listSubscriptions = async (
  ctx: AppContext,
  q: z.output<typeof adminSubscriptionQuerySchema>,
) => {
  const after = decodeCursor(q.cursor, { createdAt: 'timestamp', id: 'string' });
  const now = ctx.now();
  let query = ctx.database.db
    .selectFrom('billing_accounts as b')
    .innerJoin('user as u', 'u.id', 'b.user_id')
    .selectAll('b')
    .select(['u.email', exactTimestamp('b.created_at').as('created_exact')]);
  if (q.status === 'read_only') query = query.where(readOnlyCondition(now));
  else if (q.status !== 'all') query = query.where('b.status', '=', q.status);
  const { page, nextCursor } = await keysetPage(query, {
    keys: [['b.created_at', 'timestamptz'], ['b.user_id']],
    after: after ? [after.createdAt, after.id] : null,
    limit: q.limit,
    direction: 'desc',
  });
  return {
    subscriptions: page.map(
      (r): AdminSubscriptionRow => ({
        userId: r.user_id,
        email: r.email,
        plan: r.plan,
        interval: r.interval,
        status: r.status,
        provider: r.provider,
        trialEndsAt: new Date(r.trial_ends_at).toISOString(),
        currentPeriodEnd: r.current_period_end ? new Date(r.current_period_end).toISOString() : null,
        cancelAtPeriodEnd: r.cancel_at_period_end,
        mrr: monthlyRevenue(r),
      }),
    ),
    nextCursor: nextCursor((r) => ({ createdAt: r.created_exact, id: r.user_id })),
  };
};

export const subscriptionSummary = async (ctx: AppContext) => {
  const db = ctx.database.db;
  const now = ctx.now();
  const monthAgo = new Date(now.getTime() - 30 * DAY_MS);
  const weekAhead = new Date(now.getTime() + 7 * DAY_MS);
  const paying = await db
    .selectFrom('billing_accounts')
    .select(['plan', 'interval', 'status'])
    .where('status', 'in', PAYING)
    .execute();
  const mrr = paying.reduce((sum, r) => sum + monthlyRevenue(r), 0);
  const counts = await db
    .selectFrom('billing_accounts')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('status')
    .execute();
  const byStatus: Record<string, number> = Object.fromEntries(SUBSCRIPTION_STATUSES.map((s) => [s, 0]));
  for (const c of counts) byStatus[c.status] = Number(c.n);
  const readOnly = await db
    .selectFrom('billing_accounts as b')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where(readOnlyCondition(now))
    .executeTakeFirstOrThrow();
  byStatus.read_only = Number(readOnly.n);
  const trials = await db
    .selectFrom('billing_accounts as b')
    .innerJoin('user as u', 'u.id', 'b.user_id')
    .select(['b.user_id', 'u.email', 'b.plan', 'b.trial_ends_at'])
    .where('b.status', '=', 'trialing')
    .where('b.subscription_id', 'is', null)
    .where('b.trial_ends_at', '>', now)
    .where('b.trial_ends_at', '<=', weekAhead)
    .orderBy('b.trial_ends_at')
    .orderBy('b.user_id')
    .limit(100)
    .execute();
  // Churn: subscriptions canceled in the window over those paying at its start. Billing keeps
  // no history of when a subscription began, so "paying at the start" counts the ones canceled
  // since plus those still paying (or unpaid) whose account is older than the window.
  const canceled = Number(
    (
      await db
        .selectFrom('billing_accounts')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', '=', 'canceled')
        .where('canceled_at', '>=', monthAgo)
        .where('canceled_at', '<=', now)
        .executeTakeFirstOrThrow()
    ).n,
  );
  const stillPaying = Number(
    (
      await db
        .selectFrom('billing_accounts')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('status', 'in', ['active', 'past_due', 'unpaid'])
        .where('subscription_id', 'is not', null)
        .where('created_at', '<', monthAgo)
        .executeTakeFirstOrThrow()
    ).n,
  );
  const activeAtStart = canceled + stillPaying;
  return {
    currency: PLAN_CURRENCY,
    mrr,
    byStatus,
    trialsEndingThisWeek: trials.map((t) => ({
      userId: t.user_id,
      email: t.email,
      plan: t.plan,
      trialEndsAt: new Date(t.trial_ends_at).toISOString(),
    })),
    churn30Days: {
      canceled,
      activeAtStart,
      rate: activeAtStart === 0 ? 0 : Math.round((canceled / activeAtStart) * 1000) / 10,
    },
  };
};
