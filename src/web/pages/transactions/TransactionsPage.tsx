import { useInfiniteQuery } from '@tanstack/react-query';
import { FileUp, ListChecks, Plus, Scale } from 'lucide-react';
import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import type { Transaction, TransactionPage } from '../../../shared/transactions.ts';
import { BUTTON_LINK, Button } from '../../components/ui/Button.tsx';
import { Alert, Card, CardError, EmptyState } from '../../components/ui/Card.tsx';
import { PageHeader } from '../../components/ui/PageHeader.tsx';
import { api } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { formatCount } from '../../lib/format.ts';
import { keys } from '../../lib/queryKeys.ts';
import { errorMessage, toQuery, useTotals, useWallet } from './api.ts';
import { BulkBar } from './BulkBar.tsx';
import { Skeleton } from './Controls.tsx';
import { ImportWizard } from './ImportWizard.tsx';
import { ReconcileView } from './Reconcile.tsx';
import { ReconcileStart } from './ReconcileStart.tsx';
import { RulesDialog } from './RulesDialog.tsx';
import { TotalsBar } from './TotalsBar.tsx';
import { AddTransactionDialog, EditTransactionDialog, SplitDialog } from './TransactionDialogs.tsx';
import { TransactionFilters } from './TransactionFilters.tsx';
import { TransactionTable } from './TransactionTable.tsx';
import { useTransactionFilters } from './useTransactionFilters.ts';

// /transactions: every bank transaction of the company with the demo's chips (All, Income,
// Expenses, This Month), filters, sortable columns, totals of what the filter shows, bulk
// categorise, splits, CSV export, statement import, rules and reconciliation.

const PAGE_SIZE = 50;

type Notice = { tone: 'success' | 'error'; text: string };

