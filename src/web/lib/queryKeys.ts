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
export type Area = 'ledger' | 'transactions' | 'wallet' | 'invoices' | 'payables' | 'members' | 'invitations';

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
  /** The signed-in user's sign-in history (Settings → Security). */
  signIns: ['auth', 'sign-ins'] as const,
  /** The signed-in user's notifications (not per company): `keys.notifications('count')`, `keys.notifications('list', params)`, … */
  notifications: (...rest: unknown[]) => ['notifications', ...rest] as const,
  /** The platform admin console (not per company): `keys.admin('me')`, `keys.admin('users', params)`, … */
  admin: (...rest: unknown[]) => ['admin', ...rest] as const,
  /** The signed-in user's billing account (not per company): `keys.billing('overview')`, `keys.billing('invoices')`, … */
  billing: (...rest: unknown[]) => ['billing', ...rest] as const,
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
  /** Bills, suppliers, supplier credits, recurring bills, the payment run and payables reports. */
  payables: area('payables'),
  /** The bill list (one page of a filter: status, search, supplier, cursor). */
  bills: (orgId: string, params?: unknown) =>
    params === undefined
      ? (['org', orgId, 'payables', 'bills'] as const)
      : (['org', orgId, 'payables', 'bills', params] as const),
  bill: (orgId: string, billId: string) => ['org', orgId, 'payables', 'bill', billId] as const,
  billTotals: (orgId: string) => ['org', orgId, 'payables', 'bill-totals'] as const,
  payablesSettings: (orgId: string) => ['org', orgId, 'payables', 'settings'] as const,
  suppliers: (orgId: string, params?: unknown) =>
    params === undefined
      ? (['org', orgId, 'payables', 'suppliers'] as const)
      : (['org', orgId, 'payables', 'suppliers', params] as const),
  supplier: (orgId: string, supplierId: string) =>
    ['org', orgId, 'payables', 'supplier', supplierId] as const,
  supplierStatement: (orgId: string, supplierId: string, params?: unknown) =>
    ['org', orgId, 'payables', 'supplier-statement', supplierId, params ?? null] as const,
  supplierCredits: (orgId: string, params?: unknown) =>
    params === undefined
      ? (['org', orgId, 'payables', 'supplier-credits'] as const)
      : (['org', orgId, 'payables', 'supplier-credits', params] as const),
  supplierCredit: (orgId: string, creditId: string) =>
    ['org', orgId, 'payables', 'supplier-credit', creditId] as const,
  billSchedules: (orgId: string) => ['org', orgId, 'payables', 'bill-schedules'] as const,
  paymentRun: (orgId: string, dueBy?: string) =>
    ['org', orgId, 'payables', 'payment-run', dueBy ?? null] as const,
  payablesAging: (orgId: string, asOf?: string) => ['org', orgId, 'payables', 'aging', asOf ?? null] as const,
  members: area('members'),
  invitations: area('invitations'),
  /** The company's webhook endpoints, an endpoint's delivery log pages, one delivery (Settings → Webhooks). */
  webhookEndpoints: (orgId: string) => ['org', orgId, 'webhooks', 'endpoints'] as const,
  webhookDeliveries: (orgId: string, endpointId: string, cursor?: string) =>
    ['org', orgId, 'webhooks', 'deliveries', endpointId, cursor ?? null] as const,
  webhookDelivery: (orgId: string, deliveryId: string) =>
    ['org', orgId, 'webhooks', 'delivery', deliveryId] as const,
  /** The company's API keys (Settings → API keys). */
  apiKeys: (orgId: string) => ['org', orgId, 'api-keys'] as const,
};

/**
 * What each kind of change touches, as key prefixes. Anything that posts to the ledger
 * (an invoice sent, paid, credited or voided; a bill approved, paid, credited or voided; a bank transaction created, categorised or
 * deleted; a statement import; a transfer; a journal entry; a year end) moves balances that
 * every money view shows, so it refreshes them all (payables included: a bank line matched to a
 * bill or a payment removed moves a bill's balance): the simplest rule that is never wrong.
 */
