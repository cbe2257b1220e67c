import { Scissors, Trash2 } from 'lucide-react';
import { Link } from 'react-router';
import type { Transaction } from '../../../shared/transactions.ts';
import { Money } from '../../components/money/Money.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { Badge } from '../../components/ui/Card.tsx';
import { ConfirmDialog, useConfirm } from '../../components/ui/ConfirmDialog.tsx';
import { ActionsTh } from '../../components/ui/ListCard.tsx';
import { SortTh, Table, Td, Th } from '../../components/ui/Table.tsx';
import { formatDate } from '../../lib/format.ts';
import { type ListFilters, apiCalls, errorMessage, useCategories, useMoneyMutation } from './api.ts';
import { CategorySelect } from './CategorySelect.tsx';
import { MatchAction } from './MatchPanel.tsx';

// The transactions as a table: a tick box for bulk actions, sortable date, description and
// amount, the category (a picker, a suggestion, a split, a transfer or an invoice payment),
// the status with matching, and split and delete.

/** Reconciled lines, transfer legs and invoice payments are not changed from the list. */
export const changeable = (t: Transaction) =>
  t.status !== 'reconciled' && t.categoryKind !== 'transfer' && t.categoryKind !== 'payment';

/** A tick box's 44 px target: the label around it (the box itself stays 20 px). */
const TICK_TARGET = '-m-3 inline-flex h-11 w-11 cursor-pointer items-center justify-center';

const StatusBadge = ({ tx }: { tx: Transaction }) =>
  tx.status === 'reconciled' ? (
    <Badge tone="green">Reconciled</Badge>
  ) : tx.status === 'categorized' ? (
    <Badge tone="blue">Categorised</Badge>
  ) : (
    <Badge tone="amber">Uncategorised</Badge>
  );

const SortHeader = ({
  column,
  label,
  numeric = false,
  filters,
  onSort,
}: {
  column: ListFilters['sort'];
  label: string;
  numeric?: boolean;
  filters: ListFilters;
  onSort: (column: ListFilters['sort']) => void;
}) => (
  <SortTh
    label={label}
    numeric={numeric}
    sorted={filters.sort === column}
    ascending={filters.direction === 'asc'}
    onSort={() => onSort(column)}
  />
);

const CategoryCell = ({
  tx,
  canPost,
  onSplit,
  onCategory,
}: {
  tx: Transaction;
  canPost: boolean;
  onSplit: () => void;
  onCategory: (value: string) => void;
}) => {
  const { categories } = useCategories();
  if (tx.categoryKind === 'transfer')
    return <span className="text-slate-500 dark:text-slate-400">Transfer</span>;
  if (tx.categoryKind === 'payment')
    // The money of an invoice payment or refund: its entry is the payment's.
    return tx.source?.invoiceId ? (
      <Link
        to={`/invoices?invoice=${tx.source.invoiceId}`}
        className="inline-flex min-h-11 items-center text-brand-700 underline-offset-2 hover:underline dark:text-brand-300"
      >
        {tx.categoryName ?? 'Invoice payment'}
      </Link>
    ) : (
      <span className="text-slate-500 dark:text-slate-400">{tx.categoryName ?? 'Payment'}</span>
    );
  if (tx.categoryKind === 'split')
    return (
      <button
        type="button"
        className="min-h-11 text-left text-brand-700 underline-offset-2 hover:underline dark:text-brand-300"
        onClick={onSplit}
        disabled={tx.status === 'reconciled'}
      >
        Split: {tx.splits.map((s) => s.categoryName).join(', ')}
      </button>
    );
  if (tx.status === 'reconciled' || !canPost) return <span>{tx.categoryName ?? 'Uncategorised'}</span>;
  return (
    <div className="space-y-1">
      <CategorySelect
        id={`cat-${tx.id}`}
        label={`Category of ${tx.description}`}
        value={tx.categoryKind === 'account' ? (tx.categoryAccountId ?? '') : ''}
        onChange={onCategory}
        categories={categories}
        placeholder="Uncategorised"
      />
      {tx.suggestion ? (
        <button
          type="button"
          className="inline-flex min-h-8 items-center rounded-full bg-violet-100 px-2.5 text-xs font-medium text-violet-800 hover:bg-violet-200 dark:bg-violet-900/60 dark:text-violet-200"
          onClick={() => onCategory(tx.suggestion!.categoryAccountId)}
          title={`${tx.suggestion.count} similar transaction${tx.suggestion.count === 1 ? '' : 's'} went to ${tx.suggestion.categoryName}`}
        >
          Suggested: {tx.suggestion.categoryName}
        </button>
      ) : null}
    </div>
  );
};

