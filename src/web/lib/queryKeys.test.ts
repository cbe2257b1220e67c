import { QueryClient, type QueryKey } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { invalidateAfter, keys, touches } from './queryKeys.ts';

// The query-key factory: every view's key sits under the prefix its changes invalidate.
// Each test fills a real QueryClient's cache with the keys the pages use and checks which
// entries a change marks stale.

const ORG = 'org-a';
const OTHER = 'org-b';

/** Keys as the pages build them (one or two per view). */
const views = (orgId: string) => ({
  trialBalance: keys.ledger(orgId, 'report', 'trial-balance', { to: '2026-11-30' }),
  journal: keys.ledger(orgId, 'entries', { status: 'posted', limit: 6 }),
  generalLedger: keys.ledger(orgId, 'report', 'general-ledger', { accountId: 'a1', to: '2026-11-30' }),
  dashboardMonth: keys.ledger(orgId, 'report', 'income-statement', { from: '2026-11-01', to: '2026-11-30' }),
  accounts: keys.ledger(orgId, 'accounts'),
  fiscalYears: keys.ledger(orgId, 'fiscal-years'),
  wallet: keys.wallet(orgId, 'summary'),
  balanceHistory: keys.wallet(orgId, 'history', 12),
  transactions: keys.transactions(orgId, 'infinite', { type: 'all' }),
  totals: keys.transactions(orgId, 'totals', { type: 'all' }),
  latest: keys.transactions(orgId, 'latest', 'm1'),
  attachmentsT1: keys.transactions(orgId, 'attachments', 't1'),
  attachmentsT2: keys.transactions(orgId, 'attachments', 't2'),
  invoiceList: keys.invoices(orgId, 'list', { status: 'all', page: 1 }),
  invoice: keys.invoices(orgId, 'one', 'i1'),
  aging: keys.invoices(orgId, 'aging', '2026-11-30'),
  bills: keys.bills(orgId, { status: 'all', cursor: null }),
  bill: keys.bill(orgId, 'b1'),
  billTotals: keys.billTotals(orgId),
  payablesSettings: keys.payablesSettings(orgId),
  suppliers: keys.suppliers(orgId, { search: '' }),
  supplier: keys.supplier(orgId, 's1'),
  supplierStatement: keys.supplierStatement(orgId, 's1', { to: '2026-11-30' }),
  supplierCredits: keys.supplierCredits(orgId, { openOnly: 'true' }),
  billSchedules: keys.billSchedules(orgId),
  paymentRun: keys.paymentRun(orgId, '2026-12-04'),
  payablesAging: keys.payablesAging(orgId, '2026-11-30'),
  members: keys.members(orgId),
  invitations: keys.invitations(orgId),
});
type View = keyof ReturnType<typeof views>;

const filled = () => {
  const client = new QueryClient();
  for (const orgId of [ORG, OTHER])
    for (const key of Object.values(views(orgId))) client.setQueryData(key as QueryKey, { cached: true });
  for (const key of [keys.companies, keys.myInvitations, keys.sessions, keys.health])
    client.setQueryData(key, { cached: true });
  return client;
};

const stale = (client: QueryClient, orgId: string) =>
  (Object.entries(views(orgId)) as [View, QueryKey][])
    .filter(([, key]) => client.getQueryState(key)?.isInvalidated)
    .map(([name]) => name)
    .sort();

const all = Object.keys(views(ORG)) as View[];

describe('query keys', () => {
  it('puts every company view under its company and area', () => {
    for (const [name, key] of Object.entries(views(ORG))) {
      expect(key.slice(0, 2), name).toEqual(keys.org(ORG));
    }
    expect(keys.ledger(ORG)).toEqual(['org', ORG, 'ledger']);
    expect(keys.ledger(ORG, 'report', 'trial-balance').slice(0, 3)).toEqual(keys.ledger(ORG));
  });

  it('keeps distinct views apart', () => {
    const list = Object.values(views(ORG)).map((k) => JSON.stringify(k));
    expect(new Set(list).size).toBe(list.length);
    expect(keys.devMailbox()).toEqual(['dev-mailbox']);
    expect(keys.devMailbox(null)).toEqual(['dev-mailbox', null]);
  });
});

describe('invalidateAfter', () => {
  it('an invoice payment (any money change) refreshes ledger reports, journal, wallet, transactions and invoices', async () => {
    const client = filled();
    await invalidateAfter.money(client, ORG);
    const notTouched: View[] = ['members', 'invitations'];
    expect(stale(client, ORG)).toEqual(all.filter((v) => !notTouched.includes(v)).sort());
    // Another company's cache and the user's own lists stay as they are.
    expect(stale(client, OTHER)).toEqual([]);
    for (const key of [keys.companies, keys.myInvitations, keys.sessions, keys.health])
      expect(client.getQueryState(key)?.isInvalidated).toBe(false);
  });

  it('covers the trial balance and the dashboard with the ledger prefix', () => {
    const client = filled();
    const ledgerPrefix = touches.money(ORG).find((k) => k[2] === 'ledger')!;
    const reached = client
      .getQueryCache()
      .findAll({ queryKey: ledgerPrefix })
      .map((q) => q.queryKey);
    expect(reached).toContainEqual(views(ORG).trialBalance);
    expect(reached).toContainEqual(views(ORG).dashboardMonth);
    expect(reached).not.toContainEqual(views(OTHER).trialBalance);
  });

  it('a payables change that posts nothing refreshes every payables view and nothing else', async () => {
    const client = filled();
    await invalidateAfter.payables(client, ORG);
    expect(stale(client, ORG)).toEqual(
      [
        'bills',
        'bill',
        'billTotals',
        'payablesSettings',
        'suppliers',
        'supplier',
        'supplierStatement',
        'supplierCredits',
        'billSchedules',
        'paymentRun',
        'payablesAging',
      ].sort(),
    );
    expect(stale(client, OTHER)).toEqual([]);
  });

  it('narrow changes refresh only their own views', async () => {
    const client = filled();
    await invalidateAfter.transactionAttachments(client, ORG, 't1');
    expect(stale(client, ORG)).toEqual(['attachmentsT1']);

    const members = filled();
    await invalidateAfter.membership(members, ORG);
    expect(stale(members, ORG)).toEqual(['invitations', 'members']);

    const entries = filled();
    await invalidateAfter.entryAttachments(entries, ORG);
    expect(stale(entries, ORG)).toEqual(
      ['accounts', 'dashboardMonth', 'fiscalYears', 'generalLedger', 'journal', 'trialBalance'].sort(),
    );
  });
});
