import type { QueryClient, QueryKey } from '@tanstack/react-query';

// Every TanStack Query key of the web app, and what each kind of change makes stale.
//
// A company's keys all start ['org', companyId, <area>, ...], so one prefix reaches every
// figure of an area (TanStack matches keys by prefix: invalidating keys.ledger(orgId)
// refetches the trial balance, the journal, the general ledger and the dashboard, which is
// drawn from ledger reports). Pages take their keys from `keys` and refresh through
// `invalidateAfter`, never by writing a key by hand, so a new view cannot be forgotten by
// the mutations that change it.

/** The areas of a company's data. */
export type Area = 'ledger' | 'transactions' | 'wallet' | 'invoices' | 'members' | 'invitations';

const area =
  (name: Area) =>
  (orgId: string, ...rest: unknown[]) =>
    ['org', orgId, name, ...rest] as const;

export const keys = {
  /** The companies the user belongs to (not per company). */
  companies: ['companies'] as const,
  myInvitations: ['my-invitations'] as const,
  health: ['health'] as const,
  sessions: ['auth', 'sessions'] as const,
  devMailbox: (messageId?: string | null) =>
    messageId === undefined ? (['dev-mailbox'] as const) : (['dev-mailbox', messageId] as const),

  /** Everything cached for one company. */
  org: (orgId: string) => ['org', orgId] as const,
  /** Chart of accounts, journal entries, reports (trial balance, GL, …), fiscal years; the dashboard. */
  ledger: area('ledger'),
  /** Bank transactions, their totals, rules, reconciliations and attachments. */
  transactions: area('transactions'),
  /** Money accounts with balances, balance history, exchange rates. */
  wallet: area('wallet'),
  /** Invoices, customers, items, tax rates, recurring schedules, receivables and tax reports. */
  invoices: area('invoices'),
  members: area('members'),
  invitations: area('invitations'),
};

/**
 * What each kind of change touches, as key prefixes. Anything that posts to the ledger
 * (an invoice sent, paid, credited or voided; a bank transaction created, categorised or
 * deleted; a statement import; a transfer; a journal entry; a year end) moves balances that
 * every money view shows, so it refreshes them all: the simplest rule that is never wrong.
 */
export const touches = {
  money: (orgId: string): QueryKey[] => [
    keys.ledger(orgId),
    keys.transactions(orgId),
    keys.wallet(orgId),
    keys.invoices(orgId),
  ],
  /** Files attached to journal entries: shown with the entries only. */
  entryAttachments: (orgId: string): QueryKey[] => [keys.ledger(orgId)],
  transactionAttachments: (orgId: string, transactionId: string): QueryKey[] => [
    keys.transactions(orgId, 'attachments', transactionId),
  ],
  membership: (orgId: string): QueryKey[] => [keys.members(orgId), keys.invitations(orgId)],
  companies: (): QueryKey[] => [keys.companies],
  myInvitations: (): QueryKey[] => [keys.myInvitations],
  sessions: (): QueryKey[] => [keys.sessions],
} satisfies Record<string, (...args: never[]) => QueryKey[]>;

const invalidate = async (client: QueryClient, prefixes: QueryKey[]) => {
  await Promise.all(prefixes.map((queryKey) => client.invalidateQueries({ queryKey })));
};

/** Refetches what a change touches: `invalidateAfter.money(queryClient, orgId)`. */
export const invalidateAfter = {
  money: (client: QueryClient, orgId: string) => invalidate(client, touches.money(orgId)),
  entryAttachments: (client: QueryClient, orgId: string) =>
    invalidate(client, touches.entryAttachments(orgId)),
  transactionAttachments: (client: QueryClient, orgId: string, transactionId: string) =>
    invalidate(client, touches.transactionAttachments(orgId, transactionId)),
  membership: (client: QueryClient, orgId: string) => invalidate(client, touches.membership(orgId)),
  companies: (client: QueryClient) => invalidate(client, touches.companies()),
  myInvitations: (client: QueryClient) => invalidate(client, touches.myInvitations()),
  sessions: (client: QueryClient) => invalidate(client, touches.sessions()),
};

/** On switching company: drops every cached query except the list of companies. */
export const forgetAllButCompanies = (client: QueryClient) =>
  client.removeQueries({ predicate: (q) => q.queryKey[0] !== keys.companies[0] });
