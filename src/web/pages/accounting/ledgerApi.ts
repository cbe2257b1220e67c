import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Account,
  AccountCreate,
  AccountUpdate,
  BalanceSheet,
  CashFlow,
  ChartImportResult,
  GeneralLedger,
  IncomeCompare,
  IncomeStatement,
  JournalEntry,
  JournalImportResult,
  JournalLineInput,
  JournalList,
  JournalReport,
  LedgerSettings,
  TrialBalance,
} from '../../../shared/ledger.ts';
import { api } from '../../lib/api.ts';
import { currentFormatter } from '../../lib/format.ts';
import { useCompany } from '../../lib/company.tsx';
import { invalidateAfter, keys } from '../../lib/queryKeys.ts';

// Every ledger call the accounting and dashboard pages make, in one place: the routes of
// src/server/modules/ledger under /api/orgs/:organizationId, and TanStack Query keys that all
// start with ['ledger', companyId] so one invalidation refreshes every figure after a change.

export const ledgerPaths = (orgId: string) => {
  const base = `/orgs/${orgId}`;
  return {
    accounts: `${base}/accounts`,
    account: (id: string) => `${base}/accounts/${id}`,
    accountsImport: `${base}/accounts/import`,
    journalImport: `${base}/ledger/import`,
    settings: `${base}/ledger/settings`,
    entries: `${base}/journal-entries`,
    entry: (id: string) => `${base}/journal-entries/${id}`,
    postEntry: (id: string) => `${base}/journal-entries/${id}/post`,
    approveEntry: (id: string) => `${base}/journal-entries/${id}/approve`,
    reverseEntry: (id: string) => `${base}/journal-entries/${id}/reverse`,
    report: (name: ReportName) => `${base}/reports/${name}`,
  };
};

export type ReportName =
  | 'trial-balance'
  | 'general-ledger'
  | 'journal'
  | 'income-statement'
  | 'balance-sheet'
  | 'cash-flow'
  // Invoicing's reports, at the same /reports/ path: their CSV and PDF links.
  | 'receivables-aging'
  | 'sales-tax';

export type ReportQuery = Record<string, string | number | undefined>;

/** A link to a report export (CSV or PDF) the browser downloads with the session cookie. */
export const exportHref = (orgId: string, name: ReportName, query: ReportQuery, format: 'csv' | 'pdf') => {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== '') params.set(k, String(v));
  // The PDF writes dates in the user's date format (CSV keeps ISO dates whatever this says).
  if (!params.has('dateFormat')) params.set('dateFormat', currentFormatter().prefs.dateFormat);
  params.set('format', format);
  return `/api${ledgerPaths(orgId).report(name)}?${params.toString()}`;
};

const useOrg = () => useCompany().company.id;

/**
 * Invoices, payments and bank transactions post to the ledger from other pages (and other
 * people), so balances and reports are refetched whenever a view mounts or the window
 * regains focus; the cached figures show meanwhile.
 */
export const FRESH = { staleTime: 0, refetchOnWindowFocus: true } as const;

/** Lists may come back bare or wrapped ({ accounts: [...] }); accept both. */
const unwrap = <T>(value: unknown, key: string): T[] => {
  if (Array.isArray(value)) return value as T[];
  const inner = (value as Record<string, unknown> | undefined)?.[key];
  return Array.isArray(inner) ? (inner as T[]) : [];
};

const unwrapOne = <T>(value: unknown, key: string): T => {
  const inner = (value as Record<string, unknown> | undefined)?.[key];
  return (inner && typeof inner === 'object' ? inner : value) as T;
};

export const useAccounts = () => {
  const orgId = useOrg();
  return useQuery({
    queryKey: keys.ledger(orgId, 'accounts'),
    queryFn: async () => unwrap<Account>(await api.get(ledgerPaths(orgId).accounts), 'accounts'),
    staleTime: 30_000,
  });
};

export const useLedgerSettings = () => {
  const orgId = useOrg();
  return useQuery({
    queryKey: keys.ledger(orgId, 'settings'),
    queryFn: async () => unwrapOne<LedgerSettings>(await api.get(ledgerPaths(orgId).settings), 'settings'),
    ...FRESH,
  });
};

export type EntryFilter = {
  status?: 'draft' | 'pending_approval' | 'posted';
  search?: string;
  from?: string;
  to?: string;
  limit?: number;
  cursor?: string;
};

export const useJournalEntries = (filter: EntryFilter) => {
  const orgId = useOrg();
  return useQuery({
    queryKey: keys.ledger(orgId, 'entries', filter),
    queryFn: async (): Promise<JournalList> => {
      const data = await api.get<JournalList | JournalEntry[]>(ledgerPaths(orgId).entries, {
        ...filter,
        limit: filter.limit ?? 25,
      });
      return Array.isArray(data)
        ? { entries: data, nextCursor: null }
        : { entries: data.entries ?? [], nextCursor: data.nextCursor ?? null };
    },
    placeholderData: (previous) => previous,
    ...FRESH,
  });
};

export const useJournalEntry = (id: string | null) => {
  const orgId = useOrg();
  return useQuery({
    queryKey: keys.ledger(orgId, 'entry', id),
    queryFn: async () => unwrapOne<JournalEntry>(await api.get(ledgerPaths(orgId).entry(id!)), 'entry'),
    enabled: id !== null,
  });
};

