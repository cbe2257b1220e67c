import { ChevronLeft, ChevronRight, Download } from 'lucide-react';
import { useDeferredValue, useEffect, useState } from 'react';
import { INVOICE_STATUSES, type InvoiceStatus, STATUS_LABELS } from '../../../shared/invoices.ts';
import { Money } from '../../components/money/Money.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { Card, CardError, EmptyState } from '../../components/ui/Card.tsx';
import { SearchField } from '../../components/ui/ListCard.tsx';
import { SortTh, Table, Td } from '../../components/ui/Table.tsx';
import { useCompany } from '../../lib/company.tsx';
import { type ListParams, useInvoiceList, useOrgPath } from './invoicesApi.ts';
import { StatusBadge, formatDate } from './parts.tsx';
import { FigureCard, StatusChip, StatusChipGroup } from '../shared-documents/DocumentList.tsx';

// The invoice list: status chips with counts, totals by status, search, sortable columns,
// pagination and CSV export of exactly what the filter shows.

const CHIPS: ('all' | InvoiceStatus)[] = ['all', ...INVOICE_STATUSES];
const COLUMNS = [
  { key: 'number', label: 'Number', numeric: false },
  { key: 'customer', label: 'Customer', numeric: false },
  { key: 'issueDate', label: 'Issued', numeric: false },
  { key: 'dueDate', label: 'Due', numeric: false },
  { key: 'status', label: 'Status', numeric: false },
  { key: 'total', label: 'Total', numeric: true },
  { key: 'amountDue', label: 'Amount due', numeric: true },
] as const;

