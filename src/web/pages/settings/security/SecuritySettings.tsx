import { useQuery, useQueryClient } from '@tanstack/react-query';
import { KeyRound, Laptop, LogOut, Mail, ShieldCheck, Smartphone } from 'lucide-react';
import QRCode from 'qrcode';
import { type FormEvent, type ReactNode, useState } from 'react';
import { MESSAGES, validateNewPassword } from '../../../../shared/auth/rules.ts';
import type { UserProfile } from '../../../../shared/auth/profile.ts';
import { useAuth } from '../../../auth/AuthProvider.tsx';
import { EmailVerificationStatus } from '../../../auth/EmailVerification.tsx';
import {
  AuthError,
  type SessionInfo,
  changePassword,
  disableTwoFactor,
  enableTwoFactor,
  fetchSession,
  listSessions,
  revokeOtherSessions,
  revokeSession,
  verifyTwoFactorCode,
} from '../../../auth/client.ts';
import { AuthField, ErrorBox, NewPasswordFields, PasswordField } from '../../../auth/ui.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { api } from '../../../lib/api.ts';
import { invalidateAfter, keys } from '../../../lib/queryKeys.ts';
import { formatDateTime } from '../../../lib/format.ts';

// The Security part of /settings: change password, two-factor authentication with a QR code
// and backup codes, the list of sessions with sign-out, and the login-alerts switch.

const messageOf = (e: unknown) =>
  e instanceof Error ? e.message : 'Something went wrong. Please try again.';

const Section = ({
  title,
  description,
  icon,
  children,
}: {
  title: string;
  description: string;
  icon: ReactNode;
  children: ReactNode;
}) => (
  <section className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900">
    <div className="mb-5 flex items-start gap-3">
      <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-lg bg-gradient-to-br from-brand-500 to-indigo-500 text-white">
        {icon}
      </span>
      <div>
        <h2 className="text-lg font-semibold text-slate-900 dark:text-white">{title}</h2>
        <p className="text-sm text-slate-600 dark:text-slate-400">{description}</p>
      </div>
    </div>
    {children}
  </section>
);

const Success = ({ message }: { message: string | null }) =>
  message ? (
    <p
      role="status"
      className="mb-4 rounded-lg bg-emerald-50 p-3 text-sm text-emerald-800 dark:bg-emerald-950/60 dark:text-emerald-300"
    >
      {message}
    </p>
  ) : null;

const ChangePassword = () => {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [signOutOthers, setSignOutOthers] = useState(true);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    if (!current) return setError(MESSAGES.passwordRequired);
    const problem = validateNewPassword(next, confirm);
    if (problem) return setError(problem);
    setBusy(true);
    setError(null);
    try {
      await changePassword(current, next, signOutOthers);
      setCurrent('');
      setNext('');
      setConfirm('');
      setDone(signOutOthers ? 'Password changed. Your other sessions were signed out.' : 'Password changed.');
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };
  const edit = (setter: (v: string) => void) => (e: { target: { value: string } }) => {
    setter(e.target.value);
    setError(null);
  };
  const differ = confirm.length > 0 && next !== confirm;

  return (
    <Section
      title="Change password"
      description="You need your current password to set a new one."
      icon={<KeyRound className="h-5 w-5" aria-hidden="true" />}
    >
      <ErrorBox message={error} />
      <Success message={done} />
      <form onSubmit={submit} noValidate className="grid max-w-md gap-4">
        <PasswordField
          label="Current password"
          autoComplete="current-password"
          value={current}
          onChange={edit(setCurrent)}
        />
        <NewPasswordFields
          password={next}
          confirm={confirm}
          onPassword={(v) => {
            setNext(v);
            setError(null);
          }}
          onConfirm={(v) => {
            setConfirm(v);
            setError(null);
          }}
        />
        <label className="flex min-h-11 items-center gap-3 text-sm text-slate-700 dark:text-slate-300">
          <input
            type="checkbox"
            className="h-5 w-5 accent-brand-600"
            checked={signOutOthers}
            onChange={(e) => setSignOutOthers(e.target.checked)}
          />
          Sign out my other sessions
        </label>
        <div>
          <Button type="submit" busy={busy} disabled={differ}>
            {busy ? 'Changing...' : 'Change password'}
          </Button>
        </div>
      </form>
    </Section>
  );
};

type Setup = { qr: string; secret: string; backupCodes: string[] };

