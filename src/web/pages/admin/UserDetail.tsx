import { ArrowLeft, Download } from 'lucide-react';
import { useState } from 'react';
import type { AdminUserDetail } from '../../../shared/admin.ts';
import { useAuth } from '../../auth/AuthProvider.tsx';
import { Button, buttonClasses } from '../../components/ui/Button.tsx';
import { Alert, Badge, Card, CardHeader, ErrorState } from '../../components/ui/Card.tsx';
import { DataTable } from '../../components/ui/DataTable.tsx';
import { LoadingState } from '../../components/ui/ListCard.tsx';
import { formatDate, formatDateTime } from '../../lib/format.ts';
import { useAction } from '../../lib/useAction.ts';
import { useAdminChanges, useAdminUser, userExportHref } from './adminApi.ts';
import { Facts, SubscriptionBadge, YesNo, capitalized, loadError, planName } from './parts.tsx';
import { DeleteUserDialog, DisableUserDialog } from './UserDialogs.tsx';

// One user: their account, plan and companies, and what an admin can do about them — disable
// (with the reason they are told at sign-in) or enable, send a password reset link, download
// their data, delete them (and the companies only they own) after typing their email.

export const UserDetail = ({
  id,
  onBack,
  onDeleted,
}: {
  id: string;
  onBack: () => void;
  onDeleted: (message: string) => void;
}) => {
  const user = useAdminUser(id);
  return (
    <div className="space-y-6">
      <button
        type="button"
        onClick={onBack}
        className="inline-flex min-h-11 items-center gap-2 text-sm font-medium text-brand-700 hover:underline dark:text-brand-300"
      >
        <ArrowLeft className="h-4 w-4" aria-hidden="true" /> Back to users
      </button>
      {user.isLoading ? (
        <LoadingState label="Loading user..." />
      ) : user.data ? (
        <UserView user={user.data} onDeleted={onDeleted} />
      ) : (
        <ErrorState message={loadError('the user', user.error)} onRetry={() => void user.refetch()} />
      )}
    </div>
  );
};

const UserView = ({ user, onDeleted }: { user: AdminUserDetail; onDeleted: (message: string) => void }) => {
  const { currentUser } = useAuth();
  const changes = useAdminChanges();
  const action = useAction();
  const [dialog, setDialog] = useState<'disable' | 'delete' | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const self = currentUser?.id === user.id;
  const act = async (key: string, run: () => Promise<unknown>, message: string) => {
    setDone(null);
    if (await action.run(run, { key })) setDone(message);
  };
  const billing = user.billing;
  return (
    <>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h2 className="text-xl font-semibold break-words text-slate-900 dark:text-white">
            {user.name || user.email}
          </h2>
          <p className="mt-1 text-sm break-all text-slate-500 dark:text-slate-400">{user.email}</p>
          <p className="mt-2 flex flex-wrap gap-1">
            {user.disabled ? <Badge tone="red">Disabled</Badge> : <Badge tone="green">Active</Badge>}
            {user.isAdmin ? <Badge tone="violet">Admin</Badge> : null}
            {self ? <Badge tone="blue">You</Badge> : null}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {user.disabled ? (
            <Button
              busy={action.busyKey === 'enable'}
              onClick={() =>
                void act('enable', () => changes.enableUser(user.id), `${user.email} can sign in again.`)
              }
            >
              Enable
            </Button>
          ) : (
            <Button variant="secondary" disabled={self} onClick={() => setDialog('disable')}>
              Disable
            </Button>
          )}
          <Button
            variant="secondary"
            busy={action.busyKey === 'reset'}
            onClick={() =>
              void act(
                'reset',
                () => changes.sendResetLink(user.id),
                `A password reset link was sent to ${user.email}.`,
              )
            }
          >
            Send reset link
          </Button>
          <a href={userExportHref(user.id)} download className={buttonClasses('secondary')}>
            <Download className="h-4 w-4" aria-hidden="true" /> Export data
          </a>
          <Button variant="danger" disabled={self} onClick={() => setDialog('delete')}>
            Delete
          </Button>
        </div>
      </div>
      {action.error ? <Alert>{action.error}</Alert> : null}
      {done ? <Alert tone="success">{done}</Alert> : null}
      {self ? (
        <Alert tone="info">This is your own account: you cannot disable or delete yourself here.</Alert>
      ) : null}
      {user.disabled ? (
        <Alert tone="warning">
          Disabled. The reason they see at sign-in: {user.disabledReason || 'none given'}
        </Alert>
      ) : null}

      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader title="Account" />
          <Facts
            items={[
              ['Joined', formatDate(user.createdAt)],
              ['Last sign-in', user.lastLoginAt ? formatDateTime(user.lastLoginAt) : 'Never'],
              ['Email verified', <YesNo key="v" value={user.emailVerified} />],
              [
                'Two-factor authentication',
                <YesNo key="2fa" value={user.twoFactorEnabled} yes="On" no="Off" />,
              ],
              ['Active sessions', String(user.sessions)],
              [
                'User id',
                <code key="id" className="text-xs">
                  {user.id}
                </code>,
              ],
            ]}
          />
        </Card>
        <Card>
          <CardHeader title="Plan" />
          {billing ? (
            <Facts
              items={[
                ['Plan', `${planName(billing.plan)}, ${billing.interval}`],
                ['Status', <SubscriptionBadge key="s" status={billing.status} />],
                [
                  billing.status === 'trialing' ? 'Trial ends' : 'Trial ended',
                  formatDate(billing.trialEndsAt),
                ],
                ...(billing.currentPeriodEnd
                  ? [
                      [
                        billing.cancelAtPeriodEnd ? 'Ends on' : 'Renews on',
                        formatDate(billing.currentPeriodEnd),
                      ] as [string, string],
                    ]
                  : []),
                ['Provider', capitalized(billing.provider)],
              ]}
            />
          ) : (
            <p className="px-5 py-4 text-sm text-slate-500 dark:text-slate-400">No billing account yet.</p>
          )}
        </Card>
      </div>

      <Card>
        <CardHeader
          title="Companies"
          description="Deleting this user deletes the companies they own alone; they leave the others."
        />
        {user.companies.length === 0 ? (
          <p className="px-5 py-4 text-sm text-slate-500 dark:text-slate-400">Not a member of any company.</p>
        ) : (
          <DataTable
            caption={`${user.email}'s companies`}
            rows={user.companies}
            rowKey={(c) => c.id}
            columns={[
              { header: 'Company', rowHeader: true, cell: (c) => c.name },
              { header: 'Role', cell: (c) => capitalized(c.role) },
              { header: 'Members', numeric: true, cell: (c) => c.members },
              {
                header: 'If the user is deleted',
                cell: (c) =>
                  c.soleOwner ? (
                    <Badge tone="red">Deleted with them</Badge>
                  ) : (
                    <Badge>Kept (they leave)</Badge>
                  ),
              },
            ]}
          />
        )}
      </Card>

      {dialog === 'disable' ? (
        <DisableUserDialog
          user={user}
          onClose={() => setDialog(null)}
          onDone={(message) => {
            setDialog(null);
            setDone(message);
          }}
        />
      ) : null}
      {dialog === 'delete' ? (
        <DeleteUserDialog user={user} onClose={() => setDialog(null)} onDone={onDeleted} />
      ) : null}
    </>
  );
};
