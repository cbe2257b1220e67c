import { Download, FileText } from 'lucide-react';
import { useMemo, useState } from 'react';
import { AGING_BUCKETS, AGING_LABELS } from '../../../shared/invoice-reports.ts';
import type { PayablesAging } from '../../../shared/payables.ts';
import { Money } from '../../components/money/Money.tsx';
import { buttonClasses } from '../../components/ui/Button.tsx';
import { Alert, Card, CardHeader, EmptyState } from '../../components/ui/Card.tsx';
import { RowTh, Table, Td, Th, TotalsFoot } from '../../components/ui/Table.tsx';
import { formatDate } from '../../lib/format.ts';
import { todayIso } from '../accounting/dates.ts';
import { DateInput, QueryView, Toolbar } from '../accounting/parts.tsx';
import { agingHref, usePayablesAging, usePayablesPath } from './SupplierApi.ts';

// Payables reports: what the company owes each supplier as of a date, by how long past due
// (current, 1–30, 31–60, 61–90, over 90 days), with the ledger's accounts payable balance on
// that date beside the total — they agree unless something was posted to payables outside
// bills, payments and supplier credits — and the same report as CSV and PDF.

export type PayablesTabProps = { onOpenBill: (billId: string) => void };

export const PayablesReportsTab = (_props: PayablesTabProps) => {
  const today = useMemo(() => todayIso(), []);
  const [asOf, setAsOf] = useState(today);
  const aging = usePayablesAging(asOf);
  const { base } = usePayablesPath();
  return (
    <Card>
      <CardHeader
        title="Payables aging"
        description="What you owe each supplier, by days past the due date."
        actions={
          <div className="flex items-center gap-2">
            <a href={agingHref(base, asOf, 'csv')} download className={buttonClasses('secondary', 'sm')}>
              <Download className="h-4 w-4" aria-hidden="true" /> CSV
              <span className="sr-only">of the payables aging as of {formatDate(asOf)}</span>
            </a>
            <a href={agingHref(base, asOf, 'pdf')} download className={buttonClasses('secondary', 'sm')}>
              <FileText className="h-4 w-4" aria-hidden="true" /> PDF
              <span className="sr-only">of the payables aging as of {formatDate(asOf)}</span>
            </a>
          </div>
        }
      />
      <Toolbar>
        <DateInput label="As of" value={asOf} onChange={(v) => setAsOf(v || today)} required />
      </Toolbar>
      <QueryView
        query={aging}
        what="the payables aging"
        isEmpty={(a) => a.rows.length === 0 && a.ledgerBalance === 0}
        empty={<EmptyState title="Nothing owed" description={`No open bills on ${formatDate(asOf)}.`} />}
      >
        {(a) => <AgingTable aging={a} />}
      </QueryView>
    </Card>
  );
};

const AgingTable = ({ aging: a }: { aging: PayablesAging }) => {
  const agrees = a.ledgerBalance === a.totals.total;
  return (
    <>
      {a.rows.length === 0 ? (
        <EmptyState
          title="No open bills"
          description={`No supplier is owed anything on ${formatDate(a.asOf)}.`}
        />
      ) : (
        <div>
          <Table caption={`Payables aging as of ${formatDate(a.asOf)}, in ${a.currency}`} captionHidden>
            <thead>
              <tr>
                <Th>Supplier</Th>
                {AGING_BUCKETS.map((b) => (
                  <Th key={b} numeric>
                    {b === 'current' ? AGING_LABELS[b] : `${AGING_LABELS[b]} days`}
                  </Th>
                ))}
                <Th numeric>Total</Th>
              </tr>
            </thead>
            <tbody>
              {a.rows.map((r) => (
                <tr key={r.supplierId} data-testid="aging-row">
                  <RowTh>{r.supplierName}</RowTh>
                  {AGING_BUCKETS.map((b) => (
                    <Td key={b} numeric>
                      <Money minor={r[b]} currency={a.currency} blankZero />
                    </Td>
                  ))}
                  <Td numeric className="font-medium">
                    <Money minor={r.total} currency={a.currency} />
                  </Td>
                </tr>
              ))}
            </tbody>
            <TotalsFoot label="Total" span={1}>
              {AGING_BUCKETS.map((b) => (
                <Td key={b} numeric>
                  <Money minor={a.totals[b]} currency={a.currency} />
                </Td>
              ))}
              <Td numeric data-testid="aging-total">
                <Money minor={a.totals.total} currency={a.currency} />
              </Td>
            </TotalsFoot>
          </Table>
        </div>
      )}
      <div className="space-y-3 px-5 py-4">
        <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="aging-ledger">
          Accounts payable in the ledger on {formatDate(a.asOf)}:{' '}
          <Money minor={a.ledgerBalance} currency={a.currency} className="font-semibold" />
          {agrees ? ' — agrees with the aging.' : null}
        </p>
        {agrees ? null : (
          <Alert tone="warning">
            The ledger's accounts payable (
            <Money minor={a.ledgerBalance} currency={a.currency} tintNegative={false} />) differs from the
            aging total (<Money minor={a.totals.total} currency={a.currency} tintNegative={false} />) by{' '}
            <Money minor={a.ledgerBalance - a.totals.total} currency={a.currency} tintNegative={false} />.
            Something was posted to accounts payable outside bills, payments and supplier credits (a manual
            journal entry, an opening balance): look at the account in Accounting.
          </Alert>
        )}
      </div>
    </>
  );
};
