import { useState } from 'react';
import type { AdminPromo } from '../../../shared/admin.ts';
import { PROMO_KIND_LABELS } from '../../../shared/billing.ts';
import { Button } from '../../components/ui/Button.tsx';
import { Badge, CardError } from '../../components/ui/Card.tsx';
import { DataTable } from '../../components/ui/DataTable.tsx';
import { Dialog } from '../../components/ui/Dialog.tsx';
import { FormDialog } from '../../components/ui/FormDialog.tsx';
import { ListCard, LoadingState, NewButton } from '../../components/ui/ListCard.tsx';
import { formatCount, formatDate, formatDateTime, plural } from '../../lib/format.ts';
import { useAdminChanges, useAdminPromos, useAdminRedemptions } from './adminApi.ts';
import { adminListState, loadError, planName } from './parts.tsx';
import { PromoFormDialog } from './PromoForm.tsx';

// Promo codes: every code with what it does, whether it still works and how often it was used;
// create and edit (kind-dependent fields), expire now, and the list of who redeemed it.

const STATES: Record<AdminPromo['state'], { label: string; tone: 'green' | 'slate' | 'amber' }> = {
  active: { label: 'Active', tone: 'green' },
  expired: { label: 'Expired', tone: 'slate' },
  used_up: { label: 'Used up', tone: 'amber' },
};

/** What a code gives: "Business for 30 days", "14 more trial days", "20% off". */
export const promoEffect = (p: AdminPromo) => {
  if (p.kind === 'plan_access')
    return p.accessDays
      ? `${planName(p.planAccess)} for ${plural(p.accessDays, 'day')}`
      : `${planName(p.planAccess)} access`;
  if (p.kind === 'trial_extension') return `${plural(p.trialDays ?? 0, 'more trial day', 'more trial days')}`;
  return `${p.percentOff ?? 0}% off ${planName(p.planAccess)}`;
};

type Open = { kind: 'new' } | { kind: 'edit' | 'expire' | 'redemptions'; promo: AdminPromo } | null;

export const PromoCodesTab = () => {
  const promos = useAdminPromos();
  const [open, setOpen] = useState<Open>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const rows = promos.data?.promoCodes ?? [];
  const done = (message: string) => {
    setOpen(null);
    setNotice(message);
  };
  return (
    <ListCard
      title="Promo codes"
      description="Codes people enter at sign-up or in Billing. Each account can redeem a code once."
      actions={
        <NewButton
          onClick={() => {
            setNotice(null);
            setOpen({ kind: 'new' });
          }}
        >
          New promo code
        </NewButton>
      }
      notices={[{ tone: 'success', message: notice }]}
      state={adminListState(promos, 'promo codes', rows.length === 0, {
        title: 'No promo codes yet',
        description: 'Create one to give plan access, a longer trial or a discount.',
      })}
      footer={
        open?.kind === 'new' ? (
          <PromoFormDialog onClose={() => setOpen(null)} onDone={done} />
        ) : open?.kind === 'edit' ? (
          <PromoFormDialog promo={open.promo} onClose={() => setOpen(null)} onDone={done} />
        ) : open?.kind === 'expire' ? (
          <ExpireDialog promo={open.promo} onClose={() => setOpen(null)} onDone={done} />
        ) : open?.kind === 'redemptions' ? (
          <RedemptionsDialog promo={open.promo} onClose={() => setOpen(null)} />
        ) : null
      }
    >
      <DataTable<AdminPromo>
        caption="Promo codes"
        rows={rows}
        rowKey={(p) => p.code}
        columns={[
          {
            header: 'Code',
            rowHeader: true,
            cell: (p) => (
              <>
                <span className="font-mono">{p.code}</span>
                {p.description ? (
                  <span className="block text-xs font-normal text-slate-500 dark:text-slate-400">
                    {p.description}
                  </span>
                ) : null}
              </>
            ),
          },
          {
            header: 'Gives',
            cell: (p) => (
              <>
                {promoEffect(p)}
                <span className="block text-xs text-slate-500 dark:text-slate-400">
                  {PROMO_KIND_LABELS[p.kind]}
                </span>
              </>
            ),
          },
          {
            header: 'State',
            cell: (p) => <Badge tone={STATES[p.state].tone}>{STATES[p.state].label}</Badge>,
          },
          {
            header: 'Used',
            numeric: true,
            cell: (p) =>
              p.maxRedemptions === null
                ? formatCount(p.redemptionCount)
                : `${formatCount(p.redemptionCount)} of ${formatCount(p.maxRedemptions)}`,
          },
          { header: 'Last day', cell: (p) => (p.expiresAt ? formatDate(p.expiresAt) : 'No end') },
          {
            header: 'Actions',
            actions: true,
            cell: (p) => (
              <span className="flex flex-wrap justify-end gap-1">
                <Button size="sm" variant="ghost" onClick={() => setOpen({ kind: 'redemptions', promo: p })}>
                  Redemptions<span className="sr-only"> of {p.code}</span>
                </Button>
                <Button size="sm" variant="ghost" onClick={() => setOpen({ kind: 'edit', promo: p })}>
                  Edit<span className="sr-only"> {p.code}</span>
                </Button>
                {p.state === 'active' ? (
                  <Button size="sm" variant="ghost" onClick={() => setOpen({ kind: 'expire', promo: p })}>
                    Expire<span className="sr-only"> {p.code}</span>
                  </Button>
                ) : null}
              </span>
            ),
          },
        ]}
      />
    </ListCard>
  );
};

const ExpireDialog = ({
  promo,
  onClose,
  onDone,
}: {
  promo: AdminPromo;
  onClose: () => void;
  onDone: (message: string) => void;
}) => {
  const { expirePromo } = useAdminChanges();
  return (
    <FormDialog
      title={`Expire ${promo.code}?`}
      description="It stops working now. Accounts that redeemed it keep what it gave them. You can give it a later date again with Edit."
      onClose={onClose}
      submitLabel="Expire code"
      submitVariant="danger"
      onSubmit={async () => {
        await expirePromo(promo.code);
        onDone(`${promo.code} has expired.`);
      }}
    >
      {null}
    </FormDialog>
  );
};

const RedemptionsDialog = ({ promo, onClose }: { promo: AdminPromo; onClose: () => void }) => {
  const list = useAdminRedemptions(promo.code);
  const rows = list.data?.redemptions ?? [];
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title={`Redemptions of ${promo.code}`}
      description={plural(promo.redemptionCount, 'redemption')}
      wide
    >
      {list.isLoading ? (
        <LoadingState label="Loading redemptions..." />
      ) : list.isError ? (
        <CardError message={loadError('the redemptions', list.error)} onRetry={() => void list.refetch()} />
      ) : rows.length === 0 ? (
        <p className="py-4 text-sm text-slate-500 dark:text-slate-400">Nobody has redeemed this code yet.</p>
      ) : (
        <DataTable
          caption={`Redemptions of ${promo.code}`}
          rows={rows}
          rowKey={(r) => `${r.userId}-${r.redeemedAt}`}
          columns={[
            {
              header: 'Account',
              rowHeader: true,
              cell: (r) => <span className="break-all">{r.email ?? r.userId}</span>,
            },
            {
              header: 'Kind',
              cell: (r) => PROMO_KIND_LABELS[r.kind as keyof typeof PROMO_KIND_LABELS] ?? r.kind,
            },
            { header: 'Redeemed', cell: (r) => formatDateTime(r.redeemedAt) },
          ]}
        />
      )}
    </Dialog>
  );
};
