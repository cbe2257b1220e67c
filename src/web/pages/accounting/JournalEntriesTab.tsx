import { Plus, Search } from 'lucide-react';
import { useState } from 'react';
import { Money } from '../../components/money/Money.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { Alert, Card, EmptyState } from '../../components/ui/Card.tsx';
import { Table, Td, Th } from '../../components/ui/Table.tsx';
import { useCompany } from '../../lib/company.tsx';
import { formatDate } from '../../lib/format.ts';
import { type EntryFilter, useJournalEntries } from './ledgerApi.ts';
import { Pager, useCursorPages } from './Pager.tsx';
import { Loading, LoadError, SOURCE_LABELS, StatusBadge } from './parts.tsx';

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
      <Card>
        <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 px-5 py-3 dark:border-slate-800">
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
            className="flex items-center gap-2"
          >
            <label className="relative">
              <span className="sr-only">Search memo or reference</span>
              <Search
                className="pointer-events-none absolute top-1/2 left-3 h-4 w-4 -translate-y-1/2 text-slate-400"
                aria-hidden="true"
              />
              <input
                type="search"
                value={search}
                onChange={(e) => setSearch(e.target.value)}
                placeholder="Search memo or reference"
                className="min-h-11 w-64 rounded-lg border border-slate-300 bg-white pr-3 pl-9 text-sm text-slate-900 focus:border-brand-500 focus:ring-2 focus:ring-brand-500/30 focus:outline-none dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
              />
            </label>
            <Button type="submit" variant="secondary" size="sm">
              Search
            </Button>
          </form>
        </div>
        {list.isLoading ? (
          <Loading label="Loading journal entries..." />
        ) : list.isError ? (
          <LoadError error={list.error} what="journal entries" onRetry={() => void list.refetch()} />
        ) : entries.length === 0 ? (
          filtered ? (
            <EmptyState
              title="No entries match"
              description="Try another filter or clear the search."
              action={
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
              }
            />
          ) : (
            <EmptyState
              title="No journal entries yet — record your first entry"
              description="Journal entries move amounts between accounts: every debit has an equal credit. Invoices, payments and bank transactions will appear here too once you record them."
              action={
                can('record') ? (
                  <Button onClick={onNew}>
                    <Plus className="h-4 w-4" aria-hidden="true" /> New journal entry
                  </Button>
                ) : null
              }
            />
          )
        ) : (
          <>
            <Table caption="Journal entries, newest first" captionHidden>
              <thead>
                <tr>
                  <Th className="w-20">No.</Th>
                  <Th className="w-32">Date</Th>
                  <Th>Memo</Th>
                  <Th className="w-32">Source</Th>
                  <Th className="w-40">Status</Th>
                  <Th numeric className="w-40">
                    Amount
                  </Th>
                </tr>
              </thead>
              <tbody>
                {entries.map((e) => (
                  <tr
                    key={e.id}
                    className="cursor-pointer hover:bg-slate-50 dark:hover:bg-slate-800/50"
                    onClick={() => onOpen(e.id)}
                  >
                    <Td className="tabular-nums text-slate-500 dark:text-slate-400">{e.number ?? '—'}</Td>
                    <Td className="whitespace-nowrap">{formatDate(e.date)}</Td>
                    <Td>
                      <button
                        type="button"
                        onClick={(ev) => {
                          ev.stopPropagation();
                          onOpen(e.id);
                        }}
                        className="text-left font-medium text-slate-900 underline-offset-2 hover:underline dark:text-white"
                      >
                        {e.memo || <span className="text-slate-500 italic">No memo</span>}
                        <span className="sr-only">, open entry {e.number ?? 'draft'}</span>
                      </button>
                      {e.reference ? (
                        <span className="ml-2 text-xs text-slate-500 dark:text-slate-400">
                          Ref {e.reference}
                        </span>
                      ) : null}
                    </Td>
                    <Td className="text-slate-600 dark:text-slate-300">
                      {SOURCE_LABELS[e.source] ?? e.source}
                    </Td>
                    <Td>
                      <StatusBadge entry={e} />
                    </Td>
                    <Td numeric className="font-medium">
                      <Money minor={e.totalDebit} currency={company.baseCurrency} />
                    </Td>
                  </tr>
                ))}
              </tbody>
            </Table>
            <Pager
              label="Journal entries"
              page={pages.page}
              hasNext={Boolean(list.data?.nextCursor)}
              onNext={() => list.data?.nextCursor && pages.next(list.data.nextCursor)}
              onPrevious={pages.previous}
            />
          </>
        )}
      </Card>
    </div>
  );
};
