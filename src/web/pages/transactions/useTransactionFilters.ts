import { useEffect, useMemo, useState } from 'react';
import { monthEnd, monthStart } from '../../../shared/dates.ts';
import { useCompany } from '../../lib/company.tsx';
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

export const useTransactionFilters = (initialAccountId: string) => {
  const { company } = useCompany();
  const wallet = useWallet();
  const today = useMemo(() => todayIso(), []);
  const month = { from: monthStart(today), to: monthEnd(today) };
  const [type, setType] = useState<ListFilters['type']>('all');
  const [thisMonth, setThisMonth] = useState(false);
  const [moneyAccountId, setMoneyAccountId] = useState(initialAccountId);
  const [categoryId, setCategoryId] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [minText, setMinText] = useState('');
  const [maxText, setMaxText] = useState('');
  const [searchText, setSearchText] = useState('');
  const [sort, setSort] = useState<ListFilters['sort']>('date');
  const [direction, setDirection] = useState<ListFilters['direction']>('desc');
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

  return {
    filters,
    month,
    form: {
      type,
      setType,
      thisMonth,
      setThisMonth,
      moneyAccountId,
      setMoneyAccountId,
      categoryId,
      setCategoryId,
      from,
      setFrom,
      to,
      setTo,
      minText,
      setMinText,
      maxText,
      setMaxText,
      searchText,
      setSearchText,
      minError: min.error,
      maxError: max.error,
    },
    toggleSort,
    anyFilter,
    clearFilters,
  };
};

export type TransactionFilterState = ReturnType<typeof useTransactionFilters>;
