import { ReadyForm } from '../../components/ui/ReadyForm.tsx';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { authErrorMessage } from '../../../shared/auth/errors.ts';
import { validateNewPassword } from '../../../shared/auth/rules.ts';
import { AuthError, resetPasswordWithToken } from '../../auth/client.ts';
import {
  AuthLayout,
  FormError,
  LINK,
  NewPasswordFields,
  SubmitButton,
  useNewPassword,
} from '../../auth/ui.tsx';
import { useHydrated } from '../../lib/useHydrated.ts';

// /reset-password: the page the emailed link opens. Same password rules as sign-up; the
// link works once and for 24 hours, then the user signs in with the new password.

const ResetPasswordPage = () => {
  const [params] = useSearchParams();
  // The emailed link carries the token in its query string, which prerendered HTML cannot
  // know: it (and so the hydration) shows the form, and a link without a token turns into the
  // "open the link again" note right after.
  const hydrated = useHydrated();
  const token = hydrated ? (params.get('token') ?? '') : 'prerendered';
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [linkChecked, setLinkChecked] = useState(false);
  if (hydrated && !linkChecked) {
    setLinkChecked(true);
    if (!token || params.get('error')) setError(authErrorMessage('invalid-reset-link'));
  }
  const fresh = useNewPassword(() => setError(null));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = validateNewPassword(fresh.password, fresh.confirm);
    if (problem) {
      setError(problem);
      return;
    }
    setBusy(true);
    try {
      await resetPasswordWithToken(token, fresh.password);
      navigate('/login', {
        replace: true,
        state: { notice: 'Your password has been changed. Sign in with your new password.' },
      });
    } catch (e) {
      setError(e instanceof AuthError ? e.message : authErrorMessage('unknown'));
      setBusy(false);
    }
  };

  return (
    <AuthLayout
      title="Choose a new password"
      subtitle="Use at least 6 characters. A longer password with mixed characters is stronger."
      footer={
        <Link to="/login" className={LINK}>
          Back to sign in
        </Link>
      }
    >
      <FormError message={error} />
      {token ? (
        <ReadyForm onSubmit={submit} noValidate className="space-y-5">
          <NewPasswordFields autoFocus fields={fresh} />
          <SubmitButton busy={busy} disabled={fresh.differ} label="Set New Password" busyLabel="Saving..." />
        </ReadyForm>
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Open the link from your email again, or request a new one from the{' '}
          <Link to="/login" className={LINK}>
            sign-in page
          </Link>{' '}
          with "Forgot your password?".
        </p>
      )}
    </AuthLayout>
  );
};

export default ResetPasswordPage;
