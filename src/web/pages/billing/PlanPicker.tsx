import { Check } from 'lucide-react';
import { useState } from 'react';
import type { BillingOverview } from '../../../shared/billing.ts';
import {
  type BillingInterval,
  PLAN_CURRENCY,
  PLANS,
  type Plan,
  monthlyEquivalent,
  planLimitLines,
  planPrice,
  yearlySaving,
} from '../../../shared/plans.ts';
import { Button } from '../../components/ui/Button.tsx';
import { IntervalToggle } from '../../components/ui/IntervalToggle.tsx';
import { Alert, Badge, Card, CardHeader } from '../../components/ui/Card.tsx';
import { FormDialog } from '../../components/ui/FormDialog.tsx';
import { formatAmount } from '../../lib/format.ts';
import { useAction } from '../../lib/useAction.ts';
import { billingCalls, useBillingChange } from './billingApi.ts';
import { changeKind, planLabel, priceText } from './billingText.ts';
import { useSubscribe } from './PlanSummary.tsx';

// Change plan or interval: the three plans with their prices for the interval chosen by the
// switch. On the trial a choice changes the trial's plan at once; with a subscription it asks
// first (the change is prorated); after the trial without one, a choice goes to checkout.

type Choice = { plan: Plan; interval: BillingInterval };

const ConfirmChange = ({
  overview,
  choice,
  onClose,
  onDone,
}: {
  overview: BillingOverview;
  choice: Choice;
  onClose: () => void;
  onDone: (message: string) => void;
}) => {
  const change = useBillingChange();
  const label = planLabel(choice.plan.id, choice.interval);
  const kind = changeKind(overview, choice.plan.id, choice.interval);
  return (
    <FormDialog
      title={`Change to ${label}?`}
      onClose={onClose}
      submitLabel="Change plan"
      onSubmit={async () => {
        await change(() => billingCalls.change({ plan: choice.plan.id, interval: choice.interval }));
        onDone(`Your plan is now ${label}.`);
        onClose();
      }}
    >
      <div className="space-y-2 text-sm text-slate-700 dark:text-slate-200">
        <p>
          The change takes effect now and is prorated: you pay for {label} for the rest of this period, less
          the unused time on {planLabel(overview.plan, overview.interval)}.
          {kind === 'downgrade'
            ? ' Check that your usage fits the smaller plan: nothing is deleted, but you cannot add more than it allows.'
            : ''}
        </p>
        <p>
          After that: {priceText(choice.plan.id, choice.interval, overview.discount?.percentOff ?? null)}.
        </p>
      </div>
    </FormDialog>
  );
};

export const PlanPicker = ({ overview: o }: { overview: BillingOverview }) => {
  const [interval, setInterval] = useState<BillingInterval>(o.interval);
  const [confirming, setConfirming] = useState<Choice | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const { busyKey, error, run } = useAction();
  const checkout = useSubscribe();
  const change = useBillingChange();
  const onTrial = !o.hasSubscription && o.status === 'trialing';

  const choose = (plan: Plan) => {
    setDone(null);
    if (o.hasSubscription) return setConfirming({ plan, interval });
    if (!onTrial) return void checkout.subscribe(plan.id, interval);
    void run(
      async () => {
        await change(() => billingCalls.change({ plan: plan.id, interval }));
        setDone(`Your trial is now on ${planLabel(plan.id, interval)}.`);
      },
      { key: plan.id },
    );
  };
  const actionLabel = (plan: Plan) =>
    o.hasSubscription
      ? `Switch to ${plan.name}`
      : onTrial
        ? `Choose ${plan.name}`
        : `Subscribe to ${plan.name}`;

  return (
    <Card>
      <CardHeader
        title="Change plan"
        description={
          o.hasSubscription
            ? 'Upgrade or downgrade anytime; the price difference is prorated.'
            : onTrial
              ? 'Try any plan during your free trial. No credit card required.'
              : 'Choose a plan to subscribe. Cancel anytime.'
        }
        actions={<IntervalToggle name="billing-interval" value={interval} onChange={setInterval} />}
      />
      <div className="space-y-4 p-5">
        {done ? <Alert tone="success">{done}</Alert> : null}
        {error || checkout.error ? <Alert>{error ?? checkout.error}</Alert> : null}
        <ul className="grid gap-4 md:grid-cols-3">
          {PLANS.map((plan) => {
            const current = plan.id === o.plan && interval === o.interval && (o.hasSubscription || onTrial);
            return (
              <li
                key={plan.id}
                aria-labelledby={`billing-plan-${plan.id}`}
                className={`flex flex-col rounded-xl border p-4 ${
                  current
                    ? 'border-brand-500 ring-1 ring-brand-500 dark:border-brand-400 dark:ring-brand-400'
                    : 'border-slate-200 dark:border-slate-700'
                }`}
              >
                <div className="flex items-center justify-between gap-2">
                  <h3 id={`billing-plan-${plan.id}`} className="font-semibold text-slate-900 dark:text-white">
                    {plan.name}
                  </h3>
                  {current ? <Badge tone="blue">Current plan</Badge> : null}
                </div>
                <p className="mt-2 text-xl font-bold text-slate-900 dark:text-white">
                  {formatAmount(planPrice(plan, interval), PLAN_CURRENCY)}
                  <span className="text-sm font-normal text-slate-500 dark:text-slate-400">
                    {interval === 'monthly' ? ' a month' : ' a year'}
                  </span>
                </p>
                <p className="min-h-5 text-xs text-slate-500 dark:text-slate-400">
                  {interval === 'yearly'
                    ? `${formatAmount(monthlyEquivalent(plan, interval), PLAN_CURRENCY)} a month, save ${formatAmount(yearlySaving(plan), PLAN_CURRENCY)}`
                    : ''}
                </p>
                <ul className="mt-3 flex-1 space-y-1.5 text-sm text-slate-600 dark:text-slate-300">
                  {planLimitLines(plan).map((line) => (
                    <li key={line} className="flex gap-2">
                      <Check
                        className="mt-0.5 h-4 w-4 shrink-0 text-emerald-600 dark:text-emerald-400"
                        aria-hidden="true"
                      />
                      {line}
                    </li>
                  ))}
                </ul>
                {current ? null : (
                  <Button
                    className="mt-4"
                    variant={plan.highlighted ? 'primary' : 'secondary'}
                    busy={busyKey === plan.id || checkout.busyKey === `${plan.id}-${interval}`}
                    onClick={() => choose(plan)}
                    aria-label={`${actionLabel(plan)} (${interval})`}
                  >
                    {actionLabel(plan)}
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      </div>
      {confirming ? (
        <ConfirmChange
          overview={o}
          choice={confirming}
          onClose={() => setConfirming(null)}
          onDone={setDone}
        />
      ) : null}
    </Card>
  );
};
