import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import type {
  Bill,
  BillList,
  BillStatus,
  BillTotals,
  PayablesSettings,
  Supplier,
  SupplierList,
} from '../../../shared/payables.ts';
import { api } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { invalidateAfter, keys } from '../../lib/queryKeys.ts';
import { useAccounts } from '../accounting/ledgerApi.ts';

// The bills API of the /bills page through TanStack Query: the list and its totals, one bill,
// the suppliers to choose from, the accounts a line may take and the payables settings. Every
// key comes from lib/queryKeys.ts; every change refreshes what it touches (a draft saved: the
// payables views; an approval, void or payment: every money view, since they post).

export const useBillsPath = () => {
  const { company } = useCompany();
  return { base: `/orgs/${company.id}`, companyId: company.id };
};

export type BillListParams = {
  status: 'all' | BillStatus;
  search: string;
  supplierId: string;
  cursor: string | undefined;
  limit: number;
};

export const useBillList = (params: BillListParams) => {
  const { base, companyId } = useBillsPath();
  return useQuery({
    queryKey: keys.bills(companyId, params),
    queryFn: () =>
      api.get<BillList>(`${base}/bills`, {
        status: params.status,
        search: params.search || undefined,
        supplierId: params.supplierId || undefined,
        cursor: params.cursor,
        limit: params.limit,
      }),
    placeholderData: keepPreviousData,
  });
};

export const useBillTotals = () => {
  const { base, companyId } = useBillsPath();
  return useQuery({
    queryKey: keys.billTotals(companyId),
    queryFn: () => api.get<BillTotals>(`${base}/bills/totals`),
  });
};

export const useBill = (billId: string | null) => {
  const { base, companyId } = useBillsPath();
  return useQuery({
    queryKey: keys.bill(companyId, billId ?? ''),
    queryFn: () => api.get<Bill>(`${base}/bills/${billId}`),
    enabled: Boolean(billId),
  });
};

/** Every live supplier, for the bill editor's and the list's pickers. */
export const useSupplierChoices = () => {
  const { base, companyId } = useBillsPath();
  return useQuery({
    queryKey: keys.suppliers(companyId, { picker: true }),
    queryFn: async () => (await api.get<SupplierList>(`${base}/suppliers`, { pageSize: 500 })).suppliers,
    select: (suppliers: Supplier[]) => suppliers.filter((s) => !s.archived),
  });
};

export const usePayablesSettings = (enabled = true) => {
  const { base, companyId } = useBillsPath();
  return useQuery({
    queryKey: keys.payablesSettings(companyId),
    queryFn: () => api.get<PayablesSettings>(`${base}/payables/settings`),
    enabled,
  });
};

/** The accounts a bill line may take: expenses first, then assets that are not money accounts. */
export const useBillAccounts = () => {
  const accounts = useAccounts();
  const list = useMemo(
    () =>
      (accounts.data ?? [])
        .filter(
          (a) =>
            !a.archived &&
            (a.type === 'expense' ||
              (a.type === 'asset' &&
                !a.systemKey &&
                !['bank', 'cash', 'cash_equivalent'].includes(a.subtype))),
        )
        .sort((a, b) => (a.type === b.type ? a.code.localeCompare(b.code) : a.type === 'expense' ? -1 : 1)),
    [accounts.data],
  );
  return { accounts: list, all: accounts.data ?? [], isLoading: accounts.isLoading };
};

/**
 * A bill change: `touches` 'money' for what posts to the ledger (approve, void, a payment and
 * its removal), 'payables' for what does not (a draft saved, submitted, rejected or deleted,
 * an attachment, the settings).
 */
export const useBillMutation = <TVars, TResult>(
  fn: (base: string, vars: TVars) => Promise<TResult>,
  touches: 'money' | 'payables' = 'money',
) => {
  const { base, companyId } = useBillsPath();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (vars: TVars) => fn(base, vars),
    onSuccess: () => invalidateAfter[touches](queryClient, companyId),
  });
};
