import * as Tabs from '@radix-ui/react-tabs';
import { type ComponentType, Suspense, lazy } from 'react';
import { useSearchParams } from 'react-router';
import { Spinner } from '../../components/Spinner.tsx';
import { CompanySettings } from './CompanySettings.tsx';
import { MembersSettings } from './MembersSettings.tsx';

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
        <Tabs.List
          aria-label="Settings sections"
          className="flex gap-1 border-b border-slate-200 dark:border-slate-800"
        >
          {TABS.map((t) => (
            <Tabs.Trigger
              key={t.id}
              value={t.id}
              className="-mb-px min-h-11 border-b-2 border-transparent px-4 text-sm font-medium text-slate-600 hover:text-slate-900 data-[state=active]:border-brand-600 data-[state=active]:text-brand-700 dark:text-slate-400 dark:hover:text-white dark:data-[state=active]:border-brand-400 dark:data-[state=active]:text-brand-300"
            >
              {t.label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
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
