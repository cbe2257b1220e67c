import { useEffect, useState } from 'react';
import {
  BILL_STATUS_LABELS,
  type BillStatus,
  type BillSummary,
  type BillTotals,
} from '../../../shared/payables.ts';
import { Money } from '../../components/money/Money.tsx';
import { Card } from '../../components/ui/Card.tsx';
import { DataTable } from '../../components/ui/DataTable.tsx';
import { SelectField } from '../../components/ui/Field.tsx';
import { ListCard, NewButton, SearchField } from '../../components/ui/ListCard.tsx';
import { useCompany } from '../../lib/company.tsx';
import { formatDate } from '../../lib/format.ts';
import { Pager, useCursorPages } from '../accounting/Pager.tsx';
import { LinkButton } from '../invoices/parts.tsx';
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
        <Card key={label} className="px-5 py-4">
          <p className="text-sm text-slate-500 dark:text-slate-400">{label}</p>
          <p
            className={`mt-1 text-xl font-semibold ${tone || 'text-slate-900 dark:text-white'}`}
            data-testid={`bills-figure-${label.toLowerCase().replace(/ /g, '-')}`}
          >
            {amount === null ? (
              <span
                className="inline-block h-6 w-28 animate-pulse rounded bg-slate-200 dark:bg-slate-800"
                role="status"
                aria-label="Loading"
              />
            ) : (
              <Money minor={amount} currency={currency} />
            )}
          </p>
        </Card>
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
  <fieldset className="flex flex-wrap gap-2">
    <legend className="sr-only">Filter by status</legend>
    {CHIPS.map((chip) => {
      const active = value === chip;
      const t = totals?.totals[chip];
      const amount = chipAmount(chip, t);
      return (
        <button
          key={chip}
          type="button"
          aria-pressed={active}
          onClick={() => onChange(chip)}
          className={`inline-flex min-h-11 items-center gap-2 rounded-full border px-4 text-sm font-medium transition-colors ${
            active
              ? 'border-brand-600 bg-brand-600 text-white dark:border-brand-400 dark:bg-brand-500 dark:text-slate-950'
              : chip === 'overdue' && t?.count
                ? 'border-red-300 bg-white text-red-700 hover:bg-red-50 dark:border-red-800 dark:bg-slate-900 dark:text-red-300 dark:hover:bg-red-950/40'
                : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800'
          }`}
        >
          {chip === 'all' ? 'All' : BILL_STATUS_LABELS[chip]}
          {t ? (
            <span
              className={`rounded-full px-1.5 text-xs ${active ? 'bg-white/20' : 'bg-slate-100 dark:bg-slate-800'}`}
            >
              {t.count}
              {t.count > 0 && chip !== 'all' && amount !== undefined && totals ? (
                <>
                  <span aria-hidden="true"> · </span>
                  <span className="sr-only">, </span>
                  <Money minor={amount} currency={totals.baseCurrency} tintNegative={false} />
                </>
              ) : null}
            </span>
          ) : null}
        </button>
      );
    })}
  </fieldset>
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
