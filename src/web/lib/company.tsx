import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useDeferredValue,
  useMemo,
  useState,
} from 'react';
import type { MyCompany } from '../../shared/companies.ts';
import { api } from './api.ts';
import { forgetAllButCompanies, invalidateAfter, keys } from './queryKeys.ts';

// The companies the signed-in user belongs to and the one they are working in. The choice
// is remembered per browser; every company page reads it through useCompany().

const STORAGE_KEY = 'kontor.companyId';

type CompaniesContextValue = {
  companies: MyCompany[];
  current: MyCompany | null;
  isLoading: boolean;
  error: Error | null;
  switchTo: (companyId: string) => void;
  refresh: () => Promise<void>;
};

const CompaniesContext = createContext<CompaniesContextValue | null>(null);

const readStored = () => {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
};

const companiesQuery = {
  queryKey: keys.companies,
  queryFn: () => api.get<{ companies: MyCompany[] }>('/orgs').then((r) => r.companies),
};

/**
 * Asks for the user's companies before the shell renders (main.tsx, a signed-in page once the
 * session is known): the shell's query then finds the answer on its way or in the cache.
 */
export const prefetchCompanies = (queryClient: QueryClient) => queryClient.prefetchQuery(companiesQuery);

export const CompaniesProvider = ({ children }: { children: ReactNode }) => {
  const queryClient = useQueryClient();
  const [selected, setSelected] = useState<string | null>(readStored);
  const query = useQuery(companiesQuery);
  const companies = query.data ?? [];
  const current = companies.find((c) => c.id === selected) ?? companies[0] ?? null;

  const switchTo = useCallback(
    (companyId: string) => {
      setSelected(companyId);
      try {
        localStorage.setItem(STORAGE_KEY, companyId);
      } catch {
        // storage unavailable: the choice lasts for this page only
      }
      // Everything cached belongs to the previous company.
      forgetAllButCompanies(queryClient);
    },
    [queryClient],
  );

  const refresh = useCallback(async () => {
    await invalidateAfter.companies(queryClient);
  }, [queryClient]);

  const value = useMemo<CompaniesContextValue>(
    () => ({ companies, current, isLoading: query.isLoading, error: query.error, switchTo, refresh }),
    [companies, current, query.isLoading, query.error, switchTo, refresh],
  );
  // The whole signed-in page hangs on this value: when the companies arrive (or the user
  // switches), the page is drawn in a deferred render, which React splits into slices of a few
  // milliseconds, instead of one long task that blocks taps (docs/performance.md, issue 22).
  // The value changes as one piece, so no render sees the list without its loading state.
  const shown = useDeferredValue(value);
  return <CompaniesContext.Provider value={shown}>{children}</CompaniesContext.Provider>;
};

export const useCompanies = () => {
  const ctx = useContext(CompaniesContext);
  if (!ctx) throw new Error('useCompanies must be used inside CompaniesProvider');
  return ctx;
};

/** The company the user is working in; only for pages shown once a company exists. */
export const useCompany = () => {
  const { current } = useCompanies();
  if (!current) throw new Error('useCompany needs a current company');
  const can = (permission: string) => current.permissions.includes(permission);
  return { company: current, can };
};
