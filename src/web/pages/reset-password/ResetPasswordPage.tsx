import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { authErrorMessage } from '../../../shared/auth/errors.ts';
import { validateNewPassword } from '../../../shared/auth/rules.ts';
import { AuthError, resetPasswordWithToken } from '../../auth/client.ts';
import { AuthLayout, FormError, LINK, NewPasswordFields, SubmitButton } from '../../auth/ui.tsx';

// /reset-password: the page the emailed link opens. Same password rules as sign-up; the
// link works once and for 24 hours, then the user signs in with the new password.

const ResetPasswordPage = () => {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const linkError = params.get('error');
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(
    !token || linkError ? authErrorMessage('invalid-reset-link') : null,
  );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = validateNewPassword(password, confirm);
    if (problem) {
      setError(problem);
      return;
    }
    setBusy(true);
    try {
      await resetPasswordWithToken(token, password);
      navigate('/login', {
        replace: true,
        state: { notice: 'Your password has been changed. Sign in with your new password.' },
      });
    } catch (e) {
      setError(e instanceof AuthError ? e.message : authErrorMessage('unknown'));
      setBusy(false);
    }
  };

  const differ = confirm.length > 0 && password !== confirm;

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
        <form onSubmit={submit} noValidate className="space-y-5">
          <NewPasswordFields
            autoFocus
            password={password}
            confirm={confirm}
            onPassword={(v) => {
              setPassword(v);
              setError(null);
            }}
            onConfirm={(v) => {
              setConfirm(v);
              setError(null);
            }}
          />
          <SubmitButton busy={busy} disabled={differ} label="Set New Password" busyLabel="Saving..." />
        </form>
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
