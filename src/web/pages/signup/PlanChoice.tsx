import { Sparkles } from 'lucide-react';
import { useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import {
  BILLING_INTERVALS,
  type BillingInterval,
  PLAN_CHOICE_STORAGE_KEY,
  PLANS,
  type PlanChoice,
  type PlanId,
  TRIAL_DAYS,
  findPlan,
  parsePlanChoice,
} from '../../../shared/plans.ts';
import { SelectField } from '../../components/ui/Field.tsx';
import { LINK } from '../../auth/ui.tsx';
import { useHydrated } from '../../lib/useHydrated.ts';

// The plan the trial starts on (issue 16 §2): chosen on /pricing, it arrives in the query
// string (?plan=business&interval=yearly) or from local storage; without one the trial is on
// Business, monthly (the server's default too). Sign-up sends it in its body.

export const DEFAULT_PLAN_CHOICE: PlanChoice = { plan: 'business', interval: 'monthly' };

const stored = (): string | null => {
  try {
    return localStorage.getItem(PLAN_CHOICE_STORAGE_KEY);
  } catch {
    return null;
  }
};

const store = (choice: PlanChoice) => {
  try {
    localStorage.setItem(PLAN_CHOICE_STORAGE_KEY, JSON.stringify(choice));
  } catch {
    // storage unavailable: the choice still goes with the sign-up
  }
};

export const usePlanChoice = () => {
  const [params] = useSearchParams();
  // The prerendered page (and so its hydration) shows the default plan; the plan from the
  // address or from storage follows as soon as the page is hydrated.
  const hydrated = useHydrated();
  const [chosen, setChosen] = useState<PlanChoice | null>(null);
  const choice =
    chosen ??
    (hydrated
      ? (parsePlanChoice(params) ?? parsePlanChoice(stored()) ?? DEFAULT_PLAN_CHOICE)
      : DEFAULT_PLAN_CHOICE);
  const change = (next: PlanChoice) => {
    setChosen(next);
    store(next);
  };
  return { choice, change };
};

export const planChoiceText = (choice: PlanChoice) =>
  `Starting a ${TRIAL_DAYS}-day free trial of ${findPlan(choice.plan).name} (${choice.interval})`;

export const PlanChoiceNote = ({
  choice,
  onChange,
}: {
  choice: PlanChoice;
  onChange: (choice: PlanChoice) => void;
}) => {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <div className="rounded-xl border border-brand-200 bg-brand-50 px-4 pt-3 text-sm text-brand-900 dark:border-brand-900 dark:bg-brand-950/50 dark:text-brand-100">
      <div className="flex items-start gap-2">
        <Sparkles className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
        <div className="min-w-0 flex-1">
          <p className="font-medium" data-testid="signup-plan" aria-live="polite">
            {planChoiceText(choice)}
          </p>
          <button
            type="button"
            aria-expanded={open}
            aria-controls={open ? id : undefined}
            onClick={() => setOpen((o) => !o)}
            className={`${LINK} min-h-11 text-sm`}
          >
            {open ? 'Done' : 'Change plan'}
          </button>
        </div>
      </div>
      {open ? (
        <div id={id} className="grid gap-3 pb-4 sm:grid-cols-2">
          <SelectField
            label="Plan"
            value={choice.plan}
            onChange={(e) => onChange({ ...choice, plan: e.target.value as PlanId })}
            options={PLANS.map((p) => ({ value: p.id, label: p.name }))}
          />
          <SelectField
            label="Billing"
            value={choice.interval}
            onChange={(e) => onChange({ ...choice, interval: e.target.value as BillingInterval })}
            options={BILLING_INTERVALS.map((i) => ({
              value: i,
              label: i === 'monthly' ? 'Monthly' : 'Yearly',
            }))}
          />
        </div>
      ) : null}
    </div>
  );
};
