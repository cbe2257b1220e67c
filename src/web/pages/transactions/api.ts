import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Account } from '../../../shared/ledger.ts';
import { MoneyParseError, parseMoney } from '../../../shared/money.ts';
import {
  type CsvSniff,
  PROGRESS_ID_HEADER,
  type Reconciliation,
  type Rule,
  type StatementImportProgress,
  type StatementImportResult,
  type StatementPreview,
  type Transaction,
  type TransactionPage,
  type TransactionTotals,
} from '../../../shared/transactions.ts';
import type { BalanceHistory, ExchangeRate, MoneyAccount, WalletSummary } from '../../../shared/wallet.ts';
import { ApiError, api, errorText } from '../../lib/api.ts';
import { useCompany } from '../../lib/company.tsx';
import { invalidateAfter, keys } from '../../lib/queryKeys.ts';

// Every call the transactions and wallet pages make, with TanStack Query keys from
// lib/queryKeys.ts; a change refreshes every money view of the company (invalidateAfter.money).

export const useOrgId = () => useCompany().company.id;

export const useInvalidateMoney = () => {
  const client = useQueryClient();
  const orgId = useOrgId();
  return () => invalidateAfter.money(client, orgId);
};

export type ListFilters = {
  type: 'all' | 'income' | 'expense';
  moneyAccountId?: string;
  categoryId?: string;
  from?: string;
  to?: string;
  minAmount?: number;
  maxAmount?: number;
  search?: string;
  sort: 'date' | 'amount' | 'description';
  direction: 'asc' | 'desc';
  reconciliationId?: string;
};

export const toQuery = (f: ListFilters): Record<string, string | number | undefined> => ({
  type: f.type,
  moneyAccountId: f.moneyAccountId,
  categoryId: f.categoryId,
  from: f.from,
  to: f.to,
  minAmount: f.minAmount,
  maxAmount: f.maxAmount,
  search: f.search,
  sort: f.sort,
  direction: f.direction,
  reconciliationId: f.reconciliationId,
});

export const useTransactionPage = (filters: ListFilters, cursor: string | null, limit = 50) => {
  const orgId = useOrgId();
  return useQuery({
    queryKey: keys.transactions(orgId, 'page', filters, cursor, limit),
    queryFn: () =>
      api.get<TransactionPage>(`/orgs/${orgId}/transactions`, {
        ...toQuery(filters),
        cursor: cursor ?? undefined,
        limit,
      }),
    placeholderData: (previous) => previous,
  });
};

export const useTotals = (filters: ListFilters) => {
  const orgId = useOrgId();
  return useQuery({
    queryKey: keys.transactions(orgId, 'totals', filters),
    queryFn: () => api.get<TransactionTotals>(`/orgs/${orgId}/transactions/totals`, toQuery(filters)),
    placeholderData: (previous) => previous,
  });
};

export const exportCsvHref = (orgId: string, filters: ListFilters) => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(toQuery(filters)))
    if (v !== undefined && v !== '') params.set(k, String(v));
  return `/api/orgs/${orgId}/transactions/export.csv?${params.toString()}`;
};

export const useWallet = () => {
  const orgId = useOrgId();
  return useQuery({
    queryKey: keys.wallet(orgId, 'summary'),
    queryFn: () => api.get<WalletSummary>(`/orgs/${orgId}/wallet`),
  });
};

export const useBalanceHistory = (months: number) => {
  const orgId = useOrgId();
  return useQuery({
    queryKey: keys.wallet(orgId, 'history', months),
    queryFn: () => api.get<BalanceHistory>(`/orgs/${orgId}/wallet/history`, { months }),
  });
};

export const useRates = () => {
  const orgId = useOrgId();
  return useQuery({
    queryKey: keys.wallet(orgId, 'rates'),
    queryFn: async () => (await api.get<{ rates: ExchangeRate[] }>(`/orgs/${orgId}/wallet/rates`)).rates,
  });
};

