import {
  type BillingOverview,
  type BillingUsage,
  SUBSCRIPTION_STATUS_LABELS,
  type SubscriptionStatus,
} from '../../../shared/billing.ts';
import {
  BILLING_INTERVAL_LABELS,
  type BillingInterval,
  PLAN_CURRENCY,
  type PlanId,
  findPlan,
  planPrice,
} from '../../../shared/plans.ts';
import { formatAmount, formatBytes, formatCount, formatDate } from '../../lib/format.ts';

// What the billing page and the trial banner say, from the billing overview: plain functions,
// tested in billingText.test.ts.

export const INTERVAL_LABELS = BILLING_INTERVAL_LABELS;

/** "Business (yearly)". */
export const planLabel = (plan: PlanId, interval: BillingInterval) => `${findPlan(plan).name} (${interval})`;

/** "$490.00 a year", "$49.00 a month" (less a discount in percent, rounded half up to the cent, as charged). */
export const priceText = (plan: PlanId, interval: BillingInterval, percentOff: number | null = null) => {
  const full = planPrice(findPlan(plan), interval);
  const price = percentOff ? full - Math.round((full * percentOff) / 100) : full;
  return `${formatAmount(price, PLAN_CURRENCY)} a ${interval === 'monthly' ? 'month' : 'year'}`;
};

/** "14 days left", "1 day left", "Ends today". */
export const trialDaysText = (days: number) =>
  days > 1 ? `${formatCount(days)} days left` : days === 1 ? '1 day left' : 'Ends today';

export type Tone = 'slate' | 'blue' | 'green' | 'amber' | 'red';

export const STATUS_TONES: Record<SubscriptionStatus, Tone> = {
  trialing: 'blue',
  active: 'green',
  past_due: 'amber',
  canceled: 'slate',
  unpaid: 'red',
  incomplete: 'amber',
};

/** The status chip: its words and colour (a read-only account says so, whatever the status). */
export const statusChip = (o: BillingOverview): { label: string; tone: Tone } =>
  o.access === 'read_only'
    ? { label: 'Read-only', tone: 'red' }
    : o.cancelAtPeriodEnd && o.hasSubscription
      ? { label: 'Cancels at period end', tone: 'amber' }
      : { label: SUBSCRIPTION_STATUS_LABELS[o.status], tone: STATUS_TONES[o.status] };

/** The sentence under the plan's name: when the trial or the period ends, or what to do next. */
export const planStatusLine = (o: BillingOverview): string => {
  if (o.access === 'read_only')
    return 'Your account is read-only until you subscribe: your data is kept and exports still work.';
  if (o.onTrial && !o.hasSubscription)
    return `Free trial: ${trialDaysText(o.trialDaysLeft).toLowerCase()}. It ends on ${formatDate(o.trialEndsAt)}; no credit card required until you subscribe.`;
  if (o.hasSubscription && o.currentPeriodEnd) {
    if (o.cancelAtPeriodEnd)
      return `Your plan cancels on ${formatDate(o.currentPeriodEnd)}. Resume it to keep it.`;
    if (o.status === 'past_due' || o.status === 'unpaid')
      return 'Your last payment did not go through. Update your card to keep your plan.';
    return `Renews on ${formatDate(o.currentPeriodEnd)}.`;
  }
  if (o.status === 'canceled') return 'Your subscription has ended. Subscribe to continue.';
  if (o.status === 'incomplete') return 'Your payment was not completed. Subscribe again to continue.';
  return '';
};

export type UsageRow = {
  key: BillingUsage['key'];
  label: string;
  /** "2 of 3", "1.2 GB of 10 GB", "4 (unlimited)". */
  text: string;
  /** 0–100 when there is a limit; null when unlimited. */
  percent: number | null;
  tone: 'normal' | 'near' | 'full';
};

const amountOf = (key: BillingUsage['key'], n: number) =>
  key === 'storageBytes' ? formatBytes(n) : formatCount(n);

export const usageRow = (u: BillingUsage): UsageRow => {
  if (u.limit === null)
    return {
      key: u.key,
      label: u.label,
      text: `${amountOf(u.key, u.used)} · Unlimited`,
      percent: null,
      tone: 'normal',
    };
  const percent = u.limit <= 0 ? 100 : Math.min(100, Math.round((u.used / u.limit) * 100));
  return {
    key: u.key,
    label: u.label,
    text: `${amountOf(u.key, u.used)} of ${amountOf(u.key, u.limit)}`,
    percent,
    tone: u.used >= u.limit ? 'full' : percent >= 80 ? 'near' : 'normal',
  };
};

/** "Visa •••• 4242, expires 12/30". */
export const cardText = (card: NonNullable<BillingOverview['paymentMethod']>) =>
  `${card.brand.charAt(0).toUpperCase()}${card.brand.slice(1)} •••• ${card.last4}, expires ${String(card.expMonth).padStart(2, '0')}/${String(card.expYear).slice(-2)}`;

/** What a change of plan or interval does, for its confirmation. */
export const changeKind = (o: BillingOverview, plan: PlanId, interval: BillingInterval) => {
  const from = planPrice(findPlan(o.plan), o.interval) / (o.interval === 'yearly' ? 12 : 1);
  const to = planPrice(findPlan(plan), interval) / (interval === 'yearly' ? 12 : 1);
  return to > from ? 'upgrade' : to < from ? 'downgrade' : 'switch';
};

/** "1 234 5678…" as typed: digits in groups of four, at most 19 digits. */
export const groupCardNumber = (typed: string) =>
  typed
    .replace(/\D/g, '')
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ');

/** "1230" → "12/30" while typing the expiry. */
export const formatExpiry = (typed: string) => {
  const digits = typed.replace(/\D/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
};
