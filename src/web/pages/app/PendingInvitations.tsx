import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Mail } from 'lucide-react';
import type { Invitation } from '../../../shared/companies.ts';
import { ROLE_LABELS } from '../../../shared/companies.ts';
import { Button } from '../../components/ui/Button.tsx';
import { ApiError, api } from '../../lib/api.ts';
import { invalidateAfter, keys } from '../../lib/queryKeys.ts';

// Invitations waiting for the signed-in user, shown at the top of every app page.

export const PendingInvitations = ({ onAccepted }: { onAccepted: (organizationId: string) => void }) => {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: keys.myInvitations,
    queryFn: () => api.get<{ invitations: Invitation[] }>('/me/invitations').then((r) => r.invitations),
  });
  const answer = useMutation({
    mutationFn: ({ id, action }: { id: string; action: 'accept' | 'decline' }) =>
      api.post<{ organizationId: string; status: string }>(`/invitations/${id}/${action}`),
    onSuccess: async (result) => {
      await invalidateAfter.myInvitations(queryClient);
      if (result.status === 'accepted') onAccepted(result.organizationId);
    },
  });
  const invitations = query.data ?? [];
  if (invitations.length === 0) return null;
  return (
    <section aria-label="Invitations" className="mx-auto mb-6 max-w-5xl space-y-3">
      {invitations.map((inv) => (
        <div
          key={inv.id}
          className="flex flex-wrap items-center gap-4 rounded-xl border border-brand-200 bg-brand-50 px-4 py-3 dark:border-brand-900 dark:bg-brand-950/50"
        >
          <Mail className="h-5 w-5 text-brand-700 dark:text-brand-300" aria-hidden="true" />
          <p className="flex-1 text-sm text-slate-800 dark:text-slate-100">
            You are invited to join <strong>{inv.organizationName}</strong> as {ROLE_LABELS[inv.role]}.
          </p>
          <div className="flex gap-2">
            {(['accept', 'decline'] as const).map((action) => (
              <Button
                key={action}
                size="sm"
                variant={action === 'accept' ? 'primary' : 'secondary'}
                // Accept shows it is busy while either answer is sent, as before.
                busy={action === 'accept' && answer.isPending}
                disabled={answer.isPending}
                onClick={() => answer.mutate({ id: inv.id, action })}
                aria-label={`${action === 'accept' ? 'Accept' : 'Decline'} the invitation to join ${inv.organizationName}`}
              >
                {action === 'accept' ? 'Accept' : 'Decline'}
              </Button>
            ))}
          </div>
        </div>
      ))}
      {answer.error ? (
        <p role="alert" className="text-sm text-red-600 dark:text-red-400">
          {answer.error instanceof ApiError
            ? answer.error.message
            : 'Could not answer the invitation. Please try again.'}
        </p>
      ) : null}
    </section>
  );
};
