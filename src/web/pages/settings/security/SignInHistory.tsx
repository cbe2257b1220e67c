import { useInfiniteQuery } from '@tanstack/react-query';
import { Laptop, Smartphone } from 'lucide-react';
import type { SignInHistory as SignInHistoryPage } from '../../../../shared/notifications.ts';
import { ErrorBox } from '../../../auth/ui.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { Button } from '../../../components/ui/Button.tsx';
import { api, errorText } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { keys } from '../../../lib/queryKeys.ts';

// Sign-in history: each completed sign-in to the account, newest first, with its device, address
// and time; "This session" marks the one in use, "New device" the first from a device (which
// sends a login alert when those are on).

const MOBILE = /\b(iOS|Android|iPadOS)\b/;

export const SignInHistory = () => {
  const history = useInfiniteQuery({
    queryKey: keys.signIns,
    queryFn: ({ pageParam }) =>
      api.get<SignInHistoryPage>('/me/sign-ins', { limit: 10, ...(pageParam ? { cursor: pageParam } : {}) }),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  if (history.isPending) return <Spinner label="Loading sign-in history..." />;
  if (history.isError)
    return (
      <>
        <ErrorBox message={`Could not load the sign-in history: ${errorText(history.error)}`} />
        <Button variant="secondary" onClick={() => void history.refetch()}>
          Try again
        </Button>
      </>
    );
  const signIns = history.data.pages.flatMap((p) => p.signIns);
  if (signIns.length === 0)
    return (
      <p className="text-sm text-slate-600 dark:text-slate-400">
        No sign-ins recorded yet. Each time you sign in, it shows here with the device and time.
      </p>
    );
  return (
    <>
      <ul className="divide-y divide-slate-200 dark:divide-slate-800" aria-label="Sign-in history">
        {signIns.map((s) => (
          <li key={s.id} className="flex items-center gap-3 py-3" data-testid="sign-in-row">
            {MOBILE.test(s.device) ? (
              <Smartphone className="h-5 w-5 shrink-0 text-slate-500" aria-hidden="true" />
            ) : (
              <Laptop className="h-5 w-5 shrink-0 text-slate-500" aria-hidden="true" />
            )}
            <div className="min-w-0">
              <p className="text-sm font-medium text-slate-900 dark:text-white">
                {s.device}
                {s.current ? (
                  <span className="ml-2 rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-800 dark:bg-emerald-900/60 dark:text-emerald-200">
                    This session
                  </span>
                ) : null}
                {s.newDevice ? (
                  <span className="ml-2 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900 dark:bg-amber-900/50 dark:text-amber-200">
                    New device
                  </span>
                ) : null}
              </p>
              <p className="text-xs break-words text-slate-500 dark:text-slate-400">
                <time dateTime={s.createdAt}>{formatDateTime(s.createdAt)}</time> · {s.ip ?? 'Unknown IP'}
              </p>
            </div>
          </li>
        ))}
      </ul>
      {history.hasNextPage ? (
        <div className="mt-3">
          <Button
            variant="secondary"
            busy={history.isFetchingNextPage}
            onClick={() => void history.fetchNextPage()}
          >
            Show older sign-ins
          </Button>
        </div>
      ) : null}
    </>
  );
};
