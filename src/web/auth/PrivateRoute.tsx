import { AlertTriangle, ShieldAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { Navigate, Outlet, useNavigate } from 'react-router';
import { GUARD_MESSAGES } from '../../shared/auth/errors.ts';
import { PageSpinner } from '../components/Spinner.tsx';
import { Button } from '../components/ui/Button.tsx';
import { useAuth } from './AuthProvider.tsx';
import { clearGuardMarkers } from './markers.ts';

// The private-route guard of SPEC section 2, with all its states.

const Panel = ({
  icon,
  heading,
  text,
  action,
}: {
  icon: ReactNode;
  heading: string;
  text: string;
  action: ReactNode;
}) => (
  <main className="flex min-h-screen items-center justify-center bg-slate-50 p-6 dark:bg-slate-950">
    <section
      role="alert"
      className="w-full max-w-md rounded-2xl border border-slate-200 bg-white p-8 text-center shadow-xl dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="mx-auto mb-4 flex h-12 w-12 items-center justify-center rounded-full bg-red-50 text-red-600 dark:bg-red-950 dark:text-red-400">
        {icon}
      </div>
      <h1 className="text-xl font-bold text-slate-900 dark:text-white">{heading}</h1>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-300">{text}</p>
      <div className="mt-6">{action}</div>
    </section>
  </main>
);

export const PrivateRoute = ({ children }: { children?: ReactNode }) => {
  const { currentUser, loading, sessionError, ready } = useAuth();
  const navigate = useNavigate();

  if (!ready) {
    return (
      <Panel
        icon={<ShieldAlert className="h-6 w-6" aria-hidden="true" />}
        heading={GUARD_MESSAGES.systemHeading}
        text={GUARD_MESSAGES.systemText}
        action={
          <Button
            onClick={() => {
              clearGuardMarkers();
              window.location.reload();
            }}
          >
            {GUARD_MESSAGES.refresh}
          </Button>
        }
      />
    );
  }
  if (loading && !currentUser) return <PageSpinner label={GUARD_MESSAGES.checking} />;
  if (sessionError && !currentUser) {
    return (
      <Panel
        icon={<AlertTriangle className="h-6 w-6" aria-hidden="true" />}
        heading={GUARD_MESSAGES.errorHeading}
        text={sessionError || GUARD_MESSAGES.errorFallback}
        action={<Button onClick={() => navigate('/login')}>{GUARD_MESSAGES.goToLogin}</Button>}
      />
    );
  }
  if (!currentUser) return <Navigate to="/login" replace />;
  return children ? children : <Outlet />;
};
