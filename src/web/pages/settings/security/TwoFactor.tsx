import QRCode from 'qrcode';
import { type FormEvent, useState } from 'react';
import { MESSAGES } from '../../../../shared/auth/rules.ts';
import { useAuth } from '../../../auth/AuthProvider.tsx';
import { disableTwoFactor, enableTwoFactor, verifyTwoFactorCode } from '../../../auth/client.ts';
import { AuthField, ErrorBox, PasswordField, editClearing } from '../../../auth/ui.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import { useAction } from '../../../lib/useAction.ts';
import { Success } from './Section.tsx';

// Two-factor authentication: confirm with the password, scan the QR code, keep the backup
// codes, confirm with a code from the app; or turn it off with the password.

type Setup = { qr: string; secret: string; backupCodes: string[] };

export const TwoFactor = () => {
  const { userProfile, currentUser, refreshProfile, refreshSession } = useAuth();
  const enabled = userProfile?.security.twoFactorEnabled ?? currentUser?.twoFactorEnabled === true;
  const onChanged = async () => {
    await refreshSession();
    await refreshProfile();
  };
  const [password, setPassword] = useState('');
  const [setup, setSetup] = useState<Setup | null>(null);
  const [code, setCode] = useState('');
  const { busy, error, setError, run } = useAction();
  const [done, setDone] = useState<string | null>(null);
  const [mode, setMode] = useState<'idle' | 'password'>('idle');
  const edit = editClearing(() => setError(null));

  const start = async (event: FormEvent) => {
    event.preventDefault();
    if (!password) return setError(MESSAGES.passwordRequired);
    await run(async () => {
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
    });
  };

  const confirmCode = async (event: FormEvent) => {
    event.preventDefault();
    await run(async () => {
      await verifyTwoFactorCode(code);
      setSetup(null);
      setCode('');
      setMode('idle');
      setDone('Two-factor authentication is on. Keep your backup codes somewhere safe.');
      await onChanged();
    });
  };

  return (
    <>
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
                onChange={edit(setCode)}
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
            onChange={edit(setPassword)}
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
    </>
  );
};
