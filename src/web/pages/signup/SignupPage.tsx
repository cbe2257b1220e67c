import { ReadyForm } from '../../components/ui/ReadyForm.tsx';
import { Gift, X } from 'lucide-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import {
  MESSAGES,
  isValidEmail,
  isValidName,
  normalizeEmail,
  normalizePromoCode,
  validateSignup,
} from '../../../shared/auth/rules.ts';
import { useAuth } from '../../auth/AuthProvider.tsx';
import {
  AuthField,
  AuthLayout,
  FormError,
  LINK,
  PasswordField,
  StrengthMeter,
  SubmitButton,
} from '../../auth/ui.tsx';
import { capitalise, usePromoCheck } from './usePromoCheck.ts';
import { PlanChoiceNote, usePlanChoice } from './PlanChoice.tsx';
import { BUTTON_LINK } from '../../components/ui/Button.tsx';
import { Alert } from '../../components/ui/Card.tsx';

// /signup (SPEC sections 2, 4, 5, 7). After the account exists, a promo code that was
// checked valid is redeemed with the new user's bearer token; a failed redemption is only
// logged and never blocks sign-up. The plan chosen on /pricing goes with the sign-up and the
// 14-day trial starts on it (PlanChoice.tsx).

const redeemPromo = async (code: string, token: string | null) => {
  try {
    const response = await fetch('/api/promo-codes/redeem', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ code }),
    });
    const answer = (await response.json().catch(() => ({}))) as { success?: boolean; error?: unknown };
    if (!response.ok || !answer.success)
      console.warn('kontor: promo code redemption failed', answer.error ?? response.status);
  } catch (error) {
    console.warn('kontor: promo code redemption failed', error);
  }
};

