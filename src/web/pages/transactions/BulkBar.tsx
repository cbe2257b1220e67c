import { useState } from 'react';
import { Button } from '../../components/ui/Button.tsx';
import { apiCalls, errorMessage, useCategories, useMoneyMutation } from './api.ts';
import { CategorySelect } from './CategorySelect.tsx';

// Categorising the selected transactions at once.

export const BulkBar = ({
  selected,
  onClear,
  onNotice,
}: {
  selected: Set<string>;
  onClear: () => void;
  onNotice: (tone: 'success' | 'error', text: string) => void;
}) => {
  const { categories } = useCategories();
  const [bulkCategory, setBulkCategory] = useState('');
  const bulk = useMoneyMutation(apiCalls.bulkCategorize);

  const runBulk = async () => {
    if (!bulkCategory) return;
    try {
      const result = await bulk.mutateAsync({
        transactionIds: [...selected],
        categoryAccountId: bulkCategory,
      });
      onNotice('success', `${result.updated} transaction${result.updated === 1 ? '' : 's'} categorised.`);
      onClear();
      setBulkCategory('');
    } catch (error) {
      onNotice('error', errorMessage(error));
    }
  };

  return (
    <section
      className="flex flex-wrap items-center gap-3 border-b border-brand-200 bg-brand-50 px-4 py-2.5 dark:border-brand-900 dark:bg-brand-900/40"
      aria-label="Bulk actions"
    >
      <span className="text-sm font-medium text-brand-900 dark:text-brand-100">{selected.size} selected</span>
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
      <Button variant="ghost" onClick={onClear}>
        Clear selection
      </Button>
    </section>
  );
};
