import type { AppContext } from '../../context.ts';
import { createDemoProvider } from './demo-provider.ts';
import type { BankFeedProvider } from './provider.ts';

// Which provider a server talks to (issue 18 §1, §6): Plaid when PLAID_CLIENT_ID and
// PLAID_SECRET are set, the built-in Demo Bank otherwise.
// TODO(issue 18, Plaid helper): return createPlaidProvider(ctx.config.plaid) from
// './plaid-provider.ts' when ctx.config has Plaid keys; until that file lands every server
// uses the Demo Bank.

export const bankFeedProvider = (ctx: Pick<AppContext, 'config' | 'now'>): BankFeedProvider =>
  createDemoProvider({ now: ctx.now });