const TwoFactor = ({ enabled, onChanged }: { enabled: boolean; onChanged: () => Promise<void> }) => {
  const [password, setPassword] = useState('');
  const [setup, setSetup] = useState<Setup | null>(null);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [mode, setMode] = useState<'idle' | 'password'>('idle');

  const start = async (event: FormEvent) => {
    event.preventDefault();
    if (!password) return setError(MESSAGES.passwordRequired);
    setBusy(true);
    setError(null);
    try {
      if (enabled) {
        await disableTwoFactor(password);
        setDone('Two-factor authentication is off.');
        setMode('idle');
        await onChanged();
      } else {
        const { totpURI, backupCodes } = await enableTwoFactor(password);
        const qr = await QRCode.toDataURL(totpURI, { margin: 1, width: 200 });
        const secret = new URL(totpURI).searchParams.get('secret') ?? '';
        setSetup({ qr, secret, backupCodes });
      }
      setPassword('');
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  const confirmCode = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await verifyTwoFactorCode(code);
      setSetup(null);
      setCode('');
      setMode('idle');
      setDone('Two-factor authentication is on. Keep your backup codes somewhere safe.');
      await onChanged();
    } catch (e) {
      setError(e instanceof AuthError && e.code === 'invalid-totp' ? e.message : messageOf(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Section
      title="Two-factor authentication"
      description="Ask for a code from an authenticator app (Google Authenticator, 1Password, Authy) when you sign in."
      icon={<ShieldCheck className="h-5 w-5" aria-hidden="true" />}
    >
      <p className="mb-4 text-sm">
        Status:{' '}
        <strong
          data-testid="two-factor-status"
          className={
            enabled ? 'text-emerald-600 dark:text-emerald-400' : 'text-slate-700 dark:text-slate-300'
          }
        >
          {enabled ? 'On' : 'Off'}
        </strong>
      </p>
      <ErrorBox message={error} />
      <Success message={done} />
      {setup ? (
        <div className="grid gap-6 md:grid-cols-2">
          <div>
            <p className="text-sm text-slate-700 dark:text-slate-300">
              1. Scan this QR code with your authenticator app.
            </p>
            <img
              src={setup.qr}
              alt="QR code for your authenticator app"
              width={200}
              height={200}
              className="mt-3 rounded-lg border border-slate-200 bg-white p-2"
            />
            <p className="mt-2 text-xs text-slate-500">
              Can't scan it? Enter this key:{' '}
              <code
                data-testid="totp-secret"
                className="break-all font-mono text-slate-800 dark:text-slate-200"
              >
                {setup.secret}
              </code>
            </p>
          </div>
          <div>
            <p className="text-sm text-slate-700 dark:text-slate-300">
              2. Save these backup codes. Each works once if you lose your device.
            </p>
            <ul
              data-testid="backup-codes"
              className="mt-3 grid grid-cols-2 gap-1 rounded-lg bg-slate-50 p-3 font-mono text-sm dark:bg-slate-800"
            >
              {setup.backupCodes.map((c) => (
                <li key={c}>{c}</li>
              ))}
            </ul>
            <form onSubmit={confirmCode} noValidate className="mt-4 space-y-3">
              <AuthField
                label="3. Enter the 6-digit code from the app"
                inputMode="numeric"
                autoComplete="one-time-code"
                value={code}
                onChange={(e) => {
                  setCode(e.target.value);
                  setError(null);
                }}
              />
              <div className="flex gap-2">
                <Button type="submit" busy={busy}>
                  Turn on
                </Button>
                <Button
                  variant="secondary"
                  onClick={() => {
                    setSetup(null);
                    setMode('idle');
                  }}
                >
                  Cancel
                </Button>
              </div>
            </form>
          </div>
        </div>
      ) : mode === 'password' ? (
        <form onSubmit={start} noValidate className="grid max-w-md gap-3">
          <PasswordField
            label="Confirm with your password"
            autoComplete="current-password"
            autoFocus
            value={password}
            onChange={(e) => {
              setPassword(e.target.value);
              setError(null);
            }}
          />
          <div className="flex gap-2">
            <Button type="submit" busy={busy} variant={enabled ? 'danger' : 'primary'}>
              {enabled ? 'Turn off two-factor' : 'Continue'}
            </Button>
            <Button variant="secondary" onClick={() => setMode('idle')}>
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <Button
          variant={enabled ? 'secondary' : 'primary'}
          onClick={() => {
            setMode('password');
            setDone(null);
          }}
        >
          {enabled ? 'Turn off two-factor authentication' : 'Turn on two-factor authentication'}
        </Button>
      )}
    </Section>
  );
};

const describeDevice = (ua: string | null) => {
  if (!ua) return 'Unknown device';
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /Firefox\//.test(ua)
      ? 'Firefox'
      : /Chrome\//.test(ua)
        ? 'Chrome'
        : /Safari\//.test(ua)
          ? 'Safari'
          : 'Browser';
  const os = /Windows/.test(ua)
    ? 'Windows'
    : /Mac OS X/.test(ua)
      ? 'macOS'
      : /Android/.test(ua)
        ? 'Android'
        : /iPhone|iPad/.test(ua)
          ? 'iOS'
          : /Linux/.test(ua)
            ? 'Linux'
            : 'another system';
  return `${browser} on ${os}`;
};

const isMobile = (ua: string | null) => !!ua && /Mobile|Android|iPhone/.test(ua);

const Sessions = () => {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const sessions = useQuery({
    queryKey: keys.sessions,
    queryFn: async () => {
      const [list, current] = await Promise.all([listSessions(), fetchSession()]);
      return { list, currentToken: current?.session.token ?? null };
    },
  });
  const run = async (key: string, action: () => Promise<void>) => {
    setBusy(key);
    setError(null);
    try {
      await action();
      await invalidateAfter.sessions(queryClient);
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(null);
    }
  };
  const sorted = (list: SessionInfo[], currentToken: string | null) =>
    [...list].sort((a, b) =>
      a.token === currentToken ? -1 : b.token === currentToken ? 1 : b.updatedAt.localeCompare(a.updatedAt),
    );

  return (
    <Section
      title="Where you're signed in"
      description="Sign out any session you don't recognise."
      icon={<Laptop className="h-5 w-5" aria-hidden="true" />}
    >
      <ErrorBox message={error} />
      {sessions.isPending ? (
        <Spinner label="Loading sessions..." />
      ) : sessions.isError ? (
        <ErrorBox message={messageOf(sessions.error)} />
      ) : (
        <>
          <ul className="divide-y divide-slate-200 dark:divide-slate-800" aria-label="Sessions">
            {sorted(sessions.data.list, sessions.data.currentToken).map((s) => {
              const current = s.token === sessions.data.currentToken;
              return (
                <li
                  key={s.id}
                  className="flex flex-wrap items-center justify-between gap-3 py-3"
                  data-testid="session-row"
                >
                  <div className="flex items-center gap-3">
                    {isMobile(s.userAgent) ? (
                      <Smartphone className="h-5 w-5 text-slate-500" aria-hidden="true" />
                    ) : (
                      <Laptop className="h-5 w-5 text-slate-500" aria-hidden="true" />
                    )}
                    <div>
                      <p className="text-sm font-medium text-slate-900 dark:text-white">
                        {describeDevice(s.userAgent)}
                        {current ? (
                          <span className="ml-2 rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-800 dark:bg-emerald-900/60 dark:text-emerald-200">
                            This device
                          </span>
                        ) : null}
                      </p>
                      <p className="text-xs text-slate-500 dark:text-slate-400">
                        {s.ipAddress ?? 'Unknown IP'} · signed in {formatDateTime(s.createdAt)} · last active{' '}
                        {formatDateTime(s.updatedAt)}
                      </p>
                    </div>
                  </div>
                  {current ? null : (
                    <Button
                      size="sm"
                      variant="secondary"
                      busy={busy === s.id}
                      onClick={() => void run(s.id, () => revokeSession(s.token))}
                    >
                      <LogOut className="h-4 w-4" aria-hidden="true" /> Sign out
                    </Button>
                  )}
                </li>
              );
            })}
          </ul>
          {sessions.data.list.length > 1 ? (
            <div className="mt-4">
              <Button
                variant="secondary"
                busy={busy === 'others'}
                onClick={() => void run('others', revokeOtherSessions)}
              >
                Sign out all other sessions
              </Button>
            </div>
          ) : null}
        </>
      )}
    </Section>
  );
};

const LoginAlerts = ({ profile, onSaved }: { profile: UserProfile | null; onSaved: () => Promise<void> }) => {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const on = profile?.security.loginAlerts ?? true;
  const toggle = async () => {
    setBusy(true);
    setError(null);
    try {
      await api.patch('/me/profile', { security: { loginAlerts: !on } });
      await onSaved();
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Section
      title="Login alerts"
      description="Get an email whenever someone signs in to your account."
      icon={<ShieldCheck className="h-5 w-5" aria-hidden="true" />}
    >
      <ErrorBox message={error} />
      <div className="flex min-h-11 items-center gap-3">
        <button
          type="button"
          role="switch"
          aria-checked={on}
          aria-labelledby="login-alerts-label"
          disabled={busy || !profile}
          onClick={() => void toggle()}
          className={`relative inline-flex h-7 w-12 shrink-0 items-center rounded-full transition-colors disabled:opacity-50 ${on ? 'bg-brand-600' : 'bg-slate-300 dark:bg-slate-700'}`}
        >
          <span
            className={`inline-block h-5 w-5 rounded-full bg-white shadow transition-transform ${on ? 'translate-x-6' : 'translate-x-1'}`}
          />
        </button>
        <span id="login-alerts-label" className="text-sm text-slate-700 dark:text-slate-300">
          Email me about new sign-ins
        </span>
      </div>
    </Section>
  );
};

export const SecuritySettings = () => {
  const { userProfile, currentUser, refreshProfile, refreshSession } = useAuth();
  const enabled = userProfile?.security.twoFactorEnabled ?? currentUser?.twoFactorEnabled === true;
  const changed = async () => {
    await refreshSession();
    await refreshProfile();
  };
  return (
    <div className="space-y-6" data-testid="security-settings">
      <Section
        title="Email address"
        description="Invitations and the email Kontor sends for you need a confirmed address."
        icon={<Mail className="h-5 w-5" aria-hidden="true" />}
      >
        <EmailVerificationStatus />
      </Section>
      <ChangePassword />
      <TwoFactor enabled={enabled} onChanged={changed} />
      <Sessions />
      <LoginAlerts profile={userProfile} onSaved={refreshProfile} />
    </div>
  );
};

export default SecuritySettings;
