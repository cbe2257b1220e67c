import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AgingReport,
  Customer,
  Invoice,
  InvoiceList,
  InvoiceSettings,
  InvoiceSummary,
  Item,
  Recurring,
  TaxRate,
  TaxReport,
} from '../../../shared/invoices.ts';
import type { CustomerCredit, CustomerStatement } from '../../../shared/invoice-credit.ts';
import { api } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { invalidateAfter, keys } from '../../lib/queryKeys.ts';

// The invoices API for this page, through TanStack Query. Every key is a company's key from
// lib/queryKeys.ts, so switching company never shows another company's cache.

export type InvoicingAccount = {
  id: string;
  code: string;
  name: string;
  type: string;
  subtype: string;
  currency: string;
  systemKey: string | null;
};

export type CustomerDetail = {
  customer: Customer;
  invoices: InvoiceSummary[];
  payments: {
    id: string;
    invoiceId: string;
    invoiceNumber: string | null;
    date: string;
    amount: number;
    currency: string;
    method: string;
    reference: string;
    reversed: boolean;
  }[];
};

export const useOrgPath = () => {
  const { company } = useCompany();
  return { base: `/orgs/${company.id}`, companyId: company.id };
};

export type ListParams = {
  status: string;
  search: string;
  sort: string;
  order: 'asc' | 'desc';
  page: number;
  pageSize: number;
};

/**
 * One invoicing read: its key is the company's invoices key plus `key`, its request a GET of
 * `path` under the company with `params` (empty ones left out), `pick` takes the part the page
 * uses.
 */
const useInvoicingQuery = <TResponse, TData = TResponse>(
  key: readonly unknown[],
  path: string,
  {
    params,
    pick,
    enabled,
    keepPrevious = false,
  }: {
    params?: Record<string, string | number | undefined>;
    pick?: (response: TResponse) => TData;
    enabled?: boolean;
    keepPrevious?: boolean;
  } = {},
) => {
  const { base, companyId } = useOrgPath();
  return useQuery({
    queryKey: keys.invoices(companyId, ...key),
    queryFn: () =>
      api.get<TResponse>(`${base}${path}`, params).then((r) => (pick ? pick(r) : (r as unknown as TData))),
    enabled,
    placeholderData: keepPrevious ? keepPreviousData : undefined,
  });
};

export const useInvoiceList = (params: ListParams) =>
  useInvoicingQuery<InvoiceList>(['list', params], '/invoices', {
    params: { ...params, search: params.search || undefined },
    keepPrevious: true,
  });

export const useInvoice = (id: string | null) =>
  useInvoicingQuery<Invoice>(['one', id], `/invoices/${id}`, { enabled: Boolean(id) });

export const useCustomers = (search = '', includeArchived = false) =>
  useInvoicingQuery<{ customers: Customer[]; totalCount: number }>(
    ['customers', search, includeArchived],
    '/customers',
    {
      params: {
        search: search || undefined,
        includeArchived: includeArchived ? 'true' : undefined,
        pageSize: 500,
      },
      keepPrevious: true,
    },
  );

export const useCustomerDetail = (id: string | null) =>
  useInvoicingQuery<CustomerDetail>(['customer', id], `/customers/${id}`, { enabled: Boolean(id) });

/** The customer's credit per currency and its history (credit.ts on the server). */
export const useCustomerCredit = (id: string | null) =>
  useInvoicingQuery<CustomerCredit>(['customer-credit', id], `/customers/${id}/credit`, {
    enabled: Boolean(id),
  });

export type StatementParams = { from: string; to: string; currency: string };

/** The query string of a statement (empty fields left out), shared by the page and its CSV link. */
export const statementQuery = (params: StatementParams) =>
  Object.fromEntries(Object.entries(params).filter(([, v]) => v !== '')) as Partial<StatementParams>;

export const useCustomerStatement = (id: string, params: StatementParams) =>
  useInvoicingQuery<CustomerStatement>(['statement', id, params], `/customers/${id}/statement`, {
    params: statementQuery(params),
    enabled: !params.from || !params.to || params.from <= params.to,
    keepPrevious: true,
  });

export const useItems = () =>
  useInvoicingQuery<{ items: Item[] }, Item[]>(['items'], '/items', { pick: (r) => r.items });

export const useTaxRates = () =>
  useInvoicingQuery<{ taxRates: TaxRate[] }, TaxRate[]>(['tax-rates'], '/tax-rates', {
    pick: (r) => r.taxRates,
  });

export const useInvoicingAccounts = () =>
  useInvoicingQuery<{ accounts: InvoicingAccount[] }, InvoicingAccount[]>(
    ['accounts'],
    '/invoicing-accounts',
    {
      pick: (r) => r.accounts,
    },
  );

export const useRecurring = () =>
  useInvoicingQuery<{ schedules: Recurring[] }, Recurring[]>(['recurring'], '/recurring-invoices', {
    pick: (r) => r.schedules,
  });

export const useAging = (asOf: string) =>
  useInvoicingQuery<AgingReport>(['aging', asOf], '/reports/receivables-aging', { params: { asOf } });

export const useTaxReport = (from: string, to: string) =>
  useInvoicingQuery<TaxReport>(['tax-report', from, to], '/reports/sales-tax', {
    params: { from, to },
    enabled: from <= to,
  });

export const useInvoiceSettings = () => useInvoicingQuery<InvoiceSettings>(['settings'], '/invoice-settings');

/**
 * A mutation that refreshes everything invoicing shows when it lands, and the ledger, wallet
 * and transactions too: invoices, payments, credit notes and voids post to the ledger.
 */
export const useInvoicingMutation = <TVars, TResult>(fn: (base: string, vars: TVars) => Promise<TResult>) => {
  const { base, companyId } = useOrgPath();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (vars: TVars) => fn(base, vars),
    onSuccess: () => invalidateAfter.money(queryClient, companyId),
  });
};
