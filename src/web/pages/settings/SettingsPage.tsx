import { type ComponentType, Suspense, lazy } from 'react';
import { useSearchParams } from 'react-router';
import { Spinner } from '../../components/Spinner.tsx';
import { ApiKeysSettings } from './ApiKeysSettings.tsx';
import { CompanySettings } from './CompanySettings.tsx';
import { MembersSettings } from './MembersSettings.tsx';
import { NotificationSettings } from './NotificationSettings.tsx';
import { PreferencesSettings } from './PreferencesSettings.tsx';
import { ProfileSettings } from './ProfileSettings.tsx';
import { WebhooksSettings } from './webhooks/WebhooksSettings.tsx';
import { PageTabs, tabFrom } from '../../components/ui/Tabs.tsx';

// /settings: the signed-in user's profile (the default tab), the company, its members, and the
// user's preferences, notifications and security; the company's API keys.

const optional = import.meta.glob<{ default?: ComponentType; SecuritySettings?: ComponentType }>(
  './security/SecuritySettings.tsx',
);
const securityLoader = optional['./security/SecuritySettings.tsx'];
const Security = securityLoader
  ? lazy(() =>
      securityLoader().then((m) => ({ default: (m.SecuritySettings ?? m.default) as ComponentType })),
    )
  : null;

const SettingsPage = () => {
  const [params, setParams] = useSearchParams();
  const tabs = [
    { id: 'profile', label: 'Profile', panel: <ProfileSettings /> },
    { id: 'company', label: 'Company', panel: <CompanySettings /> },
    { id: 'members', label: 'Members', panel: <MembersSettings /> },
    { id: 'preferences', label: 'Preferences', panel: <PreferencesSettings /> },
    { id: 'notifications', label: 'Notifications', panel: <NotificationSettings /> },
    { id: 'api-keys', label: 'API keys', panel: <ApiKeysSettings /> },
    { id: 'webhooks', label: 'Webhooks', panel: <WebhooksSettings /> },
    ...(Security
      ? [
          {
            id: 'security',
            label: 'Security',
            panel: (
              <Suspense fallback={<Spinner label="Loading security settings..." />}>
                <Security />
              </Suspense>
            ),
          },
        ]
      : []),
  ];
  return (
    <div className="mx-auto max-w-5xl">
      <h1 className="text-2xl font-bold text-slate-900 dark:text-white">Settings</h1>
      <PageTabs
        label="Settings sections"
        tabs={tabs}
        value={tabFrom(tabs, params.get('tab'), 'profile')}
        onValueChange={(v) => setParams({ tab: v }, { replace: true })}
        className="mt-6"
        panelClassName="pt-6"
      />
    </div>
  );
};

export default SettingsPage;
