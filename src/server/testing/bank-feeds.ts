import type { FeedTransaction, BankFeedProvider, SyncPage } from '../modules/bank-feeds/provider.ts';
import { createDemoProvider } from '../modules/bank-feeds/demo-provider.ts';

// A bank-feed provider a test scripts page by page (bank-feeds tests): it links like the Demo
// Bank (so the app's routes make the connection), and its sync answers the pages the test
// queued, one per cursor `c<n>`; past the last queued page it answers "nothing new".

export type ScriptedBank = BankFeedProvider & {
  /** Queues the next page the bank will answer. */
  push: (page: Partial<Omit<SyncPage, 'nextCursor'>>) => void;
  /** Calls of syncTransactions so far. */
  calls: number;
};

export const createScriptedBank = (now: () => Date): ScriptedBank => {
  const demo = createDemoProvider({ now });
  const pages: Omit<SyncPage, 'nextCursor'>[] = [];
  const bank: ScriptedBank = {
    ...demo,
    calls: 0,
    push: (page) => pages.push({ added: [], modified: [], removed: [], hasMore: false, ...page }),
    syncTransactions: async (_token, cursor) => {
      bank.calls += 1;
      const n = cursor ? Number(cursor.slice(1)) : 0;
      const page = pages[n];
      if (!page) return { added: [], modified: [], removed: [], hasMore: false, nextCursor: `c${n}` };
      return { ...page, nextCursor: `c${n + 1}` };
    },
  };
  return bank;
};

/** A posted (or pending) line of one account, Kontor's sign. */
export const feedLine = (
  accountId: string,
  id: string,
  date: string,
  amount: number,
  description: string,
  extra: Partial<FeedTransaction> = {},
): FeedTransaction => ({
  id,
  accountId,
  date,
  amount,
  currency: 'USD',
  description,
  counterparty: null,
  reference: null,
  pending: false,
  pendingId: null,
  ...extra,
});
