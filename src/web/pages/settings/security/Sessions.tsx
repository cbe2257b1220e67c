import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Laptop, LogOut, Smartphone } from 'lucide-react';
import {
  type SessionInfo,
  fetchSession,
  listSessions,
  revokeOtherSessions,
  revokeSession,
} from '../../../auth/client.ts';
import { ErrorBox } from '../../../auth/ui.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import { errorText } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { invalidateAfter, keys } from '../../../lib/queryKeys.ts';
import { useAction } from '../../../lib/useAction.ts';

// Where the person is signed in: each session with its device and times, signing one or all
// the others out.

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

export const Sessions = () => {
  const queryClient = useQueryClient();
  const { busyKey, error, run } = useAction();
  const sessions = useQuery({
    queryKey: keys.sessions,
    queryFn: async () => {
      const [list, current] = await Promise.all([listSessions(), fetchSession()]);
      return { list, currentToken: current?.session.token ?? null };
    },
  });
  const signOut = (key: string, action: () => Promise<void>) =>
    run(
      async () => {
        await action();
        await invalidateAfter.sessions(queryClient);
      },
      { key },
    );
  const sorted = (list: SessionInfo[], currentToken: string | null) =>
    [...list].sort((a, b) =>
      a.token === currentToken ? -1 : b.token === currentToken ? 1 : b.updatedAt.localeCompare(a.updatedAt),
    );

  return (
    <>
      <ErrorBox message={error} />
      {sessions.isPending ? (
        <Spinner label="Loading sessions..." />
      ) : sessions.isError ? (
        <ErrorBox message={errorText(sessions.error)} />
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
                      busy={busyKey === s.id}
                      onClick={() => void signOut(s.id, () => revokeSession(s.token))}
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
                busy={busyKey === 'others'}
                onClick={() => void signOut('others', revokeOtherSessions)}
              >
                Sign out all other sessions
              </Button>
            </div>
          ) : null}
        </>
      )}
    </>
  );
};
