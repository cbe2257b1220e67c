import { useQuery, useQueryClient } from '@tanstack/react-query';
import { BellRing, Bell, Scale } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import type { NotificationChannels } from '../../../shared/auth/profile.ts';
import {
  NOTIFICATION_CATEGORIES,
  NOTIFICATION_CATEGORY_DESCRIPTIONS,
  NOTIFICATION_CATEGORY_LABELS,
  type NotificationCategory,
  type NotificationSettings as CompanyNotificationSettings,
  type PushConfig,
} from '../../../shared/notifications.ts';
import { useAuth } from '../../auth/AuthProvider.tsx';
import { ErrorBox } from '../../auth/ui.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { TextField } from '../../components/ui/Field.tsx';
import { api, errorText } from '../../lib/api.ts';
import { useCompanies } from '../../lib/company.tsx';
import { keys } from '../../lib/queryKeys.ts';
import { useAction } from '../../lib/useAction.ts';
import { SectionList, type SectionPart, Success } from './security/Section.tsx';
import {
  browserSupportsPush,
  currentSubscription,
  disableBrowserPush,
  enableBrowserPush,
} from './notifications/browserPush.ts';

import { Switch } from '../../components/ui/Switch.tsx';
// Settings → Notifications: the profile's matrix (email and push × transactions, invoices,
// payments, security) as a table of switches, saved to the profile at once; browser push for
// this device (only when the server has VAPID keys); and the company's large-transaction
// threshold (changed by those who manage its settings).

type Channel = 'email' | 'push';

const CHANNEL_HEADINGS: Record<Channel, string> = { email: 'Email', push: 'In app and push' };

