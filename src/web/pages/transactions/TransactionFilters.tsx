import { Download, SlidersHorizontal } from 'lucide-react';
import { useState } from 'react';
import { Button, buttonClasses } from '../../components/ui/Button.tsx';
import { TextField, controlClasses } from '../../components/ui/Field.tsx';
import { exportCsvHref, useCategories, useOrgId, useWallet } from './api.ts';
import { Chip } from './Controls.tsx';
import { AmountRangeFields, CategoryField, MoneyAccountField } from './fields.tsx';
import type { TransactionFilterState } from './useTransactionFilters.ts';

// The list's quick filters (chips), search, the filter panel, and the CSV export of what the
// filters show.

export const TransactionFilters = ({ state }: { state: TransactionFilterState }) => {
  const orgId = useOrgId();
  const wallet = useWallet();
  const { categories } = useCategories();
  const [showFilters, setShowFilters] = useState(false);
  const { form: f, text, month } = state;
  return (
    <div className="space-y-3 border-b border-slate-200 p-4 dark:border-slate-800">
      <fieldset className="flex flex-wrap items-center gap-2">
        <legend className="sr-only">Quick filters</legend>
        <Chip
          pressed={f.type === 'all' && !f.thisMonth}
          onClick={() => {
            f.setType('all');
            f.setThisMonth(false);
          }}
        >
          All
        </Chip>
        <Chip pressed={f.type === 'income'} onClick={() => f.setType(f.type === 'income' ? 'all' : 'income')}>
          Income
        </Chip>
        <Chip
          pressed={f.type === 'expense'}
          onClick={() => f.setType(f.type === 'expense' ? 'all' : 'expense')}
        >
          Expenses
        </Chip>
        <Chip pressed={f.thisMonth} onClick={() => f.setThisMonth(!f.thisMonth)}>
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
              {...text.bind('search')}
              placeholder="Search description, payee, notes"
              className={controlClasses()}
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
          <a href={exportCsvHref(orgId, state.filters)} className={buttonClasses('secondary')}>
            <Download className="h-4 w-4" aria-hidden="true" /> Export CSV
          </a>
        </div>
      </fieldset>
      <div id="tx-filters" hidden={!showFilters} className="grid gap-3 sm:grid-cols-2 lg:grid-cols-6">
        <MoneyAccountField
          id="f-account"
          label="Account"
          {...text.pick('moneyAccountId')}
          accounts={wallet.data?.accounts ?? []}
          empty="All accounts"
          withCurrency={false}
        />
        <CategoryField
          id="f-category"
          label="Category"
          {...text.pick('categoryId')}
          categories={categories}
          placeholder="All categories"
          extra={[
            { value: 'uncategorized', label: 'Uncategorised' },
            { value: 'transfer', label: 'Transfers' },
          ]}
        />
        {(
          [
            ['f-from', 'From', 'from'],
            ['f-to', 'To', 'to'],
          ] as const
        ).map(([id, label, end]) => (
          <TextField
            key={id}
            id={id}
            label={label}
            type="date"
            // This Month fixes the range to the month's first and last day.
            value={f.thisMonth ? month[end] : text.values[end]}
            disabled={f.thisMonth}
            onChange={text.bind(end).onChange}
          />
        ))}
        <AmountRangeFields
          idPrefix="f"
          from={{ ...text.bind('min'), error: f.minError }}
          to={{ ...text.bind('max'), error: f.maxError }}
        />
      </div>
    </div>
  );
};
