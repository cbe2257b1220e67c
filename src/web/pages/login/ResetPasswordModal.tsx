import { MailCheck } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { type AuthErrorCode, resetErrorMessage } from '../../../shared/auth/errors.ts';
import { RESET_LINK_HOURS, isValidEmail, normalizeEmail } from '../../../shared/auth/rules.ts';
import { useAuth } from '../../auth/AuthProvider.tsx';
import { AuthError } from '../../auth/client.ts';
import { AuthField, ErrorBox, editClearing } from '../../auth/ui.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { Dialog } from '../../components/ui/Dialog.tsx';
import { useAction } from '../../lib/useAction.ts';

// The reset-password modal of SPEC section 2: form, then "Email Sent!" with a resend.
// Closing resets it, and is blocked while a request is in flight.

const codeOf = (e: unknown): AuthErrorCode => (e instanceof AuthError ? e.code : 'unknown');

export const ResetPasswordModal = ({
  open,
  onClose,
  initialEmail = '',
}: {
  open: boolean;
  onClose: () => void;
  initialEmail?: string;
}) => {
  const { sendPasswordResetEmail } = useAuth();
  const [email, setEmail] = useState(initialEmail);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { busy: sending, error, setError, run } = useAction();

  const close = () => {
    if (sending) return;
    setEmail('');
    setSentTo(null);
    setError(null);
    onClose();
  };

  const send = async (address: string) => {
    const clean = normalizeEmail(address);
    if (!isValidEmail(clean)) {
      setError(resetErrorMessage('invalid-email'));
      return;
    }
    await run(
      async () => {
        await sendPasswordResetEmail(clean);
        setSentTo(clean);
      },
      // A refused origin says where the page is open and what to do, not "failed to send".
      {
        message: (e) =>
          e instanceof AuthError && e.code === 'untrusted-origin' ? e.message : resetErrorMessage(codeOf(e)),
      },
    );
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void send(email);
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) close();
      }}
      title={sentTo ? 'Email Sent!' : 'Reset your password'}
      description={
        sentTo ? undefined : "Enter your account's email and we'll send you a link to choose a new password."
      }
    >
      {sentTo ? (
        <div className="space-y-4 text-sm text-slate-700 dark:text-slate-300">
          <div className="flex items-start gap-3 rounded-lg bg-emerald-50 p-4 dark:bg-emerald-950/50">
            <MailCheck
              className="mt-0.5 h-5 w-5 shrink-0 text-emerald-600 dark:text-emerald-400"
              aria-hidden="true"
            />
            <p>
              We sent a password reset link to <strong className="break-all">{sentTo}</strong>.
            </p>
          </div>
          <p>The link expires in {RESET_LINK_HOURS} hours. Check your spam folder if it does not arrive.</p>
          <ErrorBox message={error} />
          <p>
            Didn't get it?{' '}
            <button
              type="button"
              onClick={() => void send(sentTo)}
              disabled={sending}
              className="font-semibold text-brand-600 hover:underline disabled:opacity-50 dark:text-brand-400"
            >
              {sending ? 'Sending...' : 'Resend'}
            </button>
          </p>
          <div className="flex justify-end">
            <Button onClick={close} disabled={sending}>
              Close
            </Button>
          </div>
        </div>
      ) : (
        <form onSubmit={submit} noValidate className="space-y-4">
          <ErrorBox message={error} />
          <AuthField
            label="Email address"
            type="email"
            autoComplete="email"
            value={email}
            onChange={editClearing(() => setError(null))(setEmail)}
            placeholder="you@company.com"
            autoFocus
          />
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={close} disabled={sending}>
              Cancel
            </Button>
            <Button type="submit" busy={sending}>
              {sending ? 'Sending...' : 'Send Reset Link'}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
};
