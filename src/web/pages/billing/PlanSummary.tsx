import { useState } from 'react';
import type { BillingOverview } from '../../../shared/billing.ts';
import { TRIAL_DAYS, findPlan } from '../../../shared/plans.ts';
import { Button } from '../../components/ui/Button.tsx';
import { Alert, Badge, Card, CardHeader } from '../../components/ui/Card.tsx';
import { FormDialog } from '../../components/ui/FormDialog.tsx';
import { formatDate } from '../../lib/format.ts';
import { useAction } from '../../lib/useAction.ts';
import { billingCalls, goTo, useBillingChange } from './billingApi.ts';
import { INTERVAL_LABELS, planStatusLine, priceText, statusChip, trialDaysText } from './billingText.ts';

// The current plan: its name, interval and price, the status chip, the trial's days left or
// the period's end, and what to do now: Subscribe (a checkout), Cancel (at the period's end,
// confirmed) or Resume.

const CancelDialog = ({ overview, onClose }: { overview: BillingOverview; onClose: () => void }) => {
  const change = useBillingChange();
  const until = overview.currentPeriodEnd ? formatDate(overview.currentPeriodEnd) : 'the end of this period';
  return (
    <FormDialog
      title="Cancel your plan?"
      onClose={onClose}
      submitLabel="Cancel plan"
      submitVariant="danger"
      cancelLabel="Keep my plan"
      onSubmit={async () => {
        await change(billingCalls.cancel);
        onClose();
      }}
    >
      <p className="text-sm text-slate-700 dark:text-slate-200">
        Your plan stays active until {until}. After that your account becomes read-only: your data is kept and
        exports still work. You can resume the plan until then.
      </p>
    </FormDialog>
  );
};

export const useSubscribe = () => {
  const action = useAction();
  const subscribe = (plan: BillingOverview['plan'], interval: BillingOverview['interval']) =>
    action.run(async () => goTo((await billingCalls.checkout({ plan, interval })).url), {
      key: `${plan}-${interval}`,
    });
  return { ...action, subscribe };
};

export const PlanSummary = ({ overview: o }: { overview: BillingOverview }) => {
  const [canceling, setCanceling] = useState(false);
  const { busy, error, run } = useAction();
  const checkout = useSubscribe();
  const change = useBillingChange();
  const chip = statusChip(o);
  const plan = findPlan(o.plan);
  const subscribeShown = !o.hasSubscription;
  return (
    <Card className="lg:col-span-2">
      <CardHeader title="Current plan" />
      <div className="space-y-4 p-5">
        <div className="flex flex-wrap items-center gap-3">
          <p className="text-2xl font-bold text-slate-900 dark:text-white" data-testid="billing-plan">
            {plan.name}
          </p>
          <Badge tone="slate">{INTERVAL_LABELS[o.interval]}</Badge>
          <span data-testid="billing-status">
            <Badge tone={chip.tone}>{chip.label}</Badge>
          </span>
          {o.onTrial && !o.hasSubscription ? (
            <span data-testid="billing-trial-left">
              <Badge tone="blue">{trialDaysText(o.trialDaysLeft)}</Badge>
            </span>
          ) : null}
        </div>
        <p className="text-sm text-slate-600 dark:text-slate-300">
          {priceText(o.plan, o.interval, o.discount?.percentOff ?? null)}
          {o.discount ? ` with promo code ${o.discount.code} (${o.discount.percentOff}% off)` : ''}
          {o.onTrial && !o.hasSubscription ? ' after your trial' : ''}
        </p>
        <p className="text-sm text-slate-700 dark:text-slate-200" data-testid="billing-status-line">
          {planStatusLine(o)}
        </p>
        {o.grantedPlan && o.grantedUntil ? (
          <p className="text-sm text-slate-600 dark:text-slate-300">
            A promo code gives you {findPlan(o.grantedPlan).name} until {formatDate(o.grantedUntil)}.
          </p>
        ) : o.grantedPlan ? (
          <p className="text-sm text-slate-600 dark:text-slate-300">
            A promo code gives you {findPlan(o.grantedPlan).name}.
          </p>
        ) : null}
        {error || checkout.error ? <Alert>{error ?? checkout.error}</Alert> : null}
        <div className="flex flex-wrap items-center gap-2">
          {subscribeShown ? (
            <>
              <Button busy={checkout.busy} onClick={() => void checkout.subscribe(o.plan, o.interval)}>
                Subscribe to {plan.name}
              </Button>
              <p className="text-sm text-slate-500 dark:text-slate-400">
                {o.onTrial
                  ? `Your ${TRIAL_DAYS}-day free trial needs no credit card. Cancel anytime.`
                  : 'Cancel anytime.'}
              </p>
            </>
          ) : o.cancelAtPeriodEnd ? (
            <Button busy={busy} onClick={() => void run(() => change(billingCalls.resume))}>
              Resume plan
            </Button>
          ) : (
            <Button variant="secondary" onClick={() => setCanceling(true)}>
              Cancel plan
            </Button>
          )}
        </div>
      </div>
      {canceling ? <CancelDialog overview={o} onClose={() => setCanceling(false)} /> : null}
    </Card>
  );
};
