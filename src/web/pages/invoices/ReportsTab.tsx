import { useState } from 'react';
import { AGING_BUCKETS, AGING_LABELS } from '../../../shared/invoices.ts';
import { Money } from '../../components/money/Money.tsx';
import { Alert, Card, CardError, CardHeader, EmptyState } from '../../components/ui/Card.tsx';
import { TextField } from '../../components/ui/Field.tsx';
import { RowTh, Table, Td, Th } from '../../components/ui/Table.tsx';
import { ExportLinks } from '../accounting/parts.tsx';
import { useAging, useTaxReport } from './invoicesApi.ts';
import { todayIso } from './parts.tsx';

// Receivables aging per customer (checked against the ledger's receivable balance) and tax
// per rate for a period: collected on sales, paid on purchases (bills), and the net owed.

export const ReportsTab = () => {
  const today = todayIso();
  const [asOf, setAsOf] = useState(today);
  const [from, setFrom] = useState(`${today.slice(0, 7)}-01`);
  const [to, setTo] = useState(today);
  const aging = useAging(asOf);
  const tax = useTaxReport(from, to);
  const a = aging.data;
  return (
    <div className="space-y-6">
      <Card>
        <CardHeader
          title="Receivables aging"
          description="What customers owe, by days past due."
          actions={
            <div className="flex flex-wrap items-end gap-2">
              <ExportLinks label="receivables aging" report="receivables-aging" query={{ asOf }} />
              <div className="w-44">
                <TextField
                  label="As of"
                  type="date"
                  value={asOf}
                  onChange={(e) => setAsOf(e.target.value || today)}
                />
              </div>
            </div>
          }
        />
        {aging.error ? <CardError message={aging.error.message} /> : null}
        {!a ? (
          <p className="px-5 py-6 text-sm text-slate-500" role="status">
            Loading...
          </p>
        ) : a.rows.length === 0 ? (
          <EmptyState title="Nothing owed" description="No open invoices on this date." />
        ) : (
          <>
            <Table caption={`Receivables aging as of ${asOf} in ${a.currency}`} captionHidden>
              <thead>
                <tr>
                  <Th>Customer</Th>
                  {AGING_BUCKETS.map((b) => (
                    <Th key={b} numeric>
                      {AGING_LABELS[b]}
                    </Th>
                  ))}
                  <Th numeric>Total</Th>
                </tr>
              </thead>
              <tbody>
                {a.rows.map((r) => (
                  <tr key={r.customerId}>
                    <RowTh>{r.customerName}</RowTh>
                    {AGING_BUCKETS.map((b) => (
                      <Td key={b} numeric>
                        <Money minor={r[b]} currency={a.currency} />
                      </Td>
                    ))}
                    <Td numeric className="font-medium">
                      <Money minor={r.total} currency={a.currency} />
                    </Td>
                  </tr>
                ))}
                <tr className="font-semibold">
                  <RowTh className="font-semibold">Total</RowTh>
                  {AGING_BUCKETS.map((b) => (
                    <Td key={b} numeric>
                      <Money minor={a.totals[b]} currency={a.currency} />
                    </Td>
                  ))}
                  <Td numeric>
                    <Money minor={a.totals.total} currency={a.currency} />
                  </Td>
                </tr>
              </tbody>
            </Table>
            <p className="px-5 py-3 text-sm text-slate-500 dark:text-slate-400">
              Accounts receivable in the ledger on this date:{' '}
              <Money minor={a.ledgerBalance} currency={a.currency} />
              {a.ledgerBalance === a.totals.total
                ? ' — matches.'
                : ' — differs: entries posted to receivable outside invoicing.'}
            </p>
          </>
        )}
      </Card>
      <Card>
        <CardHeader
          title="Tax"
          description="Per rate: tax collected on invoices less credit notes, tax paid on bills less supplier credits, and the net you owe (a negative net is due back to you), as posted to the ledger."
          actions={
            <div className="flex flex-wrap items-end gap-2">
              {from <= to ? <ExportLinks label="tax report" report="sales-tax" query={{ from, to }} /> : null}
              <div className="w-40">
                <TextField label="From" type="date" value={from} onChange={(e) => setFrom(e.target.value)} />
              </div>
              <div className="w-40">
                <TextField label="To" type="date" value={to} onChange={(e) => setTo(e.target.value)} />
              </div>
            </div>
          }
        />
        {from > to ? (
          <div className="p-4">
            <Alert tone="warning">The start date must be on or before the end date.</Alert>
          </div>
        ) : null}
        {tax.error ? <CardError message={tax.error.message} onRetry={() => void tax.refetch()} /> : null}
        {tax.data && tax.data.rows.length === 0 ? (
          <EmptyState title="No tax in this period" />
        ) : tax.data ? (
          <div>
            <Table caption={`Tax from ${from} to ${to}`} captionHidden>
              <thead>
                <tr>
                  <Th>Rate</Th>
                  <Th numeric>Sales taxable</Th>
                  <Th numeric>Tax collected</Th>
                  <Th numeric>Purchases taxable</Th>
                  <Th numeric>Tax paid</Th>
                  <Th numeric>Net tax</Th>
                </tr>
              </thead>
              <tbody>
                {tax.data.rows.map((r) => (
                  <tr key={r.taxRateId}>
                    <RowTh>
                      {r.name} ({r.percent}%)
                    </RowTh>
                    <TaxCells row={r} currency={tax.data.currency} />
                  </tr>
                ))}
                <tr className="font-semibold">
                  <RowTh className="font-semibold">Total</RowTh>
                  <TaxCells row={tax.data.totals} currency={tax.data.currency} />
                </tr>
              </tbody>
            </Table>
          </div>
        ) : null}
      </Card>
    </div>
  );
};

const TAX_COLUMNS = ['taxable', 'tax', 'purchaseTaxable', 'purchaseTax', 'netTax'] as const;

/** A tax report row's figures: sales taxable and tax, purchases taxable and tax, the net. */
const TaxCells = ({
  row,
  currency,
}: {
  row: Record<(typeof TAX_COLUMNS)[number], number>;
  currency: string;
}) => (
  <>
    {TAX_COLUMNS.map((k) => (
      <Td key={k} numeric className={k === 'netTax' ? 'font-medium' : undefined}>
        <Money minor={row[k]} currency={currency} blankZero={k !== 'netTax'} />
      </Td>
    ))}
  </>
);