export const TransactionTable = ({
  rows,
  filters,
  onSort,
  selected,
  onSelect,
  canPost,
  onEdit,
  onSplit,
  onNotice,
}: {
  rows: Transaction[];
  filters: ListFilters;
  onSort: (column: ListFilters['sort']) => void;
  selected: Set<string>;
  onSelect: (next: Set<string>) => void;
  canPost: boolean;
  onEdit: (tx: Transaction) => void;
  onSplit: (tx: Transaction) => void;
  onNotice: (tone: 'success' | 'error', text: string) => void;
}) => {
  const categorize = useMoneyMutation(apiCalls.updateTransaction);
  const remove = useMoneyMutation(apiCalls.deleteTransaction);
  const allSelected = rows.length > 0 && rows.every((r) => selected.has(r.id));
  const toggle = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    onSelect(next);
  };
  const run = async (action: () => Promise<unknown>) => {
    try {
      await action();
    } catch (error) {
      onNotice('error', errorMessage(error));
    }
  };
  const header = { filters, onSort };
  const deleting = useConfirm<Transaction>();

  return (
    <Table
      caption={`Transactions, ${filters.sort} ${filters.direction === 'asc' ? 'ascending' : 'descending'}`}
      captionHidden
    >
      <thead>
        <tr>
          <Th className="w-12">
            <label className={TICK_TARGET}>
              <input
                type="checkbox"
                aria-label="Select all shown transactions"
                className="h-5 w-5"
                checked={allSelected}
                onChange={() =>
                  onSelect(allSelected ? new Set() : new Set(rows.filter(changeable).map((r) => r.id)))
                }
              />
            </label>
          </Th>
          <SortHeader column="date" label="Date" {...header} />
          <SortHeader column="description" label="Description" {...header} />
          <Th>Category</Th>
          <Th>Status</Th>
          <SortHeader column="amount" label="Amount" numeric {...header} />
          <ActionsTh />
        </tr>
      </thead>
      <tbody>
        {rows.map((tx) => (
          <tr key={tx.id} className="hover:bg-slate-50/70 dark:hover:bg-slate-800/40" data-testid="tx-row">
            <Td>
              <label className={TICK_TARGET}>
                <input
                  type="checkbox"
                  className="h-5 w-5"
                  aria-label={`Select ${tx.description}`}
                  disabled={!changeable(tx)}
                  checked={selected.has(tx.id)}
                  onChange={() => toggle(tx.id)}
                />
              </label>
            </Td>
            <Td className="whitespace-nowrap tabular-nums">{formatDate(tx.date)}</Td>
            <Td>
              <button
                type="button"
                onClick={() => onEdit(tx)}
                className="inline-flex min-h-11 min-w-11 items-center text-left font-medium text-slate-900 underline-offset-2 hover:underline dark:text-white"
                aria-label={`Details of ${tx.description}`}
              >
                {tx.description}
              </button>
              <div className="text-xs text-slate-500 dark:text-slate-400">
                {tx.payee ? `${tx.payee} · ` : ''}
                {tx.moneyAccountName}
              </div>
            </Td>
            <Td className="w-60 min-w-48">
              <CategoryCell
                tx={tx}
                canPost={canPost}
                onSplit={() => onSplit(tx)}
                onCategory={(value) =>
                  run(() => categorize.mutateAsync({ id: tx.id, body: { categoryAccountId: value || null } }))
                }
              />
            </Td>
            <Td>
              <StatusBadge tx={tx} />
              <MatchAction tx={tx} canPost={canPost} onNotice={(text) => onNotice('success', text)} />
            </Td>
            <Td numeric className="font-medium">
              <Money minor={tx.amount} currency={tx.currency} />
            </Td>
            <Td className="text-right whitespace-nowrap">
              {canPost && changeable(tx) ? (
                <div className="flex justify-end gap-1">
                  <Button
                    size="sm"
                    variant="ghost"
                    onClick={() => onSplit(tx)}
                    aria-label={`Split ${tx.description}`}
                    title="Split across categories"
                  >
                    <Scissors className="h-4 w-4" aria-hidden="true" />
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={`Delete ${tx.description}`}
                    onClick={() => deleting.ask(tx)}
                    title="Delete"
                  >
                    <Trash2 className="h-4 w-4" aria-hidden="true" />
                  </Button>
                </div>
              ) : null}
            </Td>
          </tr>
        ))}
      </tbody>
      <ConfirmDialog
        open={deleting.open}
        title={`Delete "${deleting.item?.description ?? ''}"?`}
        description="The transaction is removed and its ledger entry is reversed."
        confirmLabel="Delete transaction"
        cancelLabel="Keep it"
        onCancel={deleting.cancel}
        onConfirm={() => deleting.item && remove.mutateAsync(deleting.item.id)}
      />
    </Table>
  );
};
