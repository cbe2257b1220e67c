import { AlertCircle, Eye, EyeOff } from 'lucide-react';
import { type ReactNode, forwardRef, useEffect, useRef, useState } from 'react';
import { MESSAGES } from '../../shared/auth/rules.ts';
import { STRENGTH_CHECK_LABELS, passwordStrength } from '../../shared/auth/strength.ts';
import { Logo } from '../components/Logo.tsx';
import { Button } from '../components/ui/Button.tsx';
import { Alert } from '../components/ui/Card.tsx';
import { TextField, type TextFieldProps } from '../components/ui/Field.tsx';

// Building blocks of the sign-in, sign-up and reset screens: a centred card on a soft
// brand gradient and the strength meter; the error box, fields and submit button are the
// ui kit's (Alert, TextField, Button) with the live-check wording these forms need.

export const AuthLayout = ({
  title,
  subtitle,
  children,
  footer,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  footer?: ReactNode;
}) => (
  <div className="relative flex min-h-screen flex-col items-center justify-center overflow-hidden bg-slate-50 px-4 py-10 dark:bg-slate-950">
    <div
      aria-hidden="true"
      className="pointer-events-none absolute -top-40 left-1/2 h-[32rem] w-[48rem] -translate-x-1/2 rounded-full bg-gradient-to-br from-brand-400/30 via-indigo-400/20 to-cyan-300/20 blur-3xl dark:from-brand-600/25 dark:via-indigo-700/20 dark:to-cyan-700/10"
    />
    <div className="relative w-full max-w-md">
      <div className="mb-6 flex justify-center">
        <Logo size="lg" />
      </div>
      <main className="rounded-2xl border border-slate-200/80 bg-white/90 p-8 shadow-xl shadow-brand-900/5 backdrop-blur dark:border-slate-800 dark:bg-slate-900/90">
        <div
          className="mb-1 h-1 w-12 rounded-full bg-gradient-to-r from-brand-500 to-indigo-500"
          aria-hidden="true"
        />
        <h1 className="mt-4 text-2xl font-bold tracking-tight text-slate-900 dark:text-white">{title}</h1>
        {subtitle ? <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{subtitle}</p> : null}
        <div className="mt-6">{children}</div>
      </main>
      {footer ? (
        <div className="mt-6 text-center text-sm text-slate-600 dark:text-slate-400">{footer}</div>
      ) : null}
    </div>
  </div>
);

/**
 * A form's error box that takes focus whenever a new message shows, so keyboard and
 * screen-reader users land on it (the Alert inside is announced as well).
 */
export const FormError = ({ message }: { message: string | null }) => {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (message) ref.current?.focus();
  }, [message]);
  return (
    <div ref={ref} tabIndex={-1} className="outline-none">
      <ErrorBox message={message} />
    </div>
  );
};

/** The form's error, announced (role="alert"): the kit's Alert with an icon. */
export const ErrorBox = ({ message }: { message: string | null }) =>
  message ? (
    <div className="mb-4">
      <Alert>
        <span className="flex items-start gap-2">
          <AlertCircle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
          <span>{message}</span>
        </span>
      </Alert>
    </div>
  ) : null;

export type FieldStatus = 'none' | 'valid' | 'invalid';

export type AuthFieldProps = Omit<TextFieldProps, 'error' | 'success' | 'hint' | 'label'> & {
  label: string;
  status?: FieldStatus;
  message?: string | null;
};

/**
 * The kit's TextField with a live check: `status` says whether `message` is the error (and
 * the field is aria-invalid), the success line, or a plain hint.
 */
export const AuthField = forwardRef<HTMLInputElement, AuthFieldProps>(
  ({ status = 'none', message = null, ...rest }, ref) => (
    <TextField
      ref={ref}
      error={status === 'invalid' ? message : null}
      success={status === 'valid' ? message : null}
      hint={status === 'none' ? message : null}
      aria-invalid={status === 'invalid' ? true : undefined}
      {...rest}
    />
  ),
);
AuthField.displayName = 'AuthField';

/** A password input with a show/hide toggle that keeps its pressed state announced. */
export const PasswordField = forwardRef<HTMLInputElement, Omit<AuthFieldProps, 'type' | 'trailing'>>(
  (props, ref) => {
    const [visible, setVisible] = useState(false);
    return (
      <AuthField
        ref={ref}
        type={visible ? 'text' : 'password'}
        {...props}
        trailing={
          <button
            type="button"
            onClick={() => setVisible((v) => !v)}
            aria-label={visible ? 'Hide password' : 'Show password'}
            aria-pressed={visible}
            className="mr-0.5 inline-flex h-11 w-11 items-center justify-center rounded-lg text-slate-500 hover:text-slate-700 dark:text-slate-400 dark:hover:text-slate-200"
          >
            {visible ? (
              <EyeOff className="h-5 w-5" aria-hidden="true" />
            ) : (
              <Eye className="h-5 w-5" aria-hidden="true" />
            )}
          </button>
        }
      />
    );
  },
);
PasswordField.displayName = 'PasswordField';

