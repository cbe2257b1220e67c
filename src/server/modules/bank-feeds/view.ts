import { type BankConnection, feedAccountKinds } from '../../../shared/bank-feeds.ts';
import { notFound } from '../../../shared/errors.ts';
import type { Executor } from '../../db/transaction.ts';
import { syncSingletonKey } from './jobs.ts';
import {
  selectConnections,
  selectFeedAccounts,
  selectLineCounts,
  selectLinesInStates,
  selectSyncingKeys,
} from './queries.ts';

// What the Wallet's "Bank connections" card shows of each connection. Never the token.

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

export const listConnections = async (db: Executor, organizationId: string): Promise<BankConnection[]> => {
  const rows = await selectConnections(db, organizationId);
  if (rows.length === 0) return [];
  const [accounts, counts, lines, syncing] = await Promise.all([
    selectFeedAccounts(
      db,
      organizationId,
      rows.map((r) => r.id),
    ),
    selectLineCounts(db, organizationId),
    selectLinesInStates(db, organizationId, ['pending', 'skipped', 'conflict'], 20),
    selectSyncingKeys(db, organizationId),
  ]);
  return rows.map((c) => {
    const own = accounts.filter((a) => a.connection_id === c.id);
    const feedIdOf = new Map(own.map((a) => [a.provider_account_id, a.id]));
    const count = (state: string, account?: string) =>
      counts
        .filter(
          (n) =>
            n.connection_id === c.id && n.state === state && (!account || n.provider_account_id === account),
        )
        .reduce((sum, n) => sum + n.n, 0);
    const lineOf = (l: (typeof lines)[number]) => ({
      id: l.provider_transaction_id,
      feedAccountId: feedIdOf.get(l.provider_account_id) ?? null,
      date: l.date,
      amount: Number(l.amount),
      currency: l.currency,
      description: l.description,
    });
    const mine = lines.filter((l) => l.connection_id === c.id);
    return {
      id: c.id,
      provider: c.provider,
      institutionName: c.institution_name,
      status: c.status,
      errorCode: c.error_code,
      errorMessage: c.error_message,
      lastSyncedAt: iso(c.last_synced_at),
      lastSyncError: c.last_sync_error,
      syncing: syncing.has(syncSingletonKey(organizationId, c.id)),
      firstSync: {
        done: c.first_sync_done_at !== null,
        pages: c.first_sync_pages,
        lines: c.first_sync_lines,
        oldestDate: c.first_sync_oldest_date,
      },
      accounts: own.map((a) => ({
        id: a.id,
        name: a.name,
        mask: a.mask,
        type: a.type,
        subtype: a.subtype,
        currency: a.currency,
        currentBalance: a.current_balance === null ? null : Number(a.current_balance),
        moneyAccountId: a.money_account_id,
        moneyAccountName: a.money_name,
        kinds: [...feedAccountKinds(a.type)],
        waitingCount: count('waiting', a.provider_account_id),
      })),
      pendingCount: count('pending'),
      pending: mine.filter((l) => l.state === 'pending').map(lineOf),
      attention: mine
        .filter((l) => l.state === 'skipped' || l.state === 'conflict')
        .map((l) => ({
          ...lineOf(l),
          state: l.state as 'skipped' | 'conflict',
          reason: l.reason ?? '',
          bankTransactionId: l.bank_transaction_id,
        })),
      createdAt: iso(c.created_at)!,
    };
  });
};

export const connectionView = async (db: Executor, organizationId: string, id: string) => {
  const found = (await listConnections(db, organizationId)).find((c) => c.id === id);
  if (!found) throw notFound('Bank connection not found.');
  return found;
};
