import type { Selectable } from 'kysely';
import type { SubscriptionStatus } from '../../../shared/billing.ts';
import { READ_ONLY_MESSAGE } from '../../../shared/billing.ts';
import { type BillingInterval, type PlanId, TRIAL_DAYS } from '../../../shared/plans.ts';
import type { Executor } from '../../db/transaction.ts';
import type { BillingAccountsTable } from '../../db/types.ts';

// The billing account (one per user who signs up) and what it allows now. Everything that
// asks "which plan's limits apply" or "may this account change anything" asks billingStateOf,
// so the billing page, the limits and the read-only guard never disagree (issue 16 §1, §2).

export type BillingAccountRow = Selectable<BillingAccountsTable>;

const DAY_MS = 24 * 60 * 60 * 1000;

/** Statuses in which a paid subscription gives full access (past_due: Stripe is retrying the card). */
const PAID_ACCESS: ReadonlySet<SubscriptionStatus> = new Set(['active', 'past_due']);

export type BillingState = {
  /** The plan whose limits apply now. */
  plan: PlanId;
  interval: BillingInterval;
  status: SubscriptionStatus;
  access: 'full' | 'read_only';
  readOnlyReason: string | null;
  onTrial: boolean;
  trialEndsAt: Date;
  trialDaysLeft: number;
  hasSubscription: boolean;
  /** A promo code's plan, while it lasts. */
  grantActive: boolean;
};

/**
 * What an account may do at `now`:
 * - a subscription that is active or past due: its plan, full access;
 * - else a plan granted by a promo code that has not run out: that plan, full access;
 * - else a trial not yet over: the chosen plan, full access;
 * - else read-only on the chosen plan (data kept; exports and billing still work).
 */
export const billingStateOf = (row: BillingAccountRow, now: Date): BillingState => {
  const trialEndsAt = new Date(row.trial_ends_at);
  const trialLeftMs = trialEndsAt.getTime() - now.getTime();
  const hasSubscription = row.subscription_id !== null && row.status !== 'canceled';
  const paid = row.subscription_id !== null && PAID_ACCESS.has(row.status);
  const grantActive =
    row.granted_plan !== null &&
    (row.granted_until === null || new Date(row.granted_until).getTime() > now.getTime());
  const onTrial = !paid && row.status === 'trialing' && trialLeftMs > 0;
  const base = {
    interval: row.interval,
    status: row.status,
    trialEndsAt,
    trialDaysLeft: trialLeftMs > 0 ? Math.ceil(trialLeftMs / DAY_MS) : 0,
    hasSubscription,
    grantActive,
  };
  if (paid) return { ...base, plan: row.plan, access: 'full', readOnlyReason: null, onTrial: false };
  if (grantActive)
    return { ...base, plan: row.granted_plan!, access: 'full', readOnlyReason: null, onTrial: false };
  if (trialLeftMs > 0 && (row.status === 'trialing' || row.status === 'incomplete')) {
    return { ...base, plan: row.plan, access: 'full', readOnlyReason: null, onTrial };
  }
  const reason =
    row.status === 'trialing'
      ? READ_ONLY_MESSAGE
      : row.status === 'unpaid'
        ? 'Your subscription is unpaid, so your account is read-only: your data is kept and exports still work. Update your card in Billing to make changes again.'
        : 'Your subscription has ended, so your account is read-only: your data is kept and exports still work. Choose a plan in Billing to make changes again.';
  return { ...base, plan: row.plan, access: 'read_only', readOnlyReason: reason, onTrial: false };
};

export const findBillingAccount = (db: Executor, userId: string) =>
  db.selectFrom('billing_accounts').selectAll().where('user_id', '=', userId).executeTakeFirst();

/**
 * The account's row, made on first need with a trial of TRIAL_DAYS from `now` on the given
 * plan (sign-up passes the pricing page's choice; accounts older than billing get Business
 * monthly). Safe against two requests making it at once.
 */
export const ensureBillingAccount = async (
  db: Executor,
  userId: string,
  now: Date,
  choice: { plan: PlanId; interval: BillingInterval } = { plan: 'business', interval: 'monthly' },
): Promise<BillingAccountRow> => {
  const existing = await findBillingAccount(db, userId);
  if (existing) return existing;
  await db
    .insertInto('billing_accounts')
    .values({
      user_id: userId,
      plan: choice.plan,
      interval: choice.interval,
      status: 'trialing',
      trial_ends_at: new Date(now.getTime() + TRIAL_DAYS * DAY_MS),
    })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
  return (await findBillingAccount(db, userId))!;
};

/** The user whose plan a company is on: its owner (the earliest owner if there are several). */
export const companyPayer = async (db: Executor, organizationId: string): Promise<string | null> =>
  (
    await db
      .selectFrom('organization_members')
      .select('user_id')
      .where('organization_id', '=', organizationId)
      .where('role', '=', 'owner')
      .orderBy('created_at')
      .orderBy('user_id')
      .limit(1)
      .executeTakeFirst()
  )?.user_id ?? null;
