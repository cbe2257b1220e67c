import { useDeferredValue, useState } from 'react';
import type { AdminUserRow } from '../../../shared/admin.ts';
import { Badge } from '../../components/ui/Card.tsx';
import { DataTable } from '../../components/ui/DataTable.tsx';
import { ListCard, SearchField } from '../../components/ui/ListCard.tsx';
import { formatDate, formatDateTime } from '../../lib/format.ts';
import { Pager, useCursorPages } from '../accounting/Pager.tsx';
import { type UserFilter, useAdminUsers } from './adminApi.ts';
import { FilterSelect, LinkButton, SubscriptionBadge, YesNo, adminListState, planName } from './parts.tsx';
import { UserDetail } from './UserDetail.tsx';

// Users: search by name or email, filter active / disabled, page through; a user's name opens
// their detail (companies, plan, sign-in, 2FA, verified, and the actions on them).

const STATUS_OPTIONS = [
  { value: 'all', label: 'All' },
  { value: 'active', label: 'Active' },
  { value: 'disabled', label: 'Disabled' },
] as const;

export const UsersTab = ({
  userId,
  onOpen,
}: {
  userId: string | null;
  onOpen: (id: string | null) => void;
}) => {
  const [notice, setNotice] = useState<string | null>(null);
  if (userId)
    return (
      <UserDetail
        id={userId}
        onBack={() => onOpen(null)}
        onDeleted={(message) => {
          setNotice(message);
          onOpen(null);
        }}
      />
    );
  return <UserList onOpen={onOpen} notice={notice} />;
};

const UserList = ({ onOpen, notice }: { onOpen: (id: string) => void; notice: string | null }) => {
  const [search, setSearch] = useState('');
  const q = useDeferredValue(search);
  const [status, setStatus] = useState<UserFilter['status']>('all');
  const pages = useCursorPages();
  const users = useAdminUsers({ q, status, cursor: pages.cursor });
  const rows = users.data?.users ?? [];
  const filtered = q.trim() !== '' || status !== 'all';
  return (
    <ListCard
      title="Users"
      description="Everyone with a Kontor account. Open a user to see their companies and plan, or to act on their account."
      toolbar={
        <>
          <SearchField
            label="Search users"
            value={search}
            onChange={setSearch}
            placeholder="Search name or email"
          />
          <FilterSelect
            label="Status"
            value={status}
            pages={pages}
            onChange={setStatus}
            options={STATUS_OPTIONS}
          />
        </>
      }
      notices={[{ tone: 'success', message: notice }]}
      state={adminListState(users, 'users', rows.length === 0, {
        title: filtered ? 'No users match' : 'No users yet',
        description: filtered ? 'Try another name, email or status.' : undefined,
      })}
      footer={<Pager label="Users" pages={pages} nextCursor={users.data?.nextCursor} />}
    >
      <DataTable<AdminUserRow>
        caption="Users"
        rows={rows}
        rowKey={(u) => u.id}
        rowClassName={() => 'hover:bg-slate-50 dark:hover:bg-slate-800/50'}
        columns={[
          {
            header: 'User',
            rowHeader: true,
            cell: (u) => (
              <>
                <LinkButton onClick={() => onOpen(u.id)}>{u.name || u.email}</LinkButton>
                <span className="block text-xs font-normal text-slate-500 dark:text-slate-400">
                  {u.email}
                </span>
              </>
            ),
          },
          {
            header: 'Status',
            cell: (u) => (
              <span className="flex flex-wrap gap-1">
                {u.disabled ? <Badge tone="red">Disabled</Badge> : <Badge tone="green">Active</Badge>}
                {u.isAdmin ? <Badge tone="violet">Admin</Badge> : null}
              </span>
            ),
          },
          {
            header: 'Plan',
            cell: (u) =>
              u.plan ? (
                <span className="flex flex-wrap items-center gap-1">
                  {planName(u.plan)} <SubscriptionBadge status={u.status} />
                </span>
              ) : (
                <span className="whitespace-nowrap text-slate-500 dark:text-slate-400">No plan yet</span>
              ),
          },
          {
            header: 'Last sign-in',
            className: 'whitespace-nowrap',
            cell: (u) => (u.lastLoginAt ? formatDateTime(u.lastLoginAt) : 'Never'),
          },
          { header: '2FA', cell: (u) => <YesNo value={u.twoFactorEnabled} yes="On" no="Off" /> },
          { header: 'Verified', cell: (u) => <YesNo value={u.emailVerified} /> },
          { header: 'Joined', className: 'whitespace-nowrap', cell: (u) => formatDate(u.createdAt) },
        ]}
      />
    </ListCard>
  );
};