export const InvoiceList = ({ onOpen, onNew }: { onOpen: (id: string) => void; onNew: () => void }) => {
  const { company, can } = useCompany();
  const { base } = useOrgPath();
  const [params, setParams] = useState<ListParams>({
    status: 'all',
    search: '',
    sort: 'issueDate',
    order: 'desc',
    page: 1,
    pageSize: 25,
  });
  const [searchText, setSearchText] = useState('');
  useEffect(() => {
    const timer = window.setTimeout(
      () => setParams((p) => (p.search === searchText ? p : { ...p, search: searchText, page: 1 })),
      300,
    );
    return () => window.clearTimeout(timer);
  }, [searchText]);
  // Drawn in a deferred render (slices of a few milliseconds) rather than one long task as the
  // answer arrives; the whole result is deferred, so its loading state and rows agree.
  const list = useDeferredValue(useInvoiceList(params));
  const data = list.data;
  const totals = data?.totalsByStatus;
  const currency = data?.baseCurrency ?? company.baseCurrency;
  const pages = data ? Math.max(1, Math.ceil(data.totalCount / params.pageSize)) : 1;

  const sortBy = (key: string) =>
    setParams((p) => ({
      ...p,
      sort: key,
      order: p.sort === key && p.order === 'desc' ? 'asc' : 'desc',
      page: 1,
    }));
  const exportUrl = `/api${base}/invoices/export.csv?${new URLSearchParams({
    status: params.status,
    sort: params.sort,
    order: params.order,
    ...(params.search ? { search: params.search } : {}),
  })}`;

  return (
    <div className="space-y-5">
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {(
          [
            [
              'Outstanding',
              totals
                ? totals.sent.amountDue + totals.partially_paid.amountDue + totals.overdue.amountDue
                : null,
              'text-slate-900 dark:text-white',
            ],
            [
              'Overdue',
              totals?.overdue.amountDue ?? null,
              totals?.overdue.amountDue ? 'text-red-700 dark:text-red-400' : 'text-slate-900 dark:text-white',
            ],
            [
              'Paid',
              totals?.paid.total ?? null,
              totals?.paid.total
                ? 'text-emerald-700 dark:text-emerald-400'
                : 'text-slate-900 dark:text-white',
            ],
            ['Drafts', totals?.draft.total ?? null, 'text-slate-700 dark:text-slate-300'],
          ] as const
        ).map(([label, amount, tone]) => (
          <FigureCard key={label} label={label} amount={amount} currency={currency} tone={tone} />
        ))}
      </div>

      <Card>
        <div className="flex flex-wrap items-center gap-3 border-b border-slate-200 px-4 py-3 dark:border-slate-800">
          <StatusChipGroup>
            {CHIPS.map((chip) => {
              const active = params.status === chip;
              const count = totals?.[chip]?.count;
              return (
                <StatusChip
                  key={chip}
                  label={chip === 'all' ? 'All' : STATUS_LABELS[chip]}
                  active={active}
                  onClick={() => setParams((p) => ({ ...p, status: chip, page: 1 }))}
                  // While the counts load, a badge of one digit's room (hidden), so the chips
                  // after it do not move when the numbers come.
                  badge={count ?? (totals ? undefined : <span className="invisible">0</span>)}
                />
              );
            })}
          </StatusChipGroup>
          <div className="ml-auto flex flex-wrap items-center gap-2">
            <SearchField
              label="Search invoices"
              value={searchText}
              onChange={setSearchText}
              placeholder="Search number, customer, reference"
            />
            <a
              href={exportUrl}
              download
              className="inline-flex min-h-11 items-center gap-2 rounded-lg border border-slate-300 bg-white px-4 text-sm font-semibold text-slate-800 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800"
            >
              <Download className="h-4 w-4" aria-hidden="true" /> Export CSV
            </a>
          </div>
        </div>

        {list.error ? <CardError message={list.error.message} /> : null}
        {list.isLoading ? (
          <div className="space-y-2 p-4" role="status" aria-busy="true" aria-label="Loading invoices">
            {[0, 1, 2, 3, 4].map((i) => (
              <div key={i} className="h-10 animate-pulse rounded bg-slate-100 dark:bg-slate-800" />
            ))}
          </div>
        ) : data && data.items.length === 0 ? (
          params.status === 'all' && !params.search ? (
            <EmptyState
              title="No invoices yet"
              description="Create your first invoice: choose a customer, add lines, and send it. Kontor posts it to your books for you."
              action={can('record') ? <Button onClick={onNew}>New Invoice</Button> : undefined}
            />
          ) : (
            <EmptyState title="No invoices match" description="Try another status or search term." />
          )
        ) : data ? (
          <>
            <Table
              caption={`Invoices, ${data.totalCount} found`}
              captionHidden
              className={list.isFetching ? 'opacity-70' : ''}
            >
              <thead>
                <tr>
                  {COLUMNS.map((c) => (
                    <SortTh
                      key={c.key}
                      label={c.label}
                      numeric={c.numeric}
                      sorted={params.sort === c.key}
                      ascending={params.order === 'asc'}
                      onSort={() => sortBy(c.key)}
                    />
                  ))}
                </tr>
              </thead>
              <tbody>
                {data.items.map((inv) => (
                  <tr
                    key={inv.id}
                    className="hover:bg-slate-50 dark:hover:bg-slate-800/50 [&>td]:align-middle"
                  >
                    <Td>
                      <button
                        type="button"
                        onClick={() => onOpen(inv.id)}
                        className="inline-flex min-h-11 items-center font-medium text-brand-700 hover:underline dark:text-brand-300"
                      >
                        {inv.number ?? 'Draft'}
                        <span className="sr-only">, open invoice</span>
                      </button>
                    </Td>
                    <Td>{inv.customerName}</Td>
                    <Td className="whitespace-nowrap">{formatDate(inv.issueDate)}</Td>
                    <Td className="whitespace-nowrap">{formatDate(inv.dueDate)}</Td>
                    <Td>
                      <StatusBadge status={inv.status} />
                    </Td>
                    <Td numeric>
                      <Money minor={inv.total} currency={inv.currency} />
                    </Td>
                    <Td numeric className="font-medium">
                      <Money minor={inv.amountDue} currency={inv.currency} />
                    </Td>
                  </tr>
                ))}
              </tbody>
            </Table>
            <nav
              aria-label="Invoice pages"
              className="flex flex-wrap items-center justify-between gap-3 px-4 py-3"
            >
              <p className="text-sm text-slate-500 dark:text-slate-400">
                Page {params.page} of {pages} · {data.totalCount} invoice{data.totalCount === 1 ? '' : 's'}
              </p>
              <div className="flex items-center gap-2">
                <label className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-300">
                  Per page
                  <select
                    value={params.pageSize}
                    onChange={(e) => setParams((p) => ({ ...p, pageSize: Number(e.target.value), page: 1 }))}
                    className="min-h-11 rounded-lg border border-slate-300 bg-white px-2 dark:border-slate-700 dark:bg-slate-900"
                  >
                    {[25, 50, 100].map((n) => (
                      <option key={n} value={n}>
                        {n}
                      </option>
                    ))}
                  </select>
                </label>
                <Button
                  variant="secondary"
                  disabled={params.page <= 1}
                  onClick={() => setParams((p) => ({ ...p, page: p.page - 1 }))}
                >
                  <ChevronLeft className="h-4 w-4" aria-hidden="true" /> Previous
                </Button>
                <Button
                  variant="secondary"
                  disabled={params.page >= pages}
                  onClick={() => setParams((p) => ({ ...p, page: p.page + 1 }))}
                >
                  Next <ChevronRight className="h-4 w-4" aria-hidden="true" />
                </Button>
              </div>
            </nav>
          </>
        ) : null}
      </Card>
    </div>
  );
};
