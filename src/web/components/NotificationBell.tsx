import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Bell, CheckCheck } from 'lucide-react';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { Notification, NotificationPage } from '../../shared/notifications.ts';
import { api, errorText } from '../lib/api.ts';
import { useCompanies } from '../lib/company.tsx';
import { formatDateTime } from '../lib/format.ts';
import { invalidateAfter, keys } from '../lib/queryKeys.ts';
import { useAction } from '../lib/useAction.ts';
import { Spinner } from './Spinner.tsx';

// The bell in the app's header: how many of my notifications are unread (asked every minute
// and when the window gets focus), and a panel with the newest ones, unread first; opening one
// marks it read and goes to its page (switching to its company first), "Mark all read" clears
// the count. Escape or a click outside closes the panel and gives focus back to the bell.

const POLL_MS = 60_000;
const PAGE = 20;

/** "Notifications", "Notifications, 1 unread", "Notifications, 3 unread". */
export const bellLabel = (unread: number) =>
  unread > 0 ? `Notifications, ${unread} unread` : 'Notifications';

/** What the badge shows: the count, or 99+. */
export const badgeText = (unread: number) => (unread > 99 ? '99+' : String(unread));

const Item = ({ n, onOpen, busy }: { n: Notification; onOpen: (n: Notification) => void; busy: boolean }) => (
  <li>
    <button
      type="button"
      onClick={() => onOpen(n)}
      aria-busy={busy || undefined}
      className={`flex min-h-11 w-full gap-3 px-4 py-3 text-left transition-colors hover:bg-slate-50 focus-visible:bg-slate-50 dark:hover:bg-slate-800 dark:focus-visible:bg-slate-800 ${n.readAt ? '' : 'bg-brand-50/60 dark:bg-brand-900/20'}`}
    >
      <span
        aria-hidden="true"
        className={`mt-1.5 h-2 w-2 shrink-0 rounded-full ${n.readAt ? 'bg-transparent' : 'bg-brand-600 dark:bg-brand-400'}`}
      />
      <span className="min-w-0 flex-1">
        <span className="block text-sm font-medium text-slate-900 dark:text-white">
          {n.title}
          {n.readAt ? null : <span className="sr-only"> (unread)</span>}
        </span>
        <span className="mt-0.5 block text-sm break-words text-slate-600 dark:text-slate-300">{n.body}</span>
        <span className="mt-1 block text-xs text-slate-500 dark:text-slate-400">
          {formatDateTime(n.createdAt)}
        </span>
      </span>
    </button>
  </li>
);