const Matrix = () => {
  const { userProfile: profile, refreshProfile } = useAuth();
  const { busyKey, error, run } = useAction();
  if (!profile) return <Spinner label="Loading your settings..." />;
  const matrix = profile.preferences.notifications;
  const toggle = (channel: Channel, category: NotificationCategory) =>
    run(
      async () => {
        const patch: Partial<NotificationChannels> = { [category]: !matrix[channel][category] };
        await api.patch('/me/profile', { preferences: { notifications: { [channel]: patch } } });
        await refreshProfile();
      },
      { key: `${channel}:${category}` },
    );
  return (
    <>
      <ErrorBox message={error} />
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">What you are told about, by email and in the app</caption>
          <thead>
            <tr className="border-b border-slate-200 text-slate-600 dark:border-slate-700 dark:text-slate-400">
              <th scope="col" className="py-2 pr-2 font-medium">
                Category
              </th>
              {(['email', 'push'] as const).map((c) => (
                <th key={c} scope="col" className="w-20 px-1 py-2 text-center font-medium">
                  {CHANNEL_HEADINGS[c]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
            {NOTIFICATION_CATEGORIES.map((category) => (
              <tr key={category}>
                <th scope="row" className="py-3 pr-2 font-normal">
                  <span className="block font-medium text-slate-900 dark:text-white">
                    {NOTIFICATION_CATEGORY_LABELS[category]}
                  </span>
                  <span className="block text-xs text-slate-500 dark:text-slate-400">
                    {NOTIFICATION_CATEGORY_DESCRIPTIONS[category]}
                  </span>
                </th>
                {(['email', 'push'] as const).map((channel) => (
                  <td key={channel} className="px-1 py-2 text-center">
                    <Switch
                      on={matrix[channel][category]}
                      label={`${CHANNEL_HEADINGS[channel]}: ${NOTIFICATION_CATEGORY_LABELS[category]}`}
                      busy={busyKey === `${channel}:${category}`}
                      disabled={busyKey !== null}
                      onToggle={() => void toggle(channel, category)}
                    />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p className="mt-3 text-xs text-slate-500 dark:text-slate-400">
        "In app and push" puts the notification in the bell at the top of every page, and sends it to the
        browsers where you turned on browser push. Sign-in alerts also need "Login alerts" on (Security).
      </p>
    </>
  );
};

const BrowserPush = () => {
  const config = useQuery({
    queryKey: keys.notifications('push-config'),
    queryFn: () => api.get<PushConfig>('/me/push/config'),
  });
  const supported = browserSupportsPush();
  const device = useQuery({
    queryKey: keys.notifications('push-device'),
    queryFn: async () => (await currentSubscription()) !== null,
    enabled: supported && config.data?.configured === true,
  });
  const { busy, error, run } = useAction();
  const [done, setDone] = useState<string | null>(null);
  if (config.isPending) return <Spinner label="Checking browser push..." />;
  if (config.isError) return <ErrorBox message={errorText(config.error)} />;
  if (!config.data.configured || !config.data.publicKey)
    return (
      <p className="text-sm text-slate-700 dark:text-slate-300" data-testid="push-not-configured">
        Browser push is not configured on this server (it needs VAPID keys). Your "In app and push"
        notifications appear in the bell in Kontor.
      </p>
    );
  if (!supported)
    return (
      <p className="text-sm text-slate-700 dark:text-slate-300">
        This browser cannot receive push notifications. They still appear in the bell in Kontor.
      </p>
    );
  const publicKey = config.data.publicKey;
  const on = device.data === true;
  return (
    <>
      <ErrorBox message={error} />
      <Success message={done} />
      <p className="mb-3 text-sm text-slate-700 dark:text-slate-300">
        {on ? 'Browser push is on for this device.' : 'Browser push is off for this device.'}
      </p>
      <Button
        variant={on ? 'secondary' : 'primary'}
        busy={busy}
        onClick={() =>
          void run(async () => {
            setDone(null);
            if (on) await disableBrowserPush();
            else await enableBrowserPush(publicKey);
            await device.refetch();
            setDone(
              on ? 'Browser push turned off for this device.' : 'Browser push turned on for this device.',
            );
          })
        }
      >
        {on ? 'Turn off browser push' : 'Enable browser push'}
      </Button>
    </>
  );
};

const LargeTransactions = () => {
  const { current } = useCompanies();
  const queryClient = useQueryClient();
  const orgId = current?.id ?? '';
  const canChange = current?.permissions.includes('manage_settings') ?? false;
  const setting = useQuery({
    queryKey: keys.org(orgId).concat('notification-settings'),
    queryFn: () => api.get<CompanyNotificationSettings>(`/orgs/${orgId}/notification-settings`),
    enabled: orgId !== '',
  });
  const [draft, setDraft] = useState<string | null>(null);
  const { busy, error, run } = useAction();
  const [saved, setSaved] = useState<string | null>(null);
  if (!current) return <p className="text-sm text-slate-600 dark:text-slate-400">Create a company first.</p>;
  if (setting.isPending) return <Spinner label="Loading the threshold..." />;
  if (setting.isError) return <ErrorBox message={errorText(setting.error)} />;
  const value = draft ?? String(setting.data.largeTransactionUnits);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      setSaved(null);
      const units = Number(value);
      if (!/^\d+$/.test(value.trim()) || units < 1)
        throw new Error('Enter a whole number of at least 1, such as 10000.');
      await api.put(`/orgs/${orgId}/notification-settings`, { largeTransactionUnits: units });
      await queryClient.invalidateQueries({ queryKey: keys.org(orgId).concat('notification-settings') });
      setDraft(null);
      setSaved('Saved.');
    });
  };
  return (
    <form onSubmit={submit} className="max-w-md space-y-3">
      <ErrorBox message={error} />
      <Success message={saved} />
      <TextField
        label={`Large transaction threshold for ${current.name}`}
        hint="Whole units of the transaction's currency: 10000 means 10,000.00 USD or 10,000 JPY."
        inputMode="numeric"
        value={value}
        disabled={!canChange}
        onChange={(e) => setDraft(e.target.value)}
      />
      {canChange ? (
        <Button type="submit" busy={busy}>
          Save threshold
        </Button>
      ) : (
        <p className="text-xs text-slate-500 dark:text-slate-400">
          Only owners, admins and accountants of {current.name} can change it.
        </p>
      )}
    </form>
  );
};

const PARTS: SectionPart[] = [
  {
    title: 'What you are told about',
    description:
      'Company events go to owners, admins, accountants and members of that company; sign-in alerts to you only.',
    icon: Bell,
    Part: Matrix,
  },
  {
    title: 'Browser push',
    description: 'Notifications from Kontor on this device, also when Kontor is not open.',
    icon: BellRing,
    Part: BrowserPush,
  },
  {
    title: 'Large transactions',
    description:
      'A bank transaction at or above this amount, in or out, notifies the company (Transactions).',
    icon: Scale,
    Part: LargeTransactions,
  },
];

export const NotificationSettings = () => <SectionList parts={PARTS} testId="notification-settings" />;

export default NotificationSettings;
