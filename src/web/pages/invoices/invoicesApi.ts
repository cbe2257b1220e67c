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

export const useInvoiceList = (params: ListParams) => {
  const { base, companyId } = useOrgPath();
  return useQuery({
    queryKey: keys.invoices(companyId, 'list', params),
    queryFn: () =>
      api.get<InvoiceList>(`${base}/invoices`, { ...params, search: params.search || undefined }),
    placeholderData: keepPreviousData,
  });
};

export const useInvoice = (id: string | null) => {
  const { base, companyId } = useOrgPath();
  return useQuery({
    queryKey: keys.invoices(companyId, 'one', id),
    queryFn: () => api.get<Invoice>(`${base}/invoices/${id}`),
    enabled: Boolean(id),
  });
};

export const useCustomers = (search = '', includeArchived = false) => {
  const { base, companyId } = useOrgPath();
  return useQuery({
    queryKey: keys.invoices(companyId, 'customers', search, includeArchived),
    queryFn: () =>
      api.get<{ customers: Customer[]; totalCount: number }>(`${base}/customers`, {
        search: search || undefined,
        includeArchived: includeArchived ? 'true' : undefined,
        pageSize: 500,
      }),
    placeholderData: keepPreviousData,
  });
};

export const useCustomerDetail = (id: string | null) => {
  const { base, companyId } = useOrgPath();
  return useQuery({
    queryKey: keys.invoices(companyId, 'customer', id),
    queryFn: () => api.get<CustomerDetail>(`${base}/customers/${id}`),
    enabled: Boolean(id),
  });
};

/** The customer's credit per currency and its history (credit.ts on the server). */
export const useCustomerCredit = (id: string | null) => {
  const { base, companyId } = useOrgPath();
  return useQuery({
    queryKey: keys.invoices(companyId, 'customer-credit', id),
    queryFn: () => api.get<CustomerCredit>(`${base}/customers/${id}/credit`),
    enabled: Boolean(id),
  });
};

export type StatementParams = { from: string; to: string; currency: string };

/** The query string of a statement (empty fields left out), shared by the page and its CSV link. */
export const statementQuery = (params: StatementParams) =>
  Object.fromEntries(Object.entries(params).filter(([, v]) => v !== '')) as Partial<StatementParams>;

export const useCustomerStatement = (id: string, params: StatementParams) => {
  const { base, companyId } = useOrgPath();
  return useQuery({
    queryKey: keys.invoices(companyId, 'statement', id, params),
    queryFn: () => api.get<CustomerStatement>(`${base}/customers/${id}/statement`, statementQuery(params)),
    enabled: !params.from || !params.to || params.from <= params.to,
    placeholderData: keepPreviousData,
  });
};

export const useItems = () => {
  const { base, companyId } = useOrgPath();
  return useQuery({
    queryKey: keys.invoices(companyId, 'items'),
    queryFn: () => api.get<{ items: Item[] }>(`${base}/items`).then((r) => r.items),
  });
};

export const useTaxRates = () => {
  const { base, companyId } = useOrgPath();
  return useQuery({
    queryKey: keys.invoices(companyId, 'tax-rates'),
    queryFn: () => api.get<{ taxRates: TaxRate[] }>(`${base}/tax-rates`).then((r) => r.taxRates),
  });
};

export const useInvoicingAccounts = () => {
  const { base, companyId } = useOrgPath();
  return useQuery({
    queryKey: keys.invoices(companyId, 'accounts'),
    queryFn: () =>
      api.get<{ accounts: InvoicingAccount[] }>(`${base}/invoicing-accounts`).then((r) => r.accounts),
  });
};

export const useRecurring = () => {
  const { base, companyId } = useOrgPath();
  return useQuery({
    queryKey: keys.invoices(companyId, 'recurring'),
    queryFn: () => api.get<{ schedules: Recurring[] }>(`${base}/recurring-invoices`).then((r) => r.schedules),
  });
};

export const useAging = (asOf: string) => {
  const { base, companyId } = useOrgPath();
  return useQuery({
    queryKey: keys.invoices(companyId, 'aging', asOf),
    queryFn: () => api.get<AgingReport>(`${base}/reports/receivables-aging`, { asOf }),
  });
};

export const useTaxReport = (from: string, to: string) => {
  const { base, companyId } = useOrgPath();
  return useQuery({
    queryKey: keys.invoices(companyId, 'tax-report', from, to),
    queryFn: () => api.get<TaxReport>(`${base}/reports/sales-tax`, { from, to }),
    enabled: from <= to,
  });
};

export const useInvoiceSettings = () => {
  const { base, companyId } = useOrgPath();
  return useQuery({
    queryKey: keys.invoices(companyId, 'settings'),
    queryFn: () => api.get<InvoiceSettings>(`${base}/invoice-settings`),
  });
};

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
