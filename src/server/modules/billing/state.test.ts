import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from '../../../shared/billing.ts';
import { canTransition, foldStatus, nextStatus, providerStatus } from './state.ts';

// The subscription state machine: every (from, to) pair against the table written out here,
// and properties over random event sequences.

const ALLOWED: Record<SubscriptionStatus, SubscriptionStatus[]> = {
  trialing: ['trialing', 'active', 'past_due', 'canceled', 'incomplete'],
  incomplete: ['incomplete', 'active', 'canceled'],
  active: ['active', 'past_due', 'canceled', 'unpaid'],
  past_due: ['past_due', 'active', 'canceled', 'unpaid'],
  unpaid: ['unpaid', 'active', 'canceled'],
  canceled: ['canceled'],
};

describe('subscription state machine', () => {
  const pairs = SUBSCRIPTION_STATUSES.flatMap((from) =>
    SUBSCRIPTION_STATUSES.map((to) => [from, to] as const),
  );

  it.each(pairs)('%s -> %s on the same subscription follows the table', (from, to) => {
    const allowed = ALLOWED[from].includes(to);
    expect(canTransition(from, to)).toBe(allowed);
    const result = nextStatus(
      { subscriptionId: 'sub_1', status: from },
      { subscriptionId: 'sub_1', status: to },
    );
    expect(result.ok).toBe(allowed);
    if (result.ok) expect(result).toEqual({ ok: true, status: to, fresh: false });
    else expect(result.reason).toContain(`from ${from} to ${to}`);
  });

  it.each(SUBSCRIPTION_STATUSES)('a first subscription may start in %s', (to) => {
    expect(
      nextStatus({ subscriptionId: null, status: 'trialing' }, { subscriptionId: 'sub_1', status: to }),
    ).toEqual({ ok: true, status: to, fresh: true });
  });

  it('starts a new subscription id fresh after the old one was canceled', () => {
    expect(
      nextStatus(
        { subscriptionId: 'sub_1', status: 'canceled' },
        { subscriptionId: 'sub_2', status: 'active' },
      ),
    ).toEqual({
      ok: true,
      status: 'active',
      fresh: true,
    });
  });

  it("refuses an old subscription's cancellation while a newer one is live", () => {
    const result = nextStatus(
      { subscriptionId: 'sub_2', status: 'active' },
      { subscriptionId: 'sub_1', status: 'canceled' },
    );
    expect(result.ok).toBe(false);
  });

  it("maps Stripe's statuses, incomplete_expired to canceled", () => {
    expect(providerStatus('incomplete_expired')).toBe('canceled');
    expect(providerStatus('active')).toBe('active');
    expect(providerStatus('past_due')).toBe('past_due');
    expect(providerStatus('something_new')).toBeNull();
  });

  const status = fc.constantFrom(...SUBSCRIPTION_STATUSES);
  const event = fc.record({ subscriptionId: fc.constantFrom('sub_a', 'sub_b', 'sub_c'), status });

  it('keeps any event sequence in the set of statuses, each step along an allowed edge', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 40 }), (events) => {
        let position = { subscriptionId: null as string | null, status: 'trialing' as SubscriptionStatus };
        for (const e of events) {
          const next = foldStatus(position, [e]);
          expect(SUBSCRIPTION_STATUSES).toContain(next.status);
          if (next.subscriptionId === position.subscriptionId && next.status !== position.status)
            expect(ALLOWED[position.status]).toContain(next.status);
          position = next;
        }
      }),
    );
  });

  it('never leaves canceled for the same subscription id', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 40 }), (events) => {
        let position = { subscriptionId: null as string | null, status: 'trialing' as SubscriptionStatus };
        for (const e of events) {
          const next = foldStatus(position, [e]);
          if (position.status === 'canceled' && next.subscriptionId === position.subscriptionId)
            expect(next.status).toBe('canceled');
          position = next;
        }
      }),
    );
  });

  it('applies the same report twice as once (a replayed event changes nothing more)', () => {
    fc.assert(
      fc.property(fc.array(event, { maxLength: 30 }), (events) => {
        const start = { subscriptionId: null, status: 'trialing' as SubscriptionStatus };
        expect(
          foldStatus(
            start,
            events.flatMap((e) => [e, e]),
          ),
        ).toEqual(foldStatus(start, events));
      }),
    );
  });
});
