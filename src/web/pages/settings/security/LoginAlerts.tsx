import { useAuth } from '../../../auth/AuthProvider.tsx';
import { ErrorBox } from '../../../auth/ui.tsx';
import { api } from '../../../lib/api.ts';
import { useAction } from '../../../lib/useAction.ts';
import { Switch } from '../../../components/ui/Switch.tsx';

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
        <Switch
          on={on}
          labelledBy="login-alerts-label"
          busy={busy}
          disabled={busy || !profile}
          onToggle={() => void toggle()}
        />
        <span id="login-alerts-label" className="text-sm text-slate-700 dark:text-slate-300">
          Email me about new sign-ins
        </span>
      </div>
    </>
  );
};
