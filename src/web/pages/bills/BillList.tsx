import { useEffect, useState } from 'react';
import {
  BILL_STATUS_LABELS,
  type BillStatus,
  type BillSummary,
  type BillTotals,
} from '../../../shared/payables.ts';
import { Money } from '../../components/money/Money.tsx';
import { DataTable } from '../../components/ui/DataTable.tsx';
import { SelectField } from '../../components/ui/Field.tsx';
import { ListCard, NewButton, SearchField } from '../../components/ui/ListCard.tsx';
import { useCompany } from '../../lib/company.tsx';
import { formatDate } from '../../lib/format.ts';
import { Pager, useCursorPages } from '../accounting/Pager.tsx';
import { LinkButton } from '../invoices/parts.tsx';
import { FigureCard, StatusChip, StatusChipGroup } from '../shared-documents/DocumentList.tsx';
import { type BillListParams, useBillList, useBillTotals, useSupplierChoices } from './billsApi.ts';
import { BillStatusBadge } from './parts.tsx';

// The bill list: status tabs with counts and amounts (from /bills/totals), search, a supplier
// filter, keyset pages, and overdue bills marked in red.

type Chip = 'all' | BillStatus;
const CHIPS: Chip[] = [
  'all',
  'draft',
  'awaiting_approval',
  'open',
  'overdue',
  'partially_paid',
  'paid',
  'void',
];

/** What a chip's amount is: still to pay for live bills, the total for drafts, paid and void ones. */
const chipAmount = (chip: Chip, t: BillTotals['totals'][Chip] | undefined) =>
  t === undefined
    ? undefined
    : ['draft', 'awaiting_approval', 'paid', 'void'].includes(chip)
      ? t.total
      : t.amountDue;

const SummaryFigures = ({ totals }: { totals: BillTotals | undefined }) => {
  const { company } = useCompany();
  const t = totals?.totals;
  const currency = totals?.baseCurrency ?? company.baseCurrency;
  const figures = [
    ['To pay', t ? t.open.amountDue + t.partially_paid.amountDue + t.overdue.amountDue : null, ''],
    ['Overdue', t?.overdue.amountDue ?? null, t?.overdue.amountDue ? 'text-red-700 dark:text-red-400' : ''],
    ['Awaiting approval', t?.awaiting_approval.total ?? null, ''],
    ['Drafts', t?.draft.total ?? null, 'text-slate-700 dark:text-slate-300'],
  ] as const;
  return (
    <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
      {figures.map(([label, amount, tone]) => (
        <FigureCard
          key={label}
          label={label}
          amount={amount}
          currency={currency}
          tone={tone || 'text-slate-900 dark:text-white'}
          testId={`bills-figure-${label.toLowerCase().replace(/ /g, '-')}`}
        />
      ))}
    </div>
  );
};

const StatusChips = ({
  value,
  totals,
  onChange,
}: {
  value: Chip;
  totals: BillTotals | undefined;
  onChange: (chip: Chip) => void;
}) => (
  <StatusChipGroup>
    {CHIPS.map((chip) => {
      const active = value === chip;
      const t = totals?.totals[chip];
      const amount = chipAmount(chip, t);
      return (
        <StatusChip
          key={chip}
          label={chip === 'all' ? 'All' : BILL_STATUS_LABELS[chip]}
          active={active}
          alert={chip === 'overdue' && Boolean(t?.count)}
          onClick={() => onChange(chip)}
          badge={
            t ? (
              <>
                {t.count}
                {t.count > 0 && chip !== 'all' && amount !== undefined && totals ? (
                  <>
                    <span aria-hidden="true"> · </span>
                    <span className="sr-only">, </span>
                    <Money minor={amount} currency={totals.baseCurrency} tintNegative={false} />
                  </>
                ) : null}
              </>
            ) : undefined
          }
        />
      );
    })}
  </StatusChipGroup>
);

