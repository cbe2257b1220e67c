import { Check } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import {
  type BillingInterval,
  PLAN_CHOICE_STORAGE_KEY,
  PLAN_CURRENCY,
  PLANS,
  type Plan,
  TRIAL_DAYS,
  planLimitLines,
  monthlyEquivalent,
  planChoiceQuery,
  planPrice,
  yearlySaving,
} from '../../../shared/plans.ts';
import { SiteLayout } from '../../components/site/SiteLayout.tsx';
import { IntervalToggle } from '../../components/ui/IntervalToggle.tsx';
import { formatPrice } from '../../lib/format.ts';

// /pricing: the three plans from the shared plans module with a monthly/yearly switch.
// Subscribe goes to sign-up with the plan remembered (query string and local storage);
// charging happens in billing after the account exists.

const money = (cents: number) => formatPrice(cents, PLAN_CURRENCY);

const PlanCard = ({
  plan,
  interval,
  onChoose,
}: {
  plan: Plan;
  interval: BillingInterval;
  onChoose: () => void;
}) => {
  const perMonth = monthlyEquivalent(plan, interval);
  const featured = plan.highlighted;
  return (
    <article
      aria-labelledby={`plan-${plan.id}`}
      data-plan={plan.id}
      className={`relative flex flex-col rounded-3xl p-8 ${
        featured
          ? 'bg-slate-950 text-white shadow-2xl ring-2 ring-brand-500 dark:bg-slate-900'
          : 'border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900/60'
      }`}
    >
      {featured ? (
        <p className="absolute -top-3 left-8 rounded-full bg-brand-600 px-3 py-1 text-xs font-semibold text-white">
          Most popular
        </p>
      ) : null}
      <h2
        id={`plan-${plan.id}`}
        className={`text-lg font-semibold ${featured ? 'text-white' : 'text-slate-950 dark:text-white'}`}
      >
        {plan.name}
      </h2>
      <p
        className={`mt-2 text-sm leading-6 ${featured ? 'text-slate-300' : 'text-slate-600 dark:text-slate-300'}`}
      >
        {plan.tagline}
      </p>
      <p className="mt-6 flex items-baseline gap-1">
        <span className="text-4xl font-bold tracking-tight" data-testid={`price-${plan.id}`}>
          {money(perMonth)}
        </span>
        <span className={`text-sm ${featured ? 'text-slate-300' : 'text-slate-600 dark:text-slate-400'}`}>
          /month
        </span>
      </p>
      <p
        className={`mt-1 min-h-5 text-sm ${featured ? 'text-slate-300' : 'text-slate-600 dark:text-slate-400'}`}
      >
        {interval === 'yearly'
          ? `${money(planPrice(plan, 'yearly'))} billed yearly — save ${money(yearlySaving(plan))}`
          : 'Billed monthly'}
      </p>
      <button
        type="button"
        onClick={onChoose}
        className={`mt-6 inline-flex min-h-12 items-center justify-center rounded-xl px-5 font-semibold transition ${
          featured
            ? 'bg-brand-600 text-white hover:bg-brand-700'
            : 'bg-slate-950 text-white hover:bg-slate-800 dark:bg-white dark:text-slate-950 dark:hover:bg-slate-200'
        }`}
      >
        Subscribe to {plan.name}
      </button>
      <ul
        className={`mt-8 space-y-3 text-sm ${featured ? 'text-slate-200' : 'text-slate-700 dark:text-slate-300'}`}
      >
        {[...planLimitLines(plan), ...plan.features].map((item) => (
          <li key={item} className="flex gap-2.5">
            <Check
              aria-hidden="true"
              className={`mt-0.5 size-4 shrink-0 ${featured ? 'text-brand-300' : 'text-emerald-600 dark:text-emerald-400'}`}
            />
            {item}
          </li>
        ))}
      </ul>
    </article>
  );
};

const PricingPage = () => {
  const [interval, setInterval] = useState<BillingInterval>('monthly');
  const navigate = useNavigate();
  const choose = (plan: Plan) => {
    const choice = { plan: plan.id, interval };
    try {
      localStorage.setItem(PLAN_CHOICE_STORAGE_KEY, JSON.stringify(choice));
    } catch {
      // storage unavailable: the query string still carries the choice
    }
    navigate(`/signup?${planChoiceQuery(choice)}`);
  };
  return (
    <SiteLayout>
      <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6 sm:py-24 lg:px-8">
        <div className="mx-auto max-w-2xl text-center">
          <p className="text-sm font-semibold tracking-wide text-brand-700 uppercase dark:text-brand-300">
            Pricing
          </p>
          <h1 className="mt-3 text-4xl font-bold tracking-tight text-balance text-slate-950 sm:text-5xl dark:text-white">
            Simple plans that grow with you
          </h1>
          <p className="mt-4 text-lg text-slate-600 dark:text-slate-300">
            Every plan starts with a {TRIAL_DAYS}-day free trial. No credit card required, cancel anytime.
          </p>
        </div>
        <div className="mt-10 flex justify-center">
          <IntervalToggle name="interval" value={interval} onChange={setInterval} />
        </div>
        <div className="mt-12 grid gap-8 lg:grid-cols-3 lg:items-start">
          {PLANS.map((plan) => (
            <PlanCard key={plan.id} plan={plan} interval={interval} onChoose={() => choose(plan)} />
          ))}
        </div>
        <p className="mt-10 text-center text-sm text-slate-600 dark:text-slate-400">
          Prices in US dollars, excluding applicable taxes. You choose a plan now and confirm payment in
          Billing after your trial starts.
        </p>
      </div>
    </SiteLayout>
  );
};

export default PricingPage;