const TransactionsPage = () => {
  const { company, can } = useCompany();
  const [params, setParams] = useSearchParams();
  const reconcileId = params.get('reconcile');
  const wallet = useWallet();
  const filterState = useTransactionFilters(params.get('account') ?? '');
  const { filters, anyFilter, clearFilters } = filterState;
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [notice, setNotice] = useState<Notice | null>(null);
  const [dialog, setDialog] = useState<'import' | 'add' | 'rules' | 'reconcile' | null>(null);
  const [splitting, setSplitting] = useState<Transaction | null>(null);
  const [editing, setEditing] = useState<Transaction | null>(null);
  const orgId = company.id;
  // The list's answer is drawn in a deferred render (React splits it into slices of a few
  // milliseconds) instead of one long task as it arrives; the whole result is deferred, so its
  // loading state and its rows always agree.
  const list = useDeferredValue(
    useInfiniteQuery({
      queryKey: keys.transactions(orgId, 'infinite', filters),
      queryFn: ({ pageParam }) =>
        api.get<TransactionPage>(`/orgs/${orgId}/transactions`, {
          ...toQuery(filters),
          cursor: pageParam ?? undefined,
          limit: PAGE_SIZE,
        }),
      initialPageParam: null as string | null,
      getNextPageParam: (last) => last.nextCursor,
      placeholderData: (previous) => previous,
    }),
  );
  const totals = useTotals(filters);
  const rows = useMemo(() => list.data?.pages.flatMap((p) => p.transactions) ?? [], [list.data]);
  const canPost = can('post');
  const say = (tone: Notice['tone'], text: string) => setNotice({ tone, text });
  const succeeded = (text: string) => say('success', text);

  // A change of filter starts a fresh selection: bulk actions act only on what is visible.
  const filterKey = JSON.stringify(filters);
  useEffect(() => {
    void filterKey;
    setSelected(new Set());
  }, [filterKey]);

  if (reconcileId) {
    return <ReconcileView id={reconcileId} onClose={() => setParams({})} />;
  }

  const hasAccounts = (wallet.data?.accounts.length ?? 0) > 0;
  const close = () => setDialog(null);

  return (
    <div className="mx-auto max-w-7xl space-y-5">
      <PageHeader
        title="Transactions"
        description={`Bank, card and cash transactions of ${company.name}. Every one is posted to the ledger.`}
        actions={
          <>
            <Button variant="secondary" onClick={() => setDialog('rules')}>
              <ListChecks className="h-4 w-4" aria-hidden="true" /> Rules
            </Button>
            {canPost ? (
              <>
                <Button variant="secondary" onClick={() => setDialog('reconcile')} disabled={!hasAccounts}>
                  <Scale className="h-4 w-4" aria-hidden="true" /> Reconcile
                </Button>
                <Button variant="secondary" onClick={() => setDialog('add')} disabled={!hasAccounts}>
                  <Plus className="h-4 w-4" aria-hidden="true" /> Add transaction
                </Button>
                <Button onClick={() => setDialog('import')} disabled={!hasAccounts}>
                  <FileUp className="h-4 w-4" aria-hidden="true" /> Import statement
                </Button>
              </>
            ) : null}
          </>
        }
      />

      {notice ? (
        <div className="flex items-start gap-2">
          <div className="flex-1">
            <Alert tone={notice.tone}>{notice.text}</Alert>
          </div>
          <Button variant="ghost" size="sm" onClick={() => setNotice(null)} aria-label="Dismiss message">
            Dismiss
          </Button>
        </div>
      ) : null}

      <Card>
        <TransactionFilters state={filterState} />
        <TotalsBar totals={totals.data} onClearFilters={anyFilter ? clearFilters : null} />
        {selected.size > 0 && canPost ? (
          <BulkBar selected={selected} onClear={() => setSelected(new Set())} onNotice={say} />
        ) : null}

        {list.isLoading ? (
          <Skeleton />
        ) : list.isError ? (
          <CardError message={errorMessage(list.error)} onRetry={() => void list.refetch()} />
        ) : rows.length === 0 ? (
          hasAccounts ? (
            <EmptyState
              title={anyFilter ? 'No transactions match these filters' : 'No transactions yet'}
              description={
                anyFilter
                  ? 'Try a wider date range or clear the filters.'
                  : 'Import a bank statement (CSV, OFX/QFX or CAMT.053) or add a transaction by hand.'
              }
              action={
                anyFilter ? (
                  <Button variant="secondary" onClick={clearFilters}>
                    Clear filters
                  </Button>
                ) : canPost ? (
                  <Button onClick={() => setDialog('import')}>Import statement</Button>
                ) : null
              }
            />
          ) : (
            <EmptyState
              title="Add a money account first"
              description="Transactions belong to a bank account, card or cash box. Add one on the Wallet page with its opening balance."
              action={
                <a className={BUTTON_LINK} href="/wallet">
                  Go to Wallet
                </a>
              }
            />
          )
        ) : (
          <>
            <TransactionTable
              rows={rows}
              filters={filters}
              onSort={filterState.toggleSort}
              selected={selected}
              onSelect={setSelected}
              canPost={canPost}
              onEdit={setEditing}
              onSplit={setSplitting}
              onNotice={say}
            />
            <div className="flex items-center justify-between gap-3 px-4 py-3 text-sm text-slate-500 dark:text-slate-400">
              <span>
                Showing {formatCount(rows.length)}
                {totals.data ? ` of ${formatCount(totals.data.count)}` : ''}
              </span>
              {list.hasNextPage ? (
                <Button
                  variant="secondary"
                  onClick={() => list.fetchNextPage()}
                  busy={list.isFetchingNextPage}
                >
                  Load more
                </Button>
              ) : null}
            </div>
          </>
        )}
      </Card>

      {dialog === 'import' ? <ImportWizard onClose={close} onDone={succeeded} /> : null}
      {dialog === 'add' ? <AddTransactionDialog onClose={close} /> : null}
      {dialog === 'rules' ? <RulesDialog onClose={close} onDone={succeeded} /> : null}
      {dialog === 'reconcile' ? (
        <ReconcileStart
          onClose={close}
          onStarted={(id) => {
            setDialog(null);
            setParams({ reconcile: id });
          }}
          onNotice={succeeded}
        />
      ) : null}
      {splitting ? <SplitDialog tx={splitting} onClose={() => setSplitting(null)} /> : null}
      {editing ? <EditTransactionDialog tx={editing} onClose={() => setEditing(null)} /> : null}
    </div>
  );
};

export default TransactionsPage;
