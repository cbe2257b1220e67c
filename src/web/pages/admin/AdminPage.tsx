import { ShieldAlert } from 'lucide-react';
import { useSearchParams } from 'react-router';
import { ADMIN_FORBIDDEN_MESSAGE } from '../../../shared/admin.ts';
import { PageSpinner } from '../../components/Spinner.tsx';
import { ErrorState } from '../../components/ui/Card.tsx';
import { PageHeader } from '../../components/ui/PageHeader.tsx';
import { PageTabs, tabFrom } from '../../components/ui/Tabs.tsx';
import { AuditTab } from './AuditTab.tsx';
import { JobsTab } from './JobsTab.tsx';
import { MessagesTab } from './MessagesTab.tsx';
import { PromoCodesTab } from './PromoCodesTab.tsx';
import { SubscriptionsTab } from './SubscriptionsTab.tsx';
import { SystemTab } from './SystemTab.tsx';
import { UsersTab } from './UsersTab.tsx';
import { useAdminMessages } from './adminApi.ts';
import { loadError } from './parts.tsx';
import { useIsAdmin } from './useIsAdmin.ts';

// /admin: the platform admin console (issue 16; docs/admin.md). Platform admins only: the
// server answers 403 to anyone else on every admin route, and this page tells them so.
// Sections are tabs (?tab=); a user's detail is ?tab=users&user=<id>.

const AdminsOnly = () => (
  <div className="mx-auto flex max-w-xl flex-col items-center gap-3 py-16 text-center">
    <ShieldAlert className="h-10 w-10 text-slate-400" aria-hidden="true" />
    <h1 className="text-2xl font-bold text-slate-900 dark:text-white">Admins only</h1>
    <p className="text-slate-600 dark:text-slate-300">
      {ADMIN_FORBIDDEN_MESSAGE} If you need access, ask a platform administrator.
    </p>
  </div>
);

const AdminPage = () => {
  const me = useIsAdmin();
  const [params, setParams] = useSearchParams();
  // The inbox's unread count on its tab (the Messages tab's first page, shared with it).
  const messages = useAdminMessages('all', undefined, me.isAdmin);
  const unread = messages.data?.unread ?? 0;
  if (me.isLoading) return <PageSpinner label="Checking your access..." />;
  if (me.error)
    return (
      <div className="mx-auto max-w-xl py-10">
        <ErrorState message={loadError('your access', me.error)} onRetry={() => void me.refetch()} />
      </div>
    );
  if (!me.isAdmin) return <AdminsOnly />;

  const userId = params.get('user');
  const tabs = [
    {
      id: 'users',
      label: 'Users',
      panel: (
        <UsersTab
          userId={userId}
          onOpen={(id) => setParams(id ? { tab: 'users', user: id } : { tab: 'users' })}
        />
      ),
    },
    { id: 'subscriptions', label: 'Subscriptions', panel: <SubscriptionsTab /> },
    { id: 'promo-codes', label: 'Promo codes', panel: <PromoCodesTab /> },
    { id: 'messages', label: unread ? `Messages (${unread} unread)` : 'Messages', panel: <MessagesTab /> },
    { id: 'audit', label: 'Audit log', panel: <AuditTab /> },
    { id: 'jobs', label: 'Jobs', panel: <JobsTab /> },
    { id: 'system', label: 'System', panel: <SystemTab /> },
  ];
  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader
        title="Admin"
        description="The platform console: users, billing, promo codes, messages, audit, jobs and system."
      />
      <PageTabs
        label="Admin sections"
        tabs={tabs}
        value={tabFrom(tabs, params.get('tab'), 'users')}
        onValueChange={(v) => setParams({ tab: v }, { replace: true })}
        className="mt-6"
      />
    </div>
  );
};

export default AdminPage;