const SignupPage = () => {
  const { signup, isAuthenticated, error: authError, clearError } = useAuth();
  const navigate = useNavigate();
  const [form, setForm] = useState({
    firstName: '',
    lastName: '',
    email: '',
    password: '',
    confirmPassword: '',
    promoCode: '',
  });
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const [showPromo, setShowPromo] = useState(false);
  const [busy, setBusy] = useState(false);
  const [localError, setLocalError] = useState<string | null>(null);
  const [checkInbox, setCheckInbox] = useState<string | null>(null);
  const promoRef = useRef<HTMLInputElement>(null);
  const inboxRef = useRef<HTMLDivElement>(null);
  const promo = usePromoCheck(showPromo ? form.promoCode : '');
  const plan = usePlanChoice();

  useEffect(() => {
    clearError();
  }, [clearError]);

  const message = localError ?? authError;

  useEffect(() => {
    if (showPromo) promoRef.current?.focus();
  }, [showPromo]);

  // The form (and the focused button) is gone: move focus to the message that replaced it.
  useEffect(() => {
    if (checkInbox) inboxRef.current?.focus();
  }, [checkInbox]);

  if (isAuthenticated && !busy) return <Navigate to="/dashboard" replace />;

  if (checkInbox) {
    return (
      <AuthLayout title="Check your inbox" subtitle={`We sent an email to ${checkInbox}.`}>
        <div
          ref={inboxRef}
          tabIndex={-1}
          role="status"
          data-testid="signup-check-inbox"
          className="space-y-4 text-sm text-slate-700 outline-none [overflow-wrap:anywhere] dark:text-slate-300"
        >
          <p>Open it and follow its instructions to continue.</p>
          <p>
            If this address already has a Kontor account, sign in instead. Forgot the password? Choose "Forgot
            your password?" on the sign-in page.
          </p>
        </div>
        <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <Link to="/login" className={BUTTON_LINK}>
            Go to sign in
          </Link>
          <button type="button" onClick={() => setCheckInbox(null)} className={`min-h-11 text-sm ${LINK}`}>
            Use a different email address
          </button>
        </div>
      </AuthLayout>
    );
  }

  const set = (field: keyof typeof form, value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    setTouched((t) => ({ ...t, [field]: true }));
    setLocalError(null);
    clearError();
  };

  const nameStatus = (field: 'firstName' | 'lastName') =>
    touched[field] ? (isValidName(form[field]) ? 'valid' : 'invalid') : 'none';
  const emailValid = isValidEmail(form.email);
  const emailStatus = touched.email ? (emailValid ? 'valid' : 'invalid') : 'none';
  const passwordsDiffer = form.password !== form.confirmPassword;
  const matchStatus = form.confirmPassword ? (passwordsDiffer ? 'invalid' : 'valid') : 'none';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched({ firstName: true, lastName: true, email: true, password: true, confirmPassword: true });
    const problem = validateSignup(form);
    if (problem) {
      setLocalError(problem);
      return;
    }
    setBusy(true);
    try {
      const { user, token } = await signup({ ...form, plan: plan.choice });
      if (!user) {
        setCheckInbox(normalizeEmail(form.email));
        setBusy(false);
        return;
      }
      if (showPromo && promo.state === 'valid') await redeemPromo(form.promoCode, token);
      navigate('/dashboard', { replace: true });
    } catch {
      setBusy(false);
    }
  };

  return (
    <AuthLayout
      title="Create Your Account"
      subtitle="Start your 14-day free trial. No credit card required."
      footer={
        <>
          Already have an account?{' '}
          <Link to="/login" className={LINK}>
            Sign in here
          </Link>
        </>
      }
    >
      <FormError message={message} />
      <ReadyForm onSubmit={submit} noValidate className="space-y-5">
        <PlanChoiceNote choice={plan.choice} onChange={plan.change} />
        <div className="grid gap-5 sm:grid-cols-2">
          <AuthField
            label="First name"
            autoComplete="given-name"
            autoFocus
            value={form.firstName}
            status={nameStatus('firstName')}
            message={nameStatus('firstName') === 'invalid' ? MESSAGES.firstNameInvalid : null}
            onChange={(e) => set('firstName', e.target.value)}
          />
          <AuthField
            label="Last name"
            autoComplete="family-name"
            value={form.lastName}
            status={nameStatus('lastName')}
            message={nameStatus('lastName') === 'invalid' ? MESSAGES.lastNameInvalid : null}
            onChange={(e) => set('lastName', e.target.value)}
          />
        </div>
        <AuthField
          label="Email address"
          type="email"
          autoComplete="email"
          value={form.email}
          status={emailStatus}
          message={touched.email ? (emailValid ? MESSAGES.emailValidLive : MESSAGES.emailInvalidLive) : null}
          onChange={(e) => set('email', e.target.value)}
          placeholder="you@company.com"
        />
        <div>
          <PasswordField
            label="Password"
            autoComplete="new-password"
            value={form.password}
            onChange={(e) => set('password', e.target.value)}
            message={form.password ? null : 'At least 6 characters.'}
          />
          <StrengthMeter password={form.password} />
        </div>
        <PasswordField
          label="Confirm password"
          autoComplete="new-password"
          value={form.confirmPassword}
          status={matchStatus}
          message={
            form.confirmPassword
              ? passwordsDiffer
                ? MESSAGES.passwordsDifferLive
                : MESSAGES.passwordsMatchLive
              : null
          }
          onChange={(e) => set('confirmPassword', e.target.value)}
        />
        {showPromo ? (
          <div>
            <AuthField
              ref={promoRef}
              label="Promo code (optional)"
              autoComplete="off"
              spellCheck={false}
              value={form.promoCode}
              status={promo.state === 'valid' ? 'valid' : promo.state === 'invalid' ? 'invalid' : 'none'}
              message={
                promo.state === 'checking'
                  ? 'Checking promo code...'
                  : promo.state === 'invalid'
                    ? MESSAGES.promoInvalid
                    : null
              }
              onChange={(e) => set('promoCode', normalizePromoCode(e.target.value))}
              trailing={
                <span className="mr-1 flex items-center gap-1">
                  {promo.state === 'checking' ? (
                    <span
                      aria-hidden="true"
                      className="h-4 w-4 animate-spin rounded-full border-2 border-brand-600 border-t-transparent"
                    />
                  ) : null}
                  <button
                    type="button"
                    aria-label="Remove promo code"
                    onClick={() => {
                      setShowPromo(false);
                      setForm((f) => ({ ...f, promoCode: '' }));
                    }}
                    className="inline-flex h-11 w-11 items-center justify-center rounded-lg text-slate-500 hover:text-slate-700 dark:text-slate-400"
                  >
                    <X className="h-4 w-4" aria-hidden="true" />
                  </button>
                </span>
              }
            />
            {promo.state === 'valid' ? (
              <div className="mt-2">
                <Alert tone="success">
                  <p className="font-semibold">{MESSAGES.promoValid}</p>
                  <p>Plan access: {capitalise(promo.planAccess)}</p>
                  {promo.description ? <p className="mt-0.5">{promo.description}</p> : null}
                </Alert>
              </div>
            ) : null}
          </div>
        ) : (
          <button
            type="button"
            className={`${LINK} inline-flex min-h-11 items-center gap-1.5 text-sm`}
            onClick={() => setShowPromo(true)}
          >
            <Gift className="h-4 w-4" aria-hidden="true" />
            Have a promo code?
          </button>
        )}
        <SubmitButton
          busy={busy}
          disabled={passwordsDiffer || (touched.email && !emailValid)}
          label="Create Account"
          busyLabel="Creating Account..."
        />
      </ReadyForm>
    </AuthLayout>
  );
};

export default SignupPage;
