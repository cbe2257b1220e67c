// The signed-in app's pages, one path segment each. The router makes a route per page and the
// shell draws its navigation from the same list; it lives here, below both, so that neither
// imports the other.
export const APP_PAGES = [
  'dashboard',
  'transactions',
  'invoices',
  'bills',
  'wallet',
  'billing',
  'accounting',
  'settings',
  'admin',
] as const;
export type AppPage = (typeof APP_PAGES)[number];