export const useReport = <T>(name: ReportName, query: ReportQuery, enabled = true) => {
  const orgId = useOrg();
  return useQuery({
    queryKey: keys.ledger(orgId, 'report', name, query),
    queryFn: () => api.get<T>(ledgerPaths(orgId).report(name), query),
    enabled,
    placeholderData: (previous) => previous,
    ...FRESH,
  });
};

export const useTrialBalance = (query: { from?: string; to: string }) =>
  useReport<TrialBalance>('trial-balance', query);
export const useIncomeStatement = (
  query: { from?: string; to: string; compare?: IncomeCompare },
  enabled = true,
) => useReport<IncomeStatement>('income-statement', query, enabled);
export const useBalanceSheet = (query: { asOf: string }) => useReport<BalanceSheet>('balance-sheet', query);
export const useCashFlow = (query: { from?: string; to: string }) => useReport<CashFlow>('cash-flow', query);
export const useGeneralLedger = (
  query: { accountId: string; from?: string; to: string; limit?: number; cursor?: string },
  enabled: boolean,
) => useReport<GeneralLedger>('general-ledger', query, enabled);
export const useJournalReport = (query: { from?: string; to: string; limit?: number; cursor?: string }) =>
  useReport<JournalReport>('journal', query);

/**
 * Mutations refresh every money figure of the company: balances move together, and an entry
 * on a bank account or receivables changes the wallet, transactions and invoices too.
 */
const useLedgerMutation = <V, R>(fn: (orgId: string, vars: V) => Promise<R>) => {
  const orgId = useOrg();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (vars: V) => fn(orgId, vars),
    onSuccess: () => invalidateAfter.money(queryClient, orgId),
  });
};

export type EntryPayload = {
  date: string;
  memo: string;
  reference: string | null;
  lines: JournalLineInput[];
};

const entryOf = (value: unknown) => unwrapOne<JournalEntry>(value, 'entry');

/**
 * Posting moves money, so each attempt carries an Idempotency-Key: a request the network
 * repeats posts once. Callers pass the same key when they retry the same attempt.
 */
const idempotent = (key?: string) => ({ 'Idempotency-Key': key ?? newIdempotencyKey() });

/** A random v4 UUID; crypto.randomUUID exists only on https or localhost, so build it by hand. */
export const newIdempotencyKey = () => {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

export const useCreateEntry = () =>
  useLedgerMutation((orgId, vars: EntryPayload & { status: 'draft' | 'posted'; idempotencyKey?: string }) => {
    const { idempotencyKey, ...body } = vars;
    return api.post(ledgerPaths(orgId).entries, body, idempotent(idempotencyKey)).then(entryOf);
  });

export const useUpdateDraft = () =>
  useLedgerMutation((orgId, vars: EntryPayload & { id: string }) => {
    const { id, ...body } = vars;
    return api.patch(ledgerPaths(orgId).entry(id), body).then(entryOf);
  });

export const useDeleteDraft = () =>
  useLedgerMutation((orgId, id: string) => api.delete(ledgerPaths(orgId).entry(id)));

export const usePostDraft = () =>
  useLedgerMutation((orgId, id: string) =>
    api.post(ledgerPaths(orgId).postEntry(id), undefined, idempotent()).then(entryOf),
  );

export const useApproveEntry = () =>
  useLedgerMutation((orgId, id: string) => api.post(ledgerPaths(orgId).approveEntry(id)).then(entryOf));

export const useReverseEntry = () =>
  useLedgerMutation((orgId, vars: { id: string; date?: string; memo?: string }) =>
    api
      .post(
        ledgerPaths(orgId).reverseEntry(vars.id),
        {
          ...(vars.date ? { date: vars.date } : {}),
          ...(vars.memo ? { memo: vars.memo } : {}),
        },
        idempotent(),
      )
      .then(entryOf),
  );

export const useCreateAccount = () =>
  useLedgerMutation((orgId, vars: AccountCreate) =>
    api.post(ledgerPaths(orgId).accounts, vars).then((v) => unwrapOne<Account>(v, 'account')),
  );

export const useUpdateAccount = () =>
  useLedgerMutation((orgId, vars: AccountUpdate & { id: string }) => {
    const { id, ...body } = vars;
    return api.patch(ledgerPaths(orgId).account(id), body).then((v) => unwrapOne<Account>(v, 'account'));
  });

export const useImportAccounts = () =>
  useLedgerMutation((orgId, csv: string) =>
    api.post<ChartImportResult>(ledgerPaths(orgId).accountsImport, { csv }),
  );

export const useImportJournal = () =>
  useLedgerMutation((orgId, journal: string) =>
    api.post<JournalImportResult>(ledgerPaths(orgId).journalImport, { journal }),
  );

export const useUpdateLedgerSettings = () =>
  useLedgerMutation((orgId, vars: { lockDate?: string | null; approvalRequired?: boolean }) =>
    api.patch(ledgerPaths(orgId).settings, vars).then((v) => unwrapOne<LedgerSettings>(v, 'settings')),
  );

/**
 * Runs a ledger request for the current company, then refreshes every money view (a year-end
 * close or opening balances move balances everywhere).
 */
export const useLedgerAction = () => {
  const { company } = useCompany();
  const queryClient = useQueryClient();
  return async <T>(fn: (orgId: string) => Promise<T>) => {
    const result = await fn(company.id);
    await invalidateAfter.money(queryClient, company.id);
    return result;
  };
};
