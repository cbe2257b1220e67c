import { Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import type { Transaction } from '../../../shared/transactions.ts';
import { Money } from '../../components/money/Money.tsx';
import { Button } from '../../components/ui/Button.tsx';
import { controlClasses } from '../../components/ui/Field.tsx';
import { FormDialog } from '../../components/ui/FormDialog.tsx';
import { formatAmountInput } from '../../lib/format.ts';
import { apiCalls, readAmount, useCategories, useMoneyMutation } from './api.ts';
import { CategorySelect } from './CategorySelect.tsx';

// Splitting one transaction across categories: parts in the transaction's direction that
// must add up to its amount.

type Part = { key: number; categoryId: string; amountText: string; description: string };

export const SplitDialog = ({ tx, onClose }: { tx: Transaction; onClose: () => void }) => {
  const { categories } = useCategories();
  const sign = tx.amount < 0 ? -1 : 1;
  const fmt = (minor: number) => formatAmountInput(Math.abs(minor), tx.currency);
  const initial: Part[] =
    tx.splits.length > 0
      ? tx.splits.map((s, i) => ({
          key: i,
          categoryId: s.categoryAccountId,
          amountText: formatAmountInput(s.amount * sign, tx.currency),
          description: s.description ?? '',
        }))
      : [
          { key: 0, categoryId: tx.categoryAccountId ?? '', amountText: fmt(tx.amount), description: '' },
          { key: 1, categoryId: '', amountText: '', description: '' },
        ];
  const [parts, setParts] = useState<Part[]>(initial);
  const update = useMoneyMutation(apiCalls.updateTransaction);
  // Parts are entered in the transaction's direction; a negative part goes the other way (a fee out of a deposit).
  const values = parts.map((p) => readAmount(p.amountText, tx.currency, true));
  const total = values.reduce((s, v) => s + (v.value ?? 0), 0) * sign;
  const remaining = tx.amount - total;
  const change = (key: number, patch: Partial<Part>) =>
    setParts(parts.map((x) => (x.key === key ? { ...x, ...patch } : x)));

  const save = async () => {
    if (parts.some((p) => !p.categoryId)) return 'Choose a category for every part.';
    if (values.some((v) => v.value === null || v.value === 0))
      return 'Every part needs an amount other than zero.';
    if (remaining !== 0) return 'The parts must add up to the whole amount.';
    await update.mutateAsync({
      id: tx.id,
      body: {
        splits: parts.map((p, i) => ({
          categoryAccountId: p.categoryId,
          amount: values[i]!.value! * sign,
          description: p.description || undefined,
        })),
      },
    });
    onClose();
  };

  return (
    <FormDialog
      title="Split transaction"
      description={`${tx.description} · split the amount across categories.`}
      wide
      onClose={onClose}
      onSubmit={save}
      submitLabel="Save split"
      submitDisabled={remaining !== 0}
    >
      <p className="text-sm text-slate-600 dark:text-slate-300">
        Total <Money minor={tx.amount} currency={tx.currency} className="font-semibold" />
      </p>
      <ul className="space-y-2">
        {parts.map((p, i) => (
          <li key={p.key} className="grid gap-2 sm:grid-cols-[1fr_9rem_1fr_auto]">
            <CategorySelect
              id={`split-cat-${p.key}`}
              label={`Category of part ${i + 1}`}
              value={p.categoryId}
              onChange={(v) => change(p.key, { categoryId: v })}
              categories={categories}
            />
            <input
              aria-label={`Amount of part ${i + 1}`}
              inputMode="decimal"
              value={p.amountText}
              onChange={(e) => change(p.key, { amountText: e.target.value })}
              className={`${controlClasses()} text-right tabular-nums`}
              placeholder="0.00"
            />
            <input
              aria-label={`Note for part ${i + 1}`}
              value={p.description}
              onChange={(e) => change(p.key, { description: e.target.value })}
              className={controlClasses()}
              placeholder="Note (optional)"
            />
            <Button
              variant="ghost"
              aria-label={`Remove part ${i + 1}`}
              disabled={parts.length <= 2}
              onClick={() => setParts(parts.filter((x) => x.key !== p.key))}
            >
              <Trash2 className="h-4 w-4" aria-hidden="true" />
            </Button>
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Button
          variant="secondary"
          onClick={() =>
            setParts([
              ...parts,
              {
                key: Date.now(),
                categoryId: '',
                amountText: remaining !== 0 ? fmt(remaining) : '',
                description: '',
              },
            ])
          }
        >
          <Plus className="h-4 w-4" aria-hidden="true" /> Add part
        </Button>
        <p
          aria-live="polite"
          className={`text-sm font-medium ${remaining === 0 ? 'text-emerald-700 dark:text-emerald-400' : 'text-amber-700 dark:text-amber-300'}`}
        >
          {remaining === 0 ? (
            'The parts add up.'
          ) : (
            <>
              Left to assign: <Money minor={remaining} currency={tx.currency} tintNegative={false} />
            </>
          )}
        </p>
      </div>
    </FormDialog>
  );
};
