import { useEffect, useMemo, useState } from 'react';
import { monthEnd, monthStart } from '../../../shared/dates.ts';
import { useCompany } from '../../lib/company.tsx';
import { useFormFields } from '../../lib/useFormFields.ts';
import { type ListFilters, readAmount, todayIso, useWallet } from './api.ts';

// The list's filters as the person sets them (chips, search, the filter panel, sorting) and
// the ListFilters they ask the server for. Search waits 300 ms after the last key.

const useDebounced = <T>(value: T, ms: number) => {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const t = window.setTimeout(() => setDebounced(value), ms);
    return () => window.clearTimeout(t);
  }, [value, ms]);
  return debounced;
};

const NO_TEXT = { moneyAccountId: '', categoryId: '', from: '', to: '', min: '', max: '', search: '' };

export const useTransactionFilters = (initialAccountId: string) => {
  const { company } = useCompany();
  const wallet = useWallet();
  const today = useMemo(() => todayIso(), []);
  const month = { from: monthStart(today), to: monthEnd(today) };
  const [type, setType] = useState<ListFilters['type']>('all');
  const [thisMonth, setThisMonth] = useState(false);
  // The text of the filter panel and the search box, as typed.
  const text = useFormFields({ ...NO_TEXT, moneyAccountId: initialAccountId });
  const { moneyAccountId, categoryId, from, to, search: searchText } = text.values;
  const [sort, setSort] = useState<ListFilters['sort']>('date');
  const [direction, setDirection] = useState<ListFilters['direction']>('desc');
  const search = useDebounced(searchText.trim(), 300);
  const currency =
    wallet.data?.accounts.find((a) => a.id === moneyAccountId)?.currency ?? company.baseCurrency;
  const min = readAmount(text.values.min, currency, false);
  const max = readAmount(text.values.max, currency, false);

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

  const toggleSort = (column: ListFilters['sort']) => {
    if (sort === column) setDirection(direction === 'desc' ? 'asc' : 'desc');
    else {
      setSort(column);
      setDirection(column === 'description' ? 'asc' : 'desc');
    }
  };

  const anyFilter = Boolean(
    type !== 'all' ||
      thisMonth ||
      moneyAccountId ||
      categoryId ||
      from ||
      to ||
      text.values.min ||
      text.values.max ||
      searchText,
  );
  const clearFilters = () => {
    setType('all');
    setThisMonth(false);
    text.set(NO_TEXT);
  };

  return {
    filters,
    month,
    form: { type, setType, thisMonth, setThisMonth, minError: min.error, maxError: max.error },
    text,
    toggleSort,
    anyFilter,
    clearFilters,
  };
};

export type TransactionFilterState = ReturnType<typeof useTransactionFilters>;
