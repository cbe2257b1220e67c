import * as Tabs from '@radix-ui/react-tabs';
import { type ComponentType, Suspense, lazy } from 'react';
import { useSearchParams } from 'react-router';
import { Spinner } from '../../components/Spinner.tsx';
import { CompanySettings } from './CompanySettings.tsx';
import { MembersSettings } from './MembersSettings.tsx';
import { TabList } from '../../components/ui/Tabs.tsx';

// /settings: company, members and the signed-in user's own security settings.

const optional = import.meta.glob<{ default?: ComponentType; SecuritySettings?: ComponentType }>(
  './security/SecuritySettings.tsx',
);
const securityLoader = optional['./security/SecuritySettings.tsx'];
const Security = securityLoader
  ? lazy(() =>
      securityLoader().then((m) => ({ default: (m.SecuritySettings ?? m.default) as ComponentType })),
    )
  : null;

const TABS = [
  { id: 'company', label: 'Company' },
  { id: 'members', label: 'Members' },
  ...(Security ? [{ id: 'security', label: 'Security' }] : []),
];

const SettingsPage = () => {
  const [params, setParams] = useSearchParams();
  const tab = TABS.some((t) => t.id === params.get('tab')) ? (params.get('tab') as string) : 'company';
  return (
    <div className="mx-auto max-w-5xl">
      <h1 className="text-2xl font-bold text-slate-900 dark:text-white">Settings</h1>
      <Tabs.Root value={tab} onValueChange={(v) => setParams({ tab: v }, { replace: true })} className="mt-6">
        <TabList label="Settings sections" tabs={TABS} />
        <Tabs.Content value="company" className="pt-6">
          <CompanySettings />
        </Tabs.Content>
        <Tabs.Content value="members" className="pt-6">
          <MembersSettings />
        </Tabs.Content>
        {Security ? (
          <Tabs.Content value="security" className="pt-6">
            <Suspense fallback={<Spinner label="Loading security settings..." />}>
              <Security />
            </Suspense>
          </Tabs.Content>
        ) : null}
      </Tabs.Root>
    </div>
  );
};

export default SettingsPage;
