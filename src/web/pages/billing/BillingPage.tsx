import { useQueryClient } from '@tanstack/react-query';
import { useDeferredValue, useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { type BillingOverview, READ_ONLY_MESSAGE } from '../../../shared/billing.ts';
import { Alert, ErrorState } from '../../components/ui/Card.tsx';
import { LoadingState } from '../../components/ui/ListCard.tsx';
import { PageHeader } from '../../components/ui/PageHeader.tsx';
import { PageTabs, tabFrom } from '../../components/ui/Tabs.tsx';
import { errorText } from '../../lib/api.ts';
import { invalidateAfter } from '../../lib/queryKeys.ts';
import { useBillingOverview } from './billingApi.ts';
import { LocalCheckoutView } from './LocalCheckout.tsx';
import { CardUpdateCard, InvoicesCard, PaymentMethodCard } from './PaymentCards.tsx';
import { PlanPicker } from './PlanPicker.tsx';
import { PlanSummary } from './PlanSummary.tsx';
import { PromoCard, UsageCard } from './UsageCard.tsx';

// /billing (issue 16 §6; docs/billing.md): the signed-in user's plan, trial, usage, plan
// change, cancel or resume, payment method, invoices and promo code. `?tab=payment` is the
// local provider's stand-in for Stripe's Customer Portal (card, invoices, cancel);
// `?checkout=<id>` its stand-in for Stripe Checkout. Stripe sends the browser back with
// `?subscribed=1` (paid) or `?checkout=canceled`.

const TABS = [
  { id: 'overview', label: 'Overview' },
  { id: 'payment', label: 'Payment and invoices' },
] as const;

const Overview = ({ overview }: { overview: BillingOverview }) => (
  <div className="space-y-6">
    <div className="grid gap-6 lg:grid-cols-3">
      <PlanSummary overview={overview} />
      <PaymentMethodCard overview={overview} />
    </div>
    <div className="grid gap-6 lg:grid-cols-3">
      <div className="lg:col-span-2">
        <UsageCard overview={overview} />
      </div>
      <PromoCard />
    </div>
    <PlanPicker overview={overview} />
    <InvoicesCard provider={overview.provider} />
  </div>
);

const Payment = ({ overview }: { overview: BillingOverview }) => (
  <div className="space-y-6">
    <div className="grid gap-6 lg:grid-cols-3">
      <PlanSummary overview={overview} />
      <CardUpdateCard overview={overview} />
    </div>
    <InvoicesCard provider={overview.provider} />
  </div>
);

/** What the provider's return to /billing says (Stripe Checkout's success and cancel addresses). */
const ReturnNotice = ({ subscribed, canceled }: { subscribed: boolean; canceled: boolean }) => {
  const client = useQueryClient();
  // Stripe's webhook may land a moment after the browser: look again shortly.
  useEffect(() => {
    if (!subscribed) return;
    const timer = window.setTimeout(() => void invalidateAfter.billing(client), 3000);
    return () => window.clearTimeout(timer);
  }, [subscribed, client]);
  if (subscribed)
    return (
      <Alert tone="success">Thank you: your payment went through and your subscription is starting.</Alert>
    );
  if (canceled) return <Alert tone="info">Checkout canceled: nothing was charged.</Alert>;
  return null;
};

const BillingPage = () => {
  const [params, setParams] = useSearchParams();
  const checkout = params.get('checkout');
  // Drawn in a deferred render (slices of a few milliseconds) rather than one long task as the
  // answer arrives; the whole result is deferred, so its loading state and data agree.
  const overview = useDeferredValue(useBillingOverview());
  if (checkout && checkout !== 'canceled') return <LocalCheckoutView id={checkout} />;
  const tab = tabFrom(TABS, params.get('tab'), 'overview');
  let body: React.ReactNode;
  if (overview.isPending) body = <LoadingState label="Loading your plan..." />;
  else if (overview.error)
    body = (
      <ErrorState
        message={`Could not load your plan. ${errorText(overview.error)}`}
        onRetry={() => void overview.refetch()}
      />
    );
  else {
    const o = overview.data;
    body = (
      <PageTabs
        label="Billing sections"
        tabs={[
          { ...TABS[0], panel: <Overview overview={o} /> },
          { ...TABS[1], panel: <Payment overview={o} /> },
        ]}
        value={tab}
        onValueChange={(v) => setParams({ tab: v }, { replace: true })}
      />
    );
  }
  const readOnly =
    overview.data?.access === 'read_only' ? (overview.data.readOnlyReason ?? READ_ONLY_MESSAGE) : null;
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <PageHeader title="Billing" description="Your plan, usage, payment method and invoices." />
      <ReturnNotice subscribed={params.get('subscribed') === '1'} canceled={checkout === 'canceled'} />
      {readOnly ? <Alert>{readOnly}</Alert> : null}
      {body}
    </div>
  );
};

export default BillingPage;
