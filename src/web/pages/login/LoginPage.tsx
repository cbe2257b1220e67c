import { ReadyForm } from '../../components/ui/ReadyForm.tsx';
import { ShieldCheck } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { MESSAGES, isValidEmail, validateLogin } from '../../../shared/auth/rules.ts';
import { useAuth } from '../../auth/AuthProvider.tsx';
import { clearReloadLoopFlags } from '../../auth/markers.ts';
import { useHydrated } from '../../lib/useHydrated.ts';
import { Alert } from '../../components/ui/Card.tsx';
import {
  AuthField,
  AuthLayout,
  FormError,
  LINK,
  PasswordField,
  SubmitButton,
  editClearing,
} from '../../auth/ui.tsx';
import { ResetPasswordModal } from './ResetPasswordModal.tsx';

// /login (SPEC sections 2, 4, 5). A user with two-factor authentication on is asked for a
// code from their authenticator app (or a backup code) after the password.

const LoginPage = () => {
  const { login, verifyTwoFactor, isAuthenticated, error: authError, clearError } = useAuth();
  const navigate = useNavigate();
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [localError, setLocalError] = useState<string | null>(null);
  const [resetOpen, setResetOpen] = useState(false);
  const [step, setStep] = useState<'password' | 'code'>('password');
  const [code, setCode] = useState('');
  const [useBackup, setUseBackup] = useState(false);
  // History state survives a reload, but prerendered HTML never has it: read it once hydrated.
  const hydrated = useHydrated();
  const notice = hydrated ? ((location.state as { notice?: string } | null)?.notice ?? null) : null;

  useEffect(() => {
    clearReloadLoopFlags();
    clearError();
  }, [clearError]);

  const message = localError ?? authError;

  if (isAuthenticated && !busy) return <Navigate to="/dashboard" replace />;

  const emailValid = isValidEmail(email);
  const emailStatus = touched ? (emailValid ? 'valid' : 'invalid') : 'none';

  const edited = () => {
    setLocalError(null);
    clearError();
  };
  const edit = editClearing(edited);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = validateLogin({ email, password });
    if (problem) {
      setLocalError(problem);
      return;
    }
    setBusy(true);
    try {
      const outcome = await login(email, password);
      if (outcome.twoFactorRequired) {
        setStep('code');
        setBusy(false);
        return;
      }
      navigate('/dashboard', { replace: true });
    } catch {
      setBusy(false);
    }
  };

  const submitCode = async (event: FormEvent) => {
    event.preventDefault();
    if (!code.trim()) {
      setLocalError('Please enter the code from your authenticator app.');
      return;
    }
    setBusy(true);
    try {
      await verifyTwoFactor(code, useBackup ? 'backup' : 'totp');
      navigate('/dashboard', { replace: true });
    } catch {
      setBusy(false);
    }
  };

  if (step === 'code') {
    return (
      <AuthLayout
        title="Two-factor authentication"
        subtitle={
          useBackup
            ? 'Enter one of your backup codes.'
            : 'Enter the 6-digit code from your authenticator app.'
        }
      >
        <FormError message={message} />
        <ReadyForm onSubmit={submitCode} noValidate className="space-y-5">
          <AuthField
            label={useBackup ? 'Backup code' : 'Authentication code'}
            inputMode={useBackup ? 'text' : 'numeric'}
            autoComplete="one-time-code"
            autoFocus
            value={code}
            onChange={edit(setCode)}
            placeholder={useBackup ? 'XXXXX-XXXXX' : '123456'}
          />
          <SubmitButton busy={busy} label="Verify" busyLabel="Verifying..." />
        </ReadyForm>
        <div className="mt-4 flex items-center justify-between text-sm">
          <button type="button" className={LINK} onClick={() => setUseBackup((v) => !v)}>
            {useBackup ? 'Use authenticator code' : 'Use a backup code'}
          </button>
          <button
            type="button"
            className="text-slate-600 hover:underline dark:text-slate-400"
            onClick={() => {
              setStep('password');
              setCode('');
              edited();
            }}
          >
            Back
          </button>
        </div>
      </AuthLayout>
    );
  }

  return (
    <AuthLayout
      title="Welcome Back"
      subtitle="Sign in to your Kontor account"
      footer={
        <>
          Don't have an account?{' '}
          <Link to="/signup" className={LINK}>
            Create one here
          </Link>
        </>
      }
    >
      {notice ? (
        <div className="mb-4">
          <Alert tone="success">
            <span className="flex items-center gap-2">
              <ShieldCheck className="h-4 w-4" aria-hidden="true" />
              {notice}
            </span>
          </Alert>
        </div>
      ) : null}
      <FormError message={message} />
      <ReadyForm onSubmit={submit} noValidate className="space-y-5">
        <AuthField
          label="Email address"
          type="email"
          autoComplete="email"
          autoFocus
          value={email}
          status={emailStatus}
          message={touched ? (emailValid ? MESSAGES.emailValidLive : MESSAGES.emailInvalidLive) : null}
          onChange={(e) => {
            setEmail(e.target.value);
            setTouched(true);
            edited();
          }}
          placeholder="you@company.com"
        />
        <div>
          <PasswordField
            label="Password"
            autoComplete="current-password"
            value={password}
            onChange={edit(setPassword)}
          />
          <div className="mt-2 text-right">
            <button
              type="button"
              className={`${LINK} inline-flex min-h-11 items-center text-sm`}
              onClick={() => setResetOpen(true)}
            >
              Forgot your password?
            </button>
          </div>
        </div>
        <SubmitButton
          busy={busy}
          disabled={touched && !emailValid}
          label="Sign In"
          busyLabel="Signing In..."
        />
      </ReadyForm>
      <ResetPasswordModal
        key={resetOpen ? 'open' : 'closed'}
        open={resetOpen}
        onClose={() => setResetOpen(false)}
        initialEmail={emailValid ? email.trim() : ''}
      />
    </AuthLayout>
  );
};

export default LoginPage;
