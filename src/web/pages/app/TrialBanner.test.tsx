import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { BillingOverview } from '../../../shared/billing.ts';
import { keys } from '../../lib/queryKeys.ts';
import { TrialBanner } from './TrialBanner.tsx';

// The app shell's billing banner for each state of the account: the trial's countdown, the
// read-only alert with its reason, a failed payment, and nothing for a paid-up subscription.

const base: BillingOverview = {
  plan: 'business',
  interval: 'yearly',
  status: 'trialing',
  provider: 'local',
  access: 'full',
  readOnlyReason: null,
  onTrial: true,
  trialEndsAt: '2026-12-12T10:00:00.000Z',
  trialDaysLeft: 14,
  hasSubscription: false,
  currentPeriodEnd: null,
  cancelAtPeriodEnd: false,
  paymentMethod: null,
  grantedPlan: null,
  grantedUntil: null,
  discount: null,
  usage: [],
};

const render = (overview: BillingOverview | null) => {
  const client = new QueryClient({ defaultOptions: { queries: { enabled: false } } });
  if (overview) client.setQueryData(keys.billing('overview'), overview);
  const router = createMemoryRouter([{ path: '/', element: <TrialBanner /> }]);
  return renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
};

describe('TrialBanner', () => {
  it('counts the trial down with a link to billing', () => {
    const html = render(base);
    expect(html).toContain('href="/billing"');
    expect(html).toContain('Free trial: ');
    expect(html).toContain('14 days left');
    expect(html).toContain('Choose a plan');
    expect(html).not.toContain('role="alert"');
    expect(render({ ...base, trialDaysLeft: 1 })).toContain('1 day left');
  });

  it('alerts a read-only account with its reason', () => {
    const html = render({
      ...base,
      onTrial: false,
      trialDaysLeft: 0,
      access: 'read_only',
      readOnlyReason: 'Your free trial has ended.',
    });
    expect(html).toContain('role="alert"');
    expect(html).toContain('Read-only');
    expect(html).toContain('Your free trial has ended.');
    expect(html).toContain('href="/billing"');
  });

  it('tells of a failed payment, and shows nothing for a paid-up plan or before the data', () => {
    const active = { ...base, status: 'active' as const, onTrial: false, hasSubscription: true };
    expect(render({ ...active, status: 'past_due' })).toContain('Payment failed');
    expect(render(active)).toBe('');
    expect(render(null)).toBe('');
  });
});