export const NotificationBell = () => {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { current, switchTo } = useCompanies();
  const { busyKey, error, run } = useAction();

  const count = useQuery({
    queryKey: keys.notifications('count'),
    queryFn: () => api.get<{ unread: number }>('/me/notifications/unread-count'),
    refetchInterval: POLL_MS,
    refetchOnWindowFocus: true,
  });
  const list = useQuery({
    queryKey: keys.notifications('list'),
    queryFn: () => api.get<NotificationPage>('/me/notifications', { order: 'unread_first', limit: PAGE }),
    enabled: open,
  });
  const unread = count.data?.unread ?? 0;

  const close = useCallback((focusBell = true) => {
    setOpen(false);
    if (focusBell) buttonRef.current?.focus();
  }, []);

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close();
    };
    const onPointer = (e: PointerEvent) => {
      const target = e.target as Node;
      if (!panelRef.current?.contains(target) && !buttonRef.current?.contains(target)) close(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    panelRef.current?.focus();
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open, close]);

  const openOne = (n: Notification) =>
    run(
      async () => {
        if (!n.readAt) await api.post(`/me/notifications/${encodeURIComponent(n.id)}/read`);
        await invalidateAfter.notifications(queryClient);
        if (n.organizationId && n.organizationId !== current?.id) switchTo(n.organizationId);
        setOpen(false);
        navigate(n.link);
      },
      { key: n.id },
    );
  const markAll = () =>
    run(
      async () => {
        await api.post('/me/notifications/read-all');
        await invalidateAfter.notifications(queryClient);
      },
      { key: 'all' },
    );

  return (
    <div className="relative">
      <button
        ref={buttonRef}
        type="button"
        aria-label={bellLabel(unread)}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => (open ? close() : setOpen(true))}
        className="relative inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-lg text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
        data-testid="notification-bell"
      >
        <Bell className="h-5 w-5" aria-hidden="true" />
        {unread > 0 ? (
          <span
            aria-hidden="true"
            className="absolute top-1.5 right-1 min-w-[1.125rem] rounded-full bg-rose-600 px-1 text-center text-[11px] leading-[1.125rem] font-semibold text-white"
          >
            {badgeText(unread)}
          </span>
        ) : null}
      </button>
      {open ? (
        <div
          ref={panelRef}
          id={panelId}
          role="dialog"
          aria-label="Notifications"
          tabIndex={-1}
          className="fixed inset-x-2 top-16 z-50 max-h-[min(32rem,calc(100vh-5rem))] overflow-hidden rounded-xl border border-slate-200 bg-white shadow-xl outline-none sm:absolute sm:inset-x-auto sm:top-full sm:right-0 sm:mt-2 sm:w-96 dark:border-slate-700 dark:bg-slate-900"
        >
          <div className="flex items-center justify-between gap-2 border-b border-slate-200 px-4 py-2 dark:border-slate-700">
            <h2 className="text-sm font-semibold text-slate-900 dark:text-white">Notifications</h2>
            <button
              type="button"
              onClick={() => void markAll()}
              disabled={unread === 0}
              aria-busy={busyKey === 'all' || undefined}
              className="inline-flex min-h-11 items-center gap-1.5 rounded-lg px-2 text-sm font-medium text-brand-700 hover:bg-brand-50 disabled:cursor-not-allowed disabled:text-slate-400 dark:text-brand-300 dark:hover:bg-slate-800 dark:disabled:text-slate-500"
            >
              <CheckCheck className="h-4 w-4" aria-hidden="true" /> Mark all read
            </button>
          </div>
          {error ? (
            <p role="alert" className="px-4 py-2 text-sm text-rose-700 dark:text-rose-300">
              {error}
            </p>
          ) : null}
          <div className="max-h-[min(28rem,calc(100vh-9rem))] overflow-y-auto">
            {list.isPending ? (
              <div className="p-6">
                <Spinner label="Loading notifications..." />
              </div>
            ) : list.isError ? (
              <div className="p-4 text-sm">
                <p role="alert" className="text-rose-700 dark:text-rose-300">
                  Could not load notifications: {errorText(list.error)}
                </p>
                <button
                  type="button"
                  onClick={() => void list.refetch()}
                  className="mt-2 min-h-11 rounded-lg px-3 font-medium text-brand-700 hover:bg-brand-50 dark:text-brand-300 dark:hover:bg-slate-800"
                >
                  Try again
                </button>
              </div>
            ) : list.data.notifications.length === 0 ? (
              <p className="px-4 py-8 text-center text-sm text-slate-600 dark:text-slate-300">
                No notifications yet. Payments, overdue invoices, large transactions and new sign-ins show up
                here.
              </p>
            ) : (
              <ul className="divide-y divide-slate-100 dark:divide-slate-800" aria-label="Notifications">
                {list.data.notifications.map((n) => (
                  <Item key={n.id} n={n} onOpen={(x) => void openOne(x)} busy={busyKey === n.id} />
                ))}
              </ul>
            )}
          </div>
          <div className="border-t border-slate-200 px-4 py-2 text-right dark:border-slate-700">
            <button
              type="button"
              onClick={() => {
                setOpen(false);
                navigate('/settings?tab=notifications');
              }}
              className="min-h-11 rounded-lg px-2 text-sm font-medium text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
            >
              Notification settings
            </button>
          </div>
        </div>
      ) : null}
    </div>
  );
};
