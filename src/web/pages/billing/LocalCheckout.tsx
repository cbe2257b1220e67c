import { CheckCircle2, Lock, ShieldCheck } from 'lucide-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { LocalCheckout } from '../../../shared/billing.ts';
import { Button, buttonClasses } from '../../components/ui/Button.tsx';
import { Alert, Card, ErrorState } from '../../components/ui/Card.tsx';
import { PageHeader } from '../../components/ui/PageHeader.tsx';
import { Form } from '../../components/ui/Form.tsx';
import { LoadingState } from '../../components/ui/ListCard.tsx';
import { errorText } from '../../lib/api.ts';
import { formatAmount } from '../../lib/format.ts';
import { useAction } from '../../lib/useAction.ts';
import { billingCalls, useBillingChange, useCheckoutSession } from './billingApi.ts';
import { CardFields, TestCardsNote, useCardForm } from './CardFields.tsx';
import { planLabel } from './billingText.ts';

// The local provider's checkout (/billing?checkout=<id>), its stand-in for Stripe Checkout:
// the plan and the amount, a card form, then paid (back to billing), declined (the reason, try
// again) or "Authenticate this payment" (Approve / Fail), as Stripe's 3-D Secure test cards do.

const Summary = ({ checkout }: { checkout: LocalCheckout }) => (
  <dl className="grid grid-cols-[1fr_auto] gap-y-1 rounded-lg bg-slate-50 px-4 py-3 text-sm dark:bg-slate-800/60">
    <dt className="text-slate-600 dark:text-slate-300">Plan</dt>
    <dd className="text-right font-medium text-slate-900 dark:text-white" data-testid="checkout-plan">
      {planLabel(checkout.plan, checkout.interval)}
    </dd>
    {checkout.percentOff ? (
      <>
        <dt className="text-slate-600 dark:text-slate-300">Discount</dt>
        <dd className="text-right text-emerald-700 dark:text-emerald-300">{checkout.percentOff}% off</dd>
      </>
    ) : null}
    <dt className="font-semibold text-slate-900 dark:text-white">Due today</dt>
    <dd
      className="text-right text-base font-semibold text-slate-900 dark:text-white"
      data-testid="checkout-amount"
    >
      {formatAmount(checkout.amount, checkout.currency)}
    </dd>
  </dl>
);

const Authenticate = ({
  checkout,
  onDone,
}: {
  checkout: LocalCheckout;
  onDone: (next: LocalCheckout) => void;
}) => {
  const { busyKey, error, run } = useAction();
  const change = useBillingChange();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  const answer = (approve: boolean) =>
    run(async () => onDone(await change(() => billingCalls.authenticate(checkout.id, approve))), {
      key: approve ? 'approve' : 'fail',
    });
  return (
    <div className="space-y-4">
      <div className="flex items-start gap-3">
        <ShieldCheck
          className="mt-0.5 h-6 w-6 shrink-0 text-brand-600 dark:text-brand-300"
          aria-hidden="true"
        />
        <div>
          <h3
            ref={headingRef}
            tabIndex={-1}
            className="text-base font-semibold text-slate-900 outline-none dark:text-white"
          >
            Authenticate this payment
          </h3>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
            Your bank asks you to confirm the payment of {formatAmount(checkout.amount, checkout.currency)}.
            In test mode, choose how the bank answers.
          </p>
        </div>
      </div>
      {error ? <Alert>{error}</Alert> : null}
      <div className="flex flex-wrap gap-2">
        <Button busy={busyKey === 'approve'} onClick={() => void answer(true)}>
          Approve
        </Button>
        <Button variant="secondary" busy={busyKey === 'fail'} onClick={() => void answer(false)}>
          Fail
        </Button>
      </div>
    </div>
  );
};

const Paid = ({ checkout }: { checkout: LocalCheckout }) => {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <div ref={ref} tabIndex={-1} role="status" className="space-y-4 outline-none">
      <div className="flex items-start gap-3">
        <CheckCircle2
          className="mt-0.5 h-6 w-6 shrink-0 text-emerald-600 dark:text-emerald-400"
          aria-hidden="true"
        />
        <div>
          <p className="text-base font-semibold text-slate-900 dark:text-white">Payment complete</p>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-300">
            You are subscribed to {planLabel(checkout.plan, checkout.interval)}. Your invoice is in Billing.
          </p>
        </div>
      </div>
      <Link to="/billing" replace className={buttonClasses('primary')}>
        Back to billing
      </Link>
    </div>
  );
};

const PayForm = ({
  checkout,
  onDone,
}: {
  checkout: LocalCheckout;
  onDone: (next: LocalCheckout) => void;
}) => {
  const card = useCardForm();
  const change = useBillingChange();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const failure = checkout.status === 'failed' ? checkout.failure : null;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const input = card.parse();
    if (!input) return;
    setBusy(true);
    setProblem(null);
    try {
      onDone(await change(() => billingCalls.pay(checkout.id, input)));
    } catch (err) {
      setProblem(errorText(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Form
      onSubmit={submit}
      error={problem ?? failure}
      busy={busy}
      submitLabel={
        <>
          <Lock className="h-4 w-4" aria-hidden="true" /> Pay{' '}
          {formatAmount(checkout.amount, checkout.currency)}
        </>
      }
    >
      <CardFields form={card} autoFocus />
      <TestCardsNote />
    </Form>
  );
};

export const LocalCheckoutView = ({ id }: { id: string }) => {
  const session = useCheckoutSession(id);
  const [latest, setLatest] = useState<LocalCheckout | null>(null);
  const checkout = latest ?? session.data ?? null;
  let body: React.ReactNode;
  if (session.isPending) body = <LoadingState label="Loading the checkout..." />;
  else if (!checkout)
    body = (
      <ErrorState
        message={`Could not load this checkout. ${errorText(session.error)}`}
        onRetry={() => void session.refetch()}
      />
    );
  else if (checkout.status === 'complete') body = <Paid checkout={checkout} />;
  else if (checkout.status === 'expired')
    body = (
      <Alert tone="warning">This checkout has expired. Go back to billing and choose Subscribe again.</Alert>
    );
  else if (checkout.status === 'requires_action')
    body = <Authenticate checkout={checkout} onDone={setLatest} />;
  else
    body = (
      <PayForm
        key={checkout.status === 'failed' ? `failed-${checkout.failure}` : 'open'}
        checkout={checkout}
        onDone={setLatest}
      />
    );
  return (
    <div className="mx-auto max-w-lg space-y-6">
      <PageHeader
        title="Checkout"
        description="Subscribe with a card. Cancel anytime."
        actions={
          checkout?.status === 'complete' ? null : (
            <Link
              to="/billing"
              className="inline-flex min-h-11 items-center text-sm font-medium text-brand-700 hover:underline dark:text-brand-300"
            >
              Back to billing
            </Link>
          )
        }
      />
      <Card>
        <div className="space-y-5 p-5">
          {checkout ? <Summary checkout={checkout} /> : null}
          {body}
        </div>
      </Card>
    </div>
  );
};