export const BillList = ({ onOpen, onNew }: { onOpen: (id: string) => void; onNew: () => void }) => {
  const { can } = useCompany();
  const [status, setStatus] = useState<Chip>('all');
  const [supplierId, setSupplierId] = useState('');
  const [searchText, setSearchText] = useState('');
  const [search, setSearch] = useState('');
  const pages = useCursorPages();
  const { reset } = pages;
  useEffect(() => {
    const timer = window.setTimeout(() => setSearch(searchText.trim()), 300);
    return () => window.clearTimeout(timer);
  }, [searchText]);
  // A new filter starts from its first page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when any filter changes
  useEffect(() => reset(), [status, supplierId, search, reset]);

  const params: BillListParams = { status, search, supplierId, cursor: pages.cursor, limit: 50 };
  const list = useBillList(params);
  const totals = useBillTotals();
  const suppliers = useSupplierChoices();
  const rows = list.data?.bills ?? [];
  const filtered = status !== 'all' || Boolean(search) || Boolean(supplierId);

  return (
    <div className="space-y-5">
      <SummaryFigures totals={totals.data} />
      <ListCard
        toolbar={
          <div className="flex w-full flex-col gap-3">
            <StatusChips value={status} totals={totals.data} onChange={setStatus} />
            <div className="flex flex-wrap items-end gap-3">
              <SearchField
                label="Search bills"
                value={searchText}
                onChange={setSearchText}
                placeholder="Number, supplier or reference"
              />
              <div className="w-64">
                <SelectField
                  label="Supplier"
                  value={supplierId}
                  onChange={(e) => setSupplierId(e.target.value)}
                  emptyOption="All suppliers"
                  options={(suppliers.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
                />
              </div>
            </div>
          </div>
        }
        state={{
          loading: list.isLoading,
          loadingLabel: 'Loading bills...',
          error: list.isError ? `Could not load the bills. ${list.error.message}` : undefined,
          onRetry: () => void list.refetch(),
          empty: rows.length === 0,
          emptyTitle: filtered ? 'No bills match' : 'No bills yet',
          emptyDescription: filtered
            ? 'Try another status, supplier or search term.'
            : 'Enter the bills your suppliers send you: Kontor books them to accounts payable and tracks what is due.',
          emptyAction:
            !filtered && can('record') ? <NewButton onClick={onNew}>New bill</NewButton> : undefined,
        }}
        footer={<Pager label="Bill" pages={pages} nextCursor={list.data?.nextCursor} />}
      >
        <DataTable<BillSummary>
          caption="Bills"
          className={list.isPlaceholderData ? 'opacity-70' : ''}
          rows={rows}
          rowKey={(b) => b.id}
          rowClassName={(b) =>
            b.status === 'overdue'
              ? 'bg-red-50/60 hover:bg-red-50 dark:bg-red-950/20 dark:hover:bg-red-950/40'
              : 'hover:bg-slate-50 dark:hover:bg-slate-800/50'
          }
          columns={[
            {
              header: 'Number',
              rowHeader: true,
              className: 'whitespace-nowrap',
              cell: (b) => (
                <LinkButton onClick={() => onOpen(b.id)}>
                  {b.number || 'Draft'}
                  <span className="sr-only">, open bill</span>
                </LinkButton>
              ),
            },
            { header: 'Supplier', cell: (b) => b.supplierName },
            { header: 'Reference', cell: (b) => b.reference || '—' },
            { header: 'Issued', className: 'whitespace-nowrap', cell: (b) => formatDate(b.issueDate) },
            {
              header: 'Due',
              className: 'whitespace-nowrap',
              cell: (b) =>
                b.status === 'overdue' ? (
                  <span className="font-medium text-red-700 dark:text-red-400">{formatDate(b.dueDate)}</span>
                ) : (
                  formatDate(b.dueDate)
                ),
            },
            {
              header: 'Status',
              className: 'whitespace-nowrap',
              cell: (b) => <BillStatusBadge status={b.status} />,
            },
            { header: 'Total', numeric: true, cell: (b) => <Money minor={b.total} currency={b.currency} /> },
            {
              header: 'Amount due',
              numeric: true,
              className: 'font-medium',
              cell: (b) => (
                <Money minor={b.amountDue} currency={b.currency} blankZero={b.status === 'paid'} />
              ),
            },
          ]}
        />
      </ListCard>
    </div>
  );
};
