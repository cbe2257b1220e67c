import { useInfiniteQuery } from '@tanstack/react-query';
import {
  ArrowDown,
  ArrowUp,
  Download,
  FileUp,
  ListChecks,
  Plus,
  Scale,
  Scissors,
  SlidersHorizontal,
  Trash2,
} from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { Transaction, TransactionPage } from '../../../shared/transactions.ts';
import { Money } from '../../components/money/Money.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { Alert, Badge, Card, EmptyState } from '../../components/ui/Card.tsx';
import { api } from '../../lib/api.ts';
import { keys } from '../../lib/queryKeys.ts';
import { useCompany } from '../../lib/company.tsx';
import {
  type ListFilters,
  apiCalls,
  errorMessage,
  exportCsvHref,
  formatDay,
  monthBounds,
  readAmount,
  toQuery,
  todayIso,
  useCategories,
  useMoneyMutation,
  useTotals,
  useWallet,
} from './api.ts';
import { CategorySelect } from './CategorySelect.tsx';
import { Chip, Label, Skeleton, inputClass } from './Controls.tsx';
import { ImportWizard } from './ImportWizard.tsx';
import { MatchAction } from './MatchPanel.tsx';
import { ReconcileStart, ReconcileView } from './Reconcile.tsx';
import { RulesDialog } from './RulesDialog.tsx';
import { AddTransactionDialog, EditTransactionDialog, SplitDialog } from './TransactionDialogs.tsx';

// /transactions: every bank transaction of the company with the demo's chips (All, Income,
// Expenses, This Month), filters, sortable columns, totals of what the filter shows, bulk
// categorise, splits, CSV export, statement import, rules and reconciliation.

const PAGE_SIZE = 50;

const useDebounced = <T,>(value: T, ms: number) => {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const t = window.setTimeout(() => setDebounced(value), ms);
    return () => window.clearTimeout(t);
  }, [value, ms]);
  return debounced;
};

const StatusBadge = ({ tx }: { tx: Transaction }) =>
  tx.status === 'reconciled' ? (
    <Badge tone="green">Reconciled</Badge>
  ) : tx.status === 'categorized' ? (
    <Badge tone="blue">Categorised</Badge>
  ) : (
    <Badge tone="amber">Uncategorised</Badge>
  );

