import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { FiscalYear } from '../../../shared/ledger.ts';
import { Button } from '../../components/ui/Button.tsx';
import { Alert, Badge, Card, CardHeader, EmptyState } from '../../components/ui/Card.tsx';
import { Dialog } from '../../components/ui/Dialog.tsx';
import { ActionsTh } from '../../components/ui/ListCard.tsx';
import { RowTh, Table, Td, Th } from '../../components/ui/Table.tsx';
import { api } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { keys } from '../../lib/queryKeys.ts';
import { useAction } from '../../lib/useAction.ts';
import { formatDate } from '../../lib/format.ts';
import { fiscalYearLabel } from './dates.ts';
import { useLedgerAction } from './ledgerApi.ts';
import { OpeningBalancesDialog } from './OpeningBalances.tsx';
import { errorText, Loading, LoadError } from './parts.tsx';

// Year end: the company's fiscal years with year-end close and reopen, and the opening
// balances a company brings over from its previous system.

const useLedgerOrg = () => useCompany().company.id;

const useFiscalYears = () => {
  const orgId = useLedgerOrg();
  return useQuery({
    queryKey: keys.ledger(orgId, 'fiscal-years'),
    queryFn: () => api.get<{ years: FiscalYear[] }>(`/orgs/${orgId}/fiscal-years`).then((d) => d.years),
  });
};

export const YearEndPanel = ({
  today,
  onOpenEntry,
}: {
  today: string;
  onOpenEntry: (id: string) => void;
}) => {
  const { can } = useCompany();
  const years = useFiscalYears();
  const mutate = useLedgerAction();
  const [confirm, setConfirm] = useState<{ year: FiscalYear; action: 'close' | 'reopen' } | null>(null);
  const { busy, error, setError, run: runAction } = useAction();
  const [notice, setNotice] = useState<string | null>(null);
  const [openingOpen, setOpeningOpen] = useState(false);
  const sorted = [...(years.data ?? [])].sort((a, b) => b.endDate.localeCompare(a.endDate));

  const run = async () => {
    if (!confirm) return;
    const { year, action } = confirm;
    await runAction(
      async () => {
        await mutate((orgId) => api.post(`/orgs/${orgId}/fiscal-years/${year.endDate}/${action}`));
        setNotice(
          action === 'close'
            ? `${fiscalYearLabel({ start: year.startDate, end: year.endDate })} is closed.`
            : `${fiscalYearLabel({ start: year.startDate, end: year.endDate })} is open again.`,
        );
        setConfirm(null);
      },
      { message: errorText },
    );
  };

  return (
    <div className="space-y-6">
      <Card>
        <CardHeader
          title="Opening balances"
          description="Moving from another system? Enter each account's balance on the day before you start here. Any difference goes to Opening balance equity."
          actions={
            can('post') ? (
              <Button variant="secondary" onClick={() => setOpeningOpen(true)}>
                Enter opening balances
              </Button>
            ) : null
          }
        />
      </Card>
      <Card>
        <CardHeader
          title="Fiscal years"
          description="Closing a year moves its income and expenses into Retained earnings and locks it against new postings."
        />
        <div className="space-y-3 p-4">
          {notice ? <Alert tone="success">{notice}</Alert> : null}
          {years.isLoading ? (
            <Loading label="Loading fiscal years..." />
          ) : years.isError ? (
            <LoadError error={years.error} what="the fiscal years" onRetry={() => void years.refetch()} />
          ) : sorted.length === 0 ? (
            <EmptyState
              title="No fiscal years yet"
              description="Years appear here from the first posted entry. Post an entry or opening balances first."
            />
          ) : (
            <Table caption="Fiscal years" captionHidden>
              <thead>
                <tr>
                  <Th>Year</Th>
                  <Th>Period</Th>
                  <Th>Status</Th>
                  <ActionsTh />
                </tr>
              </thead>
              <tbody>
                {sorted.map((y) => {
                  const label = fiscalYearLabel({ start: y.startDate, end: y.endDate });
                  const ended = y.endDate < today;
                  return (
                    <tr key={y.endDate}>
                      <RowTh>{label}</RowTh>
                      <Td>
                        {formatDate(y.startDate)} – {formatDate(y.endDate)}
                      </Td>
                      <Td>
                        {y.status === 'closed' ? (
                          <Badge tone="slate">Closed</Badge>
                        ) : ended ? (
                          <Badge tone="amber">Open</Badge>
                        ) : (
                          <Badge tone="green">Current</Badge>
                        )}
                      </Td>
                      <Td className="text-right">
                        <span className="inline-flex flex-wrap justify-end gap-2">
                          {y.closeEntryId ? (
                            <Button variant="ghost" onClick={() => onOpenEntry(y.closeEntryId!)}>
                              Closing entry
                            </Button>
                          ) : null}
                          {can('manage_settings') && y.status === 'open' && ended ? (
                            <Button
                              variant="secondary"
                              aria-label={`Close ${label}`}
                              onClick={() => setConfirm({ year: y, action: 'close' })}
                            >
                              Close year
                            </Button>
                          ) : null}
                          {can('manage_settings') && y.status === 'closed' ? (
                            <Button
                              variant="secondary"
                              aria-label={`Reopen ${label}`}
                              onClick={() => setConfirm({ year: y, action: 'reopen' })}
                            >
                              Reopen
                            </Button>
                          ) : null}
                        </span>
                      </Td>
                    </tr>
                  );
                })}
              </tbody>
            </Table>
          )}
        </div>
      </Card>

      <Dialog
        open={confirm !== null}
        onOpenChange={(o) => {
          if (!o) {
            setConfirm(null);
            setError(null);
          }
        }}
        title={
          confirm
            ? `${confirm.action === 'close' ? 'Close' : 'Reopen'} ${fiscalYearLabel({ start: confirm.year.startDate, end: confirm.year.endDate })}?`
            : 'Fiscal year'
        }
      >
        {confirm ? (
          <div className="space-y-4 text-sm text-slate-700 dark:text-slate-300">
            {confirm.action === 'close' ? (
              <>
                <p>
                  Closing posts a closing entry dated {formatDate(confirm.year.endDate)} that moves every
                  income and expense balance of the year into Retained earnings, so the next year starts from
                  zero.
                </p>
                <p>
                  Nothing more can be posted into {formatDate(confirm.year.startDate)} –{' '}
                  {formatDate(confirm.year.endDate)} while it is closed. You can reopen it later; reopening
                  reverses the closing entry.
                </p>
              </>
            ) : (
              <p>
                Reopening reverses the closing entry, so income and expenses show in the year again and
                entries can be posted into it. Later years must be reopened first.
              </p>
            )}
            {error ? <Alert>{error}</Alert> : null}
            <div className="flex justify-end gap-2">
              <Button variant="ghost" onClick={() => setConfirm(null)}>
                Cancel
              </Button>
              <Button
                variant={confirm.action === 'close' ? 'danger' : 'primary'}
                busy={busy}
                onClick={() => void run()}
              >
                {confirm.action === 'close' ? 'Close the year' : 'Reopen the year'}
              </Button>
            </div>
          </div>
        ) : null}
      </Dialog>

      <OpeningBalancesDialog
        open={openingOpen}
        today={today}
        onClose={() => setOpeningOpen(false)}
        onPosted={(entry) => {
          setOpeningOpen(false);
          onOpenEntry(entry.id);
        }}
      />
    </div>
  );
};