export const touches = {
  money: (orgId: string): QueryKey[] => [
    keys.ledger(orgId),
    keys.transactions(orgId),
    keys.wallet(orgId),
    keys.invoices(orgId),
    keys.payables(orgId),
    // A payment, an import or a large transaction may have notified the user: the bell.
    keys.notifications(),
  ],
  /**
   * A payables change that posts nothing (a draft bill saved, submitted or rejected, a supplier
   * edited, a schedule paused): every payables view (lists, totals, statements, the payment
   * run), nothing else. Approving, voiding, paying, crediting and refunding post to the
   * ledger: those are `money`.
   */
  payables: (orgId: string): QueryKey[] => [keys.payables(orgId)],
  /** Files attached to journal entries: shown with the entries only. */
  entryAttachments: (orgId: string): QueryKey[] => [keys.ledger(orgId)],
  transactionAttachments: (orgId: string, transactionId: string): QueryKey[] => [
    keys.transactions(orgId, 'attachments', transactionId),
  ],
  membership: (orgId: string): QueryKey[] => [keys.members(orgId), keys.invitations(orgId)],
  /** An endpoint added, changed or tested, a delivery sent again: everything under webhooks. */
  webhooks: (orgId: string): QueryKey[] => [['org', orgId, 'webhooks']],
  /** An API key created or revoked: the key list. */
  apiKeys: (orgId: string): QueryKey[] => [keys.apiKeys(orgId)],
  companies: (): QueryKey[] => [keys.companies],
  myInvitations: (): QueryKey[] => [keys.myInvitations],
  sessions: (): QueryKey[] => [keys.sessions],
  /** An admin's change (a user disabled, a promo code edited, a message marked): every admin view. */
  admin: (): QueryKey[] => [keys.admin()],
  /** A billing change (plan, checkout, card, cancel, resume, promo code): the overview, invoices, the trial banner. */
  billing: (): QueryKey[] => [keys.billing()],
  /** A notification marked read, or all of them: the bell's count and list. */
  notifications: (): QueryKey[] => [keys.notifications()],
} satisfies Record<string, (...args: never[]) => QueryKey[]>;

const invalidate = async (client: QueryClient, prefixes: QueryKey[]) => {
  await Promise.all(prefixes.map((queryKey) => client.invalidateQueries({ queryKey })));
};

/** Refetches what a change touches: `invalidateAfter.money(queryClient, orgId)`. */
export const invalidateAfter = {
  money: (client: QueryClient, orgId: string) => invalidate(client, touches.money(orgId)),
  /** Bills, suppliers, credits, schedules and payables settings that post nothing. */
  payables: (client: QueryClient, orgId: string) => invalidate(client, touches.payables(orgId)),
  entryAttachments: (client: QueryClient, orgId: string) =>
    invalidate(client, touches.entryAttachments(orgId)),
  transactionAttachments: (client: QueryClient, orgId: string, transactionId: string) =>
    invalidate(client, touches.transactionAttachments(orgId, transactionId)),
  membership: (client: QueryClient, orgId: string) => invalidate(client, touches.membership(orgId)),
  webhooks: (client: QueryClient, orgId: string) => invalidate(client, touches.webhooks(orgId)),
  apiKeys: (client: QueryClient, orgId: string) => invalidate(client, touches.apiKeys(orgId)),
  companies: (client: QueryClient) => invalidate(client, touches.companies()),
  myInvitations: (client: QueryClient) => invalidate(client, touches.myInvitations()),
  sessions: (client: QueryClient) => invalidate(client, touches.sessions()),
  admin: (client: QueryClient) => invalidate(client, touches.admin()),
  billing: (client: QueryClient) => invalidate(client, touches.billing()),
  notifications: (client: QueryClient) => invalidate(client, touches.notifications()),
};

/** On switching company: drops every cached query except the list of companies. */
export const forgetAllButCompanies = (client: QueryClient) =>
  client.removeQueries({ predicate: (q) => q.queryKey[0] !== keys.companies[0] });