const TransactionsPage = () => {
  const { company, can } = useCompany();
  const [params, setParams] = useSearchParams();
  const reconcileId = params.get('reconcile');
  const today = useMemo(() => todayIso(), []);
  const month = monthBounds(today);
  const wallet = useWallet();
  const { categories } = useCategories();
  const [type, setType] = useState<ListFilters['type']>('all');
  const [thisMonth, setThisMonth] = useState(false);
  const [moneyAccountId, setMoneyAccountId] = useState(params.get('account') ?? '');
  const [categoryId, setCategoryId] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [minText, setMinText] = useState('');
  const [maxText, setMaxText] = useState('');
  const [searchText, setSearchText] = useState('');
  const [sort, setSort] = useState<ListFilters['sort']>('date');
  const [direction, setDirection] = useState<ListFilters['direction']>('desc');
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [bulkCategory, setBulkCategory] = useState('');
  const [notice, setNotice] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [dialog, setDialog] = useState<'import' | 'add' | 'rules' | 'reconcile' | null>(null);
  const [splitting, setSplitting] = useState<Transaction | null>(null);
  const [editing, setEditing] = useState<Transaction | null>(null);
  const [showFilters, setShowFilters] = useState(false);
  const search = useDebounced(searchText.trim(), 300);
  const currency =
    wallet.data?.accounts.find((a) => a.id === moneyAccountId)?.currency ?? company.baseCurrency;
  const min = readAmount(minText, currency, false);
  const max = readAmount(maxText, currency, false);

  const filters: ListFilters = {
    type,
    moneyAccountId: moneyAccountId || undefined,
    categoryId: categoryId || undefined,
    from: thisMonth ? month.from : from || undefined,
    to: thisMonth ? month.to : to || undefined,
    minAmount: min.value ?? undefined,
    maxAmount: max.value ?? undefined,
    search: search || undefined,
    sort,
    direction,
  };
  const orgId = company.id;
  const list = useInfiniteQuery({
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
  });
  const totals = useTotals(filters);
  const rows = useMemo(() => list.data?.pages.flatMap((p) => p.transactions) ?? [], [list.data]);
  const categorize = useMoneyMutation(apiCalls.updateTransaction);
  const bulk = useMoneyMutation(apiCalls.bulkCategorize);
  const remove = useMoneyMutation(apiCalls.deleteTransaction);
  const canPost = can('post');

  // A change of filter starts a fresh selection: bulk actions act only on what is visible.
  const filterKey = JSON.stringify(filters);
  useEffect(() => {
    void filterKey;
    setSelected(new Set());
  }, [filterKey]);

  if (reconcileId) {
    return <ReconcileView id={reconcileId} onClose={() => setParams({})} />;
  }

  const toggleSort = (column: ListFilters['sort']) => {
    if (sort === column) setDirection(direction === 'desc' ? 'asc' : 'desc');
    else {
      setSort(column);
      setDirection(column === 'description' ? 'asc' : 'desc');
    }
  };
  const sortHeader = (column: ListFilters['sort'], label: string, numeric = false) => (
    <th
      scope="col"
      aria-sort={sort === column ? (direction === 'asc' ? 'ascending' : 'descending') : 'none'}
      className={`border-b border-slate-200 bg-slate-50 px-3 py-2 text-xs font-semibold tracking-wide text-slate-500 uppercase dark:border-slate-800 dark:bg-slate-900/60 dark:text-slate-400 ${numeric ? 'text-right' : 'text-left'}`}
    >
      <button
        type="button"
        onClick={() => toggleSort(column)}
        className={`inline-flex min-h-11 items-center gap-1 uppercase hover:text-slate-900 dark:hover:text-white ${numeric ? 'flex-row-reverse' : ''}`}
      >
        {label}
        {sort === column ? (
          direction === 'asc' ? (
            <ArrowUp className="h-3.5 w-3.5" aria-hidden="true" />
          ) : (
            <ArrowDown className="h-3.5 w-3.5" aria-hidden="true" />
          )
        ) : null}
      </button>
    </th>
  );

  const allSelected = rows.length > 0 && rows.every((r) => selected.has(r.id));
  const selectable = (t: Transaction) =>
    t.status !== 'reconciled' && t.categoryKind !== 'transfer' && t.categoryKind !== 'payment';
  const toggle = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  };

  const runBulk = async () => {
    if (!bulkCategory) return;
    try {
      const result = await bulk.mutateAsync({
        transactionIds: [...selected],
        categoryAccountId: bulkCategory,
      });
      setNotice({
        tone: 'success',
        text: `${result.updated} transaction${result.updated === 1 ? '' : 's'} categorised.`,
      });
      setSelected(new Set());
      setBulkCategory('');
    } catch (error) {
      setNotice({ tone: 'error', text: errorMessage(error) });
    }
  };

  const setCategory = async (tx: Transaction, value: string) => {
    try {
      await categorize.mutateAsync({ id: tx.id, body: { categoryAccountId: value || null } });
    } catch (error) {
      setNotice({ tone: 'error', text: errorMessage(error) });
    }
  };

  const hasAccounts = (wallet.data?.accounts.length ?? 0) > 0;
  const anyFilter = Boolean(
    type !== 'all' ||
      thisMonth ||
      moneyAccountId ||
      categoryId ||
      from ||
      to ||
      minText ||
      maxText ||
      searchText,
  );
  const clearFilters = () => {
    setType('all');
    setThisMonth(false);
    setMoneyAccountId('');
    setCategoryId('');
    setFrom('');
    setTo('');
    setMinText('');
    setMaxText('');
    setSearchText('');
  };

  return (
    <div className="mx-auto max-w-7xl space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-bold text-slate-900 dark:text-white">Transactions</h1>
          <p className="text-sm text-slate-500 dark:text-slate-400">
            Bank, card and cash transactions of {company.name}. Every one is posted to the ledger.
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
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
        </div>
      </div>

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
        <div className="space-y-3 border-b border-slate-200 p-4 dark:border-slate-800">
          <fieldset className="flex flex-wrap items-center gap-2">
            <legend className="sr-only">Quick filters</legend>
            <Chip
              pressed={type === 'all' && !thisMonth}
              onClick={() => {
                setType('all');
                setThisMonth(false);
              }}
            >
              All
            </Chip>
            <Chip pressed={type === 'income'} onClick={() => setType(type === 'income' ? 'all' : 'income')}>
              Income
            </Chip>
            <Chip
              pressed={type === 'expense'}
              onClick={() => setType(type === 'expense' ? 'all' : 'expense')}
            >
              Expenses
            </Chip>
            <Chip pressed={thisMonth} onClick={() => setThisMonth(!thisMonth)}>
              This Month
            </Chip>
            <div className="ml-auto flex flex-wrap items-center gap-2">
              <div className="w-64 max-w-full">
                <label htmlFor="tx-search" className="sr-only">
                  Search description, payee or notes
                </label>
                <input
                  id="tx-search"
                  type="search"
                  value={searchText}
                  onChange={(e) => setSearchText(e.target.value)}
                  placeholder="Search description, payee, notes"
                  className={inputClass}
                />
              </div>
              <Button
                variant="secondary"
                onClick={() => setShowFilters(!showFilters)}
                aria-expanded={showFilters}
                aria-controls="tx-filters"
              >
                <SlidersHorizontal className="h-4 w-4" aria-hidden="true" /> Filters
              </Button>
              <a
                href={exportCsvHref(orgId, filters)}
                className="inline-flex min-h-11 items-center gap-2 rounded-lg border border-slate-300 bg-white px-4 text-sm font-semibold text-slate-800 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:hover:bg-slate-800"
              >
                <Download className="h-4 w-4" aria-hidden="true" /> Export CSV
              </a>
            </div>
          </fieldset>
          <div id="tx-filters" hidden={!showFilters} className="grid gap-3 sm:grid-cols-2 lg:grid-cols-6">
            <div>
              <Label htmlFor="f-account">Account</Label>
              <select
                id="f-account"
                value={moneyAccountId}
                onChange={(e) => setMoneyAccountId(e.target.value)}
                className={inputClass}
              >
                <option value="">All accounts</option>
                {wallet.data?.accounts.map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.name}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <Label htmlFor="f-category">Category</Label>
              <CategorySelect
                id="f-category"
                value={categoryId}
                onChange={setCategoryId}
                categories={categories}
                placeholder="All categories"
                extra={[
                  { value: 'uncategorized', label: 'Uncategorised' },
                  { value: 'transfer', label: 'Transfers' },
                ]}
              />
            </div>
            <div>
              <Label htmlFor="f-from">From</Label>
              <input
                id="f-from"
                type="date"
                value={thisMonth ? month.from : from}
                disabled={thisMonth}
                onChange={(e) => setFrom(e.target.value)}
                className={inputClass}
              />
            </div>
            <div>
              <Label htmlFor="f-to">To</Label>
              <input
                id="f-to"
                type="date"
                value={thisMonth ? month.to : to}
                disabled={thisMonth}
                onChange={(e) => setTo(e.target.value)}
                className={inputClass}
              />
            </div>
            <div>
              <Label htmlFor="f-min">Amount from</Label>
              <input
                id="f-min"
                inputMode="decimal"
                value={minText}
                onChange={(e) => setMinText(e.target.value)}
                placeholder="0.00"
                aria-invalid={min.error ? true : undefined}
                className={inputClass}
              />
              {min.error ? <p className="mt-1 text-xs text-red-600 dark:text-red-400">{min.error}</p> : null}
            </div>
            <div>
              <Label htmlFor="f-max">Amount to</Label>
              <input
                id="f-max"
                inputMode="decimal"
                value={maxText}
                onChange={(e) => setMaxText(e.target.value)}
                placeholder="any"
                aria-invalid={max.error ? true : undefined}
                className={inputClass}
              />
              {max.error ? <p className="mt-1 text-xs text-red-600 dark:text-red-400">{max.error}</p> : null}
            </div>
          </div>
        </div>

        <div
          aria-live="polite"
          className="flex flex-wrap items-center gap-x-6 gap-y-1 border-b border-slate-200 bg-slate-50/60 px-4 py-2.5 text-sm dark:border-slate-800 dark:bg-slate-900/40"
        >
          {totals.data ? (
            totals.data.byCurrency.length === 0 ? (
              <span className="text-slate-500 dark:text-slate-400">No transactions match.</span>
            ) : (
              totals.data.byCurrency.map((c) => (
                <span
                  key={c.currency}
                  className="flex flex-wrap gap-x-4"
                  data-testid={`totals-${c.currency}`}
                >
                  <span className="text-slate-500 dark:text-slate-400">
                    {c.count.toLocaleString()} transaction{c.count === 1 ? '' : 's'}
                  </span>
                  <span>
                    In{' '}
                    <Money
                      minor={c.moneyIn}
                      currency={c.currency}
                      className="font-semibold text-emerald-700 dark:text-emerald-400"
                    />
                  </span>
                  <span>
                    Out{' '}
                    <Money
                      minor={c.moneyOut}
                      currency={c.currency}
                      tintNegative={false}
                      className="font-semibold"
                    />
                  </span>
                  <span>
                    Net{' '}
                    <Money minor={c.moneyIn - c.moneyOut} currency={c.currency} className="font-semibold" />
                  </span>
                </span>
              ))
            )
          ) : (
            <span className="text-slate-500">Adding up…</span>
          )}
          {anyFilter ? (
            <Button variant="ghost" size="sm" onClick={clearFilters} className="ml-auto">
              Clear filters
            </Button>
          ) : null}
        </div>

        {selected.size > 0 && canPost ? (
          <section
            className="flex flex-wrap items-center gap-3 border-b border-brand-200 bg-brand-50 px-4 py-2.5 dark:border-brand-900 dark:bg-brand-900/40"
            aria-label="Bulk actions"
          >
            <span className="text-sm font-medium text-brand-900 dark:text-brand-100">
              {selected.size} selected
            </span>
            <div className="w-72 max-w-full">
              <CategorySelect
                id="bulk-category"
                label="Category for the selected transactions"
                value={bulkCategory}
                onChange={setBulkCategory}
                categories={categories}
              />
            </div>
            <Button onClick={runBulk} disabled={!bulkCategory} busy={bulk.isPending}>
              Categorise selected
            </Button>
            <Button variant="ghost" onClick={() => setSelected(new Set())}>
              Clear selection
            </Button>
          </section>
        ) : null}

        {list.isLoading ? (
          <Skeleton />
        ) : list.isError ? (
          <div className="p-4">
            <Alert>{errorMessage(list.error)} </Alert>
          </div>
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
                <a
                  className="inline-flex min-h-11 items-center rounded-lg bg-brand-600 px-4 text-sm font-semibold text-white hover:bg-brand-700"
                  href="/wallet"
                >
                  Go to Wallet
                </a>
              }
            />
          )
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full border-collapse text-left text-sm text-slate-700 dark:text-slate-200">
              <caption className="sr-only">
                Transactions, {sort} {direction === 'asc' ? 'ascending' : 'descending'}
              </caption>
              <thead>
                <tr>
                  <th
                    scope="col"
                    className="w-12 border-b border-slate-200 bg-slate-50 px-3 dark:border-slate-800 dark:bg-slate-900/60"
                  >
                    <input
                      type="checkbox"
                      aria-label="Select all shown transactions"
                      className="h-5 w-5"
                      checked={allSelected}
                      onChange={() =>
                        setSelected(
                          allSelected ? new Set() : new Set(rows.filter(selectable).map((r) => r.id)),
                        )
                      }
                    />
                  </th>
                  {sortHeader('date', 'Date')}
                  {sortHeader('description', 'Description')}
                  <th
                    scope="col"
                    className="border-b border-slate-200 bg-slate-50 px-3 text-xs font-semibold tracking-wide text-slate-500 uppercase dark:border-slate-800 dark:bg-slate-900/60 dark:text-slate-400"
                  >
                    Category
                  </th>
                  <th
                    scope="col"
                    className="border-b border-slate-200 bg-slate-50 px-3 text-xs font-semibold tracking-wide text-slate-500 uppercase dark:border-slate-800 dark:bg-slate-900/60 dark:text-slate-400"
                  >
                    Status
                  </th>
                  {sortHeader('amount', 'Amount', true)}
                  <th
                    scope="col"
                    className="border-b border-slate-200 bg-slate-50 px-3 dark:border-slate-800 dark:bg-slate-900/60"
                  >
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {rows.map((tx) => (
                  <tr
                    key={tx.id}
                    className="hover:bg-slate-50/70 dark:hover:bg-slate-800/40"
                    data-testid="tx-row"
                  >
                    <td className="border-b border-slate-100 px-3 py-2 dark:border-slate-800/70">
                      <input
                        type="checkbox"
                        className="h-5 w-5"
                        aria-label={`Select ${tx.description}`}
                        disabled={!selectable(tx)}
                        checked={selected.has(tx.id)}
                        onChange={() => toggle(tx.id)}
                      />
                    </td>
                    <td className="border-b border-slate-100 px-3 py-2 whitespace-nowrap tabular-nums dark:border-slate-800/70">
                      {formatDay(tx.date)}
                    </td>
                    <td className="border-b border-slate-100 px-3 py-2 dark:border-slate-800/70">
                      <button
                        type="button"
                        onClick={() => setEditing(tx)}
                        className="min-h-8 text-left font-medium text-slate-900 underline-offset-2 hover:underline dark:text-white"
                        aria-label={`Details of ${tx.description}`}
                      >
                        {tx.description}
                      </button>
                      <div className="text-xs text-slate-500 dark:text-slate-400">
                        {tx.payee ? `${tx.payee} · ` : ''}
                        {tx.moneyAccountName}
                      </div>
                    </td>
                    <td className="w-60 min-w-48 border-b border-slate-100 px-3 py-2 dark:border-slate-800/70">
                      {tx.categoryKind === 'transfer' ? (
                        <span className="text-slate-500 dark:text-slate-400">Transfer</span>
                      ) : tx.categoryKind === 'payment' ? (
                        // The money of an invoice payment or refund: its entry is the payment's.
                        tx.source?.invoiceId ? (
                          <Link
                            to={`/invoices?invoice=${tx.source.invoiceId}`}
                            className="inline-flex min-h-11 items-center text-brand-700 underline-offset-2 hover:underline dark:text-brand-300"
                          >
                            {tx.categoryName ?? 'Invoice payment'}
                          </Link>
                        ) : (
                          <span className="text-slate-500 dark:text-slate-400">
                            {tx.categoryName ?? 'Payment'}
                          </span>
                        )
                      ) : tx.categoryKind === 'split' ? (
                        <button
                          type="button"
                          className="min-h-11 text-left text-brand-700 underline-offset-2 hover:underline dark:text-brand-300"
                          onClick={() => setSplitting(tx)}
                          disabled={tx.status === 'reconciled'}
                        >
                          Split: {tx.splits.map((s) => s.categoryName).join(', ')}
                        </button>
                      ) : tx.status === 'reconciled' || !canPost ? (
                        <span>{tx.categoryName ?? 'Uncategorised'}</span>
                      ) : (
                        <div className="space-y-1">
                          <CategorySelect
                            id={`cat-${tx.id}`}
                            label={`Category of ${tx.description}`}
                            value={tx.categoryKind === 'account' ? (tx.categoryAccountId ?? '') : ''}
                            onChange={(v) => setCategory(tx, v)}
                            categories={categories}
                            placeholder="Uncategorised"
                          />
                          {tx.suggestion ? (
                            <button
                              type="button"
                              className="inline-flex min-h-8 items-center rounded-full bg-violet-100 px-2.5 text-xs font-medium text-violet-800 hover:bg-violet-200 dark:bg-violet-900/60 dark:text-violet-200"
                              onClick={() => setCategory(tx, tx.suggestion!.categoryAccountId)}
                              title={`${tx.suggestion.count} similar transaction${tx.suggestion.count === 1 ? '' : 's'} went to ${tx.suggestion.categoryName}`}
                            >
                              Suggested: {tx.suggestion.categoryName}
                            </button>
                          ) : null}
                        </div>
                      )}
                    </td>
                    <td className="border-b border-slate-100 px-3 py-2 dark:border-slate-800/70">
                      <StatusBadge tx={tx} />
                      <MatchAction
                        tx={tx}
                        canPost={canPost}
                        onNotice={(text) => setNotice({ tone: 'success', text })}
                      />
                    </td>
                    <td className="border-b border-slate-100 px-3 py-2 text-right font-medium whitespace-nowrap tabular-nums dark:border-slate-800/70">
                      <Money minor={tx.amount} currency={tx.currency} />
                    </td>
                    <td className="border-b border-slate-100 px-3 py-2 text-right whitespace-nowrap dark:border-slate-800/70">
                      {canPost &&
                      tx.status !== 'reconciled' &&
                      tx.categoryKind !== 'transfer' &&
                      tx.categoryKind !== 'payment' ? (
                        <div className="flex justify-end gap-1">
                          <Button
                            size="sm"
                            variant="ghost"
                            onClick={() => setSplitting(tx)}
                            aria-label={`Split ${tx.description}`}
                            title="Split across categories"
                          >
                            <Scissors className="h-4 w-4" aria-hidden="true" />
                          </Button>
                          <Button
                            size="sm"
                            variant="ghost"
                            aria-label={`Delete ${tx.description}`}
                            onClick={async () => {
                              if (
                                !window.confirm(`Delete "${tx.description}"? Its ledger entry is reversed.`)
                              )
                                return;
                              try {
                                await remove.mutateAsync(tx.id);
                              } catch (error) {
                                setNotice({ tone: 'error', text: errorMessage(error) });
                              }
                            }}
                            title="Delete"
                          >
                            <Trash2 className="h-4 w-4" aria-hidden="true" />
                          </Button>
                        </div>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <div className="flex items-center justify-between gap-3 px-4 py-3 text-sm text-slate-500 dark:text-slate-400">
              <span>
                Showing {rows.length.toLocaleString()}
                {totals.data ? ` of ${totals.data.count.toLocaleString()}` : ''}
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
          </div>
        )}
      </Card>

      {dialog === 'import' ? (
        <ImportWizard
          open
          onClose={() => setDialog(null)}
          onDone={(text) => setNotice({ tone: 'success', text })}
        />
      ) : null}
      {dialog === 'add' ? <AddTransactionDialog open onClose={() => setDialog(null)} /> : null}
      {dialog === 'rules' ? (
        <RulesDialog
          open
          onClose={() => setDialog(null)}
          onApplied={(text) => setNotice({ tone: 'success', text })}
        />
      ) : null}
      {dialog === 'reconcile' ? (
        <ReconcileStart
          open
          onClose={() => setDialog(null)}
          onStarted={(id) => {
            setDialog(null);
            setParams({ reconcile: id });
          }}
          onNotice={(text) => setNotice({ tone: 'success', text })}
        />
      ) : null}
      {splitting ? <SplitDialog tx={splitting} onClose={() => setSplitting(null)} /> : null}
      {editing ? <EditTransactionDialog tx={editing} onClose={() => setEditing(null)} /> : null}
    </div>
  );
};

export default TransactionsPage;