const BAR: Record<'red' | 'yellow' | 'green', string> = {
  red: 'bg-red-500',
  yellow: 'bg-yellow-400',
  green: 'bg-emerald-500',
};
const TEXT: Record<'red' | 'yellow' | 'green', string> = {
  red: 'text-red-600 dark:text-red-400',
  yellow: 'text-yellow-700 dark:text-yellow-300',
  green: 'text-emerald-600 dark:text-emerald-400',
};

/** The advisory strength meter (SPEC section 5). */
export const StrengthMeter = ({ password }: { password: string }) => {
  if (!password) return null;
  const s = passwordStrength(password);
  return (
    <div className="mt-2" data-testid="strength-meter" data-score={s.score} data-color={s.color}>
      <div className="flex gap-1" aria-hidden="true">
        {[1, 2, 3, 4, 5].map((i) => (
          <span
            key={i}
            className={`h-1.5 flex-1 rounded-full ${i <= s.score ? BAR[s.color] : 'bg-slate-200 dark:bg-slate-700'}`}
          />
        ))}
      </div>
      <p className={`mt-1 text-xs font-semibold ${TEXT[s.color]}`} aria-live="polite">
        Password strength: {s.label}
      </p>
      <ul className="mt-1 grid grid-cols-2 gap-x-3 text-xs text-slate-500 dark:text-slate-400">
        {(Object.keys(s.checks) as (keyof typeof s.checks)[]).map((k) => (
          <li key={k} className={s.checks[k] ? 'text-emerald-600 dark:text-emerald-400' : ''}>
            {s.checks[k] ? '✓' : '·'} {STRENGTH_CHECK_LABELS[k]}
          </li>
        ))}
      </ul>
    </div>
  );
};

/** The form's full-width submit: the kit's Button, busy (focus kept) with its own label. */
export const SubmitButton = ({
  busy,
  disabled,
  label,
  busyLabel,
}: {
  busy: boolean;
  disabled?: boolean;
  label: string;
  busyLabel: string;
}) => (
  <Button type="submit" size="lg" block busy={busy} disabled={disabled}>
    {busy ? busyLabel : label}
  </Button>
);

/**
 * The change handlers of a form whose error clears as soon as the user types again:
 * `const edit = editClearing(() => setError(null))`, then `onChange={edit(setEmail)}`.
 */
export const editClearing =
  (clear: () => void) => (set: (value: string) => void) => (e: { target: { value: string } }) => {
    set(e.target.value);
    clear();
  };

export const LINK = 'font-semibold text-brand-600 hover:text-brand-700 hover:underline dark:text-brand-400';

/**
 * The state of a new password typed twice: both texts, whether they differ (once the second is
 * typed), their change handlers (each also calls `onEdited`, which clears the form's error) and
 * `reset` to empty both.
 */
export const useNewPassword = (onEdited: () => void) => {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const edit = editClearing(onEdited);
  return {
    password,
    confirm,
    differ: confirm.length > 0 && password !== confirm,
    onPassword: edit(setPassword),
    onConfirm: edit(setConfirm),
    reset: () => {
      setPassword('');
      setConfirm('');
    },
  };
};

/**
 * "New password" with its strength meter and "Confirm new password" checked as it is typed
 * (reset-password page, Settings → Security), over the state `useNewPassword` keeps.
 */
export const NewPasswordFields = ({
  fields: { password, confirm, differ, onPassword, onConfirm },
  autoFocus = false,
}: {
  fields: ReturnType<typeof useNewPassword>;
  autoFocus?: boolean;
}) => (
  <>
    <div>
      <PasswordField
        label="New password"
        autoComplete="new-password"
        autoFocus={autoFocus}
        value={password}
        onChange={onPassword}
      />
      <StrengthMeter password={password} />
    </div>
    <PasswordField
      label="Confirm new password"
      autoComplete="new-password"
      value={confirm}
      status={confirm ? (differ ? 'invalid' : 'valid') : 'none'}
      message={confirm ? (differ ? MESSAGES.passwordsDifferLive : MESSAGES.passwordsMatchLive) : null}
      onChange={onConfirm}
    />
  </>
);
