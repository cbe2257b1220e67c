import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '../../../shared/billing.ts';

// The subscription state machine (issue 16 §3; docs/billing.md, "State machine"). The provider
// reports a subscription's status in every event; the account moves to it only along an
// allowed edge, so an event that arrives late or out of order cannot undo a later state
// (a canceled subscription never comes back to life). A new subscription id starts fresh:
// it may enter in any status (a second subscription after the first ended).

/** Where each status may go next (staying in the same status is always allowed: a refresh). */
export const TRANSITIONS: Readonly<Record<SubscriptionStatus, readonly SubscriptionStatus[]>> = {
  // The app's own free trial (no subscription yet) or a provider trial.
  trialing: ['active', 'past_due', 'canceled', 'incomplete'],
  // The first payment needs the customer (3-D Secure) or failed; Stripe's incomplete_expired
  // arrives as canceled (providerStatus).
  incomplete: ['active', 'canceled'],
  active: ['past_due', 'canceled', 'unpaid'],
  past_due: ['active', 'canceled', 'unpaid'],
  unpaid: ['active', 'canceled'],
  // Terminal for that subscription id.
  canceled: [],
};

export const canTransition = (from: SubscriptionStatus, to: SubscriptionStatus): boolean =>
  from === to || TRANSITIONS[from].includes(to);

/** The account's subscription as the state machine sees it. */
export type SubscriptionPosition = { subscriptionId: string | null; status: SubscriptionStatus };

/** What the provider says happened to one subscription. */
export type SubscriptionReport = { subscriptionId: string; status: SubscriptionStatus };

export type Transition =
  | { ok: true; status: SubscriptionStatus; fresh: boolean }
  | { ok: false; reason: string };

/**
 * The status after `event`, or why it is refused:
 * - the same subscription id: only along TRANSITIONS (or staying put);
 * - another id while the current subscription is live (not canceled): a report that the other
 *   one is canceled is refused (an old subscription's end never ends the new one); any other
 *   status starts the new subscription fresh;
 * - no subscription yet, or the current one canceled: the new id starts fresh in any status.
 */
export const nextStatus = (current: SubscriptionPosition, event: SubscriptionReport): Transition => {
  if (current.subscriptionId === event.subscriptionId) {
    return canTransition(current.status, event.status)
      ? { ok: true, status: event.status, fresh: false }
      : {
          ok: false,
          reason: `subscription ${event.subscriptionId} cannot go from ${current.status} to ${event.status}`,
        };
  }
  const live = current.subscriptionId !== null && current.status !== 'canceled';
  if (live && event.status === 'canceled') {
    return {
      ok: false,
      reason: `subscription ${event.subscriptionId} is canceled but the account is on ${current.subscriptionId}`,
    };
  }
  return { ok: true, status: event.status, fresh: true };
};

/** Applies a sequence of reports (the property test's and the docs' model of an account). */
export const foldStatus = (start: SubscriptionPosition, events: readonly SubscriptionReport[]) =>
  events.reduce<SubscriptionPosition>((position, event) => {
    const next = nextStatus(position, event);
    return next.ok ? { subscriptionId: event.subscriptionId, status: next.status } : position;
  }, start);

const STRIPE_STATUS: Record<string, SubscriptionStatus> = {
  trialing: 'trialing',
  active: 'active',
  past_due: 'past_due',
  canceled: 'canceled',
  unpaid: 'unpaid',
  incomplete: 'incomplete',
  incomplete_expired: 'canceled',
  // A paused subscription (trial ended without a card in Stripe's pause mode) takes no money.
  paused: 'unpaid',
};

/** A provider's status string as ours (Stripe's incomplete_expired is canceled); null if unknown. */
export const providerStatus = (raw: string): SubscriptionStatus | null => STRIPE_STATUS[raw] ?? null;

export const isSubscriptionStatus = (value: unknown): value is SubscriptionStatus =>
  SUBSCRIPTION_STATUSES.includes(value as SubscriptionStatus);
