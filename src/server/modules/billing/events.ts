import type { AppContext } from '../../context.ts';
import { type Executor, inTransaction } from '../../db/transaction.ts';
import { type BillingAccountRow, findBillingAccount } from './account.ts';
import type { BillingEvent, SubscriptionSnapshot } from './provider.ts';
import {
  findAccountByCustomer,
  insertEvent,
  lockAccount,
  setEventOutcome,
  updateAccount,
  upsertInvoice,
} from './queries.ts';
import { nextStatus } from './state.ts';

// Applies one provider event to the account it names (issue 16 §3; docs/billing.md,
// "Webhooks"). Stripe's verified webhooks and the local provider's checkout and portal
// actions both come through here, in one transaction:
// 1. the event id is stored first: an id seen before answers 'duplicate' and changes nothing
//    (two deliveries racing wait on the same key; the second finds it);
// 2. the account is found by the provider's customer id, or by our user id in the metadata;
//    none: recorded 'ignored';
// 3. a subscription event older than the last change applied (state_changed_at) is recorded
//    'stale' and not applied: webhooks may arrive out of order;
// 4. the subscription's new status goes through the state machine (state.ts): a refused
//    transition is recorded 'ignored' with a log line, never an error answer;
// 5. invoices are upserted (history with PDF links), a payment method replaces the card on file.

/** The type of the event made from a provider's direct answer to a change (service.ts). */
export const SYNC_EVENT_TYPE = 'sync.subscription';

export type EventOutcome = 'applied' | 'duplicate' | 'stale' | 'ignored';

const findAccountOf = async (trx: Executor, event: BillingEvent): Promise<BillingAccountRow | undefined> => {
  const byCustomer = event.customerId
    ? await findAccountByCustomer(trx, event.provider, event.customerId)
    : undefined;
  const found = byCustomer ?? (event.userId ? await findBillingAccount(trx, event.userId) : undefined);
  return found ? lockAccount(trx, found.user_id) : undefined;
};

/** Whether the snapshot's customer or subscription id is already another account's (unique keys). */
const heldByAnother = async (
  trx: Executor,
  provider: string,
  userId: string,
  snapshot: SubscriptionSnapshot,
) => {
  const other = await trx
    .selectFrom('billing_accounts')
    .select('user_id')
    .where('provider', '=', provider as 'local' | 'stripe')
    .where('user_id', '<>', userId)
    .where((eb) =>
      eb.or([
        eb('subscription_id', '=', snapshot.subscriptionId),
        ...(snapshot.customerId ? [eb('customer_id', '=', snapshot.customerId)] : []),
      ]),
    )
    .executeTakeFirst();
  return other !== undefined;
};

const json = (value: unknown) => (value === null ? null : JSON.stringify(value));

const applySubscription = async (
  ctx: AppContext,
  trx: Executor,
  event: BillingEvent,
  account: BillingAccountRow,
  snapshot: SubscriptionSnapshot,
  deleted: boolean,
): Promise<'applied' | 'stale' | 'ignored'> => {
  if (account.state_changed_at && event.createdAt.getTime() < new Date(account.state_changed_at).getTime()) {
    return 'stale';
  }
  // An account's subscription at another provider (it moved from local to Stripe) counts as none.
  const current = {
    subscriptionId: account.provider === event.provider ? account.subscription_id : null,
    status: account.status,
  };
  if (await heldByAnother(trx, event.provider, account.user_id, snapshot)) {
    console.warn(
      `kontor: billing event ${event.provider}/${event.id} ignored: its customer or subscription belongs to another account`,
    );
    return 'ignored';
  }
  const reported = deleted ? 'canceled' : snapshot.status;
  const next = nextStatus(current, { subscriptionId: snapshot.subscriptionId, status: reported });
  if (!next.ok) {
    console.warn(`kontor: billing event ${event.provider}/${event.id} ignored: ${next.reason}`);
    return 'ignored';
  }
  await updateAccount(
    trx,
    account.user_id,
    {
      provider: event.provider,
      customer_id: snapshot.customerId || account.customer_id,
      subscription_id: snapshot.subscriptionId,
      status: next.status,
      plan: snapshot.plan,
      interval: snapshot.interval,
      current_period_end: snapshot.currentPeriodEnd,
      cancel_at_period_end: next.status === 'canceled' ? false : snapshot.cancelAtPeriodEnd,
      canceled_at:
        next.status === 'canceled' ? (snapshot.canceledAt ?? event.createdAt) : snapshot.canceledAt,
      ...(snapshot.paymentMethod && { payment_method: json(snapshot.paymentMethod) }),
      // A new subscription used the discount redeemed for it (applied at its checkout).
      ...(next.fresh && { discount_code: null, percent_off: null }),
      // The provider's own events order the state. Applying its answer to a change at once
      // (a "sync", service.ts) does not move that clock: our clock and Stripe's differ, and
      // Stripe stamps its events to the second, so its webhook for the same change (or a
      // later one) must still count as newer. The webhook brings the same snapshot anyway.
      state_changed_at: event.type === SYNC_EVENT_TYPE ? account.state_changed_at : event.createdAt,
    },
    ctx.now(),
  );
  return 'applied';
};

export const applyBillingEvent = (ctx: AppContext, event: BillingEvent): Promise<EventOutcome> =>
  inTransaction(ctx.database.db, async (trx) => {
    const fresh = await insertEvent(trx, {
      provider: event.provider,
      eventId: event.id,
      type: event.type,
      createdAt: event.createdAt,
    });
    if (!fresh) return 'duplicate';
    const account = await findAccountOf(trx, event);
    let outcome: 'applied' | 'stale' | 'ignored' = 'ignored';
    if (account) {
      switch (event.kind) {
        case 'subscription':
        case 'subscription_deleted':
          outcome = await applySubscription(
            ctx,
            trx,
            event,
            account,
            event.subscription,
            event.kind === 'subscription_deleted',
          );
          break;
        case 'invoice':
          await upsertInvoice(trx, event.provider, account.user_id, event.invoice);
          outcome = 'applied';
          break;
        case 'payment_method':
          await updateAccount(trx, account.user_id, { payment_method: json(event.paymentMethod) }, ctx.now());
          outcome = 'applied';
          break;
        default:
          outcome = 'ignored';
      }
    }
    await setEventOutcome(trx, event.provider, event.id, outcome, account?.user_id ?? null);
    return outcome;
  });
