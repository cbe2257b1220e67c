import { Landmark } from 'lucide-react';
import type { BillSummary } from '../../../shared/payables.ts';
import { Money } from '../../components/money/Money.tsx';
import { Badge } from '../../components/ui/Card.tsx';
import { LineInput } from '../../components/ui/LineItems.tsx';
import { RowTh, Table, Td, Th } from '../../components/ui/Table.tsx';
import { formatDate } from '../../lib/format.ts';
import { LinkButton } from '../invoices/parts.tsx';
import { type PaymentRunGroup, type Selection, amountProblem } from './PaymentRunState.ts';

// One supplier of the payment run: their name and bank details, a box to tick all their bills,
// then each bill with its due date (overdue marked), what is due and the amount to pay.

const CHECKBOX = 'h-5 w-5 shrink-0 rounded border-slate-300 text-brand-600 dark:border-slate-600';

export const PaymentRunSupplier = ({
  group,
  today,
  selection,
  canPay,
  onToggle,
  onAmount,
  onOpenBill,
}: {
  group: PaymentRunGroup;
  today: string;
  selection: Selection;
  canPay: boolean;
  onToggle: (bill: BillSummary, on: boolean) => void;
  onAmount: (bill: BillSummary, text: string) => void;
  onOpenBill: (billId: string) => void;
}) => {
  const ticked = group.bills.filter((b) => selection[b.id] !== undefined).length;
  const all = ticked === group.bills.length;
  const bank = [group.bankAccountNumber, group.bankCode].filter(Boolean).join(' · ');
  const headingId = `run-supplier-${group.supplierId}`;
  return (
    <section aria-labelledby={headingId} className="rounded-lg border border-slate-200 dark:border-slate-800">
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 bg-slate-50 px-4 py-2 dark:border-slate-800 dark:bg-slate-800/40">
        <div className="flex items-center gap-3">
          {canPay ? (
            <input
              type="checkbox"
              className={CHECKBOX}
              checked={all}
              ref={(el) => {
                if (el) el.indeterminate = ticked > 0 && !all;
              }}
              onChange={(e) => {
                for (const b of group.bills)
                  if ((selection[b.id] !== undefined) !== e.target.checked) onToggle(b, e.target.checked);
              }}
              aria-label={`Pay all bills of ${group.supplierName}`}
            />
          ) : null}
          <div>
            <h3 id={headingId} className="font-semibold text-slate-900 dark:text-white">
              {group.supplierName}
            </h3>
            <p className="flex items-center gap-1 text-xs text-slate-500 dark:text-slate-400">
              <Landmark className="h-3.5 w-3.5" aria-hidden="true" />
              {bank ? (
                <span>Pay to {bank}</span>
              ) : (
                <span className="text-amber-700 dark:text-amber-400">No bank details</span>
              )}
            </p>
          </div>
        </div>
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Due:{' '}
          {group.totals.map((t, i) => (
            <span key={t.currency}>
              {i > 0 ? ' + ' : ''}
              <Money minor={t.amount} currency={t.currency} className="font-semibold" />
            </span>
          ))}
        </p>
      </div>
      <Table
        caption={`Bills of ${group.supplierName} in the payment run`}
        captionHidden
        dense
        className="[&_table]:table-fixed"
      >
        <thead>
          <tr>
            {canPay ? (
              <Th className="w-12">
                <span className="sr-only">Pay</span>
              </Th>
            ) : null}
            <Th className="w-36">Bill</Th>
            <Th>Reference</Th>
            <Th className="w-52">Due</Th>
            <Th numeric className="w-36">
              Amount due
            </Th>
            {canPay ? (
              <Th numeric className="w-44">
                Pay now
              </Th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {group.bills.map((b) => {
            const text = selection[b.id];
            const on = text !== undefined;
            const problem = on ? amountProblem(text, b) : null;
            const overdue = b.dueDate < today;
            return (
              <tr key={b.id} className={on ? 'bg-brand-50/60 dark:bg-brand-950/30' : undefined}>
                {canPay ? (
                  <Td>
                    <input
                      type="checkbox"
                      className={CHECKBOX}
                      checked={on}
                      onChange={(e) => onToggle(b, e.target.checked)}
                      aria-label={`Pay ${b.number} of ${group.supplierName}`}
                    />
                  </Td>
                ) : null}
                <RowTh>
                  <LinkButton onClick={() => onOpenBill(b.id)}>{b.number}</LinkButton>
                </RowTh>
                <Td>{b.reference || '—'}</Td>
                <Td className="whitespace-nowrap">
                  {formatDate(b.dueDate)} {overdue ? <Badge tone="red">Overdue</Badge> : null}
                </Td>
                <Td numeric>
                  <Money minor={b.amountDue} currency={b.currency} />
                </Td>
                {canPay ? (
                  <Td numeric>
                    {on ? (
                      <div>
                        <LineInput
                          label={`Amount to pay on ${b.number} (${b.currency})`}
                          numeric
                          value={text}
                          invalid={problem !== null}
                          onChange={(e) => onAmount(b, e.target.value)}
                          aria-describedby={problem ? `run-amount-${b.id}` : undefined}
                        />
                        {problem ? (
                          <p
                            id={`run-amount-${b.id}`}
                            className="mt-1 text-xs text-red-600 dark:text-red-400"
                          >
                            {problem}
                          </p>
                        ) : null}
                      </div>
                    ) : (
                      <span className="text-slate-400">—</span>
                    )}
                  </Td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </Table>
    </section>
  );
};
