import { AlertTriangle, CheckCircle2, MailWarning, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../components/ui/Button.tsx';
import { useAuth } from './AuthProvider.tsx';
import { AuthError, sendVerificationEmail } from './client.ts';
import { useAction } from '../lib/useAction.ts';

// Email verification in the app (issue 11 §1): a banner at the top of every app page while the
// signed-in user's address is unconfirmed, and the same "send a new link" in Settings > Security.
// Until the address is confirmed the user can work in their own company, but cannot accept
// invitations or have Kontor email invoices and invitations to other people.

export const VERIFY_MESSAGES = {
  banner: 'Please confirm your email address',
  explain:
    'Open the link we emailed you. Until then, you cannot accept invitations or send invoices and invitations by email.',
  notArrived: 'No email? Check your spam folder, or send a new link.',
  resend: 'Send a new confirmation link',
  sent: (email: string) => `We sent a new confirmation link to ${email}. It is valid for 24 hours.`,
  badLink: 'That confirmation link has expired or is not valid. Send yourself a new link.',
  tooMany: 'Too many requests. Please wait a minute and try again.',
  failed: 'Could not send the link. Please try again.',
  notVerified: 'Not confirmed yet.',
  verified: 'Your email address is confirmed.',
  justVerified:
    'Your email address is confirmed. You can now accept invitations and send invoices and invitations by email.',
  dismiss: 'Dismiss',
} as const;

const useResend = (email: string | undefined) => {
  const buttonRef = useRef<HTMLButtonElement>(null);
  const [sent, setSent] = useState(false);
  const { busy, error, run } = useAction();
  const resend = async () => {
    if (!email) return;
    setSent(false);
    await run(
      async () => {
        await sendVerificationEmail(email);
        setSent(true);
      },
      {
        message: (e) =>
          e instanceof AuthError && e.code === 'too-many-requests'
            ? VERIFY_MESSAGES.tooMany
            : e instanceof AuthError && e.code === 'network-request-failed'
              ? e.message
              : VERIFY_MESSAGES.failed,
      },
    );
  };
  // The busy button is disabled, which drops keyboard focus to the page; give it back.
  const hadFocus = useRef(false);
  useEffect(() => {
    if (busy || !hadFocus.current) return;
    hadFocus.current = false;
    if (document.activeElement === document.body || document.activeElement === null)
      buttonRef.current?.focus();
  }, [busy]);
  const start = () => {
    hadFocus.current = document.activeElement === buttonRef.current;
    return resend();
  };
  return { busy, sent, error, resend: start, buttonRef };
};

const useVerification = () => {
  const { currentUser, userProfile } = useAuth();
  const email = currentUser?.email ?? userProfile?.email;
  const verified = currentUser?.emailVerified === true || userProfile?.emailVerified === true;
  return { email, verified, signedIn: currentUser !== null };
};

/**
 * The resend outcome. The polite live region is always in the page so a screen reader announces
 * the text that appears in it; an error is an alert.
 */
const ResendOutcome = ({
  email,
  sent,
  error,
  tone,
}: {
  email: string;
  sent: boolean;
  error: string | null;
  tone: 'banner' | 'settings';
}) => (
  <>
    <p
      role="status"
      className={
        sent && !error
          ? tone === 'banner'
            ? 'mt-2 [overflow-wrap:anywhere]'
            : '[overflow-wrap:anywhere] text-emerald-700 dark:text-emerald-400'
          : 'sr-only'
      }
    >
      {sent && !error ? VERIFY_MESSAGES.sent(email) : ''}
    </p>
    {error ? (
      <p role="alert" className={tone === 'banner' ? 'mt-2 font-medium' : 'text-red-700 dark:text-red-400'}>
        {error}
      </p>
    ) : null}
  </>
);

/**
 * The banner at the top of the app shell for signed-in users with an unconfirmed address, and a
 * one-time note after the emailed link confirmed it (the link lands on /dashboard?verified=1).
 */
export const VerifyEmailBanner = () => {
  const { email, verified, signedIn } = useVerification();
  const [params, setParams] = useSearchParams();
  const { busy, sent, error, resend, buttonRef } = useResend(email);
  if (!signedIn || !email) return null;
  const linkError = /TOKEN_EXPIRED|INVALID_TOKEN|token_expired|invalid_token/.test(params.get('error') ?? '');
  if (verified) {
    if (params.get('verified') !== '1' || params.has('error')) return null;
    const dismiss = () =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete('verified');
          return next;
        },
        { replace: true },
      );
    return (
      <section
        aria-label="Email confirmation"
        data-testid="email-verified-notice"
        className="border-b border-emerald-300 bg-emerald-50 px-4 py-3 text-sm text-emerald-950 sm:px-6 dark:border-emerald-800 dark:bg-emerald-950 dark:text-emerald-100"
      >
        <div className="mx-auto flex max-w-5xl items-start gap-3">
          <CheckCircle2 className="mt-0.5 h-5 w-5 shrink-0" aria-hidden="true" />
          <p role="status" className="min-w-0 flex-1">
            {VERIFY_MESSAGES.justVerified}
          </p>
          <button
            type="button"
            onClick={dismiss}
            aria-label={VERIFY_MESSAGES.dismiss}
            className="-my-2 -mr-2 inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-lg hover:bg-emerald-100 focus-visible:outline-2 focus-visible:outline-emerald-700 dark:hover:bg-emerald-900"
          >
            <X className="h-4 w-4" aria-hidden="true" />
          </button>
        </div>
      </section>
    );
  }
  return (
    <section
      aria-label="Email confirmation"
      data-testid="verify-email-banner"
      className="border-b border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950 sm:px-6 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
    >
      <div className="mx-auto flex max-w-5xl flex-col gap-3 sm:flex-row sm:items-center">
        <div className="flex min-w-0 flex-1 items-start gap-3">
          <MailWarning className="mt-0.5 h-5 w-5 shrink-0" aria-hidden="true" />
          <p className="min-w-0 [overflow-wrap:anywhere]">
            <strong>{VERIFY_MESSAGES.banner}</strong> ({email}).{' '}
            {linkError ? VERIFY_MESSAGES.badLink : VERIFY_MESSAGES.explain}
          </p>
        </div>
        <Button
          ref={buttonRef}
          size="sm"
          variant="secondary"
          busy={busy}
          onClick={resend}
          className="ml-8 self-start sm:ml-0 sm:self-auto"
        >
          {VERIFY_MESSAGES.resend}
        </Button>
      </div>
      <div className="mx-auto max-w-5xl pl-8">
        <ResendOutcome email={email} sent={sent} error={error} tone="banner" />
      </div>
    </section>
  );
};

