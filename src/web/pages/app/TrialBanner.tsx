import { AlertTriangle, Clock } from 'lucide-react';
import { Link } from 'react-router';
import { READ_ONLY_MESSAGE } from '../../../shared/billing.ts';
import { useBillingOverview } from '../billing/billingApi.ts';
import { trialDaysText } from '../billing/billingText.ts';

// The billing state in the app shell's header row (issue 16 §2): the free trial's countdown
// with "Choose a plan", a read-only account's alert (its reason, for screen readers and as a
// tooltip, and a link to Billing), or a failed payment. It sits in the header, which has its
// height whether or not this shows, so appearing after the data loads moves nothing on the
// page. Nothing shows while loading, on an error, or for a paid-up subscription.

const PILL =
  'relative inline-flex min-h-11 min-w-11 shrink-0 items-center justify-center gap-2 rounded-lg px-2 text-sm font-medium whitespace-nowrap focus-visible:outline-2 focus-visible:outline-offset-2 sm:px-3';

/** On a phone the header has room for a few characters: "14d"; the full text is read out. */
const shortDays = (days: number) => (days > 0 ? `${days}d` : 'Today');

export const TrialBanner = () => {
  const { data: o } = useBillingOverview();
  if (!o) return null;
  if (o.access === 'read_only') {
    const reason = o.readOnlyReason ?? READ_ONLY_MESSAGE;
    return (
      <div role="alert" data-testid="billing-banner">
        <Link
          to="/billing"
          title={reason}
          className={`${PILL} bg-red-50 text-red-800 hover:bg-red-100 focus-visible:outline-red-600 dark:bg-red-950/60 dark:text-red-200 dark:hover:bg-red-900/60`}
        >
          <AlertTriangle className="hidden h-4 w-4 shrink-0 sm:block" aria-hidden="true" />
          <span>Read-only</span>
          <span className="sr-only">: {reason}</span>
          <span className="sr-only underline underline-offset-2 md:not-sr-only">Choose a plan</span>
        </Link>
      </div>
    );
  }
  if (o.hasSubscription && (o.status === 'past_due' || o.status === 'unpaid')) {
    return (
      <div role="status" data-testid="billing-banner">
        <Link
          to="/billing"
          className={`${PILL} bg-amber-50 text-amber-900 hover:bg-amber-100 focus-visible:outline-amber-600 dark:bg-amber-950/60 dark:text-amber-200 dark:hover:bg-amber-900/60`}
        >
          <AlertTriangle className="h-4 w-4 shrink-0" aria-hidden="true" />
          <span className="sr-only sm:not-sr-only">Payment failed</span>
          <span className="sr-only md:not-sr-only">— update your card</span>
        </Link>
      </div>
    );
  }
  if (!o.onTrial || o.hasSubscription) return null;
  return (
    <div data-testid="billing-banner">
      <Link
        to="/billing"
        title={`Free trial: ${trialDaysText(o.trialDaysLeft).toLowerCase()}`}
        className={`${PILL} bg-brand-50 text-brand-800 hover:bg-brand-100 focus-visible:outline-brand-600 dark:bg-brand-950/60 dark:text-brand-200 dark:hover:bg-brand-900/60`}
      >
        <Clock className="hidden h-4 w-4 shrink-0 sm:block" aria-hidden="true" />
        <span aria-hidden="true" className="sm:hidden">
          {shortDays(o.trialDaysLeft)}
        </span>
        <span className="sr-only sm:not-sr-only">
          <span className="sr-only lg:not-sr-only">Free trial: </span>
          {trialDaysText(o.trialDaysLeft)}
          <span className="sr-only lg:not-sr-only">
            {' — '}
            <span className="underline underline-offset-2">Choose a plan</span>
          </span>
        </span>
      </Link>
    </div>
  );
};
