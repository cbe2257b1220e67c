import { MailWarning } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Button } from '../components/ui/Button.tsx';
import { useAuth } from './AuthProvider.tsx';
import { AuthError, sendVerificationEmail } from './client.ts';

// Email verification in the app (issue 11 §1): a banner at the top of every app page while the
// signed-in user's address is unconfirmed, and the same "send a new link" in Settings > Security.
// Until the address is confirmed the user can work in their own company, but cannot accept
// invitations or have Kontor email invoices and invitations to other people.

export const VERIFY_MESSAGES = {
  banner: 'Please confirm your email address',
  explain:
    'We emailed you a confirmation link. Until you open it, you cannot accept invitations or send invoices and invitations by email.',
  resend: 'Send a new link',
  sent: (email: string) => `We sent a new confirmation link to ${email}. It is valid for 24 hours.`,
  badLink: 'That confirmation link has expired or is not valid. Send yourself a new one.',
  tooMany: 'Too many requests. Please wait a minute and try again.',
  failed: 'Could not send the link. Please try again.',
  verified: 'Your email address is confirmed.',
} as const;

const useResend = (email: string | undefined) => {
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const resend = async () => {
    if (!email) return;
    setBusy(true);
    setError(null);
    setSent(false);
    try {
      await sendVerificationEmail(email);
      setSent(true);
    } catch (e) {
      setError(
        e instanceof AuthError && e.code === 'too-many-requests'
          ? VERIFY_MESSAGES.tooMany
          : e instanceof AuthError && e.code === 'network-request-failed'
            ? e.message
            : VERIFY_MESSAGES.failed,
      );
    } finally {
      setBusy(false);
    }
  };
  return { busy, sent, error, resend };
};

const useVerification = () => {
  const { currentUser, userProfile } = useAuth();
  const email = currentUser?.email ?? userProfile?.email;
  const verified = currentUser?.emailVerified === true || userProfile?.emailVerified === true;
  return { email, verified, signedIn: currentUser !== null };
};

/** The banner at the top of the app shell for signed-in users with an unconfirmed address. */
export const VerifyEmailBanner = () => {
  const { email, verified, signedIn } = useVerification();
  const [params] = useSearchParams();
  const { busy, sent, error, resend } = useResend(email);
  if (!signedIn || verified || !email) return null;
  const linkError = /TOKEN_EXPIRED|INVALID_TOKEN|token_expired|invalid_token/.test(params.get('error') ?? '');
  return (
    <section
      aria-label="Email confirmation"
      data-testid="verify-email-banner"
      className="border-b border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950 sm:px-6 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
    >
      <div className="mx-auto flex max-w-5xl flex-wrap items-center gap-3">
        <MailWarning className="h-5 w-5 shrink-0" aria-hidden="true" />
        <p className="min-w-0 flex-1">
          <strong>{VERIFY_MESSAGES.banner}</strong> ({email}).{' '}
          {linkError ? VERIFY_MESSAGES.badLink : VERIFY_MESSAGES.explain}
        </p>
        <Button size="sm" variant="secondary" busy={busy} onClick={resend}>
          {VERIFY_MESSAGES.resend}
        </Button>
      </div>
      {sent || error ? (
        <p role={error ? 'alert' : 'status'} className="mx-auto mt-2 max-w-5xl">
          {error ?? VERIFY_MESSAGES.sent(email)}
        </p>
      ) : null}
    </section>
  );
};

/** Settings > Security: the address, whether it is confirmed, and a new link when it is not. */
export const EmailVerificationStatus = () => {
  const { email, verified } = useVerification();
  const { busy, sent, error, resend } = useResend(email);
  if (!email) return null;
  return (
    <div className="space-y-3 text-sm" data-testid="email-verification">
      <p className="text-slate-700 dark:text-slate-300">
        <span className="font-medium">{email}</span> —{' '}
        {verified ? (
          <span className="text-emerald-700 dark:text-emerald-400">{VERIFY_MESSAGES.verified}</span>
        ) : (
          <span className="text-amber-700 dark:text-amber-400">not confirmed yet.</span>
        )}
      </p>
      {verified ? null : (
        <>
          <p className="text-slate-600 dark:text-slate-400">{VERIFY_MESSAGES.explain}</p>
          <Button size="sm" variant="secondary" busy={busy} onClick={resend}>
            {VERIFY_MESSAGES.resend}
          </Button>
          {sent || error ? (
            <p
              role={error ? 'alert' : 'status'}
              className={error ? 'text-red-600 dark:text-red-400' : 'text-emerald-700 dark:text-emerald-400'}
            >
              {error ?? VERIFY_MESSAGES.sent(email)}
            </p>
          ) : null}
        </>
      )}
    </div>
  );
};
