import { Download } from 'lucide-react';
import { useState } from 'react';
import type { SupplierStatement } from '../../../shared/payables.ts';
import { Money } from '../../components/money/Money.tsx';
import { buttonClasses } from '../../components/ui/Button.tsx';
import { Card, CardError, CardHeader, EmptyState } from '../../components/ui/Card.tsx';
import { TextField } from '../../components/ui/Field.tsx';
import { LoadingState } from '../../components/ui/ListCard.tsx';
import { Table, Td, Th, TotalsFoot } from '../../components/ui/Table.tsx';
import { formatDate } from '../../lib/format.ts';
import { statementParams, usePayablesPath, useSupplierStatement } from './SupplierApi.ts';

// A supplier's statement: every bill, payment, credit, credit applied and refund over a period
// with the running balance (what the company owes them), and the same as CSV.

export const STATEMENT_KIND_LABELS: Record<SupplierStatement['lines'][number]['kind'], string> = {
  bill: 'Bill',
  payment: 'Payment',
  credit: 'Supplier credit',
  credit_applied: 'Credit applied',
  refund: 'Refund received',
  void: 'Voided',
  payment_removed: 'Payment removed',
};

/** A balance as people read it: owed to the supplier, or credit the supplier holds for the company. */
const BalanceText = ({ minor, currency }: { minor: number; currency: string }) =>
  minor < 0 ? (
    <span>
      <Money minor={-minor} currency={currency} tintNegative={false} /> in your favour
    </span>
  ) : (
    <Money minor={minor} currency={currency} />
  );

export const SupplierStatementCard = ({
  supplierId,
  supplierName,
}: {
  supplierId: string;
  supplierName: string;
}) => {
  const { base } = usePayablesPath();
  const [period, setPeriod] = useState({ from: '', to: '' });
  const statement = useSupplierStatement(supplierId, period);
  const s = statement.data;
  const rangeError =
    period.from && period.to && period.from > period.to ? 'The start is after the end.' : null;
  const csvHref = `/api${base}/suppliers/${supplierId}/statement.csv?${new URLSearchParams(
    statementParams(period),
  ).toString()}`;
  return (
    <Card>
      <CardHeader
        title="Statement"
        description="Bills, payments, credits and refunds, with the running balance you owe."
        actions={
          <a href={csvHref} download className={buttonClasses('secondary', 'sm')}>
            <Download className="h-4 w-4" aria-hidden="true" /> CSV
            <span className="sr-only">of the statement of {supplierName}</span>
          </a>
        }
      />
      <div className="flex flex-wrap items-end gap-3 px-5 py-3">
        <TextField
          label="From"
          type="date"
          value={period.from}
          onChange={(e) => setPeriod({ ...period, from: e.target.value })}
          error={rangeError}
        />
        <TextField
          label="To"
          type="date"
          value={period.to}
          onChange={(e) => setPeriod({ ...period, to: e.target.value })}
        />
      </div>
      {statement.isError ? (
        <CardError
          message={`Could not load the statement. ${statement.error.message}`}
          onRetry={() => void statement.refetch()}
        />
      ) : s ? (
        s.lines.length === 0 && s.openingBalance === 0 ? (
          <EmptyState title={`Nothing on ${supplierName}'s statement for these dates`} />
        ) : (
          <Table caption={`Statement of ${supplierName}`} captionHidden dense>
            <thead>
              <tr>
                <Th>Date</Th>
                <Th>Type</Th>
                <Th>Document</Th>
                <Th>Description</Th>
                <Th numeric>Billed</Th>
                <Th numeric className="whitespace-nowrap">
                  Paid or credited
                </Th>
                <Th numeric>Balance</Th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <Td colSpan={6} className="font-medium">
                  Opening balance{s.from ? ` on ${formatDate(s.from)}` : ''}
                </Td>
                <Td numeric>
                  <BalanceText minor={s.openingBalance} currency={s.currency} />
                </Td>
              </tr>
              {s.lines.map((l) => (
                <tr key={`${l.kind}-${l.documentId}-${l.date}`} data-testid="supplier-statement-line">
                  <Td className="whitespace-nowrap">{formatDate(l.date)}</Td>
                  <Td>{STATEMENT_KIND_LABELS[l.kind]}</Td>
                  <Td className="whitespace-nowrap">{[l.number, l.reference].filter(Boolean).join(' · ')}</Td>
                  <Td>{l.description}</Td>
                  <Td numeric>{l.charges ? <Money minor={l.charges} currency={s.currency} /> : null}</Td>
                  <Td numeric>{l.payments ? <Money minor={l.payments} currency={s.currency} /> : null}</Td>
                  <Td numeric>
                    <BalanceText minor={l.balance} currency={s.currency} />
                  </Td>
                </tr>
              ))}
            </tbody>
            <TotalsFoot label={`Closing balance on ${formatDate(s.to)}`} span={6}>
              <Td numeric data-testid="supplier-statement-closing">
                <BalanceText minor={s.closingBalance} currency={s.currency} />
              </Td>
            </TotalsFoot>
          </Table>
        )
      ) : statement.isLoading ? (
        <LoadingState label="Loading statement..." />
      ) : null}
    </Card>
  );
};