/** Settings > Security: the address, whether it is confirmed, and a new link when it is not. */
export const EmailVerificationStatus = () => {
  const { email, verified } = useVerification();
  const { busy, sent, error, resend, buttonRef } = useResend(email);
  if (!email) return null;
  return (
    <div className="space-y-3 text-sm" data-testid="email-verification">
      <p className="font-medium text-slate-900 [overflow-wrap:anywhere] dark:text-slate-100">{email}</p>
      {verified ? (
        <p className="flex items-start gap-2 text-emerald-700 dark:text-emerald-400">
          <CheckCircle2 className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
          {VERIFY_MESSAGES.verified}
        </p>
      ) : (
        <>
          <p className="flex items-start gap-2 font-medium text-amber-800 dark:text-amber-300">
            <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
            {VERIFY_MESSAGES.notVerified}
          </p>
          <p className="text-slate-600 dark:text-slate-400">
            {VERIFY_MESSAGES.explain} {VERIFY_MESSAGES.notArrived}
          </p>
          <Button ref={buttonRef} size="sm" variant="secondary" busy={busy} onClick={resend}>
            {VERIFY_MESSAGES.resend}
          </Button>
          <ResendOutcome email={email} sent={sent} error={error} tone="settings" />
        </>
      )}
    </div>
  );
};
