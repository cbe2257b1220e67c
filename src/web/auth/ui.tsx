import { AlertCircle, CheckCircle2, Eye, EyeOff, XCircle } from 'lucide-react';
import { type InputHTMLAttributes, type ReactNode, forwardRef, useId, useState } from 'react';
import { STRENGTH_CHECK_LABELS, passwordStrength } from '../../shared/auth/strength.ts';
import { Logo } from '../components/Logo.tsx';

// Building blocks of the sign-in, sign-up and reset screens: a centred card on a soft
// brand gradient, the red error box, inputs with live status, and the strength meter.

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

export const ErrorBox = ({ message }: { message: string | null }) =>
  message ? (
    <div
      role="alert"
      className="mb-4 flex items-start gap-2 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-700 dark:border-red-900 dark:bg-red-950/60 dark:text-red-300"
    >
      <AlertCircle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden="true" />
      <span>{message}</span>
    </div>
  ) : null;

export type FieldStatus = 'none' | 'valid' | 'invalid';

const borderFor = (status: FieldStatus) =>
  status === 'valid'
    ? 'border-emerald-500 focus:ring-emerald-500/30 dark:border-emerald-500'
    : status === 'invalid'
      ? 'border-red-500 focus:ring-red-500/30 dark:border-red-400'
      : 'border-slate-300 focus:border-brand-500 focus:ring-brand-500/30 dark:border-slate-700';

export const INPUT =
  'block min-h-11 w-full rounded-lg border bg-white px-3 text-sm text-slate-900 shadow-sm placeholder:text-slate-400 focus:outline-none focus:ring-2 dark:bg-slate-950 dark:text-slate-100 dark:placeholder:text-slate-500';

export const StatusMessage = ({
  id,
  status,
  text,
}: {
  id: string;
  status: FieldStatus;
  text: string | null;
}) =>
  text ? (
    <p
      id={id}
      className={`mt-1.5 flex items-start gap-1 text-xs font-medium ${status === 'valid' ? 'text-emerald-600 dark:text-emerald-400' : status === 'invalid' ? 'text-red-600 dark:text-red-400' : 'text-slate-500 dark:text-slate-400'}`}
    >
      {status === 'valid' ? <CheckCircle2 className="mt-px h-3.5 w-3.5 shrink-0" aria-hidden="true" /> : null}
      {status === 'invalid' ? <XCircle className="mt-px h-3.5 w-3.5 shrink-0" aria-hidden="true" /> : null}
      {text}
    </p>
  ) : null;

export type AuthFieldProps = InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  status?: FieldStatus;
  message?: string | null;
  trailing?: ReactNode;
};

/** A labelled input whose live message is announced with it (aria-describedby). */
export const AuthField = forwardRef<HTMLInputElement, AuthFieldProps>(
  ({ label, status = 'none', message = null, trailing, id, className = '', ...rest }, ref) => {
    const autoId = useId();
    const fieldId = id ?? autoId;
    const messageId = `${fieldId}-message`;
    return (
      <div>
        <label
          htmlFor={fieldId}
          className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-200"
        >
          {label}
        </label>
        <div className="relative">
          <input
            ref={ref}
            id={fieldId}
            aria-invalid={status === 'invalid' ? true : undefined}
            aria-describedby={message ? messageId : undefined}
            className={`${INPUT} ${borderFor(status)} ${trailing ? 'pr-12' : ''} ${className}`}
            {...rest}
          />
          {trailing ? <div className="absolute inset-y-0 right-0 flex items-center">{trailing}</div> : null}
        </div>
        <StatusMessage id={messageId} status={status} text={message} />
      </div>
    );
  },
);
AuthField.displayName = 'AuthField';

/** A password input with a show/hide toggle. */
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
  <button
    type="submit"
    disabled={busy || disabled}
    aria-busy={busy || undefined}
    className="inline-flex min-h-12 w-full items-center justify-center gap-2 rounded-lg bg-gradient-to-r from-brand-600 to-indigo-600 px-4 text-sm font-semibold text-white shadow-md shadow-brand-600/20 transition hover:from-brand-700 hover:to-indigo-700 disabled:cursor-not-allowed disabled:opacity-50"
  >
    {busy ? (
      <span
        aria-hidden="true"
        className="h-4 w-4 animate-spin rounded-full border-2 border-current border-t-transparent"
      />
    ) : null}
    {busy ? busyLabel : label}
  </button>
);

export const LINK = 'font-semibold text-brand-600 hover:text-brand-700 hover:underline dark:text-brand-400';
