import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { AuthProvider } from './auth/AuthProvider.tsx';
import { PreferencesProvider } from './auth/PreferencesProvider.tsx';
import { ThemeProvider } from './lib/theme.tsx';

// The providers around every page, in the browser (main.tsx) and in the prerender
// (prerender.tsx) alike, so that hydration meets the tree the server drew: the theme, the
// query cache, the session (unknown until the browser asks: signed out on the server) and
// the user's formats (the defaults until a profile is known).

export const createQueryClient = () =>
  new QueryClient({
    defaultOptions: { queries: { staleTime: 30_000, retry: 1, refetchOnWindowFocus: false } },
  });

export const AppProviders = ({
  queryClient,
  children,
}: {
  queryClient: QueryClient;
  children: ReactNode;
}) => (
  <ThemeProvider>
    <QueryClientProvider client={queryClient}>
      <AuthProvider>
        <PreferencesProvider>{children}</PreferencesProvider>
      </AuthProvider>
    </QueryClientProvider>
  </ThemeProvider>
);
