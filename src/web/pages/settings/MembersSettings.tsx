import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import {
  INVITABLE_ROLES,
  type Invitation,
  type Member,
  ROLES,
  ROLE_DESCRIPTIONS,
  ROLE_LABELS,
  type RoleName,
  inviteSchema,
} from '../../../shared/companies.ts';
import { Button } from '../../components/ui/Button.tsx';
import { Alert, Badge, Card, CardHeader, EmptyState } from '../../components/ui/Card.tsx';
import { SelectField, TextField } from '../../components/ui/Field.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { ApiError, api } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { invalidateAfter, keys } from '../../lib/queryKeys.ts';
import { formatDayOf } from '../../lib/format.ts';

const errorText = (e: unknown) =>
  e instanceof ApiError ? e.message : 'Something went wrong. Please try again.';

export const MembersSettings = () => {
  const { company, can } = useCompany();
  const manage = can('manage_members');
  const queryClient = useQueryClient();
  const base = `/orgs/${company.id}`;
  const members = useQuery({
    queryKey: keys.members(company.id),
    queryFn: () => api.get<{ members: Member[] }>(`${base}/members`).then((r) => r.members),
  });
  const invitations = useQuery({
    queryKey: keys.invitations(company.id),
    queryFn: () => api.get<{ invitations: Invitation[] }>(`${base}/invitations`).then((r) => r.invitations),
    enabled: manage,
  });
  const invalidate = () => invalidateAfter.membership(queryClient, company.id);
  const changeRole = useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: RoleName }) =>
      api.patch(`${base}/members/${userId}`, { role }),
    onSettled: invalidate,
  });
  const remove = useMutation({
    mutationFn: (userId: string) => api.delete(`${base}/members/${userId}`),
    onSettled: invalidate,
  });
  const revoke = useMutation({
    mutationFn: (id: string) => api.delete(`${base}/invitations/${id}`),
    onSettled: invalidate,
  });

  const [email, setEmail] = useState('');
  const [role, setRole] = useState<string>('viewer');
  const [inviteError, setInviteError] = useState<string | null>(null);
  const invite = useMutation({
    mutationFn: (body: unknown) => api.post<Invitation>(`${base}/invitations`, body),
    onSuccess: () => {
      setEmail('');
      return invalidate();
    },
  });
  const submitInvite = (e: FormEvent) => {
    e.preventDefault();
    const parsed = inviteSchema.safeParse({ email, role });
    if (!parsed.success) {
      setInviteError(parsed.error.issues[0]?.message ?? 'Please check the form.');
      return;
    }
    setInviteError(null);
    invite.mutate(parsed.data);
  };

  // A refusal about the sender (their own address is not confirmed yet) is not about the
  // address typed in the field: it is shown for the whole form, not as that field's error.
  const senderUnverified = invite.error instanceof ApiError && invite.error.code === 'email_not_verified';
  const inviteFieldError =
    inviteError ?? (invite.error && !senderUnverified ? errorText(invite.error) : null);

  const mutationError = changeRole.error ?? remove.error ?? revoke.error;
  const pending = (invitations.data ?? []).filter((i) => i.status === 'pending');

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader
          title="Members"
          description="People who can open this company's books, and what each may do."
        />
        {mutationError ? (
          <div className="px-5 pt-4">
            <Alert>{errorText(mutationError)}</Alert>
          </div>
        ) : null}
        {members.isLoading ? (
          <div className="p-5">
            <Spinner label="Loading members..." />
          </div>
        ) : members.error ? (
          <div className="p-5">
            <Alert>{errorText(members.error)}</Alert>
          </div>
        ) : (
          <ul className="divide-y divide-slate-200 dark:divide-slate-800">
            {(members.data ?? []).map((m) => (
              <li key={m.userId} className="flex flex-wrap items-center gap-4 px-5 py-3">
                <div className="min-w-0 flex-1">
                  <p className="truncate font-medium text-slate-900 dark:text-white">{m.name}</p>
                  <p className="truncate text-sm text-slate-500 dark:text-slate-400">{m.email}</p>
                </div>
                {manage ? (
                  <>
                    <label className="sr-only" htmlFor={`role-${m.userId}`}>
                      Role of {m.name}
                    </label>
                    <select
                      id={`role-${m.userId}`}
                      value={m.role}
                      onChange={(e) =>
                        changeRole.mutate({ userId: m.userId, role: e.target.value as RoleName })
                      }
                      className="min-h-11 rounded-lg border border-slate-300 bg-white px-3 text-sm dark:border-slate-700 dark:bg-slate-900"
                    >
                      {ROLES.map((r) => (
                        <option key={r} value={r}>
                          {ROLE_LABELS[r]}
                        </option>
                      ))}
                    </select>
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={() => remove.mutate(m.userId)}
                      aria-label={`Remove ${m.name}`}
                    >
                      Remove
                    </Button>
                  </>
                ) : (
                  <Badge tone={m.role === 'owner' ? 'violet' : 'slate'}>{ROLE_LABELS[m.role]}</Badge>
                )}
              </li>
            ))}
          </ul>
        )}
      </Card>

      {manage ? (
        <Card>
          <CardHeader
            title="Invite someone"
            description="They get an email and see the invitation when they sign in."
          />
          <form
            onSubmit={submitInvite}
            className="grid gap-4 p-5 sm:grid-cols-[1fr_12rem_auto] sm:items-end"
            noValidate
          >
            <TextField
              label="Email address"
              type="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              error={inviteFieldError}
              placeholder="accountant@example.com"
            />
            <SelectField
              label="Role"
              value={role}
              onChange={(e) => setRole(e.target.value)}
              options={INVITABLE_ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }))}
            />
            <Button type="submit" busy={invite.isPending}>
              Send invitation
            </Button>
            <p className="text-xs text-slate-500 sm:col-span-3 dark:text-slate-400">
              {ROLE_LABELS[role as RoleName]}: {ROLE_DESCRIPTIONS[role as RoleName]}
            </p>
            {senderUnverified ? (
              <div className="sm:col-span-3">
                <Alert>{errorText(invite.error)}</Alert>
              </div>
            ) : null}
            {invite.isSuccess ? (
              <div className="sm:col-span-3">
                <Alert tone="success">Invitation sent to {invite.data.email}.</Alert>
              </div>
            ) : null}
          </form>
          <div className="border-t border-slate-200 dark:border-slate-800">
            <h3 className="px-5 pt-4 text-sm font-semibold text-slate-900 dark:text-white">
              Pending invitations
            </h3>
            {pending.length === 0 ? (
              <EmptyState title="No pending invitations" />
            ) : (
              <ul className="divide-y divide-slate-200 dark:divide-slate-800">
                {pending.map((i) => (
                  <li key={i.id} className="flex flex-wrap items-center gap-4 px-5 py-3">
                    <span className="flex-1 text-sm text-slate-800 dark:text-slate-100">{i.email}</span>
                    <Badge tone="blue">{ROLE_LABELS[i.role]}</Badge>
                    <span className="text-xs text-slate-500">expires {formatDayOf(i.expiresAt)}</span>
                    <Button variant="ghost" size="sm" onClick={() => revoke.mutate(i.id)}>
                      Withdraw
                    </Button>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </Card>
      ) : null}
    </div>
  );
};
