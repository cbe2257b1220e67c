import { useAuth } from '../../../auth/AuthProvider.tsx';
import { ErrorBox } from '../../../auth/ui.tsx';
import { api } from '../../../lib/api.ts';
import { useAction } from '../../../lib/useAction.ts';

// The login-alerts switch: an email on every new sign-in.

export const LoginAlerts = () => {
  const { userProfile: profile, refreshProfile: onSaved } = useAuth();
  const { busy, error, run } = useAction();
  const on = profile?.security.loginAlerts ?? true;
  const toggle = () =>
    run(async () => {
      await api.patch('/me/profile', { security: { loginAlerts: !on } });
      await onSaved();
    });
  return (
    <>
      <ErrorBox message={error} />
      <div className="flex min-h-11 items-center gap-3">
        <button
          type="button"
          role="switch"
          aria-checked={on}
          aria-labelledby="login-alerts-label"
          disabled={busy || !profile}
          onClick={() => void toggle()}
          // The 44 px target around the 28 px track.
          className="inline-flex h-11 w-14 shrink-0 items-center justify-center rounded-full disabled:opacity-50"
        >
          <span
            className={`relative inline-flex h-7 w-12 items-center rounded-full transition-colors ${on ? 'bg-brand-600' : 'bg-slate-300 dark:bg-slate-700'}`}
          >
            <span
              className={`inline-block h-5 w-5 rounded-full bg-white shadow transition-transform ${on ? 'translate-x-6' : 'translate-x-1'}`}
            />
          </span>
        </button>
        <span id="login-alerts-label" className="text-sm text-slate-700 dark:text-slate-300">
          Email me about new sign-ins
        </span>
      </div>
    </>
  );
};
