import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  BillList,
  BillSchedule,
  PayablesAging,
  PaymentRun,
  Supplier,
  SupplierCredit,
  SupplierCreditList,
  SupplierImportResult,
  SupplierList,
  SupplierStatement,
} from '../../../shared/payables.ts';
import { api } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { currentFormatter } from '../../lib/format.ts';
import { invalidateAfter, keys } from '../../lib/queryKeys.ts';

// The payables API the supplier, payment run, credit, recurring and report tabs read and
// write, through TanStack Query. Every key is the company's payables key (lib/queryKeys.ts);
// every change refreshes the money views too (bills, payments and credits post to the ledger).

export const usePayablesPath = () => {
  const { company } = useCompany();
  return { base: `/orgs/${company.id}`, companyId: company.id };
};

/** A GET under the company, keyed by `key` below the company's payables key; empty params left out. */
const usePayablesQuery = <T>(
  key: (companyId: string) => readonly unknown[],
  path: string,
  {
    params,
    enabled,
    keepPrevious = false,
  }: { params?: Record<string, string | number | undefined>; enabled?: boolean; keepPrevious?: boolean } = {},
) => {
  const { base, companyId } = usePayablesPath();
  return useQuery({
    queryKey: key(companyId),
    queryFn: () => api.get<T>(`${base}${path}`, params),
    enabled,
    placeholderData: keepPrevious ? keepPreviousData : undefined,
  });
};

/**
 * A change, refreshing what it touches when it lands: every money view (payables, ledger,
 * wallet, transactions, invoices) for what posts to the ledger, the payables views alone for
 * what does not (a supplier saved, a schedule paused).
 */
export const usePayablesMutation = <TVars, TResult>(
  fn: (base: string, vars: TVars) => Promise<TResult>,
  touches: 'money' | 'payables' = 'money',
) => {
  const { base, companyId } = usePayablesPath();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (vars: TVars) => fn(base, vars),
    onSuccess: () => invalidateAfter[touches](queryClient, companyId),
  });
};

export const useSuppliers = (search = '', includeArchived = false) =>
  usePayablesQuery<SupplierList>((o) => keys.suppliers(o, { search, includeArchived }), '/suppliers', {
    params: {
      search: search || undefined,
      includeArchived: includeArchived ? 'true' : undefined,
      pageSize: 500,
    },
    keepPrevious: true,
  });

export const useSupplier = (id: string) =>
  usePayablesQuery<Supplier>((o) => keys.supplier(o, id), `/suppliers/${id}`);

export type StatementPeriod = { from: string; to: string };

/** A statement's query (empty dates left out), shared by the page and its CSV link. */
export const statementParams = (period: StatementPeriod) =>
  Object.fromEntries(Object.entries(period).filter(([, v]) => v !== '')) as Partial<StatementPeriod>;

export const useSupplierStatement = (id: string, period: StatementPeriod) =>
  usePayablesQuery<SupplierStatement>(
    (o) => keys.supplierStatement(o, id, period),
    `/suppliers/${id}/statement`,
    {
      params: statementParams(period),
      enabled: !period.from || !period.to || period.from <= period.to,
      keepPrevious: true,
    },
  );

export const useImportSuppliers = () =>
  usePayablesMutation(
    (base, body: { csv: string; dryRun: boolean }) =>
      api.post<SupplierImportResult>(`${base}/suppliers/import`, body),
    'payables',
  );

/** A supplier's bills (newest first), for their page and the credit dialogs. */
export const useSupplierBills = (supplierId: string | null, status = 'all') =>
  usePayablesQuery<BillList>((o) => keys.bills(o, { supplierId, status, limit: 200 }), '/bills', {
    params: { supplierId: supplierId ?? undefined, status, limit: 200 },
    enabled: Boolean(supplierId),
  });

export const usePaymentRun = (dueBy: string) =>
  usePayablesQuery<PaymentRun>((o) => keys.paymentRun(o, dueBy), '/payables/payment-run', {
    params: { dueBy: dueBy || undefined },
    keepPrevious: true,
  });

export const useSupplierCredits = (openOnly: boolean, cursor?: string) =>
  usePayablesQuery<SupplierCreditList>(
    (o) => keys.supplierCredits(o, { openOnly, cursor }),
    '/supplier-credits',
    {
      params: { openOnly: openOnly ? 'true' : undefined, cursor, limit: 50 },
      keepPrevious: true,
    },
  );

export const useSupplierCredit = (id: string | null) =>
  usePayablesQuery<SupplierCredit>((o) => keys.supplierCredit(o, id ?? ''), `/supplier-credits/${id}`, {
    enabled: Boolean(id),
  });

export const useBillSchedules = () =>
  usePayablesQuery<{ schedules: BillSchedule[] }>((o) => keys.billSchedules(o), '/bill-schedules');

export const usePayablesAging = (asOf: string) =>
  usePayablesQuery<PayablesAging>((o) => keys.payablesAging(o, asOf), '/payables/aging', {
    params: { asOf },
    enabled: !!asOf,
  });

/** The address of the aging as CSV or PDF (a download link). */
/** The aging's CSV or PDF; the PDF writes dates in the user's date format (CSV keeps ISO). */
export const agingHref = (base: string, asOf: string, format: 'csv' | 'pdf') =>
  `/api${base}/payables/aging?${new URLSearchParams({ asOf, format, dateFormat: currentFormatter().prefs.dateFormat }).toString()}`;