/** Accounts a transaction can be categorised to: live, base-currency, not money accounts. */
export const useCategories = () => {
  const { company } = useCompany();
  const wallet = useWallet();
  const accounts = useQuery({
    queryKey: keys.ledger(company.id, 'accounts'),
    queryFn: async () => {
      const data = await api.get<{ accounts: Account[] } | Account[]>(`/orgs/${company.id}/accounts`);
      return Array.isArray(data) ? data : data.accounts;
    },
    staleTime: 30_000,
  });
  const moneyLedger = new Set((wallet.data?.accounts ?? []).map((a) => a.ledgerAccountId));
  const categories = (accounts.data ?? []).filter(
    (a) => !a.archived && a.currency === company.baseCurrency && !moneyLedger.has(a.id),
  );
  return { categories, isLoading: accounts.isLoading || wallet.isLoading };
};

export const useRules = () => {
  const orgId = useOrgId();
  return useQuery({
    queryKey: keys.transactions(orgId, 'rules'),
    queryFn: async () => (await api.get<{ rules: Rule[] }>(`/orgs/${orgId}/transaction-rules`)).rules,
  });
};

export const useReconciliation = (id: string | null) => {
  const orgId = useOrgId();
  return useQuery({
    queryKey: keys.transactions(orgId, 'reconciliation', id),
    queryFn: () => api.get<Reconciliation>(`/orgs/${orgId}/reconciliations/${id}`),
    enabled: Boolean(id),
  });
};

/** A mutation that refreshes every money figure (ledger, wallet, transactions, invoices) when it succeeds. */
export const useMoneyMutation = <TInput, TResult>(fn: (orgId: string, input: TInput) => Promise<TResult>) => {
  const orgId = useOrgId();
  const invalidate = useInvalidateMoney();
  return useMutation({ mutationFn: (input: TInput) => fn(orgId, input), onSuccess: () => invalidate() });
};

export const apiCalls = {
  updateTransaction: (orgId: string, input: { id: string; body: Record<string, unknown> }) =>
    api.patch<Transaction>(`/orgs/${orgId}/transactions/${input.id}`, input.body),
  createTransaction: (orgId: string, body: Record<string, unknown>) =>
    api.post<Transaction>(`/orgs/${orgId}/transactions`, body),
  deleteTransaction: (orgId: string, id: string) => api.delete<void>(`/orgs/${orgId}/transactions/${id}`),
  bulkCategorize: (orgId: string, body: { transactionIds: string[]; categoryAccountId: string }) =>
    api.post<{ updated: number; unchanged: number }>(`/orgs/${orgId}/transactions/bulk-categorize`, body),
  applyRules: (orgId: string, body: { moneyAccountId?: string | null }) =>
    api.post<{ categorized: number; checked: number }>(`/orgs/${orgId}/transactions/apply-rules`, body),
  // Statement files go as their raw bytes (multipart, statementForm): the server decodes them.
  sniff: (orgId: string, body: FormData) =>
    api.post<CsvSniff>(`/orgs/${orgId}/statement-imports/sniff`, body),
  preview: (orgId: string, body: FormData) =>
    api.post<StatementPreview>(`/orgs/${orgId}/statement-imports/preview`, body),
  createRule: (orgId: string, body: Record<string, unknown>) =>
    api.post<Rule>(`/orgs/${orgId}/transaction-rules`, body),
  updateRule: (orgId: string, input: { id: string; body: Record<string, unknown> }) =>
    api.put<Rule>(`/orgs/${orgId}/transaction-rules/${input.id}`, input.body),
  deleteRule: (orgId: string, id: string) => api.delete<void>(`/orgs/${orgId}/transaction-rules/${id}`),
  startReconciliation: (orgId: string, body: Record<string, unknown>) =>
    api.post<Reconciliation>(`/orgs/${orgId}/reconciliations`, body),
  tick: (orgId: string, input: { id: string; transactionIds: string[]; ticked: boolean }) =>
    api.post<Reconciliation>(`/orgs/${orgId}/reconciliations/${input.id}/tick`, {
      transactionIds: input.transactionIds,
      ticked: input.ticked,
    }),
  finish: (orgId: string, id: string) =>
    api.post<Reconciliation>(`/orgs/${orgId}/reconciliations/${id}/finish`),
  cancelReconciliation: (orgId: string, id: string) =>
    api.delete<void>(`/orgs/${orgId}/reconciliations/${id}`),
  undoLast: (orgId: string, moneyAccountId: string) =>
    api.post<Reconciliation>(`/orgs/${orgId}/reconciliations/undo-last`, { moneyAccountId }),
  createAccount: (orgId: string, body: Record<string, unknown>) =>
    api.post<MoneyAccount>(`/orgs/${orgId}/wallet/accounts`, body),
  updateAccount: (orgId: string, input: { id: string; body: Record<string, unknown> }) =>
    api.patch<MoneyAccount>(`/orgs/${orgId}/wallet/accounts/${input.id}`, input.body),
  transfer: (orgId: string, body: Record<string, unknown>) =>
    api.post<unknown>(`/orgs/${orgId}/wallet/transfers`, body, { 'idempotency-key': crypto.randomUUID() }),
  setRate: (orgId: string, body: { currency: string; date: string; rate: string }) =>
    api.post<ExchangeRate>(`/orgs/${orgId}/wallet/rates`, body),
};

