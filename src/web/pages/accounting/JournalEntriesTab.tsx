import { useState } from 'react';
import type { JournalEntry } from '../../../shared/ledger.ts';
import { Money } from '../../components/money/Money.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { Alert } from '../../components/ui/Card.tsx';
import { DataTable } from '../../components/ui/DataTable.tsx';
import { ListCard, NewButton, SearchField } from '../../components/ui/ListCard.tsx';
import { useCompany } from '../../lib/company.tsx';
import { formatDate } from '../../lib/format.ts';
import { type EntryFilter, useJournalEntries } from './ledgerApi.ts';
import { Pager, useCursorPages } from './Pager.tsx';
import { SOURCE_LABELS, StatusBadge, errorText } from './parts.tsx';

// Journal Entries: every entry of the company, newest first, with status filters. When
// approval is on, entries waiting for it are called out for those who can approve.

const FILTERS: { id: string; label: string; status?: EntryFilter['status'] }[] = [
  { id: 'all', label: 'All' },
  { id: 'posted', label: 'Posted', status: 'posted' },
  { id: 'draft', label: 'Drafts', status: 'draft' },
  { id: 'pending', label: 'Awaiting approval', status: 'pending_approval' },
];

export const JournalEntriesTab = ({
  onNew,
  onOpen,
  approvalRequired,
}: {
  onNew: () => void;
  onOpen: (id: string) => void;
  approvalRequired: boolean;
}) => {
  const { company, can } = useCompany();
  const [filter, setFilter] = useState('all');
  const [search, setSearch] = useState('');
  const [submitted, setSubmitted] = useState('');
  const pages = useCursorPages();
  const status = FILTERS.find((f) => f.id === filter)?.status;
  const list = useJournalEntries({ status, search: submitted || undefined, cursor: pages.cursor });
  const pending = useJournalEntries({ status: 'pending_approval', limit: 1 });
  const hasPending = (pending.data?.entries.length ?? 0) > 0;
  const entries = list.data?.entries ?? [];
  const filtered = filter !== 'all' || submitted !== '';

  return (
    <div className="space-y-4">
      {approvalRequired && hasPending && can('approve') && filter !== 'pending' ? (
        <Alert tone="warning">
          <span className="flex flex-wrap items-center justify-between gap-3">
            <span>Entries are waiting for your approval before they reach the books.</span>
            <button
              type="button"
              onClick={() => {
                setFilter('pending');
                pages.reset();
              }}
              className="min-h-11 font-semibold underline underline-offset-2"
            >
              Open the approval queue
            </button>
          </span>
        </Alert>
      ) : null}
      <ListCard
        toolbar={
          <>
            <fieldset className="flex flex-wrap gap-1.5">
              <legend className="sr-only">Show entries</legend>
              {FILTERS.map((f) => (
                <button
                  key={f.id}
                  type="button"
                  aria-pressed={filter === f.id}
                  onClick={() => {
                    setFilter(f.id);
                    pages.reset();
                  }}
                  className={`min-h-11 rounded-full px-4 text-sm font-medium transition-colors ${filter === f.id ? 'bg-brand-600 text-white dark:bg-brand-500 dark:text-slate-950' : 'bg-slate-100 text-slate-700 hover:bg-slate-200 dark:bg-slate-800 dark:text-slate-200 dark:hover:bg-slate-700'}`}
                >
                  {f.label}
                </button>
              ))}
            </fieldset>
            <form
              aria-label="Search journal entries"
              onSubmit={(e) => {
                e.preventDefault();
                setSubmitted(search.trim());
                pages.reset();
              }}
              className="ml-auto flex items-center gap-2"
            >
              <SearchField
                label="Search memo or reference"
                value={search}
                onChange={setSearch}
                placeholder="Search memo or reference"
                className="w-64"
              />
              <Button type="submit" variant="secondary" size="sm">
                Search
              </Button>
            </form>
          </>
        }
        state={{
          loading: list.isLoading,
          loadingLabel: 'Loading journal entries...',
          error: list.isError ? `Could not load journal entries. ${errorText(list.error, 'reload')}` : null,
          onRetry: () => void list.refetch(),
          empty: entries.length === 0,
          emptyTitle: filtered ? 'No entries match' : 'No journal entries yet — record your first entry',
          emptyDescription: filtered
            ? 'Try another filter or clear the search.'
            : 'Journal entries move amounts between accounts: every debit has an equal credit. Invoices, payments and bank transactions will appear here too once you record them.',
          emptyAction: filtered ? (
            <Button
              variant="secondary"
              onClick={() => {
                setFilter('all');
                setSearch('');
                setSubmitted('');
                pages.reset();
              }}
            >
              Show all entries
            </Button>
          ) : can('record') ? (
            <NewButton onClick={onNew}>New journal entry</NewButton>
          ) : null,
        }}
      >
        <DataTable
          caption="Journal entries, newest first"
          rows={entries}
          rowKey={(e) => e.id}
          rowClassName={() => 'cursor-pointer hover:bg-slate-50 dark:hover:bg-slate-800/50'}
          onRowClick={(e) => onOpen(e.id)}
          columns={[
            {
              header: 'No.',
              headerClassName: 'w-20',
              className: 'tabular-nums text-slate-500 dark:text-slate-400',
              cell: (e) => e.number ?? '—',
            },
            {
              header: 'Date',
              headerClassName: 'w-32',
              className: 'whitespace-nowrap',
              cell: (e) => formatDate(e.date),
            },
            { header: 'Memo', cell: (e) => <MemoCell entry={e} onOpen={() => onOpen(e.id)} /> },
            {
              header: 'Source',
              headerClassName: 'w-32',
              className: 'text-slate-600 dark:text-slate-300',
              cell: (e) => SOURCE_LABELS[e.source] ?? e.source,
            },
            { header: 'Status', headerClassName: 'w-40', cell: (e) => <StatusBadge entry={e} /> },
            {
              header: 'Amount',
              numeric: true,
              headerClassName: 'w-40',
              className: 'font-medium',
              cell: (e) => <Money minor={e.totalDebit} currency={company.baseCurrency} />,
            },
          ]}
        />
        <Pager label="Journal entries" pages={pages} nextCursor={list.data?.nextCursor} />
      </ListCard>
    </div>
  );
};

/** The memo as the entry's button (the row's keyboard way in), and its reference. */
const MemoCell = ({ entry, onOpen }: { entry: JournalEntry; onOpen: () => void }) => (
  <>
    <button
      type="button"
      onClick={(ev) => {
        ev.stopPropagation();
        onOpen();
      }}
      className="inline-flex min-h-11 min-w-11 items-center text-left font-medium text-slate-900 underline-offset-2 hover:underline dark:text-white"
    >
      {entry.memo || <span className="text-slate-500 italic">No memo</span>}
      <span className="sr-only">, open entry {entry.number ?? 'draft'}</span>
    </button>
    {entry.reference ? (
      <span className="ml-2 text-xs text-slate-500 dark:text-slate-400">Ref {entry.reference}</span>
    ) : null}
  </>
);