/**
 * A statement upload as the server reads it: the file's bytes untouched (no decoding in the
 * browser) and the options as fields; mapping and statements as JSON.
 */
export const statementForm = (input: {
  moneyAccountId: string;
  file: Blob;
  fileName: string;
  mapping?: unknown;
  statements?: { index: number; moneyAccountId: string | null }[];
}) => {
  const form = new FormData();
  form.append('moneyAccountId', input.moneyAccountId);
  form.append('fileName', input.fileName);
  if (input.mapping) form.append('mapping', JSON.stringify(input.mapping));
  if (input.statements) form.append('statements', JSON.stringify(input.statements));
  form.append('file', input.file, input.fileName);
  return form;
};

/**
 * Sends a statement with upload progress (fetch cannot report it). Resolves with the result,
 * rejects with ApiError carrying the server's line-by-line errors.
 */
export const commitStatementWithProgress = (
  orgId: string,
  body: FormData,
  onProgress: (fraction: number) => void,
  /** A UUID the server reports the rows posted under (statementImportProgress polls it). */
  progressId?: string,
): Promise<StatementImportResult> =>
  new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/orgs/${orgId}/statement-imports`);
    xhr.setRequestHeader('idempotency-key', crypto.randomUUID());
    if (progressId) xhr.setRequestHeader(PROGRESS_ID_HEADER, progressId);
    xhr.withCredentials = true;
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    // Small bodies may go without a progress event: the upload is done when it is sent.
    xhr.upload.onload = () => onProgress(1);
    xhr.onload = () => {
      let data: unknown;
      try {
        data = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        data = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(data as StatementImportResult);
      else {
        const error = (data as { error?: { code: string; message: string; details?: unknown } } | undefined)
          ?.error;
        reject(
          new ApiError(
            xhr.status,
            error?.code ?? 'http_error',
            error?.message ?? `The server answered ${xhr.status}.`,
            error?.details,
          ),
        );
      }
    };
    xhr.onerror = () =>
      reject(new ApiError(0, 'network_error', 'Network error. Please check your internet connection.'));
    xhr.send(body);
  });

/** How far the import sent with this progress id is (404 until it starts, or on another server node). */
export const statementImportProgress = (orgId: string, progressId: string) =>
  api.get<StatementImportProgress>(`/orgs/${orgId}/statement-imports/progress/${progressId}`);

/** Reads "1,234.56" or "-12" into minor units; null and a message when it is not an amount. */
export const readAmount = (
  text: string,
  currency: string,
  allowNegative = true,
): { value: number | null; error: string | null } => {
  if (text.trim() === '') return { value: null, error: null };
  try {
    return { value: parseMoney(text, currency, { allowNegative }), error: null };
  } catch (error) {
    return {
      value: null,
      error: error instanceof MoneyParseError ? error.message : 'Enter an amount such as 12.50.',
    };
  }
};

/** The message to show for what a call threw (the form dialogs' own reading of it). */
export const errorMessage = errorText;

/** Reads a tax rate typed as a percent ("8.25") into hundredths of a percent; null when blank. */
export const readTaxRate = (text: string): { value: number | null; error: string | null } => {
  if (text.trim() === '') return { value: null, error: null };
  const value = Math.round(Number(text) * 100);
  return Number.isFinite(value) && value >= 0 && value <= 10000
    ? { value, error: null }
    : { value: null, error: 'Enter the tax rate as a percent between 0 and 100.' };
};

export const todayIso = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};
